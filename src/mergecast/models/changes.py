"""What sources yield: changes, people, files, reverts and the window they fall in."""

from __future__ import annotations

import datetime as dt
import enum
from dataclasses import dataclass, field


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


class FileStatus(enum.StrEnum):
    """What a change did to one file, as its source tells (git's status letter, GitHub's
    changeType); UNKNOWN when the source cannot tell (a gh export, an old store row)."""

    ADDED = "added"
    MODIFIED = "modified"
    DELETED = "deleted"
    RENAMED = "renamed"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class FileChange:
    path: str  # where the file is after the change (its old place when deleted)
    additions: int | None = None  # None: binary or unknown
    deletions: int | None = None
    status: FileStatus = FileStatus.UNKNOWN
    previous_path: str | None = None  # a renamed file's path before the change


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
            for t in (
                self.created_at,
                self.updated_at,
                self.merged_at,
                self.closed_at,
                self.landed_at,
            )
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
