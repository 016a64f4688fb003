"""Shared fixtures; the helpers themselves live in gitrepo.py."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from gitrepo import Commit, build_repo


@pytest.fixture
def make_repo(tmp_path: Path) -> Callable[..., Path]:
    """make_repo(commits, name="repo", branch="main", origin=None) -> path."""
    counter = iter(range(1_000_000))

    def make(commits: Sequence[Commit], name: str | None = None, **kw: str | None) -> Path:
        return build_repo(tmp_path / (name or f"repo{next(counter)}"), commits, **kw)  # type: ignore[arg-type]

    return make

