"""The swap that makes a new site live: through a link, never half-done, one line on failure."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from publish_fakes import IDENTITY, SHOW, series, write_media

from mergecast import pipeline
from mergecast.cli import main
from mergecast.config import Config, StoreConfig
from mergecast.errors import InputError, PublishError
from mergecast.publish import Publisher
from mergecast.publish.swap import Staging

sys.path.insert(0, str(Path(__file__).parents[1]))
from fsfaults import fill, read_only, small_disk  # noqa: E402

PR = {"number": 5, "title": "Fix the parser", "url": "https://github.com/o/r/pull/5",
      "createdAt": "2026-08-10T10:00:00Z", "state": "OPEN"}


def _publish(tmp_path: Path, out: Path, count: int = 3) -> None:
    episodes = series(count)
    media = write_media(tmp_path / "media", episodes)
    Publisher(SHOW, identity=IDENTITY, media=media, background_cleanup=False).publish(episodes, out)


def _snapshot(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*"))
            if p.is_file()}


def _temps(folder: Path) -> list[str]:
    """Staging leftovers beside OUT, once the detached remover of the old tree is done."""
    deadline = time.monotonic() + 30
    while True:
        left = sorted(p.name for p in folder.iterdir() if ".tmp-" in p.name or ".old-" in p.name)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def _cli(tmp_path: Path, *args: object):  # noqa: ANN202 - click's Result
    return CliRunner().invoke(main, ["--db", str(tmp_path / "m.db"), *map(str, args)])


@pytest.fixture
def stored(tmp_path: Path) -> Path:
    """A store holding one episode (made by the real `run`), for `publish` to render."""
    (tmp_path / "prs.json").write_text(json.dumps([PR]))
    done = _cli(tmp_path, "run", "--gh-json", tmp_path / "prs.json", "--repo-name", "o/r",
                "--date", "2026-08-10", "--voice", "none", "--out", tmp_path / "first")
    assert done.exit_code == 0, done.output
    return tmp_path


def test_out_as_a_link_publishes_through_it(tmp_path: Path) -> None:
    real = tmp_path / "srv" / "real"
    real.mkdir(parents=True)
    link = tmp_path / "www"
    link.symlink_to(real)
    _publish(tmp_path, link, 2)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert (real / "feed.xml").is_file()
    _publish(tmp_path, link, 3)  # a second publish updates the same target
    assert link.is_symlink() and len(list((real / "episodes").iterdir())) == 3
    assert _temps(tmp_path) == [] and _temps(real.parent) == []


def test_cli_out_as_a_link(stored: Path) -> None:
    real = stored / "real"
    real.mkdir()
    (stored / "www").symlink_to(real)
    for _ in range(2):
        done = _cli(stored, "publish", "--out", stored / "www")
        assert done.exit_code == 0, done.output
    assert (stored / "www").is_symlink() and (real / "episodes" / "2026-08-10").is_dir()
    assert _temps(stored) == []


def test_the_root_folder_is_refused(stored: Path) -> None:
    done = _cli(stored, "publish", "--out", "/")
    assert (done.exit_code, done.stdout) == (2, "")
    assert done.stderr == (
        "mergecast: cannot use / for mergecast's files: it is the root folder, and a lock, a "
        "store or a site needs a folder of its own; pass --out or --db with a path such as "
        "./site\n"
    )
    with pytest.raises(InputError) as err:
        Staging(Path("/"))
    assert str(err.value) == (
        "cannot publish to /: it is the root folder, and a site is built beside its folder "
        "and swapped in; pass --out with a folder such as ./site"
    )


def test_an_unwritable_parent_is_one_line(stored: Path) -> None:
    parent = stored / "ro"
    parent.mkdir()
    with read_only(parent):
        done = _cli(stored, "publish", "--out", parent / "site")
    assert (done.exit_code, done.stdout) == (1, "")
    # The site's lock lives in the store's folder, so the site's own folder is what fails.
    assert done.stderr.startswith(
        f"mergecast: cannot prepare the output folder {parent / 'site'}: ")
    assert done.stderr.endswith("; check that its parent folder exists and is writable\n")
    assert done.stderr.count("\n") == 1


def test_a_lock_file_we_may_not_write_still_locks(stored: Path) -> None:
    site_lock = pipeline.site_lock(Config(store=StoreConfig(stored / "m.db")), stored / "site")
    lock = site_lock.with_name(site_lock.name + ".lock")  # beside the store, as run makes it
    lock.touch()
    with read_only(lock):
        done = _cli(stored, "publish", "--out", stored / "site")
    assert done.exit_code == 0, done.output
    assert (stored / "site" / "feed.xml").is_file()


def test_a_read_only_folder_in_the_site_is_refused_before_the_swap(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _publish(tmp_path, site, 2)
    before = _snapshot(site)
    stuck = site / "episodes"
    with read_only(stuck), pytest.raises(PublishError) as err:
        _publish(tmp_path, site, 3)
    assert str(err.value) == (
        f"cannot replace {site}: {stuck} is read-only, so the old site could not be removed "
        f"after the swap; make it writable (chmod -R u+w {site}) or pass another --out "
        "(the published site is unchanged)"
    )
    assert _snapshot(site) == before and _temps(tmp_path) == []


def test_cli_a_full_disk_during_publish_leaves_the_site_as_it_was(stored: Path) -> None:
    with small_disk(stored / "disk", 2048) as disk:
        site = disk / "site"
        assert _cli(stored, "publish", "--out", site).exit_code == 0
        before = _snapshot(site)
        fill(disk, leave=4096)
        done = _cli(stored, "publish", "--out", site)
        assert _snapshot(site) == before and _temps(disk) == []
    assert (done.exit_code, done.stdout) == (1, "")
    assert done.stderr == (
        f"mergecast: cannot publish to {site}: the disk is full; free some space and run "
        "again (the published site is unchanged)\n"
    )


def test_a_site_named_like_a_glob_cleans_up_only_its_own_leftovers(tmp_path: Path) -> None:
    other = tmp_path / ".mine.tmp-keep"  # someone else's folder, not ours to remove
    other.mkdir()
    (other / "notes.txt").write_text("keep me")
    _publish(tmp_path, tmp_path / "*", 2)
    _publish(tmp_path, tmp_path / "site[1]", 2)
    assert (other / "notes.txt").read_text() == "keep me"
    assert (tmp_path / "*" / "feed.xml").is_file() and (tmp_path / "site[1]" / "feed.xml").is_file()
