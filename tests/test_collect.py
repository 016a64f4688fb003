"""collect: which sources the flags and mergecast.toml name, and how each is read into the store."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from gitrepo import Commit, day
from mergecast import collect, config
from mergecast.collect import Flags
from mergecast.errors import InputError, SourceError
from mergecast.models import Change, State, Window
from mergecast.sources import Cursor, FakeSource
from mergecast.store import Store

WINDOW = Window(day(24), day(25))


def change(n: int, when: dt.datetime) -> Change:
    return Change(repo="o/r", title=f"Change {n}", number=n, merged_at=when, state=State.MERGED)


def test_only_a_full_read_moves_the_cursor(tmp_path: Path) -> None:
    source = FakeSource([change(1, day(24, 15)), change(2, day(26, 9))],
                        cursor=Cursor("fake:o/r", "tip-1"))
    with Store(tmp_path / "m.db") as store:
        windowed = collect.ingest(store, source, WINDOW)
        assert (windowed.source, windowed.repo, windowed.read, windowed.new) == ("fake", "o/r", 1, 1)
        assert store.get_state("fake:o/r") is None  # a windowed read says nothing of the rest
        full = collect.ingest(store, source, None)
        assert (full.read, full.new, full.updated) == (2, 1, 0)
        assert store.get_state("fake:o/r") == "tip-1"
        again = collect.ingest(store, source, None)
    assert source.asked == [(WINDOW, None), (None, None), (None, "tip-1")]  # from the cursor on
    assert again.line() == "fake o/r: 2 read, 0 new, 0 updated"


def test_collect_reads_sources_with_a_cursor_whole_and_the_others_for_the_window(
        tmp_path: Path) -> None:
    kept = FakeSource([change(1, day(24, 15))], cursor=Cursor("k", "t"))
    windowed = FakeSource([change(2, day(24, 15)), change(3, day(20, 9))])
    with Store(tmp_path / "m.db") as store:
        reports = collect.collect(store, [kept, windowed], WINDOW)
    assert [r.read for r in reports] == [1, 1]
    assert kept.asked == [(None, None)] and windowed.asked == [(WINDOW, None)]


def test_ingest_takes_one_source_and_run_adds_them_up(tmp_path: Path, make_repo) -> None:  # type: ignore[no-untyped-def]
    repo = make_repo([Commit("One (#1)", day(24))], origin="https://github.com/o/r.git")
    export = tmp_path / "prs.json"
    cfg = config.parse({"source": {"repo": str(repo), "gh_json": str(export),
                                   "github": "o/r"}}, path=tmp_path / "mergecast.toml")
    with Store(tmp_path / "m.db") as store:
        with pytest.raises(InputError, match="expected one of --repo, --gh-json or --github"):
            collect.chosen(cfg, Flags(repo=repo, github="o/r"), store)
        assert collect.chosen(cfg, Flags(), store).kind == "git"  # [source] repo wins
        assert collect.chosen(cfg, Flags(gh_json=export), store).kind == "gh-json"
        kinds = [s.kind for s in collect.configured(cfg, Flags(), store, environ={"PATH": ""})]
        assert kinds == ["git", "gh-json", "github"]
        bare = config.parse({}, path=tmp_path / "mergecast.toml")
        (only,) = collect.configured(bare, Flags(), store)
        assert (only.kind, only.repo) == ("git", tmp_path.name)  # the config's own folder


def test_a_checkout_is_named_by_flag_then_config_then_remote_then_folder(
        tmp_path: Path, make_repo) -> None:  # type: ignore[no-untyped-def]
    remote = make_repo([Commit("One", day(24))], name="r1", origin="git@github.com:a/b.git")
    plain = make_repo([Commit("One", day(24))], name="plain")
    cfg = config.parse({"source": {"repo": str(plain), "github": "c/d"}},
                       path=tmp_path / "mergecast.toml")
    assert collect.git_source(cfg, remote, None, "x/y").repo == "x/y"
    assert collect.git_source(cfg, plain, None, None).repo == "c/d"
    assert collect.git_source(cfg, remote, None, None).repo == "a/b"
    bare = config.parse({}, path=tmp_path / "mergecast.toml")
    assert collect.git_source(bare, plain, None, None).repo == "plain"


def test_the_ingest_window() -> None:
    show = config.ShowConfig()
    assert collect.window_for_ingest(show, None, None, None, required=False) is None
    assert collect.window_for_ingest(show, "2026-07-25", None, None, required=False) == Window(
        dt.datetime(2026, 7, 24, 13, tzinfo=dt.UTC), dt.datetime(2026, 7, 25, 13, tzinfo=dt.UTC))
    since_only = collect.window_for_ingest(show, None, "2026-07-24", None, required=False)
    assert since_only == Window(dt.datetime(2026, 7, 24, tzinfo=dt.UTC), collect.LATEST)
    with pytest.raises(InputError, match="expected --date DAY, or both --since WHEN"):
        collect.window_for_ingest(show, None, "2026-07-24", None, required=True)


def test_a_reversed_ingest_window_is_refused_before_any_source_is_read() -> None:
    # it used to ingest the whole source, the empty window unnoticed
    show = config.ShowConfig()
    for since, until in (("2026-08-10", "2026-08-01"), ("2026-08-10", "2026-08-10")):
        with pytest.raises(InputError) as err:
            collect.window_for_ingest(show, None, since, until, required=False)
        assert str(err.value) == f"expected --until after --since, got {since} .. {until}"


def test_the_github_source_needs_a_window() -> None:
    from mergecast.sources.github import GitHubSource

    with pytest.raises(SourceError, match="expected --date DAY, or both --since WHEN"):
        GitHubSource("o/r", api_url="http://127.0.0.1:9").fetch(None)


# ---- issue 15 item 15: what a source noticed is said by every command that reads it

def _shallow(make_repo, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    import subprocess

    from gitrepo import GIT_ENV

    repo = make_repo([Commit(f"[core] Step {n} (#{n})", day(20 + n), {"f": b"%d\n" % n})
                      for n in range(1, 5)], origin="https://github.com/o/r.git")
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "2", f"file://{repo}", str(clone)],
                   check=True, env=GIT_ENV)
    return clone


SHALLOW = ("mergecast: warning: {} is a shallow clone; only the commits it holds are read "
           "(run `git fetch --unshallow` there for the full history)\n")


@pytest.mark.parametrize("command", [
    ["ingest"], ["run", "--date", "2026-07-24", "--voice", "none"],
    ["run", "--date", "2026-07-20", "--voice", "none"],  # a quiet day: said all the same
    ["backfill", "--from", "2026-07-23", "--to", "2026-07-24", "--voice", "none"],
])
def test_a_shallow_clone_is_read_with_one_warning_by_every_command(
        make_repo, tmp_path: Path, command: list[str]) -> None:  # type: ignore[no-untyped-def]
    from click.testing import CliRunner

    from mergecast.cli import main

    clone = _shallow(make_repo, tmp_path)
    r = CliRunner().invoke(main, ["--db", str(tmp_path / "m.db"), *command, "--repo", str(clone),
                                  *(["--out", str(tmp_path / "site")] if command[0] != "ingest"
                                    else [])], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert r.stderr.count(SHALLOW.format(clone)) == 1  # said once (publish warns of more)
