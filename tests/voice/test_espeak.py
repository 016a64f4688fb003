from __future__ import annotations

import shutil

import pytest

from mergecast.config import VoiceConfig
from mergecast.errors import VoiceError
from mergecast.pipeline import render_media
from mergecast.voice.espeak import EspeakBackend

needs_espeak = pytest.mark.skipif(
    shutil.which("espeak-ng") is None, reason="espeak-ng not installed"
)


@needs_espeak
def test_espeak_renders_and_handles_dash_text(short_script, script_maker, tmp_path):
    a = render_media(short_script, tmp_path, VoiceConfig(backend="espeak-ng"))
    assert a.voice == "espeak-ng" and len(a.cues) == 4
    assert (tmp_path / "episode.mp3").stat().st_size == a.audio_bytes
    # text that looks like an option is spoken, not parsed (it goes in on stdin)
    assert EspeakBackend().synthesize("--help me").size > 0


@needs_espeak
def test_rate_speeds_espeak_up():
    text = "The distributed team landed a fix for a hang."
    fast, normal = EspeakBackend(rate=1.6), EspeakBackend()
    assert fast.synthesize(text).size < 0.8 * normal.synthesize(text).size


def test_missing_program_is_one_clear_line(short_script, tmp_path):
    with pytest.raises(VoiceError) as err:
        EspeakBackend(program="espeak-ng-not-here")
    assert str(err.value) == (
        "the espeak-ng-not-here program is not installed (needed for --voice espeak-ng); "
        "install it with `apt-get install espeak-ng`, or pick --voice piper or none"
    )


def test_missing_espeak_through_render_leaves_nothing(short_script, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    with pytest.raises(VoiceError, match="espeak-ng program is not installed"):
        render_media(short_script, tmp_path / "m", VoiceConfig(), backend="espeak-ng")
    assert not (tmp_path / "m").exists()
