"""GitHubSource against a real HTTP server on 127.0.0.1 speaking GitHub's response shapes."""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import random
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from github_fake import FakeGitHub, make_pr, serve

from mergecast import collect
from mergecast.errors import AuthError, GitHubError, RateLimitError
from mergecast.models import State, Window
from mergecast.sources.github import GitHubSource, MemoryCache, find_token, resolve_token

TOKEN = "ghp_SECRETtoken1234567890abcdefXYZ"
UTC = dt.UTC
SINCE = dt.datetime(2026, 8, 3, 13, tzinfo=UTC)
UNTIL = dt.datetime(2026, 8, 4, 13, tzinfo=UTC)
WINDOW = Window(SINCE, UNTIL)
JUST_AFTER = UNTIL + dt.timedelta(minutes=5)  # the daily job runs right after the window
GRAPHITE = (
    "* **#7** \U0001f448\n* **#6**\n* `main`\n\n"
    "This stack of pull requests is managed by Graphite. Learn more about stacking."
)


def at(hours: float) -> dt.datetime:
    return SINCE + dt.timedelta(hours=hours)


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    yield from serve(FakeGitHub())


class Sleeper:
    def __init__(self) -> None:
        self.calls: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


def source(fake: FakeGitHub, cache: MemoryCache | None = None, *, token: str | None = TOKEN,
           now: dt.datetime = JUST_AFTER, sleep: Sleeper | None = None, **kw: object,
           ) -> GitHubSource:
    return GitHubSource(
        "o/r", token=token, api_url=fake.url, cache=cache if cache is not None else MemoryCache(),
        sleep=sleep or Sleeper(), clock=lambda: now, rng=random.Random(1), **kw,
    )


def ok(fake: FakeGitHub) -> None:
    fake.prs = [make_pr(1, at(1))]


def test_several_pages_are_read_by_cursor_and_converted(fake: FakeGitHub) -> None:
    fake.prs = [make_pr(n, at(n / 20)) for n in range(1, 251)]
    fake.prs[0] = make_pr(1, at(0.5), merged=at(2), labels=("module: dynamo",),
                          comments=("LGTM", GRAPHITE))
    fake.prs[1] = make_pr(2, at(0.6), author="dependabot[bot]", bot=True)
    fake.prs.append(make_pr(999, at(-30)))  # before the window: not asked for
    changes = source(fake).fetch(WINDOW)
    assert [c.number for c in changes] == list(range(1, 251))
    assert fake.requests == 3
    assert fake.queries()[0] == f"repo:o/r is:pr updated:>={SINCE:%Y-%m-%dT%H:%M:%SZ}"
    first, second = changes[0], changes[1]
    assert first.state is State.MERGED and first.merged_at == at(2)
    assert first.labels == ("module: dynamo",)
    assert first.stack_comment == GRAPHITE
    assert first.files is not None and first.files[1].path == "src/f1.py"
    assert (first.files[1].additions, first.files[1].deletions) == (2, 1)
    assert first.repo == "o/r" and first.base_ref == "main" and first.head_ref == "feature/1"
    assert first.author.login == "alice" and not first.bot
    assert second.bot and second.stack_comment is None


def test_a_502_is_retried_with_backoff(fake: FakeGitHub) -> None:
    ok(fake)
    fake.script.append((502, {}, b"<html>Bad gateway</html>"))
    sleep = Sleeper()
    changes = source(fake, sleep=sleep).fetch(WINDOW)
    assert [c.number for c in changes] == [1]
    assert fake.requests == 2
    assert len(sleep.calls) == 1 and 0.5 <= sleep.calls[0] <= 1.5


def test_5xx_until_retries_run_out_is_one_clear_error(fake: FakeGitHub) -> None:
    fake.script.extend([(503, {}, b"")] * 3)
    with pytest.raises(GitHubError) as err:
        source(fake, retries=2).fetch(WINDOW)
    assert str(err.value) == (
        "GitHub API answered 503 for /graphql after 3 tries; try again later or use --offline"
    )
    assert fake.requests == 3


