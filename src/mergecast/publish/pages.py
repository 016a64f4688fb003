"""Episode pages and the show page, rendered from Jinja2 templates with autoescape on.

The templates never see a raw model: `episode_context` builds plain dicts whose text
has been cleaned, and Jinja's `finalize` cleans anything else printed, so hostile PR
text arrives as inert, escaped characters.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2
from markupsafe import Markup, escape

from ..config import ShowConfig
from ..models import Duplicate, Episode, WriterKind
from .content import (
    Urls,
    clock,
    credits,
    cut,
    duration_iso,
    duration_text,
    excerpt,
    link_numbers,
    overview,
    pr_url,
    show_description,
    show_title,
    writer_label,
)
from .paths import clean_text, safe_url

TEMPLATES = Path(__file__).parent / "templates"
ASSETS = ("style.css", "player.js", "site.js")
# Bump when the page-building code (not just templates) changes what pages contain.
RENDER_VERSION = "2"
TOP_AREAS = (4, 12)  # area chips shown before "All areas": on a phone, on a wider screen


@dataclass(frozen=True)
class AreaLink:
    """An area's feed as the show page lists it."""

    name: str
    href: str  # relative to OUT
    url: str
    episodes: int


def subscribe_links(feed_url: str) -> list[dict[str, str]]:
    """Buttons that open the feed in a podcast app: each app's own URL scheme for adding a
    feed by URL (no directory listing needed), then "copy feed URL" and the RSS file."""
    bare = feed_url.split("://", 1)[-1]
    return [
        {"label": "Apple Podcasts", "href": f"podcast://{bare}", "kind": "app"},
        {"label": "Overcast", "kind": "app",
         "href": f"overcast://x-callback-url/add?url={quote(feed_url, safe='')}"},
        {"label": "Pocket Casts", "href": f"pktc://subscribe/{bare}", "kind": "app"},
        {"label": "Copy feed URL", "href": feed_url, "kind": "copy"},
    ]


def writer_short(episode: Episode) -> str:
    return "LLM writer" if episode.script.writer == WriterKind.LLM else "template writer"


def _finalize(value: Any) -> Any:
    if isinstance(value, Markup) or not isinstance(value, str):
        return value
    return clean_text(value)


_LONG_WORD = re.compile(r"\S{16,}")
_JOINT = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[_/.:-])(?=[A-Za-z0-9])")


def breakable(text: str) -> Markup:
    """Escaped text whose long words (identifiers such as BaseCheckpointManager) may wrap
    at their own joints (camelCase, _, /, ., -) instead of at an arbitrary letter."""
    text = clean_text(text)
    out, pos = [], 0
    for m in _LONG_WORD.finditer(text):
        out.append(escape(text[pos : m.start()]))
        out.append(Markup("<wbr>").join(escape(p) for p in _JOINT.split(m.group(0))))
        pos = m.end()
    out.append(escape(text[pos:]))
    return Markup("").join(out)


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        finalize=_finalize,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["wbr"] = breakable
    return env


@cache
def fingerprint() -> str:
    """Changes whenever a template or asset does, so the manifest re-renders everything."""
    h = hashlib.sha256(RENDER_VERSION.encode())
    for path in sorted(TEMPLATES.iterdir()):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def json_for_script(data: Any) -> Markup:
    """JSON safe inside <script>: no `</script>`, `<!--` or line separators can break out."""
    text = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=False)
    for raw, esc in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                     ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(raw, esc)
    return Markup(text)


def date_text(moment: dt.datetime) -> str:
    return f"{moment.day} {moment.strftime('%B %Y')}"


