"""Sources turn vendor data (git, `gh` exports, the GitHub API) into `Change` models.

Every source is a small class that reads one thing and yields `Change`s; none of them
knows the config or the store. The pipeline builds them, keeps their cursors, writes
what they yield into the store and fills in the `IngestReport`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Protocol

from ..errors import MergecastError
from ..models import Change, Window


@dataclasses.dataclass(frozen=True)
class Cursor:
    """Where a full read of a source got to, kept in the store under `key`."""

    key: str
    position: str


class Source(Protocol):
    """Anything that yields the changes active in a window.

    `fetch` may stream (the pipeline then consumes it inside the store's transaction) or
    return a list it read whole before touching the store (a network source: a slow
    server never holds the store's write lock). A source that holds a connection is a
    context manager; the pipeline enters it.
    """

    kind: str  # git | gh-json | github: how the report names the source
    warnings: list[str]  # what the read noticed; the CLI prints them

    @property
    def repo(self) -> str:
        """The repository the changes belong to (owner/name, or a folder's name)."""
        ...

    def cursor(self) -> Cursor | None:
        """Where a full read ends now; None for a source read whole every time."""
        ...

    def fetch(self, window: Window | None, after: str | None = None) -> Iterable[Change]:
        """The changes active in `window` (None: all of them), newer than position `after`."""
        ...


@dataclasses.dataclass
class IngestReport:
    """What one ingest did: changes read from the source, and rows added or changed."""

    source: str  # Source.kind
    repo: str
    read: int = 0
    new: int = 0
    updated: int = 0
    warnings: list[str] = dataclasses.field(default_factory=list)
    # The source failed and the command went on without it: why (empty: it was read),
    # and the error itself, raised after all when nothing else is there to make the episode.
    skipped: str = ""
    error: MergecastError | None = dataclasses.field(default=None, repr=False, compare=False)

    def line(self) -> str:
        if self.skipped:
            return f"{self.source} {self.repo}: skipped"
        return (f"{self.source} {self.repo}: {self.read} read, {self.new} new, "
                f"{self.updated} updated")


class FakeSource:
    """An in-memory source over canned changes, for tests and demos."""

    kind = "fake"

    def __init__(self, changes: Iterable[Change], *, repo: str = "o/r",
                 cursor: Cursor | None = None) -> None:
        self.changes = tuple(changes)
        self._repo = repo
        self._cursor = cursor
        self.warnings: list[str] = []
        self.asked: list[tuple[Window | None, str | None]] = []  # every fetch, for tests

    @property
    def repo(self) -> str:
        return self._repo

    def cursor(self) -> Cursor | None:
        return self._cursor

    def fetch(self, window: Window | None, after: str | None = None) -> list[Change]:
        self.asked.append((window, after))
        return [c for c in self.changes if window is None or c.active_in(window)]
