"""ID3 tags: chapters stored in the order they play, cover art, the page URL."""

from __future__ import annotations

import io
import json
import shutil
import subprocess

import numpy as np
import pytest
from mutagen.id3 import ID3

from mergecast.models import Chapter
from mergecast.voice import audio
from mergecast.voice.mp3 import strip_id3
from mergecast.voice.tags import tagged

# Longer titles first in time: mutagen alone writes short frames first, out of order.
CHAPTERS = [Chapter(float(i * 5), t) for i, t in enumerate(
    ["Welcome to a long introduction", "On Config", "On Data and everything around it",
     "Signal", "On Distributed checkpointing", "Duplicates", "On Data", "Reverts",
     "On Float8 training and its many options", "Notes", "On CI", "Goodbye"])]


@pytest.fixture(scope="module")
def frames() -> bytes:
    return audio.encode_mp3(np.zeros(44100 * 61, dtype=np.float32))


def test_chap_frames_are_stored_in_time_order(frames, short_script, tmp_path):
    data = tagged(frames, short_script, list(reversed(CHAPTERS)), 61.0)
    tags = ID3(io.BytesIO(data))
    toc = tags.getall("CTOC")[0]
    chaps = {c.element_id: c for c in tags.getall("CHAP")}
    assert [str(chaps[i].sub_frames["TIT2"]) for i in toc.child_element_ids] == [
        c.title for c in CHAPTERS]
    # In the file itself: each CHAP frame's start time, in the order the frames are stored.
    raw = data[: data.index(frames)]
    starts, pos = [], raw.find(b"CHAP")
    while pos != -1:
        id_end = raw.index(b"\0", pos + 10)
        starts.append(int.from_bytes(raw[id_end + 1 : id_end + 5], "big"))
        pos = raw.find(b"CHAP", id_end)
    assert starts == [round(c.start * 1000) for c in CHAPTERS]
    if shutil.which("ffprobe"):
        path = tmp_path / "e.mp3"
        path.write_bytes(data)
        probe = json.loads(subprocess.run(
            ["ffprobe", "-v", "error", "-print_format", "json", "-show_chapters", str(path)],
            capture_output=True, text=True, check=True).stdout)
        assert [c["tags"]["title"] for c in probe["chapters"]] == [c.title for c in CHAPTERS]


def test_cover_art_page_url_and_show_name(frames, short_script):
    jpeg = b"\xff\xd8\xff\xe0" + bytes(100)
    data = tagged(frames, short_script, CHAPTERS[:2], 61.0, show="Widgets Daily",
                  cover_jpeg=jpeg, page_url="https://example.org/e/1/")
    tags = ID3(io.BytesIO(data))
    apic = tags.getall("APIC")[0]
    assert (apic.mime, apic.type, apic.data) == ("image/jpeg", 3, jpeg)
    assert tags.getall("WOAF")[0].url == "https://example.org/e/1/"
    assert str(tags["TALB"]) == str(tags["TPE1"]) == "Widgets Daily"
    assert strip_id3(data) == frames
    assert strip_id3(frames) == frames
