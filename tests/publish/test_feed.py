"""The podcast feeds: every tag podcast apps need, stable GUIDs, the right items."""

from __future__ import annotations

import dataclasses
import datetime as dt
import email.utils
import io
import re
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path

import feedparser
from mutagen.id3 import ID3
from PIL import Image
from publish_fakes import IDENTITY, SHOW, make_episode, series, write_media

from mergecast.models import Developer, Section, Sentence
from mergecast.publish import publish_site
from mergecast.publish.feed import CONTENT, ITUNES, PODCAST
from mergecast.publish.identity import podcast_guid

NS = {"itunes": ITUNES, "podcast": PODCAST}


def _publish(tmp_path: Path, episodes: list, show=SHOW) -> Path:  # type: ignore[no-untyped-def]
    media = write_media(tmp_path / "media", episodes)
    publish_site(episodes, tmp_path / "site", show, identity=IDENTITY, media=media)
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
    publish_site(more, site, moved, identity=IDENTITY, media=write_media(tmp_path / "media", more))
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


def test_ai_disclosure_people_and_description_chapters(tmp_path: Path) -> None:
    ep = dataclasses.replace(
        make_episode("2026-03-02"),
        credits=(Developer("ada", "https://github.com/ada"), Developer("Bob Smith")))
    llm = dataclasses.replace(make_episode("2026-03-03"), credits=())
    llm = dataclasses.replace(llm, script=dataclasses.replace(llm.script, writer="llm"))
    site = _publish(tmp_path, [ep, llm])
    raw = (site / "feed.xml").read_bytes()
    assert feedparser.parse(raw).bozo == 0
    channel = ET.fromstring(raw).find("channel")
    assert channel is not None
    txt = channel.findall("podcast:txt", NS)
    assert [(t.get("purpose"), t.text) for t in txt] == [("ai-content", "true")]
    items = {i.findtext("link", "").rsplit("/", 2)[-2]: i for i in channel.findall("item")}
    people = items["2026-03-02"].findall("podcast:person", NS)
    assert [(p.text, p.get("role"), p.get("group"), p.get("href")) for p in people] == [
        ("ada", "guest", "cast", "https://github.com/ada"), ("Bob Smith", "guest", "cast", None)]
    # Stored before credits existed: the themes' authors, unlinked.
    assert [p.text for p in items["2026-03-03"].findall("podcast:person", NS)] == ["ada", "bob"]

    description = items["2026-03-02"].findtext("description") or ""
    chapters = re.search(r"<p>Chapters:<br>(.*?)</p>", description)
    assert chapters is not None
    assert chapters.group(1).split("<br>") == [
        "00:00:00 Welcome", "00:00:28 The signal", "00:01:25 Faster builds", "00:02:21 On Dynamo"]
    assert "Written by mergecast&#39;s template writer (no language model)" in description
    assert "every fact was checked against that data. Voiced by the piper neural voice." in (
        description)
    assert "Written by a language model (LLM)" in (items["2026-03-03"].findtext("description") or "")


def test_missing_email_and_a_local_base_url_are_reported(tmp_path: Path) -> None:
    local = dataclasses.replace(SHOW, email="", base_url="http://127.0.0.1:8000/")
    episodes = series(1, weekly=False)
    report = publish_site(episodes, tmp_path / "site", local, identity=IDENTITY,
                          media=write_media(tmp_path / "media", episodes))
    assert report.warnings == (
        "mergecast.toml [show] base_url is http://127.0.0.1:8000/, a local address: podcast "
        "apps and other machines cannot reach the feed, its audio or its pages; set it to the "
        "address the site will be served from before you publish it (a preview with "
        "`mergecast serve` works as it is)",
        "mergecast.toml [show] email is not set, so the feed has no itunes:email: Apple "
        "Podcasts Connect and other directories send their ownership check to that address; "
        "set [show] email to an address you read",
    )
    owner = ET.parse(tmp_path / "site" / "feed.xml").getroot().find("channel/itunes:owner", NS)
    assert owner is not None and owner.find("itunes:email", NS) is None
    assert _publish(tmp_path / "b", episodes).joinpath("feed.xml").is_file()
    assert publish_site(episodes, tmp_path / "c", SHOW, identity=IDENTITY,
                        media=write_media(tmp_path / "m", episodes)).warnings == ()


def test_published_mp3_carries_cover_art_and_the_shows_name(tmp_path: Path) -> None:
    site = _publish(tmp_path, series(1, weekly=False))
    tags = ID3(site / "episodes" / "2026-03-02" / "episode.mp3")
    apic = tags.getall("APIC")[0]
    with Image.open(io.BytesIO(apic.data)) as art:
        assert (art.format, art.size) == ("JPEG", (600, 600))
    assert str(tags["TALB"]) == "Widgets Daily"
    assert tags.getall("WOAF")[0].url == "https://casts.example.org/widgets/episodes/2026-03-02/"
    assert [str(c.sub_frames["TIT2"]) for c in tags.getall("CHAP")] == [
        "Welcome", "The signal", "Faster builds ", "On Dynamo"]


def test_descriptions_stay_within_apples_4000_bytes(tmp_path: Path) -> None:
    many = range(1000, 1120)
    ep = make_episode("2026-03-02", links={n: f"https://github.com/acme/widgets/pull/{n}"
                                           for n in many})
    said = Section("notes", "Notes", (Sentence("Many PRs.", "Many PRs.", tuple(many)),))
    ep = dataclasses.replace(ep, script=dataclasses.replace(
        ep.script, sections=(*ep.script.sections, said)))
    site = _publish(tmp_path, [ep])
    item = ET.parse(site / "feed.xml").getroot().find("channel/item")
    assert item is not None
    for tag in ("description", f"{{{CONTENT}}}encoded"):
        html = item.findtext(tag) or ""
        assert 3500 < len(html.encode()) <= 4000, tag
        assert re.search(r"#1\d{3}</a> and \d+ more on the page</p>", html)
        assert html.endswith("</p>") and "Transcript, show notes and chapters" in html
