"""One Change from two views of it: a commit and a PR export of the same work, or two
snapshots of one PR. The store merges every change it is given with what it holds."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from .changes import Change, FileChange, FileStatus, Person, State

_PR_FIELDS = ("title", "body", "url", "created_at", "updated_at", "merged_at", "closed_at",
              "labels", "base_ref", "head_ref", "stack_comment", "author_association")
_GIT_FIELDS = ("landed_at", "trailers", "revert")
_FILE_FIELDS = ("files", "files_truncated", "changed_files", "additions", "deletions")
_EPOCH = dt.datetime.min.replace(tzinfo=dt.UTC)


def _set(v: object) -> bool:
    return v is not None and v != "" and v != () and v is not State.LANDED


def _union(a: tuple[Any, ...], b: tuple[Any, ...]) -> tuple[Any, ...]:
    return a + tuple(x for x in b if x not in a)


def _statuses(
    files: tuple[FileChange, ...] | None, other: tuple[FileChange, ...] | None,
) -> tuple[FileChange, ...] | None:
    """`files`, each unknown status filled from the other view's file at the same path: a
    view that cannot tell (a gh export, an old row) never loses what another view learned."""
    if not files or not other or all(f.status is not FileStatus.UNKNOWN for f in files):
        return files
    known = {f.path: f for f in other if f.status is not FileStatus.UNKNOWN}
    return tuple(
        dataclasses.replace(f, status=k.status, previous_path=k.previous_path)
        if f.status is FileStatus.UNKNOWN and (k := known.get(f.path)) is not None else f
        for f in files)


def _person(first: Person, second: Person) -> Person:
    return Person(
        login=first.login or second.login, name=first.name or second.name,
        email=first.email or second.email,
    )


def merge_change(old: Change, new: Change) -> Change:
    """One Change from two views of it (a commit and a PR export, or two snapshots).

    PR facts (title, state, times, labels) come from the PR side, landing facts (landed
    time, trailers, revert, per-file stats) from the git side; between two views of the
    same kind the more recent one wins. The rule is symmetric, so re-ingesting any input
    leaves a merged change exactly as it was.
    """
    new_git = new.state is State.LANDED
    old_git = old.state is State.LANDED
    if new_git and old_git:
        pr_new = git_new = (new.landed_at or _EPOCH) >= (old.landed_at or _EPOCH)
    elif new_git:
        pr_new, git_new = False, True
    elif old_git:
        pr_new, git_new = True, False
    else:
        pr_new = git_new = (new.updated_at or _EPOCH) >= (old.updated_at or _EPOCH)
    if old.landed_at is None and new.landed_at is not None:
        git_new = True
    elif new.landed_at is None and old.landed_at is not None:
        git_new = False
    out: dict[str, Any] = {}
    for name in _PR_FIELDS + ("state",):
        a, b = (getattr(new, name), getattr(old, name))
        if not pr_new:
            a, b = b, a
        out[name] = a if _set(a) else b
    pr_src, other = (new, old) if pr_new else (old, new)
    out["draft"] = (pr_src if pr_src.state is not State.LANDED else other).draft
    for name in _GIT_FIELDS:
        a, b = (getattr(new, name), getattr(old, name))
        if not git_new:
            a, b = b, a
        out[name] = a if _set(a) else b
    first, second = (new, old) if git_new else (old, new)
    src = first if first.files is not None else second
    for name in _FILE_FIELDS:
        out[name] = getattr(src, name)
    out["files"] = _statuses(src.files, (second if src is first else first).files)
    out["author"] = _person(new.author, old.author) if pr_new else _person(old.author, new.author)
    out["shas"] = _union(second.shas, first.shas)  # the later landing's sha last
    out["co_authors"] = _union(old.co_authors, new.co_authors)
    out["reland"] = old.reland or new.reland
    out["bot"] = old.bot or new.bot
    return dataclasses.replace(old, **out)
