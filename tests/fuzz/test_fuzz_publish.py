"""Fuzz what we write for others to parse: WebVTT, chapters JSON, the RSS feed, safe paths."""

from __future__ import annotations

import datetime as dt
import html
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import feedparser
import pytest
from fuzz_settings import HOSTILE_TEXT, examples
from hypothesis import given
from hypothesis import strategies as st

from mergecast.config import ShowConfig
from mergecast.errors import PublishError
from mergecast.models import (
    Audio,
    Chapter,
    Cue,
    Developer,
    Episode,
    Script,
    Section,
    Sentence,
    Window,
)
from mergecast.publish.content import Urls
from mergecast.publish.feed import PODCAST, FeedSpec, build_feed, build_items
from mergecast.publish.files import chapters_json, webvtt
from mergecast.publish.identity import FeedIdentity
from mergecast.publish.paths import (
    area_slugs,
    check_episode_id,
    clean_text,
    safe_join,
    safe_url,
    slugify,
)

pytestmark = pytest.mark.fuzz

TIME = st.floats(0, 36_000, allow_nan=False)
CUES = st.lists(st.builds(lambda s, d, t: Cue(0, 0, s, s + d, t), TIME, TIME, HOSTILE_TEXT),
                max_size=6)
STAMP = r"\d{2}:\d{2}:\d{2}\.\d{3}"


@given(CUES, st.one_of(st.none(), HOSTILE_TEXT))
def test_webvtt_keeps_one_cue_per_sentence(cues: list[Cue], note: str | None) -> None:
    vtt = webvtt(cues, note=note)
    lines = vtt.split("\n")
    assert lines[0] == "WEBVTT"
    arrows = [line for line in lines if "-->" in line]
    assert len(arrows) == len(cues)  # no text can open or close a cue
    assert all(re.fullmatch(f"{STAMP} --> {STAMP}", a) for a in arrows)
    texts = [line for line in lines if line.startswith("<v Host>")]
    assert len(texts) == len(cues)
    for line, cue in zip(texts, cues, strict=True):
        inner = line.removeprefix("<v Host>").removesuffix("</v>")
        assert "<" not in inner and ">" not in inner
        assert html.unescape(inner) == " ".join(cue.text.split())


@given(st.lists(st.builds(Chapter, TIME, HOSTILE_TEXT,
                          st.one_of(st.none(), st.just("https://github.com/o/r/pull/1"))),
                max_size=6), st.one_of(st.none(), HOSTILE_TEXT))
def test_chapters_json_round_trips(chapters: list[Chapter], title: str | None) -> None:
    doc = json.loads(chapters_json(chapters, title=title))
    assert doc["version"] == "1.2.0"
    got = [(c["startTime"], c["title"]) for c in doc["chapters"]]
    want = [(round(c.start, 3), c.title) for c in sorted(chapters, key=lambda c: c.start)]
    assert got == want


SHOW = ShowConfig(name="Widgets", title="Widgets Daily", description="Daily notes.",
                  author="Team", email="team@example.com", base_url="https://casts.example.org/")


IDENTITY = FeedIdentity("0b1c2d3e-4f50-5a6b-8c7d-9e0f1a2b3c4d", "mergecast:widgets")


def _episode(day: int, title: str, summary: str, text: str) -> Episode:
    date = dt.date(2026, 3, 1) + dt.timedelta(days=day)
    published = dt.datetime.combine(date, dt.time(13), tzinfo=dt.UTC)
    sections = (Section("intro", text, (Sentence(text, text, (101,)),)),)
    return Episode(
        id=date.isoformat(), kind="daily",
        window=Window(published - dt.timedelta(days=1), published), published_at=published,
        script=Script("Widgets", date, title, summary, "template", sections),
        audio=Audio(12.0, (Cue(0, 0, 0.0, 1.0, text),), (Chapter(0.0, text),), audio_bytes=100,
                    audio_sha256="0" * 64, voice="piper"),
        links={101: "https://github.com/o/r/pull/101", 102: "javascript:alert(1)"},
        credits=(Developer(title, "javascript:alert(1)"), Developer(text, "https://github.com/a")),
    )


@examples(0.25)
@given(st.lists(st.tuples(HOSTILE_TEXT, HOSTILE_TEXT, HOSTILE_TEXT), min_size=1, max_size=3))
def test_feed_is_valid_xml_and_round_trips_through_feedparser(rows: list[tuple]) -> None:
    episodes = [_episode(i, t, s, x) for i, (t, s, x) in enumerate(rows)]
    urls = Urls.for_show(SHOW)
    items = build_items(episodes, show=SHOW, urls=urls, audio_sizes={e.id: 100 for e in episodes},
                        identity=IDENTITY)
    raw = build_feed(episodes, show=SHOW, spec=FeedSpec(urls.feed, "Widgets Daily", "Notes.",
                                                        IDENTITY.podcast_guid),
                     urls=urls, cover_url=urls.base + "cover.png", items=items)
    root = ET.fromstring(raw)  # well-formed XML, entities never expanded from input
    titles = [i.findtext("title") for i in root.iter("item")]
    newest_first = sorted(episodes, key=lambda e: e.published_at, reverse=True)
    assert titles == [clean_text(e.script.title) for e in newest_first]
    for item in root.iter("item"):  # the description is HTML: no live javascript: link
        assert '<a href="javascript' not in (item.findtext("description") or "").lower()
        for person in item.iter(f"{{{PODCAST}}}person"):
            assert (person.text or "").strip() and person.get("href") in (
                None, "https://github.com/a")
    parsed = feedparser.parse(raw)
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert [e.id for e in parsed.entries] == [f"mergecast:widgets:{e.id}" for e in newest_first]
    for entry in parsed.entries:
        assert [enc.href for enc in entry.enclosures][0].startswith("https://casts.example.org/")


SEGMENT = st.one_of(
    HOSTILE_TEXT,
    st.sampled_from(["..", ".", "../..", "/etc/passwd", "a/../../b", "２０２６-０１-０１", "‥",
                     "..\u2215x", "\u2024\u2024", "C:\\x", "~", "a\x00b", "%2e%2e", ".hidden"]),
)


@given(st.lists(SEGMENT, min_size=1, max_size=3))
def test_safe_join_never_leaves_the_root(parts: list[str]) -> None:
    root = Path("/srv/out")
    try:
        path = safe_join(root, *parts)
    except PublishError:
        return
    assert path.resolve().is_relative_to(root.resolve())
    assert ".." not in path.relative_to(root).parts


@given(SEGMENT)
def test_episode_ids_are_ascii_dates_or_weeks(episode_id: str) -> None:
    try:
        assert check_episode_id(episode_id) == episode_id
    except PublishError:
        return
    assert re.fullmatch(r"[0-9]{4}-([0-9]{2}-[0-9]{2}|W[0-9]{2})", episode_id)


@given(st.lists(SEGMENT, max_size=6))
def test_area_slugs_are_plain_unique_segments(names: list[str]) -> None:
    slugs = area_slugs(names)
    assert len(set(slugs.values())) == len(slugs)
    for name, slug in slugs.items():
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug), slug
        assert safe_join(Path("/srv/out"), "areas", slug).parent == Path("/srv/out/areas")
        assert slug == slugify(name) or slug.startswith(slugify(name) + "-")


@given(HOSTILE_TEXT)
def test_safe_url_only_passes_plain_http_urls(url: str) -> None:
    got = safe_url(url)
    assert got is None or re.match(r"https?://[^\s<>\"'`\\]+$", got, re.I)
