"""The per-episode data files: transcript.vtt, chapters.json and episode.json.

One writer each, used for the media folder and for the site alike. Made from the models
(the one source of truth) so the page, the feed and the files always agree, and so cue
text from PR titles is cleaned and escaped for WebVTT here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from ..codec import to_dict
from ..models import ESTIMATE_WPM, Audio, Chapter, Cue, Episode, LedgerEntry, Script
from .content import Urls, duration_iso
from .paths import clean_text, safe_url

SPEAKER = "Host"  # the <v> span players use to name who speaks (Apple Podcasts shows it)
TEXT_ONLY_NOTE = (f"Text-only episode: no audio was rendered. Timings are estimated at "
                  f"{ESTIMATE_WPM:g} words per minute.")


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
    """WebVTT, one cue per spoken sentence, each in a speaker span."""
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
    """Podcasting 2.0 JSON chapters (application/json+chapters), sorted by start."""
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
    return json.dumps(doc, ensure_ascii=False, indent=1)


def transcript_vtt(script: Script, audio: Audio) -> str:
    """An episode's transcript.vtt: each cue's text cleaned (from the script when the cue
    has none), and a NOTE when the timings are estimates."""
    cues = []
    for cue in audio.cues:
        text = cue.text
        if not text and cue.section < len(script.sections):
            sentences = script.sections[cue.section].sentences
            text = sentences[cue.sentence].text if cue.sentence < len(sentences) else ""
        cues.append(Cue(cue.section, cue.sentence, cue.start, cue.end, clean_text(text)))
    return webvtt(cues, note=TEXT_ONLY_NOTE if audio.audio_bytes is None else None)


def chapters_file(audio: Audio) -> str:
    """An episode's chapters.json: titles cleaned, only http(s) links kept."""
    return chapters_json([Chapter(c.start, clean_text(c.title), safe_url(c.url))
                          for c in audio.chapters])


# What the media folder and every episode folder of the site hold besides the MP3, each
# made from (script, audio).
CAPTIONS: tuple[tuple[str, Callable[[Script, Audio], str]], ...] = (
    ("transcript.vtt", transcript_vtt),
    ("chapters.json", lambda script, audio: chapters_file(audio)),
)


def episode_json(episode: Episode, urls: Urls, audio_bytes: int | None) -> str:
    """The script (Script.to_json()) plus what a consumer needs to play and link it."""
    data: dict[str, Any] = episode.script.to_json()
    seconds = episode.audio.duration_seconds
    data.update(
        {
            "id": episode.id,
            "kind": episode.kind,
            "duration_seconds": round(seconds, 3),
            "duration_iso": duration_iso(seconds),
            "audio_bytes": audio_bytes,
            "published_at": episode.published_at.isoformat(),
            "url": urls.page(episode.id),
            "audio_url": urls.file(episode.id, "episode.mp3") if audio_bytes is not None else None,
            "areas": list(episode.areas),
            "links": {str(k): v for k, v in episode.links.items() if safe_url(v)},
            "chapters": [{"start": c.start, "title": c.title} for c in episode.audio.chapters],
            "coverage": {
                "text": episode.coverage,
                "changes": len(episode.ledger),
                "told": sum(1 for e in episode.ledger if e.told),
                "ledger": [_entry(e) for e in episode.ledger],
            },
            "duplicates": [to_dict(d) for d in episode.duplicates],
            "chains": [to_dict(c) for c in episode.chains],
        }
    )
    return json.dumps(data, ensure_ascii=False, indent=1)


def _entry(e: LedgerEntry) -> dict[str, Any]:
    """One ledger entry; a URL that is not a safe http(s) link is left out."""
    data: dict[str, Any] = to_dict(e)
    data["url"] = safe_url(e.url)
    return data