def _clean_tree(data: Any) -> Any:
    if isinstance(data, str):
        return clean_text(data)
    if isinstance(data, dict):
        return {k: _clean_tree(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_clean_tree(v) for v in data]
    return data


def episode_context(
    episode: Episode,
    *,
    show: ShowConfig,
    urls: Urls,
    near: Sequence[Episode],
    has_audio: bool,
    cover_url: str,
    cover_href: str = "cover.png",
    related: Sequence[Episode] = (),
) -> dict[str, Any]:
    """What episode.html.j2 shows; `related` are the episodes `episode.related` names
    (a weekly recap's dailies), in the order to list them. Links between pages name
    index.html, so the site also works opened from disk (file://)."""
    script = episode.script
    starts = {(c.section, c.sentence): c.start for c in episode.audio.cues}
    sections = []
    for i, section in enumerate(script.sections):
        sentences: list[dict[str, Any]] = []
        for j, sentence in enumerate(section.sentences):
            pieces, rest = link_numbers(clean_text(sentence.text), sentence.cites, episode.links)
            extra = [(n, u) for n in rest if (u := pr_url(episode, n)) is not None]
            sentences.append({"start": starts.get((i, j)), "pieces": pieces, "extra": extra,
                              "llm": sentence.origin == WriterKind.LLM})
        start: float | None = next(
            (s["start"] for s in sentences if s["start"] is not None), None)
        sections.append({"heading": section.heading, "kind": section.kind, "start": start,
                         "clock": clock(start) if start is not None else "",
                         "sentences": sentences})
    themes = [{"headline": t.headline, "authors": t.authors, "areas": t.areas,
               "prs": [(n, pr_url(episode, n)) for n in dict.fromkeys(t.prs)]}
              for t in episode.themes]
    people = {c.handle: c.url for c in credits(episode)}
    chapters = [{"start": c.start, "clock": clock(c.start), "title": c.title,
                 "url": safe_url(c.url)} for c in episode.audio.chapters]
    lines = excerpt(script)
    seconds = episode.audio.duration_seconds
    page_url = urls.page(episode.id)
    mp3_url = urls.file(episode.id, "episode.mp3")
    jsonld: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "PodcastEpisode",
        "@id": page_url,
        "url": page_url,
        "name": script.title,
        "headline": script.title,
        "datePublished": episode.published_at.isoformat(),
        "description": script.summary,
        "abstract": " ".join(lines),
        "timeRequired": duration_iso(seconds),
        "inLanguage": show.language or "en",
        "image": cover_url,
        "partOfSeries": {"@type": "PodcastSeries", "name": show_title(show), "url": urls.base,
                         "webFeed": urls.feed},
    }
    if has_audio:
        jsonld["associatedMedia"] = {"@type": "MediaObject", "contentUrl": mp3_url,
                                     "encodingFormat": "audio/mpeg",
                                     "duration": duration_iso(seconds)}
        jsonld["duration"] = duration_iso(seconds)
    return {
        "lang": show.language or "en",
        "show_title": show_title(show),
        "root": "../../",
        "home": "../../index.html",
        "cover_src": f"../../{cover_href}",
        "subscribe": subscribe_links(urls.feed),
        "made_by": writer_label(episode),
        "people": people,
        "notes": show_notes(episode),
        "duplicates": duplicates(episode),
        "title": script.title,
        "summary": script.summary,
        "description": cut(clean_text(script.summary), 300),
        "excerpt": lines,
        "overview": overview(show),
        "kind": episode.kind,
        "published_iso": episode.published_at.isoformat(),
        "published_text": date_text(episode.published_at),
        "duration_text": duration_text(seconds),
        "duration_iso": duration_iso(seconds),
        "has_audio": has_audio,
        "page_url": page_url,
        "mp3_url": mp3_url,
        "cover_url": cover_url,
        "feed_url": urls.feed,
        "chapters": chapters,
        "sections": sections,
        "themes": themes,
        "nearby": [{"href": f"../{e.id}/index.html", "title": e.script.title, "kind": e.kind,
                    "date_text": date_text(e.published_at)} for e in near],
        "related": [{"href": f"../{e.id}/index.html", "title": e.script.title, "kind": e.kind,
                     "date_text": date_text(e.published_at)} for e in related],
        "related_heading": "This week's episodes" if episode.kind == "weekly"
        else "Related episodes",
        "jsonld": json_for_script(_clean_tree(jsonld)),
    }


