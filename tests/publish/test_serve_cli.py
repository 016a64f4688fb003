"""The preview server (HTTP Range, so audio seeks) and the publish/serve commands."""

from __future__ import annotations

import http.client
import threading
from collections.abc import Iterator
from pathlib import Path

import feedparser
import pytest
from click.testing import CliRunner
from publish_fakes import make_episode, mp3_bytes, series

from mergecast.cli import main
from mergecast.publish import make_server
from mergecast.store import Store


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, int]]:
    site = tmp_path / "site"
    (site / "episodes/2026-03-02").mkdir(parents=True)
    (site / "episodes/2026-03-02/episode.mp3").write_bytes(bytes(range(256)) * 4)
    (site / ".mergecast-manifest.json").write_text("{}")
    srv = make_server(site, port=0)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield "127.0.0.1", srv.server_address[1]
    srv.shutdown()
    srv.server_close()


def _get(where: tuple[str, int], path: str, headers: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    conn = http.client.HTTPConnection(*where, timeout=10)
    conn.request("GET", path, headers=headers or {})
    resp = conn.getresponse()
    return resp, resp.read()


def test_range_requests(server: tuple[str, int]) -> None:
    path = "/episodes/2026-03-02/episode.mp3"
    resp, body = _get(server, path)
    assert (resp.status, len(body), resp.getheader("Accept-Ranges")) == (200, 1024, "bytes")
    assert resp.getheader("Content-Type") == "audio/mpeg"
    resp, body = _get(server, path, {"Range": "bytes=10-19"})
    assert resp.status == 206 and body == bytes(range(10, 20))
    assert resp.getheader("Content-Range") == "bytes 10-19/1024"
    resp, body = _get(server, path, {"Range": "bytes=1000-"})
    assert resp.status == 206 and len(body) == 24
    resp, body = _get(server, path, {"Range": "bytes=-4"})
    assert body == bytes([252, 253, 254, 255])
    assert resp.getheader("Content-Range") == "bytes 1020-1023/1024"
    resp, _ = _get(server, path, {"Range": "bytes=5000-"})
    assert resp.status == 416 and resp.getheader("Content-Range") == "bytes */1024"
    resp, _ = _get(server, "/.mergecast-manifest.json")
    assert resp.status == 404


def test_server_binds_loopback_by_default(tmp_path: Path) -> None:
    srv = make_server(tmp_path, port=0)
    try:
        assert srv.server_address[0] == "127.0.0.1"
    finally:
        srv.server_close()


def test_publish_command_renders_stored_episodes(tmp_path: Path) -> None:
    db = tmp_path / "state" / "mergecast.db"
    episodes = [*series(3, weekly=False), make_episode("2026-03-05", audio=False)]
    with Store(db) as store:
        for ep in episodes:
            store.save_episode(ep)
    for ep in episodes[:3]:
        folder = db.parent / "media" / ep.id
        folder.mkdir(parents=True)
        (folder / "episode.mp3").write_bytes(mp3_bytes())
    runner = CliRunner()
    out = tmp_path / "public"
    result = runner.invoke(main, ["--db", str(db), "publish", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"published 4 episodes to {out} (4 pages rendered, ")
    parsed = feedparser.parse((out / "feed.xml").read_bytes())
    assert len(parsed.entries) == 4 and sum(len(e.enclosures) for e in parsed.entries) == 3
    again = runner.invoke(main, ["--db", str(db), "publish", "--out", str(out)])
    assert "(0 pages rendered, " in again.output

    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("x")
    bad = runner.invoke(main, ["--db", str(db), "publish", "--out", str(tmp_path / "mine")])
    assert bad.exit_code == 1
    assert bad.output == (
        f"mergecast: {tmp_path / 'mine'} is not empty and is not a mergecast site "
        "(no .mergecast-manifest.json); pass --out with a new or empty folder\n")


def test_serve_command_names_a_missing_folder(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["serve", "--out", str(tmp_path / "nope"), "--port", "0"])
    assert result.exit_code == 2
    assert result.output == (f"mergecast: {tmp_path / 'nope'} is not a folder; run "
                             f"`mergecast publish --out {tmp_path / 'nope'}` first\n")
