"""The one data model: frozen dataclasses shared by every stage.

Sources convert vendor data into these at once; no later stage sees a raw dict.
`to_dict` / `from_dict` (from `codec`) give a stable JSON form used by the store, `--json`
output and `episode.json`.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .codec import from_dict as from_dict  # re-exported: the models' JSON form
from .codec import to_dict

# --------------------------------------------------------------------------- changes


class State(enum.StrEnum):
    OPEN = "open"
    MERGED = "merged"
    CLOSED = "closed"
    LANDED = "landed"


class ThemeKind(enum.StrEnum):
    STACK = "stack"
    CLUSTER = "cluster"
    SINGLE = "single"


class EpisodeKind(enum.StrEnum):
    DAILY = "daily"
    WEEKLY = "weekly"


class WriterKind(enum.StrEnum):
    TEMPLATE = "template"
    LLM = "llm"


class VoiceKind(enum.StrEnum):
    """The voices a user can choose; NONE makes a text-only episode."""

    PIPER = "piper"
    ESPEAK = "espeak-ng"
    OPENAI = "openai"
    NONE = "none"


class Forge(enum.StrEnum):
    """Where a repository is hosted, for its PR and commit links ([source] forge)."""

    AUTO = "auto"  # from the web address's host name
    GITHUB = "github"
    GITLAB = "gitlab"
    GITEA = "gitea"
    FORGEJO = "forgejo"  # and Codeberg: Gitea's paths
    NONE = "none"  # only the [source] pr_url / commit_url templates


@dataclass(frozen=True)
class Person:
    """Who wrote a change: a GitHub login when known, else a git name and email."""

    login: str | None = None
    name: str | None = None
    email: str | None = None

    @property
    def handle(self) -> str:
        return self.login or self.name or self.email or "unknown"


@dataclass(frozen=True)
class FileChange:
    path: str
    additions: int | None = None  # None: binary or unknown
    deletions: int | None = None


@dataclass(frozen=True)
class Trailer:
    key: str
    value: str


@dataclass(frozen=True)
class Revert:
    """What a revert change undoes, as far as its message tells."""

    sha: str | None = None
    pr: int | None = None
    reason: str | None = None
    by: str | None = None
    title: str | None = None  # the reverted change's title, from `Revert "…"`


@dataclass(frozen=True)
class Change:
    """A pull request or a landed commit (or both, once joined on PR number)."""

    repo: str
    title: str
    number: int | None = None
    shas: tuple[str, ...] = ()
    body: str = ""
    author: Person = field(default_factory=Person)
    co_authors: tuple[Person, ...] = ()
    created_at: dt.datetime | None = None
    updated_at: dt.datetime | None = None
    merged_at: dt.datetime | None = None
    closed_at: dt.datetime | None = None
    landed_at: dt.datetime | None = None
    state: State = State.OPEN
    draft: bool = False
    labels: tuple[str, ...] = ()
    files: tuple[FileChange, ...] | None = None  # None: file list unknown
    files_truncated: bool = False  # the source listed only the first files
    changed_files: int | None = None  # total count when known (may exceed len(files))
    additions: int | None = None
    deletions: int | None = None
    base_ref: str | None = None
    head_ref: str | None = None
    url: str | None = None
    trailers: tuple[Trailer, ...] = ()
    revert: Revert | None = None
    reland: bool = False
    bot: bool = False
    stack_comment: str | None = None  # e.g. Graphite's stack comment on the PR
    # GitHub's authorAssociation of the author (FIRST_TIME_CONTRIBUTOR, MEMBER, …) when the
    # source knows it; None for git history.
    author_association: str | None = None

    @property
    def key(self) -> str:
        """Stable identity: repo + PR number, else repo + first commit sha."""
        if self.number is not None:
            return f"{self.repo}#{self.number}"
        return f"{self.repo}@{self.shas[0] if self.shas else ''}"

    @property
    def sha(self) -> str | None:
        return self.shas[-1] if self.shas else None

    def times(self) -> tuple[dt.datetime, ...]:
        """Every moment the change was active (created, updated, merged, closed, landed)."""
        return tuple(
            t
            for t in (self.created_at, self.updated_at, self.merged_at, self.closed_at,
                      self.landed_at)
            if t is not None
        )

    def active_in(self, window: Window) -> bool:
        return any(window.contains(t) for t in self.times())

    def trailer_values(self, key: str) -> tuple[str, ...]:
        low = key.lower()
        return tuple(t.value for t in self.trailers if t.key.lower() == low)

    @property
    def lines_changed(self) -> int:
        if self.additions is not None or self.deletions is not None:
            return (self.additions or 0) + (self.deletions or 0)
        return sum((f.additions or 0) + (f.deletions or 0) for f in self.files or ())


@dataclass(frozen=True)
class Window:
    """A half-open time window [since, until)."""

    since: dt.datetime
    until: dt.datetime

    def contains(self, t: dt.datetime) -> bool:
        return self.since <= t < self.until


# --------------------------------------------------------------------------- digest


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
    def last(self) -> int | None:
        return self.members[-1] if self.members else None


@dataclass(frozen=True)
class Continuity:
    """Cross-day memory: this theme continues work an earlier episode covered."""

    episode_id: str  # e.g. 2026-07-24
    headline: str
    days: int = 2  # the Nth consecutive day of the work (1: covered earlier, not yesterday)
    prs: tuple[int, ...] = ()


@dataclass(frozen=True)
class Theme:
    rank: int
    headline: str  # the theme's concept name as said ("native ahead-of-time kernels")
    kind: ThemeKind
    authors: tuple[str, ...]
    areas: tuple[str, ...]
    prs: tuple[int, ...]
    commits: tuple[str, ...]
    stack: Stack | None
    score: float
    why: tuple[str, ...]
    continues: Continuity | None = None


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


# --------------------------------------------------------------------------- plan
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
    negated: bool = False  # "Do not count X"
    ref: Ref | None = None


@dataclass(frozen=True)
class Claim:
    """A sentence of a change's description that stands on its own."""

    text: str
    kind: str  # problem | benefit | detail
    ref: Ref


