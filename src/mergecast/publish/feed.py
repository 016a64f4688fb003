"""RSS 2.0 podcast feeds with the itunes, content and podcast (Podcasting 2.0) namespaces.

Built as an ElementTree, never by string concatenation: the serializer escapes every
text and attribute, and `_add` strips characters XML 1.0 forbids first, so hostile PR
text cannot break out of an element or make the feed invalid.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from ..config import ShowConfig
from ..dates import as_utc
from ..models import Episode
from .content import (
    Urls,
    chapter_lines,
    cited,
    credits,
    overview,
    pr_url,
    show_title,
    writer_label,
)
from .identity import FeedIdentity
from .paths import clean_text

ITUNES = "http://www.itunes.com/dtds/podcast-1.0.dtd"
CONTENT = "http://purl.org/rss/1.0/modules/content/"
PODCAST = "https://podcastindex.org/namespace/1.0"
ATOM = "http://www.w3.org/2005/Atom"
for _prefix, _uri in (
    ("itunes", ITUNES), ("content", CONTENT), ("podcast", PODCAST), ("atom", ATOM)
):
    ET.register_namespace(_prefix, _uri)



@dataclass(frozen=True)
class FeedSpec:
    url: str  # this feed's own absolute URL
    title: str
    description: str
    guid: str  # its podcast:guid, from the show's FeedIdentity


def _q(ns: str, tag: str) -> str:
    return f"{{{ns}}}{tag}"


def _add(parent: ET.Element, tag: str, content: str | None = None, **attrs: str) -> ET.Element:
    el = ET.SubElement(parent, tag, {k: clean_text(v) for k, v in attrs.items()})
    if content is not None:
        el.text = clean_text(content)
    return el


def rfc2822(moment: dt.datetime) -> str:
    return email.utils.format_datetime(as_utc(moment).astimezone(dt.UTC))


DESCRIPTION_BYTES = 4000  # Apple Podcasts' limit for an episode description


def item_html(episode: Episode, page_url: str, after: str = "") -> str:
    """Summary, chapters as timestamps (Apple Podcasts and others read them from the
    description), links to the cited PRs and the AI disclosure, as the small HTML podcast
    apps accept, then `after`, within Apple's 4000 bytes (PR links beyond that are left to
    the page)."""
    head = [f"<p>{escape(clean_text(episode.script.summary))}</p>"]
    chapters = chapter_lines(episode)
    if chapters:
        head.append(f"<p>Chapters:<br>{Markup('<br>').join(chapters)}</p>")
    tail = [f"<p>{escape(writer_label(episode))}</p>",
            f'<p><a href="{escape(page_url)}">Transcript, show notes and chapters</a></p>', after]
    links = [f'<a href="{escape(url)}">#{n}</a>' for n in cited(episode)
             if (url := pr_url(episode, n)) is not None]
    for shown in range(len(links), -1, -1):
        more = f" and {len(links) - shown} more on the page" if shown < len(links) else ""
        middle = [f"<p>Pull requests: {', '.join(links[:shown])}{more}</p>"] if shown else []
        html = "".join(head + middle + tail)
        if len(html.encode()) <= DESCRIPTION_BYTES:
            break
    return html


def build_items(
    episodes: Sequence[Episode], *, show: ShowConfig, urls: Urls, audio_sizes: Mapping[str, int],
    identity: FeedIdentity,
) -> dict[str, ET.Element]:
    """Each episode's <item>, built once and shared by every feed that lists it."""
    return {
        ep.id: _item(ep, show=show, urls=urls, size=audio_sizes.get(ep.id), identity=identity)
        for ep in episodes
    }


