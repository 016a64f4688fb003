"""The per-episode data files: transcript.vtt, chapters.json and episode.json.

Made from the models (the one source of truth) so the page, the feed and the files
always agree, and so cue text from PR titles is escaped for WebVTT here.
"""

from __future__ import annotations

import json
from typing import Any

from ..models import Episode, LedgerEntry, to_dict
from .content import Urls, duration_iso
from .paths import clean_text, safe_url


def _vtt_time(seconds: float) -> str:
    ms = max(0, round(seconds * 1000))
    hours, rest = divmod(ms, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    secs, millis = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}.{millis:03d}"


def _vtt_text(text: str) -> str:
    # WebVTT cue text is markup: escape it, and keep "-->" and blank lines out of it.
    text = clean_text(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return " ".join(text.split())


def transcript_vtt(episode: Episode) -> str:
    lines = ["WEBVTT", ""]
    script = episode.script
    for n, cue in enumerate(episode.audio.cues, start=1):
        text = cue.text
        if not text and cue.section < len(script.sections):
            sentences = script.sections[cue.section].sentences
            text = sentences[cue.sentence].text if cue.sentence < len(sentences) else ""
        lines += [str(n), f"{_vtt_time(cue.start)} --> {_vtt_time(cue.end)}", _vtt_text(text), ""]
    return "\n".join(lines)


def chapters_json(episode: Episode) -> str:
    """Podcasting 2.0 JSON chapters (application/json+chapters)."""
    chapters: list[dict[str, Any]] = []
    for c in episode.audio.chapters:
        entry: dict[str, Any] = {"startTime": round(c.start, 3), "title": clean_text(c.title)}
        if (url := safe_url(c.url)) is not None:
            entry["url"] = url
        chapters.append(entry)
    return json.dumps({"version": "1.2.0", "chapters": chapters}, ensure_ascii=False, indent=1)


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
