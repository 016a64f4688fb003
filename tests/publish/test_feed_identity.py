"""The feed identity: made once, kept in the store, unchanged by renames and moves."""

from __future__ import annotations

import json
import sqlite3
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from publish_fakes import SHOW, series, write_media

from gitrepo import Commit, day
from mergecast.cli import main
from mergecast.errors import PublishError
from mergecast.publish import publish_site
from mergecast.publish.feed import PODCAST
from mergecast.publish.identity import (
    STATE_KEY,
    FeedIdentity,
    assign,
    is_local,
    podcast_guid,
    show_identity,
)

NS = {"podcast": PODCAST}
ADA = ("Ada Lovelace", "7+ada-l@users.noreply.github.com")


def cli(*args: object):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def _ids(feed: Path) -> tuple[str | None, list[str | None]]:
    channel = ET.parse(feed).getroot().find("channel")
    assert channel is not None
    return (channel.findtext("podcast:guid", namespaces=NS),
            [item.findtext("guid") for item in channel.iter("item")])


def _config(path: Path, name: str, base_url: str) -> None:
    path.write_text(f'[show]\nname = "{name}"\nbase_url = "{base_url}"\n', encoding="utf-8")


def test_guids_survive_renaming_the_show_and_moving_the_site(make_repo, tmp_path: Path) -> None:
    repo = make_repo([
        Commit("[dynamo] Fix guard on dict keys (#290)\n\nGuards on dict keys were dropped.",
               day(23, 9), {"torch/_dynamo/g.py": b"g\n"}, author=ADA),
        Commit("[dynamo] Trace ChainMap as ordered (#291)\n\nIt lost lookup order.",
               day(24, 9), {"torch/_dynamo/s.py": b"s\n"}, author=ADA),
    ], origin="https://github.com/o/torchtitan.git")
    conf, site = tmp_path / "mergecast.toml", tmp_path / "site"
    _config(conf, "torchtitan", "https://example.org/cast/")
    for date in ("2026-07-23", "2026-07-24"):
        r = cli("--config", conf, "run", "--repo", repo, "--date", date, "--voice", "none")
        assert r.exit_code == 0, r.output
    before = _ids(site / "feed.xml")
    assert before[0] and len(before[1]) == 2 and all(before[1])
    # Made once from the feed URL it first had, as Podcasting 2.0 says, then kept.
    assert before[0] == podcast_guid("https://example.org/cast/feed.xml")

    _config(conf, "torchtitan-daily", "https://casts.example.net/titan/")
    r = cli("--config", conf, "publish")
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines() == [
        "mergecast: warning: mergecast.toml [show] email is not set, so the feed has no "
        "itunes:email: Apple Podcasts Connect and other directories send their ownership "
        "check to that address; set [show] email to an address you read"]
    after = _ids(site / "feed.xml")
    assert after == before
    assert "casts.example.net/titan/episodes/2026-07-24/" in (site / "feed.xml").read_text()
    with sqlite3.connect(tmp_path / ".mergecast" / "mergecast.db") as db:
        kept = db.execute("SELECT value FROM state WHERE key = ?", (STATE_KEY,)).fetchone()[0]
    assert json.loads(kept)["podcast_guid"] == before[0]

    # The credited developer links to the GitHub profile their noreply address names.
    item = ET.parse(site / "feed.xml").getroot().find("channel/item")
    assert item is not None
    people = item.findall("podcast:person", NS)
    assert [(p.text, p.get("role"), p.get("group"), p.get("href")) for p in people] == [
        ("ada-l", "guest", "cast", "https://github.com/ada-l")]


class _Keeper:
    def __init__(self) -> None:
        self.state: dict[str, str] = {}

    def get_state(self, key: str) -> str | None:
        return self.state.get(key)

    def set_state(self, key: str, value: str) -> None:
        self.state[key] = value


def test_a_new_show_is_assigned_once_and_local_urls_get_a_random_part(tmp_path: Path) -> None:
    keeper = _Keeper()
    first = show_identity(keeper, SHOW, "https://casts.example.org/widgets/feed.xml",
                          tmp_path / "site", "the store")
    assert first.podcast_guid == podcast_guid("https://casts.example.org/widgets/feed.xml")
    assert first.item_prefix == f"mergecast:{first.podcast_guid}"
    again = show_identity(keeper, SHOW, "https://elsewhere.example/feed.xml", tmp_path / "x",
                          "the store")
    assert again == first
    # Every new show starts at the same local default URL: its GUID must still be its own.
    local = [assign(SHOW, "http://127.0.0.1:8000/feed.xml", tmp_path / "site") for _ in "ab"]
    assert local[0].podcast_guid != local[1].podcast_guid
    assert uuid.UUID(local[0].podcast_guid).version == 5
    assert [is_local(u) for u in ("http://127.0.0.1:8000/", "http://localhost/",
                                  "http://[::1]:8000/", "https://example.org/")] == [
        True, True, True, False]


def test_a_site_published_before_identities_were_kept_keeps_its_guids(tmp_path: Path) -> None:
    episodes = series(2, weekly=False)
    legacy = FeedIdentity(podcast_guid("https://casts.example.org/widgets/feed.xml"),
                          "mergecast:widgets")  # what mergecast used to work out each time
    publish_site(episodes, tmp_path / "site", SHOW, identity=legacy,
                 media=write_media(tmp_path / "media", episodes))
    adopted = assign(SHOW, "https://casts.example.org/widgets/feed.xml", tmp_path / "site")
    assert adopted == legacy
    assert _ids(tmp_path / "site" / "feed.xml")[1] == [
        "mergecast:widgets:2026-03-03", "mergecast:widgets:2026-03-02"]


def test_sub_feeds_get_their_own_guid_fixed_by_the_shows() -> None:
    identity = FeedIdentity(str(uuid.uuid4()), "mergecast:x")
    assert identity.feed_guid("feed.xml") == identity.podcast_guid
    weekly, area = identity.feed_guid("weekly/feed.xml"), identity.feed_guid("areas/rl/feed.xml")
    assert len({identity.podcast_guid, weekly, area}) == 3
    assert weekly == FeedIdentity(identity.podcast_guid, "other").feed_guid("weekly/feed.xml")


def test_an_unreadable_identity_stops_publishing_with_the_fix() -> None:
    keeper = _Keeper()
    keeper.state[STATE_KEY] = "{not json"
    with pytest.raises(PublishError) as err:
        show_identity(keeper, SHOW, "https://x.example/feed.xml", Path("/nonexistent"),
                      "store /tmp/s.db")
    assert str(err.value) == (
        "the feed identity kept in store /tmp/s.db is unreadable ('{not json'); restore the "
        "store from a backup: a new identity would make podcast apps download every episode "
        "again")