def build_feed(
    episodes: Sequence[Episode],
    *,
    show: ShowConfig,
    spec: FeedSpec,
    urls: Urls,
    cover_url: str,
    items: Mapping[str, ET.Element],
) -> bytes:
    """One feed of `episodes`, newest first; `items` comes from build_items."""
    rss = ET.Element("rss", {"version": "2.0"})
    channel = _add(rss, "channel")
    _add(channel, "title", spec.title)
    _add(channel, "link", urls.base)
    _add(channel, "description", spec.description)
    _add(channel, "language", show.language or "en")
    _add(channel, "generator", "mergecast")
    _add(channel, _q(ATOM, "link"), href=spec.url, rel="self", type="application/rss+xml")
    ordered = sorted(episodes, key=lambda e: (e.published_at, e.id), reverse=True)
    if ordered:
        _add(channel, "lastBuildDate", rfc2822(ordered[0].published_at))
        _add(channel, "pubDate", rfc2822(ordered[0].published_at))
    author = show.author or show_title(show)
    _add(channel, _q(ITUNES, "author"), author)
    _add(channel, _q(ITUNES, "summary"), spec.description)
    _add(channel, _q(ITUNES, "type"), "episodic")
    owner = _add(channel, _q(ITUNES, "owner"))
    _add(owner, _q(ITUNES, "name"), author)
    if show.email:
        _add(owner, _q(ITUNES, "email"), show.email)
    _add(channel, _q(ITUNES, "image"), href=cover_url)
    image = _add(channel, "image")
    _add(image, "url", cover_url)
    _add(image, "title", spec.title)
    _add(image, "link", urls.base)
    _add(channel, _q(ITUNES, "category"), text="Technology")
    _add(channel, _q(ITUNES, "explicit"), "false")
    _add(channel, _q(PODCAST, "guid"), spec.guid)
    _add(channel, _q(PODCAST, "locked"), "no")
    # Apple asks for AI-made content to be disclosed in the metadata; this is the tag the
    # Podcasting 2.0 hosts and apps adopted for it. Every episode is voiced by software.
    _add(channel, _q(PODCAST, "txt"), "true", purpose="ai-content")
    channel.extend(items[e.id] for e in ordered)
    return ET.tostring(rss, encoding="utf-8", xml_declaration=True) + b"\n"


def _item(
    episode: Episode, *, show: ShowConfig, urls: Urls, size: int | None, identity: FeedIdentity
) -> ET.Element:
    item = ET.Element("item")
    page = urls.page(episode.id)
    html = item_html(episode, page, after=f"<p>{escape(overview(show))}</p>")
    _add(item, "title", episode.script.title)
    _add(item, _q(ITUNES, "title"), episode.script.title)
    _add(item, "link", page)
    _add(item, "description", html)
    _add(item, _q(CONTENT, "encoded"), html)
    _add(item, "guid", identity.episode_guid(episode.id), isPermaLink="false")
    _add(item, "pubDate", rfc2822(episode.published_at))
    if size is not None:
        _add(
            item,
            "enclosure",
            url=urls.file(episode.id, "episode.mp3"),
            length=str(size),
            type="audio/mpeg",
        )
    _add(item, _q(ITUNES, "duration"), str(max(0, round(episode.audio.duration_seconds))))
    _add(item, _q(ITUNES, "episodeType"), "bonus" if episode.kind == "weekly" else "full")
    _add(item, _q(ITUNES, "explicit"), "false")
    _add(
        item,
        _q(PODCAST, "transcript"),
        url=urls.file(episode.id, "transcript.vtt"),
        type="text/vtt",
        rel="captions",
        language=show.language or "en",
    )
    _add(item, _q(PODCAST, "transcript"), url=page, type="text/html")
    _add(
        item,
        _q(PODCAST, "chapters"),
        url=urls.file(episode.id, "chapters.json"),
        type="application/json+chapters",
    )
    # The developers whose work the episode tells: its subjects, so "guest" in the cast
    # (the Podcast Taxonomy has no role for people talked about but not on air).
    for person in credits(episode):
        if not person.handle.strip():
            continue  # the spec forbids a blank name
        attrs = {"role": "guest", "group": "cast"}
        if person.url:
            attrs["href"] = person.url
        _add(item, _q(PODCAST, "person"), person.handle[:128], **attrs)
    return item


SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"


def build_sitemap(pages: Sequence[tuple[str, dt.datetime | None]]) -> bytes:
    """sitemap.xml for (absolute URL, last modified) pairs."""
    urlset = ET.Element("urlset", {"xmlns": SITEMAP})
    for loc, lastmod in pages:
        url = _add(urlset, "url")
        _add(url, "loc", loc)
        if lastmod is not None:
            _add(url, "lastmod", lastmod.astimezone(dt.UTC).date().isoformat())
    return ET.tostring(urlset, encoding="utf-8", xml_declaration=True) + b"\n"