def test_secondary_rate_limit_honours_retry_after(fake: FakeGitHub) -> None:
    ok(fake)
    body = b'{"message": "You have exceeded a secondary rate limit. Please wait a few minutes."}'
    fake.script.append((403, {"Retry-After": "7"}, body))
    sleep = Sleeper()
    changes = source(fake, sleep=sleep).fetch(WINDOW)
    assert [c.number for c in changes] == [1]
    assert sleep.calls == [7.0]
    assert fake.requests == 2


def test_429_waits_until_the_rate_limit_resets(fake: FakeGitHub) -> None:
    ok(fake)
    reset = int((JUST_AFTER + dt.timedelta(seconds=30)).timestamp())
    headers = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(reset)}
    fake.script.append((429, headers, b"{}"))
    sleep = Sleeper()
    assert len(source(fake, sleep=sleep).fetch(WINDOW)) == 1
    assert sleep.calls == [31.0]


def test_exhausted_budget_says_what_remains_and_when_it_resets(fake: FakeGitHub) -> None:
    reset = int(dt.datetime(2026, 8, 4, 14, 2, 3, tzinfo=UTC).timestamp())
    headers = {"X-RateLimit-Remaining": "0", "X-RateLimit-Limit": "5000",
               "X-RateLimit-Reset": str(reset)}
    fake.script.append((403, headers, b'{"message": "API rate limit exceeded"}'))
    sleep = Sleeper()
    with pytest.raises(RateLimitError) as err:
        source(fake, sleep=sleep).fetch(WINDOW)
    assert str(err.value) == (
        "GitHub rate limit exhausted on /graphql: 0 of 5000 requests remain, the limit resets "
        "at 2026-08-04 14:02:03 UTC; run again after that or use --offline"
    )
    assert sleep.calls == []  # an hour away: fail now rather than hang the daily job


def test_bad_token_is_an_auth_error_with_the_fix(fake: FakeGitHub) -> None:
    fake.script.append((401, {}, b'{"message": "Bad credentials"}'))
    with pytest.raises(AuthError) as err:
        source(fake, token_source="GH_TOKEN").fetch(WINDOW)
    assert str(err.value) == (
        "GitHub rejected the token from GH_TOKEN (401 for /graphql); fix: create a new token "
        "with read access to the repository and set GITHUB_TOKEN, or run `gh auth login`"
    )
    assert err.value.exit_code == 2
    assert fake.seen[0].headers["authorization"] == f"Bearer {TOKEN}"


def test_malformed_json_names_the_url_path(fake: FakeGitHub) -> None:
    fake.script.append((200, {}, b'{"data": {"search": '))
    cache = MemoryCache()
    with pytest.raises(GitHubError) as err:
        source(fake, cache).fetch(WINDOW)
    assert str(err.value).startswith("GitHub API returned malformed JSON for /graphql (")
    assert cache.entries == {}  # a broken answer is never cached


def test_a_pr_with_300_files_is_marked_truncated(fake: FakeGitHub) -> None:
    fake.prs = [make_pr(5, at(2), files=300)]
    [change] = source(fake).fetch(WINDOW)
    assert change.files is not None and len(change.files) == 100
    assert change.files_truncated and change.changed_files == 300
    assert change.additions == sum(range(1, 301))


def test_second_run_of_the_same_day_makes_zero_requests(fake: FakeGitHub) -> None:
    fake.prs = [make_pr(n, at(n / 10)) for n in range(1, 151)]
    cache = MemoryCache(clock=lambda: JUST_AFTER)
    first = source(fake, cache).fetch(WINDOW)
    assert fake.requests == 2  # a 150-PR day: two pages of 100
    later = JUST_AFTER + dt.timedelta(hours=9)  # same day, well past the one-query horizon
    again = source(fake, cache, now=later).fetch(WINDOW)
    assert again == first and fake.requests == 2
    offline = source(fake, cache, offline=True, token=None).fetch(WINDOW)
    assert offline == first and fake.requests == 2


def test_an_open_window_refetches_after_the_cache_ages(fake: FakeGitHub) -> None:
    ok(fake)
    now = at(20)  # the window is still open
    cache = MemoryCache(clock=lambda: now)
    source(fake, cache, now=now).fetch(WINDOW)
    source(fake, cache, now=now + dt.timedelta(minutes=5)).fetch(WINDOW)
    assert fake.requests == 1
    source(fake, cache, now=now + dt.timedelta(minutes=20)).fetch(WINDOW)
    assert fake.requests == 2


