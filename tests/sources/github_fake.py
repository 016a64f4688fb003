"""A real HTTP server on 127.0.0.1 that answers like GitHub's GraphQL and REST search APIs.

It holds a list of pull requests (GraphQL node shape), filters them by the search
qualifiers mergecast sends, pages them by cursor, and counts every request. Tests can
queue scripted answers (status, headers, body) that are served before the normal ones.

Hostile modes, each one way a broken or malicious server misbehaves (tests combine them):

- `echo_token`: paste the request's `Authorization` value (and `echo_cut` characters
  of it, as a truncating echo would) into every PR title and body, and an `errors`
  message when `graphql_error` is set;
- `issue_count`: claim this many results for every query, whatever it matched;
- `endless`: always say there is a next page, with a fresh cursor;
- `nesting`: answer JSON nested this many levels deep;
- `graphql_error`: answer HTTP 200 with this GraphQL `errors` message;
- `padding`: add this many bytes of filler to every answer (a server that never stops).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import threading
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

CAP = 1000


def iso(t: dt.datetime) -> str:
    return t.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def make_pr(
    number: int,
    created: dt.datetime,
    updated: dt.datetime | None = None,
    *,
    merged: dt.datetime | None = None,
    closed: dt.datetime | None = None,
    files: int = 2,
    author: str = "alice",
    bot: bool = False,
    labels: tuple[str, ...] = (),
    comments: tuple[str, ...] = (),
    title: str | None = None,
    body: str = "",
) -> dict[str, Any]:
    """A PullRequest node as GitHub's GraphQL API returns it for our query."""
    updated = updated or merged or closed or created
    state = "MERGED" if merged else "CLOSED" if closed else "OPEN"
    ended = closed or merged
    nodes = [{"path": f"src/f{i}.py", "additions": i + 1, "deletions": i} for i in range(files)]
    return {
        "number": number,
        "title": title or f"Change number {number}",
        "body": body,
        "url": f"https://github.com/o/r/pull/{number}",
        "state": state,
        "isDraft": False,
        "createdAt": iso(created),
        "updatedAt": iso(updated),
        "mergedAt": iso(merged) if merged else None,
        "closedAt": iso(ended) if ended else None,
        "author": {"login": author, "__typename": "Bot" if bot else "User"},
        "labels": {"nodes": [{"name": n} for n in labels]},
        "baseRefName": "main",
        "headRefName": f"feature/{number}",
        "additions": sum(n["additions"] for n in nodes),
        "deletions": sum(n["deletions"] for n in nodes),
        "changedFiles": files,
        "files": {
            "totalCount": files,
            "pageInfo": {"hasNextPage": files > 100},
            "nodes": nodes[:100],
        },
        "comments": {"nodes": [{"body": c} for c in comments]},
    }


def _parse_time(s: str) -> dt.datetime:
    return dt.datetime.fromisoformat(s.replace("Z", "+00:00"))


