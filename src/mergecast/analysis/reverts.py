"""Reverts and relands, paired with their originals across days (window + store history)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..models import Change, Ref, Revert, RevertPair
from .text import truncate

_REVERT_TITLE = re.compile(r'^\s*Revert\s+"(?P<title>.+)"\s*$', re.I)
_REVERTS_SHA = re.compile(r"This reverts commit ([0-9a-f]{7,40})", re.I)
_REVERTED_PR = re.compile(
    r"Reverted\s+(?:https?://github\.com/[\w.-]+/[\w.-]+/pull/|#)(\d+)(?P<rest>[^\n]*)", re.I
)
_DUE_TO = re.compile(r"\bdue to\s+(.+?)(?:\s*\(\[comment\]|\s*$)", re.I)
_RELAND = re.compile(r"^\s*(?:\[\s*re-?land\s*\]\s*|re-?land(?:ed)?\s*:?\s+)", re.I)


def revert_of(change: Change) -> Revert | None:
    """What a change reverts: the source's parse if any, else its title and body."""
    if change.revert is not None:
        return change.revert
    m = _REVERT_TITLE.match(change.title)
    body = truncate(change.body)
    sha = _REVERTS_SHA.search(body)
    pr = _REVERTED_PR.search(body)
    if not (m or sha or pr):
        return None
    reason = None
    if pr:
        due = _DUE_TO.search(pr.group("rest"))
        reason = due.group(1).strip() if due else None
    return Revert(
        sha=sha.group(1) if sha else None,
        pr=int(pr.group(1)) if pr else None,
        reason=reason,
        title=m.group("title") if m else None,
    )


def reland_title(change: Change) -> str | None:
    """The original's title for a reland ("Reland …", "[reland] …"), else None."""
    m = _RELAND.match(change.title)
    if m:
        return change.title[m.end():].strip().strip('"').strip()
    if change.reland:
        return change.title.strip()
    return None


def _ref(c: Change) -> Ref:
    return Ref(pr=c.number, sha=c.sha)


def _norm(title: str) -> str:
    return re.sub(r"\s+", " ", title).strip().lower()


def _moment(c: Change) -> float:
    times = c.times()
    return min(times).timestamp() if times else 0.0


def pair_reverts(
    window: Sequence[Change], history: Sequence[Change]
) -> tuple[list[RevertPair], list[RevertPair]]:
    """(reverts, relands) for the window's changes; originals may come from history."""
    pool = list(history) + list(window)
    by_pr = {c.number: c for c in pool if c.number is not None}
    by_title: dict[str, list[Change]] = {}
    for c in pool:
        if revert_of(c) is None and reland_title(c) is None:
            by_title.setdefault(_norm(c.title), []).append(c)
    reverts: list[RevertPair] = []
    relands: list[RevertPair] = []
    for c in sorted(window, key=lambda c: (c.number or 0, c.sha or "")):
        rv = revert_of(c)
        if rv is not None:
            original = _find_original(rv, by_pr, by_title, pool)
            if original is not None:
                reverts.append(RevertPair(_ref(c), original, rv.reason))
            continue
        title = reland_title(c)
        if title is not None:
            earlier = [o for o in by_title.get(_norm(title), []) if o.key != c.key
                       and _moment(o) <= _moment(c)]
            if earlier:
                o = max(earlier, key=lambda o: (_moment(o), o.number or 0))
                relands.append(RevertPair(_ref(c), _ref(o), None))
    return reverts, relands


def _find_original(
    rv: Revert, by_pr: dict[int, Change], by_title: dict[str, list[Change]],
    pool: Sequence[Change],
) -> Ref | None:
    if rv.pr is not None:
        c = by_pr.get(rv.pr)
        return _ref(c) if c else Ref(pr=rv.pr, sha=rv.sha)
    if rv.sha:
        for c in pool:
            if any(s.startswith(rv.sha) or rv.sha.startswith(s) for s in c.shas):
                return _ref(c)
        return Ref(pr=None, sha=rv.sha)
    if rv.title:
        found = by_title.get(_norm(rv.title))
        if found:
            return _ref(max(found, key=_moment))
    return None
