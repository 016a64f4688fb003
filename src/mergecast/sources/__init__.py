"""Sources turn vendor data (git, `gh` exports, the GitHub API) into `Change` models."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from ..models import Change, Window


class Source(Protocol):
    """Anything that yields the changes active in a window."""

    def fetch(self, window: Window) -> Iterable[Change]: ...


class FakeSource:
    """An in-memory source over canned changes, for tests and demos."""

    def __init__(self, changes: Iterable[Change]) -> None:
        self.changes = tuple(changes)

    def fetch(self, window: Window) -> list[Change]:
        return [c for c in self.changes if c.active_in(window)]
