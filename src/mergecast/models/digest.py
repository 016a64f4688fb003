"""What analysis makes of a window: themes, stacks, duplicates, reverts, credit, areas."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field

from .changes import Change, ThemeKind, Window


@dataclass(frozen=True)
class Stack:
    tool: str  # ghstack, graphite, sapling, spr, numbered, branches, series, trailers
    authors: tuple[str, ...]
    declared_size: int | None  # entries the stack itself lists (may include PRs outside window)
    members: tuple[int, ...]  # PR numbers present in the window, ascending
    declared: tuple[int, ...] = ()  # every PR number the stack lists, ascending

    @property
    def in_window(self) -> int:
        return len(self.members)

    @property
    def first(self) -> int | None:
        return self.members[0] if self.members else None

    @property
    def size(self) -> int:
        """How many parts the stack is told as: the size it declares, else the PRs it lists,
        else those in the window."""
        return self.declared_size or len(self.declared) or self.in_window

    @property
    def is_series(self) -> bool:
        """Whether only one author, the same title tags and close numbers link its PRs:
        nothing says one sits on another."""
        return self.tool == "series"

    @property
    def last(self) -> int | None:
        return self.members[-1] if self.members else None


@dataclass(frozen=True)
class Continuity:
    """Cross-day memory: this theme continues work an earlier episode covered."""

    episode_id: str  # e.g. 2026-07-24
    headline: str
    days: int = 2  # the Nth consecutive day of the work (1: covered earlier, not yesterday)
    prs: tuple[int, ...] = ()
    said: tuple[str, ...] = ()  # what the episodes that covered it said: not said again


@dataclass(frozen=True)
class FollowUp:
    """What a theme follows: the same author's most recent earlier change to one of its
    files (analysis/followups.py). Only that is known: same author, same file, earlier."""

    ref: Ref  # the earlier change: its PR number, else its sha
    author: str  # its credited handle (one of the theme's authors)
    landed: dt.date  # the day it landed, in the window's timezone
    title: str  # its title, as the source gave it
    path: str  # the shared file to name
    url: str | None = None  # its page, when the source's links know it


@dataclass(frozen=True)
class Theme:
    rank: int
    headline: str  # the theme's concept name as said ("convolution tile planning")
    kind: ThemeKind
    authors: tuple[str, ...]
    areas: tuple[str, ...]
    prs: tuple[int, ...]
    commits: tuple[str, ...]
    stack: Stack | None
    score: float
    why: tuple[str, ...]
    continues: Continuity | None = None
    follows: FollowUp | None = None


@dataclass(frozen=True)
class Duplicate:
    """Two changes by different people that tackle the same thing, with the evidence."""

    prs: tuple[int, int]
    why: str  # one human-readable line of evidence, shown on the episode page
    # issue | title | files | problem: the kind of evidence that paired them ("problem":
    # similar problem statements of PRs not both landed whose file lists are unknown)
    evidence: str = ""
    shared: tuple[str, ...] = ()  # what they share: "#1234", the title, file paths or terms


@dataclass(frozen=True)
class Ref:
    pr: int | None = None
    sha: str | None = None


@dataclass(frozen=True)
class RevertPair:
    revert: Ref
    original: Ref
    reason: str | None = None
    original_episode: str | None = None  # id of an earlier episode that covered the original


@dataclass(frozen=True)
class ChainStep:
    """One revert or reland in a revert chain."""

    kind: str  # revert | reland
    ref: Ref
    by: str | None = None  # credited handle of whoever reverted or relanded
    reason: str | None = None  # the reason the message gives, if any
    in_window: bool = True


@dataclass(frozen=True)
class RevertChain:
    """original → revert → (revert of the revert | reland) …, told once, credited to the
    original's author."""

    original: Ref
    title: str  # the original change's title (cleaned), so a chain is told by what it did
    author: str | None  # credited author of the original change
    steps: tuple[ChainStep, ...]
    original_episode: str | None = None  # an earlier episode that covered the original

    @property
    def relanded(self) -> bool:
        return bool(self.steps) and self.steps[-1].kind == "reland"

    @property
    def undone(self) -> bool:
        """Whether the chain leaves its original reverted: its last steps are an odd run of
        reverts (a revert of the revert, or a reland, brings the work back)."""
        run = 0
        for step in reversed(self.steps):
            if step.kind != "revert":
                break
            run += 1
        return run % 2 == 1


@dataclass(frozen=True)
class Credit:
    """Who a change is credited to, and how analysis resolved that from what was recorded."""

    number: int | None
    sha: str | None
    handle: str  # the credited identity as said ("" when nobody but a bot can be named)
    # author | merged identity | author email | pr author | ghstack | co-author | resolved pr
    # | bot: which evidence named the person (see analysis/identity.py)
    how: str
    recorded: str  # the author handle the source recorded


@dataclass(frozen=True)
class Area:
    name: str
    prs: tuple[int, ...]  # highest-ranked work first, docs/CI housekeeping last
    commits: tuple[str, ...]  # likewise


@dataclass(frozen=True)
class Counts:
    changes: int
    prs: int
    commits: int
    authors: int


@dataclass(frozen=True)
class Digest:
    window: Window
    counts: Counts
    themes: tuple[Theme, ...]
    duplicates: tuple[Duplicate, ...]
    reverts: tuple[RevertPair, ...]
    relands: tuple[RevertPair, ...]
    areas: tuple[Area, ...]
    first_time_contributors: tuple[str, ...]
    chains: tuple[RevertChain, ...] = ()
    # The window's changes, for writers that explain themes from PR text. Not in to_json().
    # Each carries its credited author (analysis/identity.py), never a bot that landed it.
    changes: tuple[Change, ...] = ()
    area_of: Mapping[str, str] = field(default_factory=dict)  # change key -> area
    credits: tuple[Credit, ...] = ()  # one per window change, in `changes` order
    group_of: Mapping[str, str] = field(default_factory=dict)  # change key -> ledger group

    def change(self, number: int) -> Change | None:
        for c in self.changes:
            if c.number == number:
                return c
        return None
