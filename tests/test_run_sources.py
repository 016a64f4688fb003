"""A GitHub failure must not cost the day: `run` and `backfill` against a GitHub server on
127.0.0.1 that refuses connections, answers 503, or rejects the token, with a real git
checkout beside it."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from mergecast.cli import main
from sources.github_fake import FakeGitHub, serve
from test_run import history

TOKEN = "ghp_testtoken0123456789abcdefABCDEF"
SKIPPED = ("mergecast: warning: skipped the GitHub source o/r: {why}. The episode is made "
           "from the other sources and what is already stored (pass --strict to fail instead)")


@pytest.fixture
def fake():
    yield from serve(FakeGitHub())


@pytest.fixture
def refused() -> str:
    """The URL of a port on 127.0.0.1 that nothing listens on: connections are refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def project(tmp_path: Path, repo: Path | None) -> Path:
    conf = tmp_path / "mergecast.toml"
    source = f'repo = "{repo}"\n' if repo else ""
    conf.write_text(f'[show]\nname = "Demo"\nbase_url = "https://example.org/cast/"\n'
                    'email = "cast@example.org"\n'
                    f'[source]\n{source}github = "o/r"\n'
                    "[github]\nretries = 0\ntimeout = 5\n", encoding="utf-8")
    return conf


def cli(api: str, *args: object):
    env = {"GITHUB_API_URL": api, "GITHUB_TOKEN": TOKEN, "GH_TOKEN": None}
    return CliRunner(env=env).invoke(main, [str(a) for a in args], catch_exceptions=False)


def warnings_in(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("mergecast: warning:")]


def test_github_refusing_connections_skips_it_and_makes_the_episode_from_git(
        make_repo, tmp_path, refused):
    conf = project(tmp_path, make_repo(history(), origin="https://github.com/o/r.git"))
    r = cli(refused, "--config", conf, "run", "--date", "2026-07-24", "--voice", "none")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("published: 2026-07-24 — ")
    assert (tmp_path / "site/episodes/2026-07-24/index.html").is_file()
    [warning] = warnings_in(r.stderr)
    assert warning.startswith("mergecast: warning: skipped the GitHub source o/r: GitHub API at "
                              f"{refused}/graphql did not answer (ConnectError: ")
    assert warning.endswith("(pass --strict to fail instead)")
    assert TOKEN[4:12] not in r.output
    assert "  ingest " in r.stderr and "github o/r: skipped" in r.stderr


def test_github_answering_503_is_one_warning_line_and_exit_0(make_repo, tmp_path, fake):
    conf = project(tmp_path, make_repo(history(), origin="https://github.com/o/r.git"))
    fake.script.append((503, {}, b"<html>down for maintenance</html>"))
    r = cli(fake.url, "--config", conf, "run", "--date", "2026-07-24", "--voice", "none")
    assert r.exit_code == 0, r.output
    assert warnings_in(r.stderr) == [SKIPPED.format(
        why="GitHub API answered 503 for /graphql after 1 tries; try again later or use "
            "--offline")]
    assert r.stdout.startswith("published: 2026-07-24")


def test_a_rejected_token_is_skipped_too_and_strict_makes_it_fail(make_repo, tmp_path, fake):
    conf = project(tmp_path, make_repo(history(), origin="https://github.com/o/r.git"))
    fake.script.append((401, {}, b'{"message": "Bad credentials"}'))
    r = cli(fake.url, "--config", conf, "run", "--date", "2026-07-24", "--voice", "none")
    assert r.exit_code == 0, r.output
    [warning] = warnings_in(r.stderr)
    assert "GitHub rejected the token from GITHUB_TOKEN (401 for /graphql)" in warning

    fake.script.append((401, {}, b'{"message": "Bad credentials"}'))
    strict = cli(fake.url, "--config", conf, "run", "--date", "2026-07-25", "--voice", "none",
                 "--strict")
    assert strict.exit_code == 2
    assert strict.stderr.splitlines()[-1].startswith(
        "mergecast: GitHub rejected the token from GITHUB_TOKEN (401 for /graphql); fix: ")
    assert warnings_in(strict.stderr) == []
    assert not (tmp_path / "site/episodes/2026-07-25").exists()


def test_offline_without_a_cached_answer_makes_the_episode_from_git(make_repo, tmp_path,
                                                                     refused):
    conf = project(tmp_path, make_repo(history(), origin="https://github.com/o/r.git"))
    r = cli(refused, "--config", conf, "run", "--date", "2026-07-24", "--voice", "none",
            "--offline")
    assert r.exit_code == 0, r.output
    assert warnings_in(r.stderr) == [SKIPPED.format(
        why="--offline: no cached GitHub response for /search/issues for this window; run the "
            "same ingest once without --offline to fill the cache")]


def test_with_nothing_local_the_github_error_stops_the_run(tmp_path, refused):
    conf = project(tmp_path, None)  # [source] github alone: no git checkout, an empty store
    r = cli(refused, "--config", conf, "run", "--date", "2026-07-24", "--voice", "none")
    assert r.exit_code == 1
    assert warnings_in(r.stderr) == []
    assert r.stderr.splitlines()[-1].startswith(
        f"mergecast: GitHub API at {refused}/graphql did not answer (ConnectError: ")
    assert not (tmp_path / "site").exists()


def test_backfill_skips_a_down_github_and_reports_it_in_json(make_repo, tmp_path, refused):
    import json

    conf = project(tmp_path, make_repo(history(), origin="https://github.com/o/r.git"))
    r = cli(refused, "--config", conf, "backfill", "--from", "2026-07-23", "--to", "2026-07-25",
            "--voice", "none", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["made"] == ["2026-07-23", "2026-07-24", "2026-07-25"]
    github = [s for s in data["sources"] if s["source"] == "github"]
    assert github[0]["skipped"].startswith("skipped the GitHub source o/r: GitHub API at ")
    assert data["warnings"] == [github[0]["skipped"]]
    assert len(warnings_in(r.stderr)) == 1
