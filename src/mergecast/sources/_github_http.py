"""HTTP for the GitHub source: cache, retries with backoff, rate limits, token redaction.

Every message that leaves this module passes through `Client.redact` before it is cut
to length, and every answer is scrubbed of every secret this process holds (by value,
runs of 8+ characters too) before it is decoded or cached, so a token can never appear
in an error, a log line or anything stored, even when a server echoes it back.
A run sends at most `max_requests` requests, whatever the server answers.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import json
import logging
import random
import re
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlsplit

import httpx

from ..dates import as_utc
from ..errors import AuthError, GitHubError, RateLimitError
from ..redact import excerpt, remember, scrub, scrub_json
from ._clean import clean_text
from ._github_cache import CachedResponse, Clock, HttpCache, cache_key

log = logging.getLogger("mergecast.sources.github")

Sleep = Callable[[float], None]

# GitHub's GraphQL budget is 5,000 points an hour: a run that needs more requests than
# that cannot finish within the hour anyway, and a server that asks for more is broken.
MAX_REQUESTS = 5000
MAX_BODY = 64 * 2**20  # bytes of one answer; GitHub's pages of 100 PRs are a few MB
_DIGITS = re.compile(r"[0-9]{1,12}")  # ASCII only: "²".isdigit() is True, int("²") fails
_MAX_SECONDS = 10 * 366 * 86400.0  # a wait or reset further away than this is not a time


class Client:
    """One GitHub API host: GraphQL POSTs and REST GETs, both cached."""

    def __init__(
        self,
        *,
        token: str | None,
        token_source: str,
        cache: HttpCache | None,
        transport: httpx.BaseTransport | None,
        offline: bool,
        sleep: Sleep,
        clock: Clock,
        timeout: float,
        retries: int,
        max_wait: float,
        rng: random.Random,
        max_requests: int = MAX_REQUESTS,
    ) -> None:
        self.token = token
        self.token_source = token_source
        self.cache = cache
        self.offline = offline
        self.sleep = sleep
        self.clock = clock
        self.retries = retries
        self.max_wait = max_wait
        self.rng = rng
        self.max_requests = max_requests
        remember(token)
        self.requests = 0  # HTTP requests actually sent
        self.remaining: int | None = None  # last X-RateLimit-Remaining seen
        headers = {"Accept": "application/vnd.github+json", "User-Agent": "mergecast"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self._http: httpx.Client | None = None
        if not offline:
            self._http = httpx.Client(
                headers=headers, timeout=httpx.Timeout(timeout), transport=transport
            )

    def close(self) -> None:
        if self._http is not None:
            self._http.close()

    def redact(self, text: str) -> str:
        """`text` without the token or any secret this process holds (runs of 8+ too)."""
        return scrub(text, self.token)

    def excerpt(self, text: str, limit: int) -> str:
        """Server text fit for a one-line message: redacted first, then cut (never the
        reverse); controls, terminal escapes' ESC and bidi marks dropped."""
        return excerpt(clean_text(self.redact(text)), limit)

    # ------------------------------------------------------------------ cached calls

    def peek(self, kind: str, url: str, payload: Mapping[str, Any]) -> CachedResponse | None:
        """The cached response for a request, without sending anything."""
        if self.cache is None:
            return None
        return self.cache.cache_get(cache_key(kind, url, payload))

    def graphql(self, url: str, payload: Mapping[str, Any], fresh: FreshFn) -> Any:
        key = cache_key("graphql", url, payload)
        hit = self._cached(key, url, fresh)
        if hit is not None:
            return self._decode(hit.body, url)[0]
        resp = self._send("POST", url, json_body=dict(payload))
        data, body = self._decode(resp.content, url)
        errors = data.get("errors") if isinstance(data, dict) else None
        if errors:
            self._graphql_errors(errors, url)
        if self.cache is not None:
            self.cache.cache_put(key, None, body)
        return data

    def rest(self, url: str, params: Mapping[str, Any], fresh: FreshFn) -> Any:
        key = cache_key("rest", url, dict(params))
        hit = self._cached(key, url, fresh)
        if hit is not None:
            return self._decode(hit.body, url)[0]
        old = self.cache.cache_get(key) if self.cache is not None else None
        extra = {"If-None-Match": old.etag} if old is not None and old.etag else {}
        resp = self._send("GET", url, params=params, headers=extra)
        if resp.status_code == 304 and old is not None:
            body = old.body  # unchanged; a 304 does not count against the rate limit
        else:
            body = resp.content
        data, body = self._decode(body, url)
        if self.cache is not None:
            self.cache.cache_put(key, resp.headers.get("ETag") or (old.etag if old else None), body)
        return data

    def _cached(self, key: str, url: str, fresh: FreshFn) -> CachedResponse | None:
        entry = self.cache.cache_get(key) if self.cache is not None else None
        if self.offline:
            if entry is None:
                raise GitHubError(
                    f"--offline: no cached GitHub response for {_path(url)} for this window; "
                    "run the same ingest once without --offline to fill the cache"
                )
            return entry
        if entry is not None and fresh(as_utc(entry.stored_at)):
            return entry
        return None

    # ------------------------------------------------------------------ the wire

    def _send(
        self,
        method: str,
        url: str,
        *,
        json_body: Any = None,
        params: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        assert self._http is not None
        where = _path(url)
        attempt = 0
        while True:
            attempt += 1
            if self.requests >= self.max_requests:
                raise GitHubError(
                    f"GitHub API at {self.redact(_origin(url))} needed more than "
                    f"{self.max_requests} requests in this run (the last for {where}); "
                    "a real window never does: check GITHUB_API_URL or [github] api_url "
                    "points at GitHub, or ingest a shorter window with --since/--until"
                )
            try:
                self.requests += 1
                resp = self._fetch(self._http.build_request(
                    method, url, json=json_body, params=params, headers=headers
                ), where)
            except (httpx.TimeoutException, httpx.TransportError, httpx.DecodingError) as exc:
                if attempt > self.retries:
                    raise GitHubError(self.redact(
                        f"GitHub API at {url} did not answer ({type(exc).__name__}: {exc}) "
                        f"after {attempt} tries; check the network, GITHUB_API_URL or "
                        "[github] api_url, or use --offline"
                    )) from exc
                self._backoff(attempt, f"{type(exc).__name__} from {where}")
                continue
            self._note_limits(resp)
            status = resp.status_code
            if status == 401:
                raise AuthError(self.redact(
                    f"GitHub rejected the token from {self.token_source} (401 for {where}); "
                    "fix: create a new token with read access to the repository and set "
                    "GITHUB_TOKEN, or run `gh auth login`"
                    if self.token else
                    f"GitHub requires a token for {where} (401); set GITHUB_TOKEN or run "
                    "`gh auth login`"
                ))
            if status in (403, 429):
                wait = self._limit_wait(resp, where)
                if wait is None:
                    raise GitHubError(self.redact(
                        f"GitHub refused {where} (403 {self._message(resp)}); the token from "
                        f"{self.token_source} lacks access to this repository; grant it "
                        "read access to pull requests"
                    ))
                if attempt > self.retries:
                    raise self._exhausted(resp, where)
                log.warning("GitHub rate limit on %s: waiting %.0f s", where, wait)
                self.sleep(wait)
                continue
            if status >= 500:
                if attempt > self.retries:
                    raise GitHubError(
                        f"GitHub API answered {status} for {where} after {attempt} tries; "
                        "try again later or use --offline"
                    )
                self._backoff(attempt, f"{status} from {where}")
                continue
            if status >= 400 and status != 304:
                raise GitHubError(self.redact(
                    f"GitHub API answered {status} for {where} ({self._message(resp)}); "
                    "check the repository name and GITHUB_API_URL or [github] api_url"
                ))
            return resp

    def _fetch(self, request: httpx.Request, where: str) -> httpx.Response:
        """Send and read the answer, at most MAX_BODY bytes of it (decompressed)."""
        assert self._http is not None
        streamed = self._http.send(request, stream=True)
        try:
            body = bytearray()
            for chunk in streamed.iter_bytes():
                body += chunk
                if len(body) > MAX_BODY:
                    raise GitHubError(
                        f"GitHub API answered more than {MAX_BODY // 2**20} MB for {where}; "
                        "a page of 100 pull requests is a few MB: check GITHUB_API_URL or "
                        "[github] api_url points at GitHub"
                    )
        finally:
            streamed.close()
        return httpx.Response(streamed.status_code, headers=streamed.headers,
                              content=bytes(body), request=request)

    def _backoff(self, attempt: int, why: str) -> None:
        delay = min(60.0, 2.0 ** (attempt - 1)) * (0.5 + self.rng.random())
        log.warning("GitHub: %s; retrying in %.1f s", why, delay)
        self.sleep(delay)

    def _note_limits(self, resp: httpx.Response) -> None:
        remaining = resp.headers.get("X-RateLimit-Remaining")
        if remaining is not None and _DIGITS.fullmatch(remaining):
            self.remaining = int(remaining)

    def _limit_wait(self, resp: httpx.Response, where: str) -> float | None:
        """Seconds to wait before retrying a 403/429, or None when it is not a rate limit."""
        retry_after = resp.headers.get("Retry-After")
        if retry_after:
            seconds = _retry_after(retry_after, self.clock())
            if seconds is not None:
                if seconds > self.max_wait:
                    raise self._exhausted(resp, where)
                return seconds
        remaining = resp.headers.get("X-RateLimit-Remaining")
        reset = _epoch(resp.headers.get("X-RateLimit-Reset"))
        if remaining == "0" and reset is not None:
            seconds = max(0.0, reset - self.clock().timestamp()) + 1
            if seconds > self.max_wait:
                raise self._exhausted(resp, where)
            return seconds
        if resp.status_code == 429 or "rate limit" in self._message(resp).lower():
            return 60.0  # GitHub: wait at least a minute on a secondary limit without headers
        return None

    def _exhausted(self, resp: httpx.Response, where: str) -> RateLimitError:
        remaining = self.excerpt(resp.headers.get("X-RateLimit-Remaining", "?"), 20)
        limit = self.excerpt(resp.headers.get("X-RateLimit-Limit", "?"), 20)
        reset = _epoch(resp.headers.get("X-RateLimit-Reset"))
        retry_after = resp.headers.get("Retry-After", "")
        now = self.clock().timestamp()
        at = reset if reset is not None else None
        if at is None and retry_after:
            seconds = _retry_after(retry_after, self.clock())
            at = None if seconds is None else now + seconds
        when = "unknown"
        if at is not None and abs(at - now) <= _MAX_SECONDS:
            when = dt.datetime.fromtimestamp(at, dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        elif at is not None:
            when = "an unknown time (the server named one more than ten years away)"
        hint = "" if self.token else "; set GITHUB_TOKEN for the higher authenticated limit"
        return RateLimitError(self.redact(
            f"GitHub rate limit exhausted on {where}: {remaining} of {limit} requests remain, "
            f"the limit resets at {when}; run again after that or use --offline{hint}"
        ))

    def _graphql_errors(self, errors: Any, url: str) -> None:
        items = errors if isinstance(errors, list) else [errors]
        kinds = {e.get("type") for e in items if isinstance(e, dict)}
        text = self.excerpt("; ".join(
            str(e.get("message", e)) if isinstance(e, dict) else str(e) for e in items[:20]
        ), 300)
        if "RATE_LIMITED" in kinds:
            raise RateLimitError(self.redact(
                f"GitHub GraphQL rate limit exhausted on {_path(url)}: "
                f"{self.remaining if self.remaining is not None else 0} points remain ({text}); "
                "run again after the hourly reset or use --offline"
            ))
        if "NOT_FOUND" in kinds:
            raise GitHubError(self.redact(f"GitHub: {text}; check the OWNER/NAME spelling"))
        raise GitHubError(self.redact(f"GitHub GraphQL error on {_path(url)}: {text}"))


    def _decode(self, body: bytes, url: str) -> tuple[Any, bytes]:
        """The answer decoded and scrubbed of every secret, and the bytes to cache."""
        try:
            text = body.decode("utf-8")
            data = json.loads(text)
            clean = scrub_json(data, self.token, raw=text)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise GitHubError(
                f"GitHub API returned malformed JSON for {_path(url)} ({exc}); "
                "check GITHUB_API_URL or [github] api_url points at a GitHub API, then retry"
            ) from exc
        except RecursionError as exc:
            raise GitHubError(
                f"GitHub API returned JSON nested too deeply to read for {_path(url)}; "
                "check GITHUB_API_URL or [github] api_url points at a GitHub API, then retry"
            ) from exc
        if clean != data:
            log.warning("GitHub API answer for %s carried a secret of ours; it was scrubbed",
                        _path(url))
            body = json.dumps(clean, ensure_ascii=False, separators=(",", ":")).encode()
        return clean, body

    def _message(self, resp: httpx.Response) -> str:
        """The server's own words about an error: redacted, then cut to 200 characters."""
        try:
            data = resp.json()
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            data = None
        if isinstance(data, dict) and isinstance(data.get("message"), str):
            return self.excerpt(data["message"], 200)
        return self.excerpt(resp.reason_phrase or str(resp.status_code), 200)


FreshFn = Callable[[dt.datetime], bool]


def _epoch(value: str | None) -> float | None:
    """A Unix time header (X-RateLimit-Reset), or None when it is not one."""
    value = (value or "").strip()
    return float(value) if _DIGITS.fullmatch(value) else None


def _retry_after(value: str, now: dt.datetime) -> float | None:
    """Seconds a Retry-After header asks for: delta-seconds or an HTTP date."""
    value = value.strip()
    if value.isascii() and value.isdigit():
        return float(value)  # a float, not a datetime: 10**21 seconds cannot overflow
    try:
        when = email.utils.parsedate_to_datetime(value)
        return max(0.0, (as_utc(when) - now).total_seconds())
    except (TypeError, ValueError, OverflowError, IndexError):
        return None


def _path(url: str) -> str:
    return urlsplit(url).path or "/"


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.hostname or ''}" + (f":{parts.port}" if parts.port else "")

