"""What the writer decides to say before it words it: one plan per episode."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from .changes import ThemeKind
from .digest import Continuity, Counts, FollowUp, Ref, RevertChain, Stack

# What an episode will say, decided before any sentence is written (writing/plan.py). The
# template writer realises every slot from phrase banks (writing/realise.py); a writer that
# words the slots differently (an LLM) can take the same plan and replace any realisation.


@dataclass(frozen=True)
class Action:
    """One change told by what it does: its title read as verb, object and qualifier."""

    verb: str  # the verb class (add, fix, move, …); "" when the title names a thing
    lemma: str  # the verb as said, base form ("migrate", "speed up")
    obj: str  # what it acts on, speakable ("min and max")
    qualifier: str = ""  # "to Metal"
    # "temporarily": said before the verb ("temporarily disables X"); after a long object
    # it would qualify the wrong words ("runs X when the branch is main only")
    adverb: str = ""
    negated: bool = False  # "Do not count X"
    ref: Ref | None = None
    label: str = ""  # a summary subject's label ("Skeleton: …"): what its items are part of


@dataclass(frozen=True)
class Claim:
    """A sentence of a change's description that stands on its own."""

    text: str
    kind: str  # problem | benefit | detail
    ref: Ref


@dataclass(frozen=True)
class Scope:
    """What a theme's changes touch, from their files: how many lines, where, of what kind.
    Every figure is a sum over the files (analysis/scope.py), so the fact check can trace it."""

    shape: str  # docs | tests | ci | tiny | one_file | focused | removal | broad | spread
    added: int  # lines added over the theme's changes
    removed: int
    files: int  # files touched
    verb: str  # adds | removes | changes: which lines `lines` counts
    lines: int  # added, removed or both, per `verb`
    place: str = ""  # the main place touched, said as words ("the loss compare script")
    alongside: tuple[str, ...] = ()  # other kinds touched, said ("tests", "documentation")
    places: tuple[str, ...] = ()  # a broad change's places, heaviest first
    also: str = ""  # a file said gone or renamed, from its status ("the old flux loader goes")


@dataclass(frozen=True)
class ThemePlan:
    """One theme: concept, who and how big, problem, effects, benefit, open work."""

    index: int  # 1-based place in the episode
    concept: str  # the theme's name as said ("convolution tile planning")
    kind: ThemeKind
    authors: tuple[str, ...]
    status: str  # landed | opened | pushed | posted
    prs: tuple[int, ...]  # in the order they are told
    commits: tuple[str, ...]
    stack: Stack | None
    work: str  # capability | performance | correctness | cleanup | infrastructure
    area: str | None
    problem: Claim | None = None
    effects: tuple[Action, ...] = ()
    benefit: Claim | None = None
    details: tuple[Claim, ...] = ()  # more of what the change does, said when time allows
    steps: tuple[Action, ...] = ()  # what descriptions list as done ("- add a size limit")
    related: tuple[Action, ...] = ()  # changes grouped with a stack but not part of it
    open_prs: tuple[int, ...] = ()
    continues: Continuity | None = None
    # The same author's same kind of work elsewhere that day (other areas, no link): told
    # with the theme as "in the same vein", never as part of it.
    series: tuple[Action, ...] = ()
    scope: Scope | None = None  # what its files say about its size and place
    follows: FollowUp | None = None  # the same author's earlier change to one of its files
    # The analysis's shorter name, when the concept is one change's whole doing ("fixing the
    # step log" of "fixing the step log for profiler after resuming"): a title's name
    short: str = ""

    @property
    def size(self) -> int:
        """How many changes the theme holds: its PRs and its commits without one."""
        return len(self.prs) + len(self.commits)


@dataclass(frozen=True)
class Signal:
    """The day in one or two sentences: the kinds of work and where, heaviest first."""

    work: tuple[tuple[str, str | None], ...]  # (kind of work, area)
    counts: Counts


@dataclass(frozen=True)
class Roundup:
    """One area's sentence: its top items (at most two) told by what they do."""

    area: str
    items: tuple[Action, ...]
    why: tuple[Claim, ...] = ()  # a standalone sentence from an item's description
    # One author's same work across areas, told once: each item's area, and whose it is.
    areas: tuple[str, ...] = ()
    author: str | None = None


@dataclass(frozen=True)
class DuplicatePlan:
    prs: tuple[int, int]
    topic: str  # what both tackle, speakable; "" when no safe words were found
    evidence: str  # issue | title | files | "" (unknown)
    authors: tuple[str, ...]
    # the PR of the pair not active in the window (the store's recent history), if any:
    # told as from an earlier day, never as a second effort running beside the first
    earlier: int | None = None


@dataclass(frozen=True)
class Watch:
    """What to watch: the rest of a stack, or an open PR."""

    kind: str  # stack | open
    prs: tuple[int, ...]
    author: str | None = None
    size: int = 0  # the stack's declared size; 0 when it is left unsaid
    in_window: int = 0


@dataclass(frozen=True)
class Plan:
    show: str
    day: dt.date
    weekly: str | None  # "2026-W30" for a weekly recap
    # quiet | light | thin (many small changes) | focused (one big theme) | focused_thin | active
    mood: str
    signal: Signal
    themes: tuple[ThemePlan, ...]
    roundups: tuple[Roundup, ...] = ()
    duplicates: tuple[DuplicatePlan, ...] = ()
    chains: tuple[RevertChain, ...] = ()
    first_timers: tuple[str, ...] = ()
    # A lone first-time contributor's one change that nothing else tells: said with the
    # welcome ("… Shoufa Chen, whose PR 1494 fixes a minor issue").
    welcomed: tuple[Action, ...] = ()
    notes: tuple[Action, ...] = ()  # left-over changes worth one line each
    watch: Watch | None = None
