"""ID3v2.4 tags: title, show as artist and album, date, summary, CHAP/CTOC chapters in
time order, and (when publishing) cover art and the episode page.

mutagen is GPL, so this module runs only in the voice worker's process; mergecast asks
for a tag through `voice.process.tagged` (docs/licensing.md)."""

from __future__ import annotations

import io
from collections.abc import Sequence

from mutagen.id3 import (
    APIC,
    CHAP,
    COMM,
    CTOC,
    ID3,
    TALB,
    TDRC,
    TIT2,
    TPE1,
    TSSE,
    WOAF,
    WXXX,
    CTOCFlags,
    Frame,
    PictureType,
)

from ..models import Chapter, Script
from .mp3 import syncsafe


def tagged(
    mp3: bytes,
    script: Script,
    chapters: Sequence[Chapter],
    duration: float,
    *,
    show: str | None = None,
    cover_jpeg: bytes | None = None,
    page_url: str | None = None,
) -> bytes:
    """`mp3` with an ID3v2 tag in front; chapters sorted by start, each ending at the next.

    `show` (default: the script's) is artist and album; `cover_jpeg` becomes the front
    cover and `page_url` the official page, as the publisher sets them.
    """
    tags = ID3()
    tags.add(TIT2(encoding=3, text=[script.title]))
    tags.add(TPE1(encoding=3, text=[show or script.show]))
    tags.add(TALB(encoding=3, text=[show or script.show]))
    tags.add(TDRC(encoding=3, text=[script.date.isoformat()]))
    tags.add(COMM(encoding=3, lang="eng", desc="", text=[script.summary]))
    tags.add(TSSE(encoding=3, text=["mergecast"]))
    if page_url:
        tags.add(WOAF(url=page_url))
    if cover_jpeg:
        tags.add(APIC(encoding=3, mime="image/jpeg", type=PictureType.COVER_FRONT,
                      desc="Cover", data=cover_jpeg))
    ordered = sorted(chapters, key=lambda c: c.start)
    ids = [f"chp{i}" for i in range(len(ordered))]
    if ordered:
        tags.add(
            CTOC(
                element_id="toc",
                flags=CTOCFlags.TOP_LEVEL | CTOCFlags.ORDERED,
                child_element_ids=ids,
                sub_frames=[TIT2(encoding=3, text=["Chapters"])],
            )
        )
    total_ms = round(duration * 1000)
    for i, (cid, chapter) in enumerate(zip(ids, ordered, strict=True)):
        end = ordered[i + 1].start if i + 1 < len(ordered) else duration
        sub: list[Frame] = [TIT2(encoding=3, text=[chapter.title])]
        if chapter.url:
            sub.append(WXXX(encoding=3, desc="", url=chapter.url))
        tags.add(
            CHAP(
                element_id=cid,
                start_time=round(chapter.start * 1000),
                end_time=min(total_ms, round(end * 1000)),
                start_offset=0xFFFFFFFF,  # "not used": players seek by time
                end_offset=0xFFFFFFFF,
                sub_frames=sub,
            )
        )
    buf = io.BytesIO()
    tags.save(buf, v2_version=4, padding=lambda info: 0)
    return chapters_in_time_order(buf.getvalue()) + mp3


def _frames(tag: bytes) -> list[bytes]:
    """The frames of a mergecast ID3v2.4 tag (no extended header, no footer), as bytes."""
    end = 10 + syncsafe(tag[6:10])
    out, pos = [], 10
    while pos + 10 <= end and tag[pos] != 0:
        size = 10 + syncsafe(tag[pos + 4 : pos + 8])
        out.append(tag[pos : pos + size])
        pos += size
    return out


def chapters_in_time_order(tag: bytes) -> bytes:
    """The tag with its CHAP frames in the order they play.

    mutagen writes frames of one kind shortest first, so a long chapter title came before
    an earlier, shorter one; tools that list chapters in file order (ffprobe) showed them
    out of order. Each frame's element id ("chp<N>") is its place in time.
    """
    frames = _frames(tag)
    chaps = sorted((f for f in frames if f[:4] == b"CHAP"), key=_chapter_index)
    others = [f for f in frames if f[:4] != b"CHAP"]
    body = b"".join(others + chaps)
    return tag[:10] + body + tag[10 + len(body) : 10 + syncsafe(tag[6:10])]


def _chapter_index(frame: bytes) -> int:
    element_id = frame[10 : frame.index(b"\0", 10)]
    return int(element_id.removeprefix(b"chp"))
