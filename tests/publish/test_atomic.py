"""A publish that dies at any moment leaves the previous site whole and valid."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import feedparser
import pytest
from publish_fakes import IDENTITY, SHOW, series, write_media

from mergecast.models import Episode
from mergecast.publish import Publisher, publish_site
from mergecast.publish.swap import recover

HERE = Path(__file__).parent
SRC = HERE.parents[1] / "src"


class Crash(Exception):
    pass


def _snapshot(site: Path) -> dict[str, str]:
    return {str(p.relative_to(site)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(site.rglob("*")) if p.is_file()}


def _assert_valid(site: Path) -> None:
    manifest = json.loads((site / ".mergecast-manifest.json").read_text())
    for rel in manifest["files"]:
        assert (site / rel).is_file(), rel
    for feed in ("feed.xml", "weekly/feed.xml"):
        parsed = feedparser.parse((site / feed).read_bytes())
        assert parsed.bozo == 0, feed
        for entry in parsed.entries:
            folder = site / "episodes" / entry.link.rstrip("/").rsplit("/", 1)[-1]
            assert (folder / "index.html").read_text().rstrip().endswith("</html>")
            for enc in entry.enclosures:
                assert int(enc.length) == (folder / "episode.mp3").stat().st_size


def _leftovers(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".site."))


def _wait_clean(tmp_path: Path) -> list[str]:
    """The previous tree is deleted by a detached process: give it a moment."""
    deadline = time.monotonic() + 30
    while _leftovers(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.05)
    return _leftovers(tmp_path)


def _versions() -> tuple[list[Episode], list[Episode]]:
    old = series(10)
    new = [dataclasses.replace(e, script=dataclasses.replace(e.script, title=e.script.title + "!"))
           for e in old] + series(3, start=old[-1].script.date.replace(day=20))
    return old, new


def test_a_failure_at_every_step_leaves_a_whole_site(tmp_path: Path) -> None:
    old, new = _versions()
    media = write_media(tmp_path / "media", new)
    site = tmp_path / "site"
    steps: list[str] = []
    publish_site(old, site, SHOW, identity=IDENTITY, media=media)
    Publisher(SHOW, identity=IDENTITY, media=media, hook=steps.append).publish(old, tmp_path / "probe")
    assert steps[0] == "start" and steps[-3:] == ["swap", "swapped", "done"]
    assert any(s.startswith("episode:") for s in steps) and "feeds" in steps

    for step in steps:
        publish_site(old, site, SHOW, identity=IDENTITY, media=media)
        before = _snapshot(site)

        def fail(at: str, step: str = step) -> None:
            if at == step:
                raise Crash(step)

        with pytest.raises(Crash):
            Publisher(SHOW, identity=IDENTITY, media=media, hook=fail).publish(new, site)
        _assert_valid(site)
        if step in ("swapped", "done"):
            assert "Widgets news for 2026-03-02!" in (site / "feed.xml").read_text()
        else:
            assert _snapshot(site) == before, step
        assert _wait_clean(tmp_path) == [], step


_CHILD = """
import os, signal, sys
sys.path[:0] = [{here!r}, {src!r}]
from pathlib import Path
from publish_fakes import IDENTITY, SHOW
from test_atomic import _versions
from mergecast.publish import Publisher
step, tmp = sys.argv[1], Path(sys.argv[2])
old, new = _versions()
def hook(at):
    if at == step:
        os.kill(os.getpid(), signal.SIGKILL)
Publisher(SHOW, identity=IDENTITY, media=lambda i: tmp / "media" / i, hook=hook).publish(new, tmp / "site")
"""


@pytest.mark.parametrize("step", ["start", "episode:2026-03-05", "feeds", "swap", "swapped"])
def test_sigkill_mid_publish_leaves_a_whole_site(tmp_path: Path, step: str) -> None:
    old, new = _versions()
    media = write_media(tmp_path / "media", new)
    site = tmp_path / "site"
    publish_site(old, site, SHOW, identity=IDENTITY, media=media)
    before = _snapshot(site)
    child = _CHILD.format(here=str(HERE), src=str(SRC))
    proc = subprocess.run([sys.executable, "-c", child, step, str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    _assert_valid(site)
    if step == "swapped":
        assert _snapshot(site) != before
        assert _leftovers(tmp_path)  # the old tree the dead process did not get to delete
    else:
        assert _snapshot(site) == before
    # The next publish clears the dead run's leftovers and succeeds.
    publish_site(new, site, SHOW, identity=IDENTITY, media=media)
    _assert_valid(site)
    assert _wait_clean(tmp_path) == []


def test_sigkill_at_random_moments_of_a_full_rebuild(tmp_path: Path) -> None:
    old, new = _versions()
    media = write_media(tmp_path / "media", new)
    site = tmp_path / "site"
    publish_site(old, site, SHOW, identity=IDENTITY, media=media)
    before = _snapshot(site)
    child = _CHILD.format(here=str(HERE), src=str(SRC))
    outcomes = set()
    for delay in (0.05, 0.3, 0.6, 0.9, 1.2):
        proc = subprocess.Popen([sys.executable, "-c", child, "never", str(tmp_path)])
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        _assert_valid(site)
        snap = _snapshot(site)
        outcomes.add("old" if snap == before else "new")
        if snap != before:  # it finished the swap: start again from the old site
            publish_site(old, site, SHOW, identity=IDENTITY, media=media)
            before = _snapshot(site)
    assert "old" in outcomes


def test_recover_restores_a_half_done_fallback_swap(tmp_path: Path) -> None:
    site = tmp_path / "site"
    publish_site(series(2), site, SHOW, identity=IDENTITY, media=write_media(tmp_path / "media", series(2)))
    before = _snapshot(site)
    # The two-rename fallback died after moving OUT aside, before moving the new tree in.
    os.rename(site, tmp_path / ".site.old-abc123")
    (tmp_path / ".site.tmp-abc123").mkdir()
    recover(site)
    assert _snapshot(site) == before
    assert _wait_clean(tmp_path) == []