def show_notes(episode: Episode) -> dict[str, Any] | None:
    """Every change in the window (Episode.ledger), grouped as the page lists them, with
    the coverage line; None for an episode without a ledger (the themes are listed then)."""
    if not episode.ledger:
        return None
    themes = {t.headline: t for t in episode.themes}
    groups: dict[str, list[dict[str, Any]]] = {}
    for entry in episode.ledger:
        ref = f"#{entry.number}" if entry.number is not None else (entry.sha or "")[:7]
        groups.setdefault(entry.group, []).append({
            "ref": ref or "—", "url": safe_url(entry.url), "title": entry.title,
            "told": entry.told})
    told = sum(1 for e in episode.ledger if e.told)
    total = len(episode.ledger)
    return {
        "coverage": f"{total} change{'s' if total != 1 else ''}: {told} told, "
                    f"{total - told} listed",
        "groups": [{"name": name, "entries": entries,
                    "authors": themes[name].authors if name in themes else (),
                    "areas": themes[name].areas if name in themes else ()}
                   for name, entries in groups.items()],
    }


def duplicates(episode: Episode) -> list[dict[str, Any]]:
    """The duplicated effort the episode tells, once per pair, with its evidence; each PR
    linked where the episode knows its URL."""
    told = {n for sec in episode.script.sections if sec.kind == "duplicates" for n in sec.cites}
    urls = {e.number: safe_url(e.url) for e in episode.ledger if e.number is not None}
    pairs: dict[tuple[int, ...], Duplicate] = {}
    for d in episode.duplicates:
        if set(d.prs) <= told:
            pairs.setdefault(tuple(sorted(d.prs)), d)
    return [{"prs": [(n, pr_url(episode, n) or urls.get(n)) for n in d.prs], "why": d.why}
            for d in pairs.values()]


def related_episodes(episode: Episode, by_id: Mapping[str, Episode]) -> list[Episode]:
    """The published episodes `episode.related` names, oldest first; unknown ids are skipped."""
    found = [by_id[i] for i in dict.fromkeys(episode.related) if i in by_id and i != episode.id]
    return sorted(found, key=lambda e: (e.published_at, e.id))


def render_episode(context: Mapping[str, Any]) -> str:
    return environment().get_template("episode.html.j2").render(**context)


def render_index(
    latest: Sequence[Episode],
    *,
    show: ShowConfig,
    urls: Urls,
    areas: Sequence[AreaLink],
    cover_href: str,
    total: int,
) -> str:
    """The show page: subscribe buttons, the newest episodes, then the area feeds, the most
    followed first (collapsed to the top few until asked)."""
    items = [{"href": f"episodes/{e.id}/index.html", "title": e.script.title,
              "summary": e.script.summary, "kind": e.kind, "writer": writer_short(e),
              "date_text": date_text(e.published_at),
              "published_iso": e.published_at.isoformat(),
              "duration_text": duration_text(e.audio.duration_seconds)} for e in latest]
    jsonld = {"@context": "https://schema.org", "@type": "PodcastSeries",
              "name": show_title(show), "url": urls.base, "webFeed": urls.feed,
              "description": show_description(show)}
    return environment().get_template("index.html.j2").render(
        lang=show.language or "en",
        show_title=show_title(show),
        root="",
        home="index.html",
        title=show_title(show),
        description=show_description(show),
        page_url=urls.base,
        cover_url=urls.cover(cover_href),
        cover_href=cover_href,
        feed_url=urls.feed,
        subscribe=subscribe_links(urls.feed),
        weekly_href="weekly/feed.xml",
        areas=areas,
        top_areas=TOP_AREAS,
        episodes=items,
        total=total,
        jsonld=json_for_script(_clean_tree(jsonld)),
    )


def asset(name: str) -> bytes:
    return (TEMPLATES / name).read_bytes()