@dataclass(frozen=True)
class ThemePlan:
    """One theme: concept, who and how big, problem, effects, benefit, open work."""

    index: int  # 1-based place in the episode
    concept: str  # the theme's name as said ("native ahead-of-time kernels")
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


@dataclass(frozen=True)
class DuplicatePlan:
    prs: tuple[int, int]
    topic: str  # what both tackle, speakable; "" when no safe words were found
    evidence: str  # issue | title | files | "" (unknown)
    authors: tuple[str, ...]


@dataclass(frozen=True)
class Watch:
    """What to watch: the rest of a stack, or an open PR."""

    kind: str  # stack | open
    prs: tuple[int, ...]
    author: str | None = None
    size: int = 0  # the stack's declared size
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
    notes: tuple[Action, ...] = ()  # left-over changes worth one line each
    watch: Watch | None = None


# --------------------------------------------------------------------------- script


@dataclass(frozen=True)
class Sentence:
    text: str  # as shown on the page
    spoken: str  # as read aloud (after the pronunciation normaliser)
    cites: tuple[int, ...] = ()
    origin: str = "template"  # template | llm: which writer made this sentence


SECTION_KINDS = ("intro", "signal", "theme", "area", "duplicates", "reverts", "notes", "outro")


@dataclass(frozen=True)
class Section:
    kind: str  # one of SECTION_KINDS
    heading: str
    sentences: tuple[Sentence, ...]

    @property
    def text(self) -> str:
        return " ".join(s.text for s in self.sentences)

    @property
    def spoken(self) -> str:
        return " ".join(s.spoken for s in self.sentences)

    @property
    def cites(self) -> tuple[int, ...]:
        seen: dict[int, None] = {}
        for s in self.sentences:
            for n in s.cites:
                seen.setdefault(n, None)
        return tuple(seen)


@dataclass(frozen=True)
class Script:
    show: str
    date: dt.date
    title: str
    summary: str
    writer: WriterKind
    sections: tuple[Section, ...]

    @property
    def transcript(self) -> str:
        return "\n\n".join(s.text for s in self.sections)

    @property
    def words(self) -> int:
        return sum(len(s.spoken.split()) for s in self.sections)

    def to_json(self) -> dict[str, Any]:
        """The documented `mergecast script --json` shape."""
        return {
            "show": self.show,
            "date": self.date.isoformat(),
            "title": self.title,
            "summary": self.summary,
            "writer": self.writer,
            "sections": [
                {
                    "kind": s.kind,
                    "heading": s.heading,
                    "text": s.text,
                    "spoken": s.spoken,
                    "cites": list(s.cites),
                    "sentences": [to_dict(x) for x in s.sentences],
                }
                for s in self.sections
            ],
            "transcript": self.transcript,
            "words": self.words,
        }


# --------------------------------------------------------------------------- audio


@dataclass(frozen=True)
class Cue:
    """One spoken sentence's place in the audio, measured from samples."""

    section: int  # index into Script.sections
    sentence: int  # index into Section.sentences
    start: float  # seconds
    end: float
    text: str


@dataclass(frozen=True)
class Chapter:
    start: float
    title: str
    url: str | None = None


# Text-only episodes (voice "none") have no audio to measure: their timings are estimated
# at the writing stage's own speaking-speed default, and their transcript says so.
ESTIMATE_WPM = 150.0


@dataclass(frozen=True)
class Audio:
    """What the voice stage made for one script."""

    duration_seconds: float
    cues: tuple[Cue, ...]
    chapters: tuple[Chapter, ...]
    audio_bytes: int | None = None  # None: text-only episode (voice "none")
    audio_sha256: str | None = None
    voice: str = "none"


# --------------------------------------------------------------------------- episodes


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