def _matches(pr: dict[str, Any], query: str, repo: str) -> bool:
    fields = {"created": "createdAt", "updated": "updatedAt", "merged": "mergedAt",
              "closed": "closedAt"}
    for term in query.split():
        key, _, value = term.partition(":")
        if key == "repo":
            if value != repo:
                return False
        elif key == "is":
            continue
        elif key in fields:
            raw = pr.get(fields[key])
            if raw is None:
                return False
            t = _parse_time(raw)
            if ".." in value:
                lo, hi = value.split("..")
                if not _parse_time(lo) <= t <= _parse_time(hi):
                    return False
            elif value.startswith(">="):
                if t < _parse_time(value[2:]):
                    return False
            elif value.startswith(">"):
                if t <= _parse_time(value[1:]):
                    return False
            else:
                raise AssertionError(f"unexpected qualifier {term}")
        else:
            raise AssertionError(f"unexpected search term {term}")
    return True


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class FakeGitHub:
    prs: list[dict[str, Any]] = field(default_factory=list)
    repo: str = "o/r"
    script: deque[tuple[int, dict[str, str], bytes]] = field(default_factory=deque)
    seen: list[Seen] = field(default_factory=list)
    url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)
    echo_token: bool = False
    echo_cut: int = 0
    issue_count: int | None = None
    endless: bool = False
    nesting: int = 0
    graphql_error: str | None = None
    padding: int = 0

    @property
    def requests(self) -> int:
        return len(self.seen)

    def queries(self) -> list[str]:
        out = []
        for s in self.seen:
            if s.method == "POST":
                out.append(json.loads(s.body)["variables"]["q"])
            else:
                out.append(parse_qs(urlsplit(s.path).query)["q"][0])
        return out

    def answer(self, seen: Seen) -> tuple[int, dict[str, str], bytes]:
        with self.lock:
            self.seen.append(seen)
            if self.script:
                return self.script.popleft()
        parts = urlsplit(seen.path)
        if self.nesting:
            return 200, {}, b"[" * self.nesting + b"]" * self.nesting
        if seen.method == "POST" and parts.path == "/graphql" and self.graphql_error is not None:
            message = self.graphql_error + self._echo(seen.headers)
            return 200, {}, json.dumps({"errors": [{"type": "FORBIDDEN",
                                                    "message": message}]}).encode()
        if seen.method == "POST" and parts.path == "/graphql":
            return self._graphql(json.loads(seen.body), seen.headers)
        if seen.method == "GET" and parts.path == "/search/issues":
            return self._rest(parse_qs(parts.query), seen.headers)
        return 404, {}, b'{"message": "Not Found"}'

    def _hits(self, q: str) -> list[dict[str, Any]]:
        hits = [p for p in self.prs if _matches(p, q, self.repo)]
        return sorted(hits, key=lambda p: -p["number"])

    def _echo(self, headers: dict[str, str]) -> str:
        if not self.echo_token:
            return ""
        said = headers.get("authorization", "")
        cut = said[: len("Bearer ") + self.echo_cut] if self.echo_cut else ""
        return f" [you sent: {said}] [{cut}]"

    def _graphql(self, payload: dict[str, Any], headers: dict[str, str],
                 ) -> tuple[int, dict[str, str], bytes]:
        v = payload["variables"]
        hits = self._hits(v["q"])
        start = int(v["after"] or 0)
        end = min(start + v["first"], CAP, len(hits))
        nodes = hits[start:end]
        echo = self._echo(headers)
        if echo:
            nodes = [{**n, "title": n["title"] + echo, "body": n["body"] + echo} for n in nodes]
        more = end < min(len(hits), CAP)
        if self.endless:
            more, end = True, start + 1
            nodes = nodes or [make_pr(100_000 + start, dt.datetime(2026, 8, 3, 14, tzinfo=dt.UTC))]
        data = {"data": {
            "rateLimit": {"cost": 1, "remaining": 4999, "resetAt": "2026-12-02T19:00:00Z"},
            "padding": "x" * self.padding,
            "search": {
                "issueCount": len(hits) if self.issue_count is None else self.issue_count,
                "pageInfo": {"hasNextPage": more, "endCursor": str(end)},
                "nodes": nodes,
            },
        }}
        return 200, {"X-RateLimit-Remaining": "4999"}, json.dumps(data).encode()

    def _rest(self, params: dict[str, list[str]], headers: dict[str, str],
              ) -> tuple[int, dict[str, str], bytes]:
        hits = self._hits(params["q"][0])
        page, per = int(params["page"][0]), int(params["per_page"][0])
        items = [_rest_item(p) for p in hits[(page - 1) * per: min(page * per, CAP)]]
        body = json.dumps({"total_count": len(hits), "incomplete_results": False,
                           "items": items}).encode()
        etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
        if headers.get("if-none-match") == etag:
            return 304, {"ETag": etag}, b""
        return 200, {"ETag": etag, "X-RateLimit-Remaining": "9"}, body


def _rest_item(p: dict[str, Any]) -> dict[str, Any]:
    return {
        "number": p["number"], "title": p["title"], "body": p["body"],
        "user": {"login": p["author"]["login"], "type": p["author"]["__typename"]},
        "state": "open" if p["state"] == "OPEN" else "closed",
        "draft": p["isDraft"], "labels": [{"name": n["name"]} for n in p["labels"]["nodes"]],
        "created_at": p["createdAt"], "updated_at": p["updatedAt"], "closed_at": p["closedAt"],
        "html_url": p["url"], "pull_request": {"merged_at": p["mergedAt"], "html_url": p["url"]},
    }


def serve(fake: FakeGitHub) -> Iterator[FakeGitHub]:
    class Handler(BaseHTTPRequestHandler):
        def _handle(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            seen = Seen(self.command, self.path,
                        {k.lower(): v for k, v in self.headers.items()}, body)
            status, headers, out = fake.answer(seen)
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

        do_GET = do_POST = _handle

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