def test_offline_without_a_cache_is_a_clear_error(fake: FakeGitHub) -> None:
    with pytest.raises(GitHubError) as err:
        source(fake, offline=True).fetch(WINDOW)
    assert str(err.value) == (
        "--offline: no cached GitHub response for /graphql for this window; run the same "
        "ingest once without --offline to fill the cache"
    )
    assert fake.requests == 0


def test_more_than_1000_results_are_split_into_time_slices(fake: FakeGitHub) -> None:
    fake.prs = [make_pr(n, at(n * 23.9 / 1500), files=0) for n in range(1, 1501)]
    changes = source(fake).fetch(WINDOW)
    assert [c.number for c in changes] == list(range(1, 1501))
    queries = fake.queries()
    assert queries[0].endswith(f"updated:>={SINCE:%Y-%m-%dT%H:%M:%SZ}")
    assert all(".." in q for q in queries[1:])
    assert fake.requests == 1 + 8 + 8  # the capped query, then two halves of ~750


def test_an_old_window_also_finds_prs_updated_after_it(fake: FakeGitHub) -> None:
    fake.prs = [
        make_pr(1, at(2)),  # created and last updated in the window
        make_pr(2, at(3), at(100)),  # created in the window, updated days later
        make_pr(3, at(-50), at(200), merged=at(5)),  # merged in the window, updated later
        make_pr(4, at(-50), at(300)),  # only active later: not kept
        make_pr(5, at(30)),  # after the window
    ]
    long_after = UNTIL + dt.timedelta(days=30)
    changes = source(fake, now=long_after).fetch(WINDOW)
    assert [c.number for c in changes] == [1, 2, 3]
    assert len(fake.queries()) == 4
    assert fake.queries()[1].endswith(f"updated:>{UNTIL:%Y-%m-%dT%H:%M:%SZ}")


def test_without_a_token_uses_rest_search_with_etags_and_warns(fake: FakeGitHub) -> None:
    fake.prs = [make_pr(1, at(1), merged=at(2)), make_pr(2, at(3))]
    now = at(20)
    cache = MemoryCache(clock=lambda: now)
    gh = source(fake, cache, token=None, now=now)
    changes = gh.fetch(WINDOW)
    [warning] = gh.warnings
    assert warning.startswith("no GitHub token (GITHUB_TOKEN, GH_TOKEN or `gh auth token`): ")
    assert "public repositories only, at GitHub's lower limit" in warning
    assert [c.number for c in changes] == [1, 2]
    assert changes[0].state is State.MERGED and changes[0].files is None
    assert fake.seen[0].method == "GET" and "authorization" not in fake.seen[0].headers
    later = now + dt.timedelta(hours=1)  # cache aged: ask again, conditionally
    again = source(fake, cache, token=None, now=later).fetch(WINDOW)
    assert again == changes
    assert fake.requests == 2 and fake.seen[1].headers["if-none-match"].startswith('"')


def test_github_enterprise_graphql_url() -> None:
    gh = GitHubSource("o/r", token=TOKEN, api_url="https://ghe.example.com/api/v3/")
    assert gh.graphql_url == "https://ghe.example.com/api/graphql"
    assert GitHubSource("o/r", api_url="http://127.0.0.1:9").graphql_url == (
        "http://127.0.0.1:9/graphql"
    )


def test_errors_never_carry_the_token(fake: FakeGitHub) -> None:
    body = json.dumps({"message": f"Validation failed for {TOKEN}"}).encode()
    fake.script.append((422, {}, body))
    with pytest.raises(GitHubError) as err:
        source(fake).fetch(WINDOW)
    assert TOKEN not in str(err.value) and "***" in str(err.value)


def _fake_gh(tmp_path: Path, output: str) -> dict[str, str]:
    script = tmp_path / "gh"
    script.write_text(f'#!/bin/sh\necho "$@" > "{tmp_path}/args"\necho {output}\n')
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return {"PATH": f"{tmp_path}{os.pathsep}/usr/bin:/bin"}


