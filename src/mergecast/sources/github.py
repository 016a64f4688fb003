"""GitHub source: a window's pull-request activity from the API, cached and rate-limit aware.

With a token: GraphQL search (`repo:o/r is:pr updated:A..B`), 100 PRs a page with
files, sizes and the first comments (for Graphite's stack comment). Without one: the
REST search API, which GitHub serves unauthenticated for public repositories at a much
lower limit and without files or sizes. GitHub search stops at 1,000 results per query,
so a window with more is split into smaller time slices.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import random
import shutil
import subprocess
import time
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx

from ..dates import as_utc
from ..errors import GitHubError, SourceError
from ..models import Change, Window
from . import Cursor
from ._github_cache import CachedResponse, Clock, HttpCache, MemoryCache, utcnow
from ._github_http import MAX_REQUESTS, Client, FreshFn, Sleep
from ._github_shapes import ShapeError, change_from_pr, change_from_search_item

__all__ = ["DEFAULT_API_URL", "GitHubSource", "HttpCache", "MemoryCache", "api_base",
           "find_token", "resolve_token"]

log = logging.getLogger("mergecast.sources.github")

DEFAULT_API_URL = "https://api.github.com"
SEARCH_CAP = 1000  # GitHub search returns at most this many results per query
PAGE_SIZE = 100
MAX_PAGES = SEARCH_CAP // PAGE_SIZE  # more pages than this is a server that never stops
COMMENTS = 5  # Graphite posts its stack comment first; a few covers bots that beat it
# A window that ended this recently is covered by one `updated:>=SINCE` query; older
# windows also need PRs created/merged/closed in them but updated since.
_RECENT = dt.timedelta(hours=6)
_MIN_SLICE = dt.timedelta(minutes=1)
# Cached pages of a window still open are reused for this long.
MAX_AGE = dt.timedelta(minutes=15)

QUERY = """
query($q: String!, $first: Int!, $after: String) {
  rateLimit { cost remaining resetAt }
  search(query: $q, type: ISSUE, first: $first, after: $after) {
    issueCount
    pageInfo { hasNextPage endCursor }
    nodes {
      ... on PullRequest {
        number title body url state isDraft createdAt updatedAt mergedAt closedAt
        author { login __typename } authorAssociation
        labels(first: 50) { nodes { name } }
        baseRefName headRefName additions deletions changedFiles
        files(first: 100) {
          totalCount pageInfo { hasNextPage } nodes { path additions deletions changeType }
        }
        comments(first: COMMENTS) { nodes { body } }
      }
    }
  }
}
""".replace("COMMENTS", str(COMMENTS))


@dataclass(frozen=True)
class _Slice:
    """One search query: `field` between lo and hi (hi None: open-ended), plus extra terms."""

    field: str
    lo: dt.datetime
    hi: dt.datetime | None
    extra: str = ""

    def terms(self) -> str:
        rng = f">={_iso(self.lo)}" if self.hi is None else f"{_iso(self.lo)}..{_iso(self.hi)}"
        return f"{self.field}:{rng}" + (f" {self.extra}" if self.extra else "")

    def halves(self, now: dt.datetime) -> tuple[_Slice, _Slice] | None:
        hi = self.hi or now
        if hi - self.lo <= _MIN_SLICE:
            return None
        mid = (self.lo + (hi - self.lo) / 2).replace(microsecond=0)
        return (
            _Slice(self.field, self.lo, mid, self.extra),
            _Slice(self.field, mid, hi, self.extra),
        )


class GitHubSource:
    """Pull requests of one repository active in a window (created/updated/merged/closed).

    No cursor: the HTTP cache makes a repeated window cost nothing instead.
    """

    kind = "github"

    def __init__(
        self,
        slug: str,
        *,
        token: str | None = None,
        api_url: str | None = None,
        cache: HttpCache | None = None,
        transport: httpx.BaseTransport | None = None,
        offline: bool = False,
        sleep: Sleep = time.sleep,
        clock: Clock = utcnow,
        timeout: float = 30.0,
        retries: int = 4,
        max_wait: float = 900.0,
        token_source: str = "GITHUB_TOKEN",
        rng: random.Random | None = None,
        max_requests: int = MAX_REQUESTS,
    ) -> None:
        self.slug = slug
        self.api_url = (api_url or DEFAULT_API_URL).rstrip("/")
        self.clock = clock
        self.client = Client(
            token=token or None, token_source=token_source, cache=cache, transport=transport,
            offline=offline, sleep=sleep, clock=clock, timeout=timeout, retries=retries,
            max_wait=max_wait, rng=rng or random.Random(), max_requests=max_requests,
        )
        self._graphql = bool(token)
        self.warnings: list[str] = []  # also logged; the CLI prints them

    def _warn(self, message: str) -> None:
        message = self.client.redact(message)
        self.warnings.append(message)
        log.info("warning: %s", message)  # info: the CLI prints self.warnings itself

    @property
    def requests(self) -> int:
        """HTTP requests sent so far (cache hits cost none)."""
        return self.client.requests

    @property
    def graphql_url(self) -> str:
        # GitHub Enterprise Server: REST at https://HOST/api/v3, GraphQL at https://HOST/api/graphql
        if self.api_url.endswith("/api/v3"):
            return self.api_url[: -len("/v3")] + "/graphql"
        return self.api_url + "/graphql"

    @property
    def _rest_url(self) -> str:
        return self.api_url + "/search/issues"

    def close(self) -> None:
        self.client.close()

    def __enter__(self) -> GitHubSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def repo(self) -> str:
        return self.slug

    def cursor(self) -> Cursor | None:
        return None

    def fetch(self, window: Window | None, after: str | None = None) -> list[Change]:
        """Every PR active in the window, read whole before anything is stored."""
        del after  # no cursor
        if window is None:
            raise SourceError("expected --date DAY, or both --since WHEN and --until WHEN")
        now = self.clock()
        fresh = _freshness(window, now)
        recent = [_Slice("updated", window.since, None)]
        later = f"updated:>{_iso(window.until)}"
        full = [_Slice("updated", window.since, window.until)] + [
            _Slice(kind, window.since, window.until, later)
            for kind in ("created", "merged", "closed")
        ]
        self._graphql = bool(self.client.token) or (
            self.client.offline and (self._peek(recent, True) or self._peek(full, True)) is not None
        )
        if not self._graphql and not self.client.offline:
            self._warn(
                "no GitHub token (GITHUB_TOKEN, GH_TOKEN or `gh auth token`): using the "
                "unauthenticated search API, public repositories only, at GitHub's lower limit "
                "(10 searches a minute) and without file lists, sizes or stack comments; "
                "set GITHUB_TOKEN for full data"
            )
        # A window that closed long ago needs the four-query plan, unless the one-query
        # plan was fetched after it closed (then that is complete and costs nothing).
        plan = full
        entry = self._peek(recent, self._graphql)
        if now - window.until <= _RECENT or (
            entry is not None and as_utc(entry.stored_at) >= window.until
        ):
            plan = recent
        found: dict[int, Change] = {}
        for part in plan:
            for change in self._search(part, now, fresh):
                if change.active_in(window):
                    found[change.number or 0] = change
        log.info("GitHub %s: %d pull requests in %d requests", self.slug, len(found),
                 self.requests)
        return [found[n] for n in sorted(found)]

    def _peek(self, plan: list[_Slice], graphql: bool) -> CachedResponse | None:
        """The cached first page of a plan's first query, if any."""
        query = self._query(plan[0])
        if graphql:
            return self.client.peek("graphql", self.graphql_url, _gql_payload(query, None))
        return self.client.peek("rest", self._rest_url, _rest_params(query, 1))

    def _query(self, part: _Slice) -> str:
        return f"repo:{self.slug} is:pr {part.terms()}"

    def _search(self, part: _Slice, now: dt.datetime, fresh: FreshFn,
                whole: list[int] | None = None) -> Iterator[Change]:
        """The slice's PRs; `whole` holds the parent slice's count, less what earlier
        halves already reported (a half can never hold more than that)."""
        query = self._query(part)
        pages = (self._graphql_pages if self._graphql else self._rest_pages)(query, fresh)
        total, first = next(pages)
        if whole is not None:
            if total > whole[0] + PAGE_SIZE:  # a little slack: PRs updated meanwhile
                pages.close()
                raise GitHubError(
                    f"GitHub API answered {total} results for {query!r}, more than the "
                    f"{whole[0]} left of the wider search it is part of; the server's counts "
                    "are inconsistent: check GITHUB_API_URL or [github] api_url points at GitHub"
                )
            whole[0] = max(0, whole[0] - total)
        if total > SEARCH_CAP:
            halves = part.halves(now)
            if halves is not None:
                pages.close()
                left = [total]
                for half in halves:
                    yield from self._search(half, now, fresh, left)
                return
            self._warn(f"GitHub search {query!r} has {total} results; only the first "
                       f"{SEARCH_CAP} are read")
        yield from first
        for _, more in pages:
            yield from more

    def _graphql_pages(self, query: str, fresh: FreshFn,
                       ) -> Generator[tuple[int, list[Change]], None, None]:
        url = self.graphql_url
        after: str | None = None
        cursors: set[str] = set()
        for _ in range(MAX_PAGES):  # search never serves more than SEARCH_CAP results
            data = self.client.graphql(url, _gql_payload(query, after), fresh)
            search = _dig(data, ("data", "search"), url)
            nodes = search.get("nodes") or []
            if not isinstance(nodes, list):
                nodes = []
            changes = [self._convert(change_from_pr, n, url) for n in nodes if n]
            yield _count(search.get("issueCount"), url), changes
            page = search.get("pageInfo") if isinstance(search.get("pageInfo"), dict) else {}
            cursor = page.get("endCursor")
            if not page.get("hasNextPage") or not isinstance(cursor, str) or not cursor \
                    or cursor in cursors or not nodes:
                return  # the last page, or a server repeating itself
            cursors.add(cursor)
            after = cursor

    def _rest_pages(self, query: str, fresh: FreshFn,
                    ) -> Generator[tuple[int, list[Change]], None, None]:
        url = self._rest_url
        seen = 0
        for page in range(1, SEARCH_CAP // PAGE_SIZE + 1):
            data = self.client.rest(url, _rest_params(query, page), fresh)
            items = _dig(data, ("items",), url)
            total = _count(data.get("total_count"), url)
            yield total, [
                self._convert(change_from_search_item, i, url)
                for i in items if isinstance(i, dict) and "pull_request" in i
            ]
            seen += len(items)
            if len(items) < PAGE_SIZE or seen >= min(total, SEARCH_CAP):
                return

    def _convert(self, fn: Callable[..., Change], node: Any, url: str) -> Change:
        try:
            return fn(node, self.slug)
        except (ShapeError, AttributeError) as exc:
            raise GitHubError(
                f"GitHub API returned an unexpected pull request for {urlsplit(url).path}: {exc}"
            ) from exc


def _gql_payload(query: str, after: str | None) -> dict[str, Any]:
    return {"query": QUERY, "variables": {"q": query, "first": PAGE_SIZE, "after": after}}


def _rest_params(query: str, page: int) -> dict[str, Any]:
    return {"q": query, "per_page": PAGE_SIZE, "page": page}


def _freshness(window: Window, now: dt.datetime) -> FreshFn:
    """A cached page is reused when fetched after the window closed, or recently."""

    def fresh(stored_at: dt.datetime) -> bool:
        return stored_at >= window.until or now - stored_at < MAX_AGE

    return fresh


def _dig(data: Any, keys: tuple[str, ...], url: str) -> Any:
    node = data
    for key in keys:
        if not isinstance(node, dict) or not isinstance(node.get(key), dict | list):
            raise GitHubError(
                f"GitHub API returned an unexpected response for {urlsplit(url).path} "
                f"(no {'.'.join(keys)}); check GITHUB_API_URL or [github] api_url"
            )
        node = node[key]
    return node


def _count(value: Any, url: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**31:
        shown = repr(value)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise GitHubError(
            f"GitHub API returned an unexpected result count for {urlsplit(url).path}: {shown}"
        )
    return value


def _iso(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# --------------------------------------------------------------------------- auth & wiring


def find_token(
    environ: Mapping[str, str], api_url: str = DEFAULT_API_URL
) -> tuple[str | None, str]:
    """(token, where it came from): GITHUB_TOKEN, GH_TOKEN, else `gh auth token`."""
    for name in ("GITHUB_TOKEN", "GH_TOKEN"):
        value = environ.get(name, "").strip()
        if value:
            return value, name
    gh = shutil.which("gh", path=environ.get("PATH", ""))
    if gh is None:
        return None, "none"
    args = [gh, "auth", "token"]
    host = urlsplit(api_url).hostname or ""
    if host and host != "api.github.com":
        args += ["--hostname", host]
    try:
        out = subprocess.run(args, capture_output=True, text=True, timeout=10, check=False,
                             env=dict(environ))
    except (OSError, subprocess.TimeoutExpired):
        return None, "none"
    token = out.stdout.strip()
    return (token, "`gh auth token`") if out.returncode == 0 and token else (None, "none")


def resolve_token(environ: Mapping[str, str] = os.environ,
                  api_url: str = DEFAULT_API_URL) -> str | None:
    return find_token(environ, api_url)[0]


def api_base(configured: str, environ: Mapping[str, str]) -> str:
    """[github] api_url, else $GITHUB_API_URL, else api.github.com."""
    return (configured or environ.get("GITHUB_API_URL", "") or DEFAULT_API_URL).rstrip("/")
