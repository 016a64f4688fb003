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
from ..models import Developer, Digest, Episode, Script, WriterKind
from .paths import area_slugs, clean_text, safe_url, slugify


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


# ---------------------------------------------------------------- who and what made it

_GITHUB_LOGIN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}")


def credits_for(digest: Digest) -> tuple[Developer, ...]:
    """The themes' authors, each once in order of first credit, linked to their GitHub
    profile when a change of theirs came from GitHub under that login (a git name that
    merely looks like a login is never linked)."""
    profiles: dict[str, str] = {}
    for change in digest.changes:
        if change.bot or not (change.url or "").startswith("https://github.com/"):
            continue
        for person in (change.author, *change.co_authors):
            login = person.login
            if login and _GITHUB_LOGIN.fullmatch(login):
                profiles[login] = f"https://github.com/{login}"
    handles = dict.fromkeys(a for t in digest.themes for a in t.authors)
    return tuple(Developer(h, profiles.get(h)) for h in handles)


def credits(episode: Episode) -> list[Developer]:
    """Who the episode credits; episodes stored before credits existed list theme authors."""
    if episode.credits:
        return [Developer(clean_text(c.handle), safe_url(c.url)) for c in episode.credits]
    return [Developer(clean_text(a)) for a in dict.fromkeys(
        a for t in episode.themes for a in t.authors)]


_VOICES = {"piper": "the piper neural voice", "espeak-ng": "the espeak-ng speech synthesiser",
           "openai": "an AI voice (OpenAI-compatible speech API)"}


def writer_label(episode: Episode) -> str:
    """Which writer made the episode and how it was checked and voiced: the AI disclosure
    shown on the page and in the feed (Apple asks for it in the metadata)."""
    origins = [s.origin for sec in episode.script.sections for s in sec.sentences]
    by_llm = sum(1 for o in origins if o == WriterKind.LLM)
    if 0 < by_llm < len(origins):
        writer = (f"Written by a language model (LLM) for {by_llm} of {len(origins)} "
                  "sentences, the rest by mergecast's template writer")
    elif by_llm or episode.script.writer == WriterKind.LLM:
        # A script from the LLM writer whose sentences carry no origin is still its work:
        # say so rather than under-disclose.
        writer = "Written by a language model (LLM)"
    else:
        writer = "Written by mergecast's template writer (no language model)"
    text = f"{writer} from the repository's activity; every fact was checked against that data."
    if episode.audio.audio_bytes is None:
        return text + " Text only, no audio."
    voice = _VOICES.get(episode.audio.voice, f"a synthetic voice ({episode.audio.voice})")
    return text + f" Voiced by {voice}."


def timestamp(seconds: float) -> str:
    """HH:MM:SS, the form Apple Podcasts reads chapters from in a description."""
    total = max(0, int(seconds))
    return f"{total // 3600:02d}:{total % 3600 // 60:02d}:{total % 60:02d}"


def chapter_lines(episode: Episode) -> list[str]:
    """'00:00:00 Title' per chapter, in time order; the first always starts at 00:00:00."""
    ordered = sorted(episode.audio.chapters, key=lambda c: c.start)
    return [f"{timestamp(0 if i == 0 else c.start)} "
            f"{' '.join(clean_text(c.title).split()) or f'Part {i + 1}'}"
            for i, c in enumerate(ordered)]


# ---------------------------------------------------------------- areas

_SEPARATORS = re.compile(r"[\s_./-]+")


def area_key(name: str) -> str:
    """Spellings of one area fold together: 'graph trainer', 'GraphTrainer', 'graph_trainer'."""
    return _SEPARATORS.sub("", name.casefold()) or name


@dataclass(frozen=True)
class AreaGroup:
    name: str  # as shown: the spelling most episodes use
    slug: str  # the feed's folder: from the spelling published first, so it never moves
    aliases: tuple[str, ...]  # slugs of the other spellings, whose feeds are kept working
    spellings: frozenset[str]
    episodes: int


def area_groups(episodes: Sequence[Episode]) -> list[AreaGroup]:
    """The episodes' areas with spellings folded together, most episodes first."""
    ordered = sorted(episodes, key=lambda e: (e.published_at, e.id))
    uses: dict[str, dict[str, int]] = {}  # key -> spelling -> episodes, first seen first
    for ep in ordered:
        for name in dict.fromkeys(ep.areas):
            spellings = uses.setdefault(area_key(name), {})
            spellings[name] = spellings.get(name, 0) + 1
    # Each spelling keeps the slug earlier versions gave it (no feed URL dies); an area's
    # own slug is its first spelling's clean slug unless another area owns that one.
    old = area_slugs(name for spellings in uses.values() for name in spellings)
    owner = {old[name]: key for key, spellings in uses.items() for name in spellings}
    groups = []
    for key, spellings in uses.items():
        first = next(iter(spellings))
        clean = slugify(first)
        slug = clean if owner.get(clean) == key else old[first]
        shown = max(spellings, key=lambda n: (spellings[n], n != n.lower(), " " in n))
        count = sum(1 for ep in ordered if spellings.keys() & set(ep.areas))
        aliases = tuple(sorted({old[n] for n in spellings} - {slug}))
        groups.append(AreaGroup(shown, slug, aliases, frozenset(spellings), count))
    return sorted(groups, key=lambda g: (-g.episodes, g.name.casefold()))