def test_token_from_environment_then_gh(tmp_path: Path) -> None:
    assert find_token({"GITHUB_TOKEN": "a", "GH_TOKEN": "b"}) == ("a", "GITHUB_TOKEN")
    assert find_token({"GH_TOKEN": "b", "PATH": ""}) == ("b", "GH_TOKEN")
    assert resolve_token({"PATH": ""}) is None
    env = _fake_gh(tmp_path, "gho_fromgh")
    assert find_token(env) == ("gho_fromgh", "`gh auth token`")
    assert (tmp_path / "args").read_text().strip() == "auth token"
    assert resolve_token(env, "https://ghe.example.com/api/v3") == "gho_fromgh"
    assert (tmp_path / "args").read_text().strip() == "auth token --hostname ghe.example.com"


def ingest_github(cfg, store, slug: str, window: Window, offline: bool, *,  # type: ignore[no-untyped-def]
                  environ: dict[str, str]) -> int:
    """The GitHub source read into the store as `ingest --github` reads it; how many PRs."""
    source = collect.github_source(cfg, slug, store, offline=offline, environ=environ)
    return collect.ingest(store, source, window).read


def test_whole_ingest_never_stores_or_logs_the_token(
    fake: FakeGitHub, tmp_path: Path, caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    store_mod = pytest.importorskip("mergecast.store")
    from mergecast import config as config_mod

    fake.prs = [make_pr(n, at(n / 10), comments=(GRAPHITE,)) for n in range(1, 151)]
    db = tmp_path / "mc.db"
    cfg = config_mod.parse({"github": {"api_url": fake.url}})
    env = {"GITHUB_TOKEN": TOKEN, "PATH": ""}
    with caplog.at_level(logging.DEBUG), store_mod.Store(db) as store:
        assert ingest_github(cfg, store, "o/r", WINDOW, False, environ=env) == 150
        requests = fake.requests
        assert requests == 5  # a past day: the four-query plan, one needing two pages
        assert ingest_github(cfg, store, "o/r", WINDOW, False, environ=env) == 150
        assert fake.requests == requests  # same day again: zero requests
        assert ingest_github(cfg, store, "o/r", WINDOW, True, environ={"PATH": ""}) == 150
        assert fake.requests == requests
        stored = store.changes_in(WINDOW)
    assert len(stored) == 150 and stored[0].stack_comment == GRAPHITE
    assert all(s.headers["authorization"] == f"Bearer {TOKEN}" for s in fake.seen)
    needle = TOKEN.encode()
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert needle not in path.read_bytes(), path
    out = capsys.readouterr()
    assert TOKEN not in caplog.text + out.out + out.err


def _cli(args: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    from click.testing import CliRunner

    from mergecast.cli import main

    full = {"GITHUB_TOKEN": "", "GH_TOKEN": "", "PATH": "", **env}
    result = CliRunner().invoke(main, args, env=full, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_cli_ingest_github_end_to_end(fake: FakeGitHub, tmp_path: Path) -> None:
    pytest.importorskip("mergecast.store")
    fake.prs = [make_pr(n, at(n / 10)) for n in range(1, 151)] + [make_pr(500, at(-40))]
    db = str(tmp_path / "mc.db")
    env = {"GITHUB_TOKEN": TOKEN, "GITHUB_API_URL": fake.url}
    args = ["--db", db, "ingest", "--github", "o/r", "--date", "2026-08-04"]
    code, out, err = _cli(args, env)
    assert (code, err) == (0, "")
    assert out.startswith("ingested 150 changes from o/r")
    requests = fake.requests
    code, out, err = _cli(args + ["--offline"], {"GITHUB_API_URL": fake.url})
    assert code == 0 and out.startswith("ingested 150 changes") and fake.requests == requests
    code, out, _ = _cli(["--db", db, "changes", "--date", "2026-08-04", "--json"], {})
    assert code == 0 and sorted(c["number"] for c in json.loads(out)) == list(range(1, 151))
    assert TOKEN.encode() not in b"".join(p.read_bytes() for p in tmp_path.iterdir())


def test_cli_bad_token_is_one_line_and_exit_2(fake: FakeGitHub, tmp_path: Path) -> None:
    pytest.importorskip("mergecast.store")
    fake.script.append((401, {}, b'{"message": "Bad credentials"}'))
    env = {"GITHUB_TOKEN": TOKEN, "GITHUB_API_URL": fake.url}
    code, out, err = _cli(["--db", str(tmp_path / "mc.db"), "ingest", "--github", "o/r",
                           "--date", "2026-08-04"], env)
    assert code == 2 and out == ""
    assert err == (
        "mergecast: GitHub rejected the token from GITHUB_TOKEN (401 for /graphql); fix: create "
        "a new token with read access to the repository and set GITHUB_TOKEN, or run "
        "`gh auth login`\n"
    )


def test_cli_without_a_token_warns_on_stderr(fake: FakeGitHub, tmp_path: Path) -> None:
    pytest.importorskip("mergecast.store")
    fake.prs = [make_pr(1, at(1))]
    code, out, err = _cli(["--db", str(tmp_path / "mc.db"), "ingest", "--github", "o/r",
                           "--date", "2026-08-04"], {"GITHUB_API_URL": fake.url})
    assert code == 0 and out.startswith("ingested 1 changes from o/r")
    assert "no GitHub token" in err and "lower limit" in err
    assert fake.seen[0].method == "GET"


# --------------------------------------------------------------------------- hostile servers
# Each test below runs one hostile mode of github_fake.FakeGitHub.

LONG = "x" * 170  # puts the echoed token across the 200-character cut


def _runs_of(secret: str, text: str, run: int = 8) -> list[str]:
    """Every `run`-character piece of `secret` that appears in `text`."""
    return [secret[i:i + run] for i in range(len(secret) - run + 1) if secret[i:i + run] in text]


def test_a_403_message_is_redacted_before_it_is_cut(fake: FakeGitHub) -> None:
    body = json.dumps({"message": f"Forbidden for {LONG} {TOKEN} end"}).encode()
    fake.script.append((403, {}, body))
    with pytest.raises(GitHubError) as err:
        source(fake).fetch(WINDOW)
    assert _runs_of(TOKEN, str(err.value)) == []
    assert str(err.value) == (
        f"GitHub refused /graphql (403 Forbidden for {LONG} *** end); the token from "
        "GITHUB_TOKEN lacks access to this repository; grant it read access to pull requests"
    )


def test_a_graphql_error_is_redacted_before_it_is_cut(fake: FakeGitHub) -> None:
    fake.graphql_error = "Resource not accessible " + "y" * 240  # the token at 283..300
    fake.echo_token = True
    with pytest.raises(GitHubError) as err:
        source(fake).fetch(WINDOW)
    message = str(err.value)
    assert _runs_of(TOKEN, message) == []
    assert message == (
        "GitHub GraphQL error on /graphql: Resource not accessible " + "y" * 240
        + " [you sent: Bearer ***] []"
    )


def test_partial_token_runs_are_redacted() -> None:
    gh = GitHubSource("o/r", token=TOKEN, api_url="http://127.0.0.1:9")
    cut = TOKEN[:12]
    assert gh.client.redact(f"token starts {cut}; tail {TOKEN[-9:]}; short {TOKEN[:7]}") == (
        "token starts ***; tail ***; short ghp_SEC"
    )


def test_a_200_echoing_the_token_is_scrubbed_before_use_and_cache(fake: FakeGitHub) -> None:
    fake.prs = [make_pr(1, at(1), title="Echo me")]
    fake.echo_token, fake.echo_cut = True, 20
    cache = MemoryCache()
    [change] = source(fake, cache).fetch(WINDOW)
    assert change.title == "Echo me [you sent: Bearer ***] [Bearer ***]"
    assert _runs_of(TOKEN, change.body) == []
    [entry] = cache.entries.values()
    assert _runs_of(TOKEN, entry.body.decode()) == []
    again = source(fake, cache, offline=True, token=None).fetch(WINDOW)
    assert again == [change]


def test_a_200_echoing_the_token_never_reaches_the_store(fake: FakeGitHub, tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    from mergecast import config as config_mod
    from mergecast.store import Store

    fake.prs = [make_pr(n, at(n)) for n in range(1, 4)]
    fake.echo_token, fake.echo_cut = True, 11
    cfg = config_mod.parse({"github": {"api_url": fake.url}})
    with caplog.at_level(logging.DEBUG), Store(tmp_path / "mc.db") as store:
        ingest_github(cfg, store, "o/r", WINDOW, False,
                      environ={"GITHUB_TOKEN": TOKEN, "PATH": ""})
        assert len(store.changes_in(WINDOW)) == 3
    files = [p for p in tmp_path.iterdir() if p.is_file()]
    assert {p.name for p in files} >= {"mc.db"}
    for path in files:  # the db, and its WAL and shm when they are still there
        assert _runs_of(TOKEN, path.read_bytes().decode("latin-1")) == [], path.name
    assert _runs_of(TOKEN, caplog.text) == []
    assert "GitHub API answer for /graphql carried a secret of ours; it was scrubbed" in caplog.text


def test_a_server_inflating_its_count_is_stopped_after_a_few_requests(fake: FakeGitHub) -> None:
    fake.prs = [make_pr(1, at(1))]
    fake.issue_count = 5000  # every slice, however small, claims 5,000 results
    with pytest.raises(GitHubError) as err:
        source(fake).fetch(WINDOW)
    assert fake.requests < 20
    assert str(err.value).startswith("GitHub API answered 5000 results for 'repo:o/r is:pr ")
    assert str(err.value).endswith(
        "', more than the 0 left of the wider search it is part of; the server's counts are "
        "inconsistent: check GITHUB_API_URL or [github] api_url points at GitHub")


def test_a_server_that_never_stops_paging_is_read_at_most_ten_pages(fake: FakeGitHub) -> None:
    fake.prs = [make_pr(1, at(1))]
    fake.endless = True
    changes = source(fake).fetch(WINDOW)
    assert fake.requests == 10
    assert [c.number for c in changes][:2] == [1, 100_001]


def test_requests_per_run_are_bounded(fake: FakeGitHub) -> None:
    fake.prs = [make_pr(n, at(n / 100)) for n in range(1, 400)]
    with pytest.raises(GitHubError) as err:
        source(fake, max_requests=3).fetch(WINDOW)
    assert fake.requests == 3
    assert str(err.value) == (
        f"GitHub API at {fake.url} needed more than 3 requests in this run (the last for "
        "/graphql); a real window never does: check GITHUB_API_URL or [github] api_url points "
        "at GitHub, or ingest a shorter window with --since/--until"
    )


def test_json_nested_100000_deep_is_one_clear_error(fake: FakeGitHub) -> None:
    fake.nesting = 100_000
    with pytest.raises(GitHubError) as err:
        source(fake).fetch(WINDOW)
    assert str(err.value) == (
        "GitHub API returned JSON nested too deeply to read for /graphql; check "
        "GITHUB_API_URL or [github] api_url points at a GitHub API, then retry"
    )


@pytest.mark.parametrize("headers", [
    {"Retry-After": "1" + "0" * 21},
    {"Retry-After": "9" * 5000},
    {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1" + "0" * 21},
    {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "\u00b2", "Retry-After": "\u00b3"},
])
def test_absurd_rate_limit_headers_are_one_clear_error(fake: FakeGitHub,
                                                       headers: dict[str, str]) -> None:
    fake.script.append((429, headers, b'{"message": "slow down"}'))
    fake.script.append((429, headers, b'{"message": "slow down"}'))
    sleep = Sleeper()
    with pytest.raises(RateLimitError) as err:
        source(fake, sleep=sleep, retries=1).fetch(WINDOW)
    assert sleep.calls in ([], [60.0])  # never a wait of 10**21 seconds
    when = "an unknown time (the server named one more than ten years away)"
    if "\u00b2" in headers.values() or headers.get("X-RateLimit-Reset", "").startswith("1" + "0"):
        when = "unknown"
    assert str(err.value) == (
        f"GitHub rate limit exhausted on /graphql: {headers.get('X-RateLimit-Remaining', '?')} "
        f"of ? requests remain, the limit resets at {when}; run again after that or use "
        "--offline"
    )


def test_an_absurd_result_count_is_cut_in_the_error(fake: FakeGitHub) -> None:
    body = json.dumps({"data": {"search": {"issueCount": 10 ** 30, "nodes": []}}}).encode()
    fake.script.append((200, {}, body))
    with pytest.raises(GitHubError) as err:
        source(fake).fetch(WINDOW)
    assert str(err.value) == (
        "GitHub API returned an unexpected result count for /graphql: 1000000000000000000000000000000"
    )


def test_an_answer_larger_than_64_mb_is_refused_not_read_whole(fake: FakeGitHub) -> None:
    fake.prs = [make_pr(1, at(1))]
    fake.padding = 65 * 2**20
    with pytest.raises(GitHubError) as err:
        source(fake).fetch(WINDOW)
    assert str(err.value) == (
        "GitHub API answered more than 64 MB for /graphql; a page of 100 pull requests is a "
        "few MB: check GITHUB_API_URL or [github] api_url points at GitHub"
    )


def test_terminal_escapes_in_a_server_message_never_reach_the_error(fake: FakeGitHub) -> None:
    body = json.dumps({"message": "Nope\x1b]0;pwned\x07 \u202eevil\x1b[2J done"}).encode()
    fake.script.append((422, {}, body))
    with pytest.raises(GitHubError) as err:
        source(fake).fetch(WINDOW)
    assert str(err.value) == (
        "GitHub API answered 422 for /graphql (Nope evil done); check the "
        "repository name and GITHUB_API_URL or [github] api_url"
    )


HOSTILE_MODES = {
    "200 echoing the token": ({"echo_token": True, "echo_cut": 13}, []),
    "GraphQL error echoing the token": (
        {"echo_token": True, "graphql_error": "denied " + "z" * 270}, []),
    "403 echoing the token": ({}, [(403, {}, json.dumps(
        {"message": f"no access for {'y' * 170} {TOKEN}"}).encode())]),
    "401 echoing the token": ({}, [(401, {}, json.dumps({"message": f"bad {TOKEN}"}).encode())]),
    "422 echoing a cut token": ({}, [(422, {}, json.dumps(
        {"message": f"bad {TOKEN[:-3]}"}).encode())]),
    "inflated issueCount": ({"issue_count": 5000}, []),
    "endless pages": ({"endless": True}, []),
    "JSON nested 100,000 deep": ({"nesting": 100_000}, []),
    "Retry-After 10**21": ({}, [(429, {"Retry-After": "1" + "0" * 21}, b"{}")] * 5),
}


@pytest.mark.parametrize("mode", list(HOSTILE_MODES))
def test_cli_run_against_each_hostile_mode_leaks_nothing_and_ends_cleanly(
        fake: FakeGitHub, tmp_path: Path, mode: str) -> None:
    attrs, script = HOSTILE_MODES[mode]
    fake.prs = [make_pr(n, at(n)) for n in range(1, 4)]
    for name, value in attrs.items():
        setattr(fake, name, value)
    fake.script.extend(script)
    env = {"GITHUB_TOKEN": TOKEN, "GITHUB_API_URL": fake.url}
    code, out, err = _cli(["--db", str(tmp_path / "mc.db"), "run", "--github", "o/r",
                           "--date", "2026-08-04", "--voice", "none", "--out",
                           str(tmp_path / "site")], env)
    assert code in (0, 1, 2) and "Traceback" not in err
    failure = [line for line in err.splitlines() if not line.startswith("mergecast: warning: ")]
    assert code == 0 or len(failure) == 1  # a failure is one line (beside any warnings)
    assert fake.requests <= 40
    assert _runs_of(TOKEN, out + err) == []
    for path in tmp_path.rglob("*"):  # the store, its WAL, the site, the media
        if path.is_file():
            assert _runs_of(TOKEN, path.read_bytes().decode("latin-1")) == [], path


def test_each_file_has_the_status_graphql_gives_and_an_odd_one_is_unknown(
        fake: FakeGitHub) -> None:
    pr = make_pr(5, at(2), files=6)
    kinds = ["ADDED", "DELETED", "RENAMED", "MODIFIED", "SPLIT", 7]  # the last two: no status
    pr["files"]["nodes"] = [{**n, "changeType": k} for n, k in zip(pr["files"]["nodes"], kinds, strict=True)]
    fake.prs = [pr]
    [change] = source(fake).fetch(WINDOW)
    assert change.files is not None
    assert [f.status.value for f in change.files] == [
        "added", "deleted", "renamed", "modified", "unknown", "unknown"]
    assert all(f.previous_path is None for f in change.files)  # GraphQL gives no old path
    assert "changeType" in json.loads(fake.seen[0].body)["query"]
