"""ID3v2.4 tags: title, show as artist and album, date, summary, CHAP/CTOC chapters."""

from __future__ import annotations

import io
from collections.abc import Sequence

from mutagen.id3 import (
    CHAP,
    COMM,
    CTOC,
    ID3,
    TALB,
    TDRC,
    TIT2,
    TPE1,
    TSSE,
    WXXX,
    CTOCFlags,
    Frame,
)

from ..models import Chapter, Script


def tagged(mp3: bytes, script: Script, chapters: Sequence[Chapter], duration: float) -> bytes:
    """`mp3` with an ID3v2 tag in front; chapters sorted by start, each ending at the next."""
    tags = ID3()
    tags.add(TIT2(encoding=3, text=[script.title]))
    tags.add(TPE1(encoding=3, text=[script.show]))
    tags.add(TALB(encoding=3, text=[script.show]))
    tags.add(TDRC(encoding=3, text=[script.date.isoformat()]))
    tags.add(COMM(encoding=3, lang="eng", desc="", text=[script.summary]))
    tags.add(TSSE(encoding=3, text=["mergecast"]))
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
    return buf.getvalue() + mp3
