"""Where the GitHub source keeps answers between runs: the cache protocol (the Store is
the real one), its in-process fake, and the key a request is kept under."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

Clock = Callable[[], dt.datetime]


class CachedResponse(Protocol):
    @property
    def etag(self) -> str | None: ...
    @property
    def body(self) -> bytes: ...
    @property
    def stored_at(self) -> dt.datetime: ...


class HttpCache(Protocol):
    """Where responses are kept between runs: the Store, or MemoryCache in tests."""

    def cache_get(self, key: str) -> CachedResponse | None: ...
    def cache_put(self, key: str, etag: str | None, body: bytes) -> None: ...


@dataclass(frozen=True)
class MemoryEntry:
    etag: str | None
    body: bytes
    stored_at: dt.datetime


class MemoryCache:
    """An in-process HttpCache (the in-package fake; the Store is the real one)."""

    def __init__(self, clock: Clock | None = None) -> None:
        self.entries: dict[str, MemoryEntry] = {}
        self._clock = clock or utcnow

    def cache_get(self, key: str) -> MemoryEntry | None:
        return self.entries.get(key)

    def cache_put(self, key: str, etag: str | None, body: bytes) -> None:
        self.entries[key] = MemoryEntry(etag, body, self._clock())


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def cache_key(kind: str, url: str, payload: Mapping[str, Any]) -> str:
    """Stable key for a request: never includes the token."""
    blob = json.dumps({"url": url, "payload": payload}, sort_keys=True, separators=(",", ":"))
    return f"github:{kind}:{hashlib.sha256(blob.encode()).hexdigest()}"
