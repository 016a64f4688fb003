"""What the publisher ships: an episode, its ledger and its people."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field

from .changes import EpisodeKind, Window
from .digest import Duplicate, RevertChain
from .script import Audio, Script


@dataclass(frozen=True)
class ThemeRef:
    """A theme as an episode page lists it."""

    headline: str
    authors: tuple[str, ...]
    areas: tuple[str, ...]
    prs: tuple[int, ...]


@dataclass(frozen=True)
class LedgerEntry:
    """One change active in an episode's window and how the episode accounts for it."""

    number: int | None
    sha: str | None
    title: str
    url: str | None
    group: str  # the theme headline or area it is listed under on the page
    told: bool  # the script cites it; False: listed on the page only
    author: str = ""  # the credited identity (Credit.handle)
    credit: str = ""  # how that identity was resolved (Credit.how)


@dataclass(frozen=True)
class Developer:
    """A developer an episode credits, with their forge profile when the forge is known."""

    handle: str
    url: str | None = None


@dataclass(frozen=True)
class Episode:
    id: str  # YYYY-MM-DD (daily) or YYYY-Www (weekly)
    kind: EpisodeKind
    window: Window
    published_at: dt.datetime
    script: Script
    audio: Audio
    themes: tuple[ThemeRef, ...] = ()
    areas: tuple[str, ...] = ()
    links: Mapping[int, str] = field(default_factory=dict)  # PR number -> URL
    related: tuple[str, ...] = ()  # episode ids this one refers to (weekly: its dailies)
    source_hash: str = ""  # hash of the inputs; equal hash means nothing to redo
    ledger: tuple[LedgerEntry, ...] = ()  # every change in the window: told or listed
    credits: tuple[Developer, ...] = ()  # the themes' authors, for podcast:person and the page
    duplicates: tuple[Duplicate, ...] = ()  # with their evidence, for the page and episode.json
    chains: tuple[RevertChain, ...] = ()

    @property
    def coverage(self) -> str:
        """How the episode covers its window, said plainly: "45 changes: 12 told, 33 listed"."""
        told = sum(1 for e in self.ledger if e.told)
        n = len(self.ledger)
        return f"{n} change{'' if n == 1 else 's'}: {told} told, {n - told} listed"
