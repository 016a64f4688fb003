"""Python builders of Change objects for the analysis tests (no pytorch held-out days)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from mergecast.models import Change, FileChange, Person, State, Trailer, Window

REPO = "acme/widgets"
SHARED = Path(__file__).resolve().parents[2].parent / "shared"
SAMPLE = SHARED / "data" / "github" / "pytorch-2026-08-window.json"


def at(day: int, hour: int = 12) -> dt.datetime:
    return dt.datetime(2026, 3, day, hour, tzinfo=dt.UTC)


def window(day: int) -> Window:
    """Day `day` of March 2026, 00:00 to 24:00 UTC."""
    return Window(dt.datetime(2026, 3, day, tzinfo=dt.UTC),
                  dt.datetime(2026, 3, day, tzinfo=dt.UTC) + dt.timedelta(days=1))


def files(*paths: str, add: int = 10, delete: int = 2) -> tuple[FileChange, ...]:
    return tuple(FileChange(p, add, delete) for p in paths)


def pr(number: int, title: str, author: str = "alice", body: str = "", day: int = 10,
       **kw: object) -> Change:
    kw.setdefault("state", State.MERGED)
    return Change(repo=REPO, title=title, number=number, body=body,
                  author=Person(login=author), created_at=at(day), **kw)  # type: ignore[arg-type]


def commit(sha: str, title: str, author: str = "Carol", body: str = "", day: int = 10,
           trailers: tuple[Trailer, ...] = (), **kw: object) -> Change:
    return Change(repo=REPO, title=title, shas=(sha,), body=body, state=State.LANDED,
                  author=Person(name=author, email=f"{author.lower()}@example.com"),
                  landed_at=at(day), trailers=trailers, **kw)  # type: ignore[arg-type]


def ghstack(this: int, *numbers: int, version: bool = True, blank: bool = False) -> str:
    url = "https://github.com/ezyang/ghstack/tree/0.12.0" if version else \
        "https://github.com/ezyang/ghstack"
    lines = [f"Stack from [ghstack]({url}) (oldest at bottom):"]
    if blank:
        lines.append("")
    for n in sorted(numbers, reverse=True):
        lines.append(f"* __->__ #{n}" if n == this else f"* #{n}")
    return "\n".join(lines) + "\n\n"


def sample() -> list[Change]:
    """The shared real pytorch sample, or skip when ../shared is absent."""
    if not SAMPLE.is_file():
        pytest.skip("shared pytorch sample not present")
    from mergecast.sources.gh_json import load_gh_json

    return load_gh_json(SAMPLE)


def sample_window(day: int) -> Window:
    start = dt.datetime(2026, 8, day, tzinfo=dt.UTC)
    return Window(start, start + dt.timedelta(days=1))
