"""The voice worker process: its protocol, its failures, and that mergecast's own process
never loads GPL code (piper, mutagen) while it speaks and tags an episode."""

from __future__ import annotations

import datetime as dt
import io
import json
import subprocess
import sys

import pytest
from mutagen.id3 import ID3

from mergecast.errors import VoiceError
from mergecast.models import Chapter, Script
from mergecast.voice import process

SCRIPT = Script("demo-show", dt.date(2026, 3, 14), "A title", "A summary.", "template", ())


@pytest.fixture
def worker():
    w = process.Worker()
    yield w
    w.close()


def test_hello_and_an_unknown_op(worker):
    assert worker.request({"op": "hello"}) == ({"ok": True, "protocol": 1}, b"")
    with pytest.raises(VoiceError) as err:
        worker.request({"op": "frobnicate"})
    assert str(err.value) == "the voice worker could not frobnicate: unknown op 'frobnicate'"
    assert worker.alive  # a failed request leaves the worker serving


def test_a_worker_that_dies_is_one_clear_error():
    gone = process.Worker([sys.executable, "-c",
                           "import sys; sys.stderr.write('no voice here\\n'); sys.exit(3)"])
    with pytest.raises(VoiceError) as err:
        gone.request({"op": "hello"})
    assert str(err.value) == (
        "the voice worker stopped (exit status 3: no voice here); reinstall mergecast's voice "
        "dependencies (piper-tts), or pick --voice espeak-ng or none")
    gone.close()


def test_tags_are_written_by_the_worker(worker):
    mp3 = b"\xff\xfb\x90\x00" + bytes(413)
    chapters = [Chapter(4.0, "Second"), Chapter(0.0, "First", "https://x.example/1")]
    out = process.tagged(mp3, SCRIPT, chapters, 9.5)
    assert out.endswith(mp3)
    tags = ID3(io.BytesIO(out))
    assert str(tags["TIT2"]) == "A title" and str(tags["TALB"]) == "demo-show"
    chaps = sorted((c.start_time, c.end_time, str(c.sub_frames["TIT2"]))
                   for c in tags.getall("CHAP"))
    assert chaps == [(0, 4000, "First"), (4000, 9500, "Second")]


def test_the_worker_exits_when_mergecast_does():
    code = ("from mergecast.voice import process; w = process.shared(); "
            "print(w._proc.pid, flush=True); import os; os._exit(0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=60)
    pid = int(done.stdout)
    for _ in range(100):  # end of input reaches it at once; allow a slow machine 10 s
        try:
            with open(f"/proc/{pid}/status", encoding="ascii") as fh:
                if "State:\tZ" in fh.read():
                    break
        except FileNotFoundError:
            break
        subprocess.run(["sleep", "0.1"], check=True)
    else:
        pytest.fail(f"voice worker {pid} outlived its parent")


SPEAK = """
import json, sys
from mergecast.config import VoiceConfig
from mergecast.pipeline import render_media
from mergecast.models import Script, Section, Sentence
import datetime as dt
s = Script("show", dt.date(2026, 3, 14), "T", "S", "template",
           (Section("theme", "H", (Sentence("Hello there.", "Hello there."),)),))
a = render_media(s, __import__("pathlib").Path(sys.argv[1]), VoiceConfig(deterministic=True),
                 backend=sys.argv[2])
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("piper", "mutagen", "espeakbridge"))
print(json.dumps({"bytes": a.audio_bytes, "loaded": loaded}))
"""


@pytest.mark.parametrize("backend", ["fake", pytest.param("piper", marks=pytest.mark.slow)])
def test_mergecasts_own_process_never_loads_gpl_code(tmp_path, backend):
    done = subprocess.run([sys.executable, "-c", SPEAK, str(tmp_path), backend],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["bytes"] == (tmp_path / "episode.mp3").stat().st_size
    assert report["loaded"] == []
    assert ID3(tmp_path / "episode.mp3")["TIT2"].text == ["T"]
