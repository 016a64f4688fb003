"""transcript.vtt (WebVTT, one cue per sentence) and chapters.json (Podcasting 2.0 1.2.0)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from ..models import Chapter, Cue

SPEAKER = "Host"


def timestamp(seconds: float) -> str:
    ms = max(0, round(seconds * 1000))
    hours, ms = divmod(ms, 3_600_000)
    minutes, ms = divmod(ms, 60_000)
    secs, ms = divmod(ms, 1000)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}.{ms:03d}"


def escape(text: str) -> str:
    """Cue text is markup: escape &, <, > (so "-->" cannot end a cue) and fold newlines."""
    text = " ".join(text.split())
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def webvtt(cues: Sequence[Cue], *, note: str | None = None) -> str:
    lines = ["WEBVTT", ""]
    if note:
        # A NOTE block may not contain "-->"; collapse every run of dashes before ">".
        lines += ["NOTE " + " ".join(re.sub(r"-+>", "->", note).split()), ""]
    for i, cue in enumerate(cues, 1):
        lines += [
            str(i),
            f"{timestamp(cue.start)} --> {timestamp(cue.end)}",
            f"<v {SPEAKER}>{escape(cue.text)}</v>",
            "",
        ]
    return "\n".join(lines)


def chapters_json(chapters: Sequence[Chapter], *, title: str | None = None) -> str:
    items = []
    for chapter in sorted(chapters, key=lambda c: c.start):
        item: dict[str, object] = {"startTime": round(chapter.start, 3), "title": chapter.title}
        if chapter.url:
            item["url"] = chapter.url
        items.append(item)
    doc: dict[str, object] = {"version": "1.2.0"}
    if title:
        doc["title"] = title
    doc["chapters"] = items
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
