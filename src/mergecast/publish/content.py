"""What pages and feeds say about an episode, computed once from the models.

Pure functions: no I/O. Every string that reaches a page or feed passes
`paths.clean_text` somewhere on its way (templates do it via Jinja's `finalize`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import quote

from ..config import ShowConfig
from ..models import Episode, Script
from .paths import clean_text, safe_url


@dataclass(frozen=True)
class Urls:
    """Absolute URLs under the show's base_url (enclosures and feeds must be absolute)."""

    base: str

    @classmethod
    def for_show(cls, show: ShowConfig) -> Urls:
        return cls(show.base_url.rstrip("/") + "/")

    def page(self, episode_id: str) -> str:
        return f"{self.base}episodes/{quote(episode_id)}/"

    def file(self, episode_id: str, name: str) -> str:
        return f"{self.base}episodes/{quote(episode_id)}/{name}"

    @property
    def feed(self) -> str:
        return f"{self.base}feed.xml"

    @property
    def weekly_feed(self) -> str:
        return f"{self.base}weekly/feed.xml"

    def area_feed(self, slug: str) -> str:
        return f"{self.base}areas/{quote(slug)}/feed.xml"

    def cover(self, name: str) -> str:
        return f"{self.base}{name}"


def show_title(show: ShowConfig) -> str:
    return clean_text(show.title or show.name or "mergecast")


def show_description(show: ShowConfig) -> str:
    if show.description:
        return clean_text(show.description)
    return (
        f"Short developer briefings about {show.name or 'this repository'}: what landed, "
        "what is in review, and why it matters, in plain language."
    )


def overview(show: ShowConfig) -> str:
    return (
        f"This episode is a short developer briefing from {show.name or show_title(show)}. "
        "It explains recent repository work in plain language."
    )


def duration_text(seconds: float) -> str:
    """'2 min 50 s', '45 s', '1 h 2 min 3 s'."""
    total = max(0, round(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{hours} h"] if hours else []
    if minutes:
        parts.append(f"{minutes} min")
    if secs or not parts:
        parts.append(f"{secs} s")
    return " ".join(parts)


def duration_iso(seconds: float) -> str:
    """ISO 8601 duration: PT2M50S."""
    total = max(0, round(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    out = "PT" + (f"{hours}H" if hours else "") + (f"{minutes}M" if minutes else "")
    return out + (f"{secs}S" if secs or out == "PT" else "")


def clock(seconds: float) -> str:
    """A player-style time: 2:05, 1:02:05."""
    total = max(0, int(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def cut(text: str, limit: int) -> str:
    """Shorten at a word boundary, ending with an ellipsis."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    head = text[: limit + 1].rsplit(" ", 1)[0].rstrip(",;:—-–")
    return head + "…"


def excerpt(script: Script, per_section: int = 240) -> list[str]:
    """The first sentence of each section, cut with '…' where the section goes on."""
    lines = []
    for section in script.sections:
        if not section.sentences:
            continue
        first = clean_text(section.sentences[0].text)
        more = len(section.sentences) > 1
        line = cut(first, per_section)
        if more and not line.endswith("…"):
            line = line.rstrip() + "…"
        lines.append(line)
    return lines


def cited(episode: Episode) -> tuple[int, ...]:
    """Every PR the script cites, in order of first mention."""
    seen: dict[int, None] = {}
    for section in episode.script.sections:
        for n in section.cites:
            seen.setdefault(n, None)
    return tuple(seen)


def pr_url(episode: Episode, number: int) -> str | None:
    return safe_url(episode.links.get(number))


@dataclass(frozen=True)
class Piece:
    """A run of sentence text, linked when it is a cited PR number."""

    text: str
    url: str | None = None


_NUMBER = re.compile(r"#?\b([0-9]{1,9})\b")


def link_numbers(
    text: str, cites: Sequence[int], links: Mapping[int, str]
) -> tuple[list[Piece], list[int]]:
    """Split text so each cited PR number that appears is linked; return the cites not shown."""
    wanted = set(cites)
    pieces: list[Piece] = []
    shown: set[int] = set()
    pos = 0
    for m in _NUMBER.finditer(text):
        n = int(m.group(1))
        url = safe_url(links.get(n)) if n in wanted else None
        if url is None:
            continue
        if m.start() > pos:
            pieces.append(Piece(text[pos : m.start()]))
        pieces.append(Piece(m.group(0), url))
        shown.add(n)
        pos = m.end()
    if pos < len(text):
        pieces.append(Piece(text[pos:]))
    return pieces, [n for n in cites if n not in shown]


def nearby(episodes: Sequence[Episode], count: int = 8) -> dict[str, list[Episode]]:
    """For each episode, the `count` others closest in publication time, newest first."""
    ordered = sorted(episodes, key=lambda e: (e.published_at, e.id))
    times = [e.published_at.timestamp() for e in ordered]
    result: dict[str, list[Episode]] = {}
    for i, ep in enumerate(ordered):
        lo, hi = i - 1, i + 1
        picked: list[Episode] = []
        while len(picked) < count and (lo >= 0 or hi < len(ordered)):
            left = times[i] - times[lo] if lo >= 0 else float("inf")
            right = times[hi] - times[i] if hi < len(ordered) else float("inf")
            if left <= right:
                picked.append(ordered[lo])
                lo -= 1
            else:
                picked.append(ordered[hi])
                hi += 1
        result[ep.id] = sorted(picked, key=lambda e: (e.published_at, e.id), reverse=True)
    return result


def neighbours_key(items: Sequence[Episode]) -> list[list[str]]:
    """What a page shows of its nearby episodes; a change here re-renders the page."""
    return [[e.id, e.kind, e.script.title, e.published_at.isoformat()] for e in items]


def newest_first(episodes: Sequence[Episode]) -> list[Episode]:
    return sorted(episodes, key=lambda e: (e.published_at, e.id), reverse=True)
