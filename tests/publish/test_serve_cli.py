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
from mergecast.errors import InputError
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


def test_serve_refuses_the_root_folder() -> None:
    # it served every file of the machine whose path has no dot-name in it
    with pytest.raises(InputError) as err:
        make_server(Path("/"), port=0).server_close()
    assert str(err.value) == (
        "cannot serve /: it is the root folder, not a site; pass --out with the site folder, "
        "such as ./site")


# ------------------------------------------------------------------ hostile requests


def _raw(where: tuple[str, int], request: bytes) -> bytes:
    """Send bytes as they are (no client-side quoting) and read the whole answer."""
    import socket

    with socket.create_connection(where, timeout=10) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


@pytest.mark.parametrize("path", [
    "/%2emergecast-manifest.json", "/%2Emergecast-manifest.json",
    "/episodes/%2e%2e/.mergecast-manifest.json", "/episodes/", "/",
])
def test_dotfiles_stay_hidden_however_the_path_is_spelled(server, capsys, path) -> None:
    answer = _raw(server, f"GET {path} HTTP/1.0\r\n\r\n".encode())
    assert answer.startswith(b"HTTP/1.0 404 ")
    assert b"{}" not in answer.split(b"\r\n\r\n", 1)[1]  # never the manifest's body
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize(("request_line", "headers", "status"), [
    ("GET /%00 HTTP/1.0", "", b"404"),
    ("GET /episodes/2026-03-02/episode.mp3%00.txt HTTP/1.0", "", b"404"),
    ("GET /episodes/2026-03-02/episode.mp3 HTTP/1.0", f"Range: bytes={'9' * 5000}-\r\n", b"416"),
    ("GET /episodes/2026-03-02/episode.mp3 HTTP/1.0", f"Range: bytes=0-{'9' * 5000}\r\n", b"206"),
    ("GET /episodes/2026-03-02/episode.mp3 HTTP/1.0", f"Range: bytes=-{'9' * 5000}\r\n", b"206"),
])
def test_hostile_requests_get_an_answer_not_a_dropped_connection(
        server, capsys, request_line: str, headers: str, status: bytes) -> None:
    answer = _raw(server, f"{request_line}\r\n{headers}\r\n".encode())
    assert answer.split(b" ", 2)[1] == status
    if status == b"206":
        assert b"Content-Range: bytes 0-1023/1024" in answer
    assert "Traceback" not in capsys.readouterr().err


def test_an_ipv6_host_is_served(tmp_path: Path) -> None:
    import socket

    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback on this machine")
    (tmp_path / "index.html").write_text("<p>hi</p>")
    srv = make_server(tmp_path, host="::1", port=0)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        resp, body = _get(("::1", srv.server_address[1]), "/")
        assert (resp.status, body) == (200, b"<p>hi</p>")
    finally:
        srv.shutdown()
        srv.server_close()


def test_a_host_that_is_not_ours_names_the_host_not_the_port(tmp_path: Path) -> None:
    from mergecast.errors import PublishError

    with pytest.raises(PublishError) as err:
        make_server(tmp_path, host="192.0.2.1", port=0)  # TEST-NET-1: never this machine
    assert str(err.value) == (
        "cannot listen on 192.0.2.1:0: Cannot assign requested address; check --host names "
        "an address of this machine, such as 127.0.0.1 or ::1"
    )
    with pytest.raises(PublishError) as err:
        make_server(tmp_path, host="fe80::dead:beef", port=0)  # link-local, not ours
    assert str(err.value).startswith("cannot listen on [fe80::dead:beef]:0: ")
    assert str(err.value).endswith("; check --host names an address of this machine, such "
                                   "as 127.0.0.1 or ::1")


def test_a_port_in_use_says_to_pick_another(tmp_path: Path) -> None:
    from mergecast.errors import PublishError

    first = make_server(tmp_path, port=0)
    try:
        with pytest.raises(PublishError) as err:
            make_server(tmp_path, port=first.server_address[1])
        assert str(err.value) == (
            f"cannot listen on 127.0.0.1:{first.server_address[1]}: Address already in use; "
            "pick another --port"
        )
    finally:
        first.server_close()
