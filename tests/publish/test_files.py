"""The one writer of each episode file format: transcript.vtt, chapters.json, durations;
and the media folder they are written into."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from pathlib import Path

import pytest
from publish_fakes import DAY0, make_episode

from mergecast.errors import PublishError
from mergecast.models import (
    Audio,
    ChainStep,
    Chapter,
    Cue,
    Duplicate,
    LedgerEntry,
    Ref,
    RevertChain,
    Script,
    Section,
    Sentence,
)
from mergecast.publish.content import Urls, duration_iso
from mergecast.publish.files import (
    chapters_file,
    chapters_json,
    episode_json,
    escape,
    timestamp,
    transcript_vtt,
    webvtt,
)
from mergecast.publish.media import complete, copy_media, read_audio, save_audio, write_media

SCRIPT = Script(show="s", date=dt.date(2026, 3, 4), title="T", summary="S", writer="template",
                sections=(Section("intro", "Hi", (Sentence("Hello <b>there</b>.", "Hello."),
                                                  Sentence("Bye\u202e now.", "Bye now."))),))


def test_vtt_escapes_hostile_text():
    cue = Cue(0, 0, 0.0, 1.5, "a <script>x</script> & b\n--> c")
    vtt = webvtt([cue])
    assert vtt == (
        "WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.500\n"
        "<v Host>a &lt;script&gt;x&lt;/script&gt; &amp; b --&gt; c</v>\n"
    )
    assert escape("x\r\ny") == "x y"
    assert timestamp(3725.4567) == "01:02:05.457"


def test_chapters_json_sorted_and_versioned():
    doc = json.loads(chapters_json([Chapter(5.0, "B", "u"), Chapter(0.0, "A")], title="T"))
    assert doc == {
        "version": "1.2.0",
        "title": "T",
        "chapters": [
            {"startTime": 0.0, "title": "A"},
            {"startTime": 5.0, "title": "B", "url": "u"},
        ],
    }


@pytest.mark.parametrize(
    ("seconds", "iso"),
    [(170.4, "PT2M50S"), (0, "PT0S"), (59.6, "PT1M"), (3725, "PT1H2M5S"), (3600, "PT1H")],
)
def test_iso_duration(seconds, iso):
    assert duration_iso(seconds) == iso


def test_episode_transcript_keeps_speaker_spans_cleans_text_and_marks_estimates():
    cues = (Cue(0, 0, 0.0, 1.0, ""), Cue(0, 1, 1.3, 2.0, "Bye\u202e now."))
    heard = transcript_vtt(SCRIPT, Audio(2.0, cues, (), audio_bytes=10))
    assert heard == ("WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.000\n"
                     "<v Host>Hello &lt;b&gt;there&lt;/b&gt;.</v>\n\n"
                     "2\n00:00:01.300 --> 00:00:02.000\n<v Host>Bye now.</v>\n")
    estimated = transcript_vtt(SCRIPT, Audio(2.0, cues, ()))
    assert estimated.startswith("WEBVTT\n\nNOTE Text-only episode: no audio was rendered. "
                                "Timings are estimated at 150 words per minute.\n\n1\n")


def test_episode_chapters_keep_only_web_links():
    audio = Audio(9.0, (), (Chapter(4.0, "B\x00", "javascript:alert(1)"),
                            Chapter(0.0, "A", "https://github.com/o/r/pull/1")))
    assert json.loads(chapters_file(audio)) == {"version": "1.2.0", "chapters": [
        {"startTime": 0.0, "title": "A", "url": "https://github.com/o/r/pull/1"},
        {"startTime": 4.0, "title": "B"}]}


def test_media_folder_round_trip_and_completeness(tmp_path: Path):
    audio = Audio(2.0, (Cue(0, 0, 0.0, 1.0, "Hello."),), (Chapter(0.0, "Hi"),), audio_bytes=3,
                  audio_sha256="x", voice="fake")
    write_media(tmp_path, SCRIPT, audio, b"mp3")
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "chapters.json", "episode.mp3", "transcript.vtt"]
    assert complete(tmp_path, audio) and read_audio(tmp_path) is None
    save_audio(tmp_path, audio)
    assert read_audio(tmp_path) == audio
    (tmp_path / "episode.mp3").write_bytes(b"cut")
    assert complete(tmp_path, audio)
    (tmp_path / "episode.mp3").write_bytes(b"cu")
    assert not complete(tmp_path, audio)  # a short MP3 is not the one the audio describes
    text_only = Audio(2.0, audio.cues, audio.chapters)
    write_media(tmp_path, SCRIPT, text_only, None)
    assert not (tmp_path / "episode.mp3").exists() and complete(tmp_path, text_only)


def test_copy_media_into_a_site_folder_replaces_a_stale_mp3(tmp_path: Path):
    media, site = tmp_path / "media", tmp_path / "site"
    write_media(media, SCRIPT, Audio(1.0, (), ()), None)
    (site / "episodes" / "2026-03-04").mkdir(parents=True)
    (site / "episodes" / "2026-03-04" / "episode.mp3").write_bytes(b"old")
    target = copy_media(media, site, "2026-03-04")
    assert target == site / "episodes" / "2026-03-04"
    assert sorted(p.name for p in target.iterdir()) == ["chapters.json", "transcript.vtt"]
    with pytest.raises(PublishError, match="expected an episode id"):
        copy_media(media, site, "../x")


def test_episode_json_carries_coverage_evidence_and_chains():
    ledger = (
        LedgerEntry(101, None, "Faster builds", "https://github.com/acme/widgets/pull/101",
                    "faster builds", True, "ada", "author"),
        LedgerEntry(106, None, "Bump numpy", "javascript:alert(1)", "CI", False, "", "bot"),
        LedgerEntry(None, "c" * 40, "Tidy", None, "Other changes", False, "bob", "author email"),
    )
    dup = Duplicate((101, 107), "both say they fix #77", "issue", ("#77",))
    chain = RevertChain(Ref(90), "Speed up the loader", "ada",
                        (ChainStep("revert", Ref(108), "cy", "flaky", True),))
    ep = dataclasses.replace(make_episode(DAY0), ledger=ledger, duplicates=(dup,),
                             chains=(chain,))
    data = json.loads(episode_json(ep, Urls("https://x.org/"), None))
    coverage = data["coverage"]
    assert coverage["text"] == ep.coverage == "3 changes: 1 told, 2 listed"
    assert (coverage["changes"], coverage["told"]) == (3, 1)
    assert coverage["ledger"][1]["url"] is None  # no script scheme ever becomes a link
    assert coverage["ledger"][2] == {"number": None, "sha": "c" * 40, "title": "Tidy",
                                     "url": None, "group": "Other changes", "told": False,
                                     "author": "bob", "credit": "author email"}
    assert data["duplicates"] == [{"prs": [101, 107], "why": "both say they fix #77",
                                   "evidence": "issue", "shared": ["#77"]}]
    assert data["chains"][0]["steps"][0] == {"kind": "revert", "ref": {"pr": 108, "sha": None},
                                             "by": "cy", "reason": "flaky", "in_window": True}


def test_a_preview_never_goes_into_a_published_site(tmp_path: Path):
    from mergecast.errors import InputError
    from mergecast.publish.media import check_preview

    site = tmp_path / "site"
    (site / "episodes").mkdir(parents=True)
    (site / ".mergecast-manifest.json").write_text("{}")
    for out in (site, site / "episodes", site / "new" / "deep"):
        with pytest.raises(InputError, match=r"published site .*site, which only `run`"):
            check_preview(out, tmp_path / "www")
    with pytest.raises(InputError, match=r"it is the site folder .*www \(\[publish\] out\)"):
        check_preview(tmp_path / "www", tmp_path / "www")
    check_preview(tmp_path / "preview", tmp_path / "www")  # a folder of its own


def test_only_our_unlocked_leftovers_are_removed(tmp_path: Path):
    """A killed writer's temp file or render folder goes; a live writer's (locked), a link
    named like ours and anything else stays."""
    import fcntl
    import os

    from mergecast.publish.media import RENDER, drop_stale, drop_stale_renders

    day = tmp_path / "media" / "2026-03-04"
    (day / "0123456789abcdef").mkdir(parents=True)  # a finished render
    dead = day / ".0123456789abcdef.k2_x9abc"
    (dead / ".episode.mp3.abcdefgh.tmp").parent.mkdir()
    (dead / ".episode.mp3.abcdefgh.tmp").write_bytes(b"half")
    live = day / ".fedcba9876543210.zz_12345"
    live.mkdir()
    other = day / ".notes.abcdefgh"
    other.mkdir()
    (day / ".0123456789abcdef.linkedab").symlink_to(other)
    fd = os.open(live, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)  # a render in progress
    try:
        drop_stale_renders(tmp_path / "media")
        assert sorted(p.name for p in day.iterdir()) == [
            ".0123456789abcdef.linkedab", ".fedcba9876543210.zz_12345", ".notes.abcdefgh",
            "0123456789abcdef"]
    finally:
        os.close(fd)
    drop_stale(day, RENDER)  # its writer is gone now
    assert not live.exists() and other.is_dir()


def test_a_killed_atomic_write_is_cleaned_by_the_next_one(tmp_path: Path):
    from mergecast.publish.media import write_atomic

    stale = tmp_path / ".transcript.vtt.q1w2e3r4.tmp"  # what a SIGKILL mid-write leaves
    stale.write_text("WEBVTT\n\nhalf")
    theirs = tmp_path / ".notes.txt.q1w2e3r4.tmp"
    theirs.write_text("not ours")
    write_atomic(tmp_path, {"transcript.vtt": b"WEBVTT\n"})
    assert sorted(p.name for p in tmp_path.iterdir()) == [".notes.txt.q1w2e3r4.tmp",
                                                          "transcript.vtt"]
