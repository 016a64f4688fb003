"""The podcast feeds: every tag podcast apps need, stable GUIDs, the right items."""

from __future__ import annotations

import datetime as dt
import email.utils
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path

import feedparser
from PIL import Image
from publish_fakes import SHOW, make_episode, series, write_media

from mergecast.publish import publish_site
from mergecast.publish.feed import ITUNES, PODCAST, podcast_guid

NS = {"itunes": ITUNES, "podcast": PODCAST}


def _publish(tmp_path: Path, episodes: list, show=SHOW) -> Path:  # type: ignore[no-untyped-def]
    media = write_media(tmp_path / "media", episodes)
    publish_site(episodes, tmp_path / "site", show, media=media)
    return tmp_path / "site"


def test_podcast_guid_matches_the_podcasting20_example() -> None:
    assert podcast_guid("https://podnews.net/rss") == "9b024349-ccf0-5f69-a609-6b82873eab3c"


def test_main_feed_carries_every_channel_and_item_tag(tmp_path: Path) -> None:
    episodes = series(5, weekly=False) + [make_episode("2026-03-10", audio=False)]
    site = _publish(tmp_path, episodes)
    raw = (site / "feed.xml").read_bytes()
    parsed = feedparser.parse(raw)
    assert parsed.bozo == 0, parsed.get("bozo_exception")
    ch = parsed.feed
    assert ch.title == "Widgets Daily"
    assert ch.link == "https://casts.example.org/widgets/"
    assert ch.subtitle == "Daily notes on widgets."
    assert ch.language == "en"
    assert ch.image.href == "https://casts.example.org/widgets/cover.png"
    assert [t.term for t in ch.tags] == ["Technology"]
    assert not ch.itunes_explicit  # feedparser reads Apple's current "false" as None
    assert ch.author == "The Widgets team"
    assert ch.publisher_detail.email == "team@example.com"
    with Image.open(site / "cover.png") as cover:
        assert (cover.format, cover.size) == ("PNG", (1400, 1400))

    root = ET.fromstring(raw)
    channel = root.find("channel")
    assert channel is not None
    guid = channel.findtext("podcast:guid", namespaces=NS)
    expected = uuid.uuid5(uuid.UUID("ead4c236-bf58-58c6-a2c6-a6b28d128cb6"),
                          "casts.example.org/widgets/feed.xml")
    assert guid == str(expected)
    assert channel.find("itunes:category", NS).get("text") == "Technology"  # type: ignore[union-attr]
    assert channel.findtext("itunes:explicit", namespaces=NS) == "false"
    owner = channel.find("itunes:owner", NS)
    assert owner is not None and owner.findtext("itunes:name", namespaces=NS) == "The Widgets team"

    items = channel.findall("item")
    ids = [e.id for e in sorted(episodes, key=lambda e: e.published_at, reverse=True)]
    assert [i.findtext("link") for i in items] == [
        f"https://casts.example.org/widgets/episodes/{i}/" for i in ids]
    for item, entry, eid in zip(items, parsed.entries, ids, strict=True):
        ep = next(e for e in episodes if e.id == eid)
        assert entry.title == ep.script.title
        assert email.utils.parsedate_to_datetime(item.findtext("pubDate") or "") == ep.published_at
        assert item.find("guid").get("isPermaLink") == "false"  # type: ignore[union-attr]
        assert item.findtext("itunes:duration", namespaces=NS) == "170"
        assert 'href="https://github.com/acme/widgets/pull/103"' in entry.description
        assert "Three themes on" in entry.description
        transcripts = item.findall("podcast:transcript", NS)
        assert [(t.get("type"), t.get("rel")) for t in transcripts] == [
            ("text/vtt", "captions"), ("text/html", None)]
        assert transcripts[0].get("url") == entry.link + "transcript.vtt"
        chapters = item.find("podcast:chapters", NS)
        assert chapters is not None and chapters.get("type") == "application/json+chapters"
        enclosure = item.find("enclosure")
        if ep.audio.audio_bytes is None:
            assert enclosure is None
            continue
        assert enclosure is not None
        assert enclosure.get("url") == entry.link + "episode.mp3"
        assert enclosure.get("type") == "audio/mpeg"
        size = (site / "episodes" / eid / "episode.mp3").stat().st_size
        assert enclosure.get("length") == str(size)


def test_guids_stay_stable_across_rebuilds_and_base_url_moves(tmp_path: Path) -> None:
    episodes = series(4, weekly=False)
    site = _publish(tmp_path, episodes)
    before = {e.link: e.id for e in feedparser.parse((site / "feed.xml").read_bytes()).entries}
    moved = SHOW.__class__(**{**SHOW.__dict__, "base_url": "https://new.example.net/"})
    more = episodes + [make_episode(dt.date(2026, 3, 9))]
    publish_site(more, site, moved, media=write_media(tmp_path / "media", more))
    after = {e.link.replace("https://new.example.net/", SHOW.base_url): e.id
             for e in feedparser.parse((site / "feed.xml").read_bytes()).entries}
    assert len(after) == 5
    assert {k: v for k, v in after.items() if k in before} == before
    assert len(set(after.values())) == 5


def test_weekly_and_area_feeds_hold_the_right_items(tmp_path: Path) -> None:
    episodes = series(8)  # 2026-03-02 (Mon) .. 03-09, weekly recap 2026-W10 after Sunday
    site = _publish(tmp_path, episodes)

    def titles(rel: str) -> set[str]:
        parsed = feedparser.parse((site / rel).read_bytes())
        assert parsed.bozo == 0
        return {e.title for e in parsed.entries}

    assert titles("weekly/feed.xml") == {"Weekly recap 2026-W10"}
    for area, slug in (("Dynamo", "dynamo"), ("MPS", "mps"), ("Inductor", "inductor")):
        assert titles(f"areas/{slug}/feed.xml") == {
            e.script.title for e in episodes if area in e.areas}
    assert titles("feed.xml") == {e.script.title for e in episodes}
    assert len(titles("areas/mps/feed.xml")) == 4
