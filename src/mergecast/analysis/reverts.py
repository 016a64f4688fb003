"""Revert chains: original → revert → revert of the revert or reland → …, across days.

Every revert or reland in the pool (the window plus the store's history) points at what it
undoes or brings back: a revert at the PR, commit or title its message names, a revert of
a revert at that revert, a reland ("Reland …", "[reland] …") at the latest earlier change
with its title. Following those links back gives each chain's original; a chain is
reported when one of its steps is in the window, credited to the original's author, each
step naming who reverted or relanded it and the reason the message gives.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..models import ChainStep, Change, Ref, Revert, RevertChain, RevertPair, Window
from ..sources.messages import REVERTS_SHA
from .headlines import clean_title
from .text import truncate

# 'Revert "X"', and 'Back out "X"' as an internal tool writes a revert of X.
_REVERT_TITLE = re.compile(r'^\s*(?:Revert|Back\s?out)\s+"(?P<title>.+)"\s*$', re.I)
_QUOTED_PR = re.compile(r"\(#(\d+)\)\s*$")  # 'Back out "Fix X (#3343)"': what it undoes
_REVERTED_PR = re.compile(
    r"Reverted\s+(?:https?://github\.com/[\w.-]+/[\w.-]+/pull/|#)(\d+)(?P<rest>[^\n]*)", re.I
)
# GitHub's revert button writes "Reverts owner/repo#12" as the body's first line; a
# summary's item says it too ("- Reverts #2935 which changed …").
_REVERTS_PR = re.compile(r"^\s*(?:[-*]\s+)?Reverts\s+(?:([\w.-]+/[\w.-]+))?#(\d+)\b",
                         re.I | re.M)
_ON_BEHALF = re.compile(r"\bon behalf of\s+(?:https?://github\.com/)?@?([A-Za-z0-9][\w-]{0,38})")
_DUE_TO = re.compile(r"\bdue to\s+(.+?)(?:\s*\(\[comment\]|\s*$)", re.I)
# A revert that redoes the change in the same PR ('Revert PR-2016 & Redo "Run X"'): the work
# is back, reworked, not gone.
_REDONE = re.compile(r"\s(?:&|\+|and)\s*(?:redo|re-do|reland|re-land|reapply|re-apply)\b", re.I)
_RELAND = re.compile(r"^\s*(?:\[\s*re-?land\s*\]\s*|re-?land(?:ed)?\s*:?\s+)", re.I)
_TRAILING_PR = re.compile(r"\s*\(#\d+\)\s*$")
_TRAILING_PR_NUMBER = re.compile(r"\(#(\d+)\)\s*$")
_REVERT_WORD = re.compile(r"^\s*Revert(?:ing)?\s*:?\s*", re.I)


def undone_prs(chains: Iterable[RevertChain]) -> frozenset[int]:
    """The PRs these chains leave reverted (RevertChain.undone)."""
    return frozenset(ch.original.pr for ch in chains if ch.undone and ch.original.pr)


def revert_of(change: Change) -> Revert | None:
    """What a change reverts: the source's parse if any, else its title and body."""
    if change.revert is not None:
        return change.revert
    m = _REVERT_TITLE.match(change.title)
    body = truncate(change.body)
    sha = REVERTS_SHA.search(body)
    pr = _REVERTED_PR.search(body)
    buttons = list(_REVERTS_PR.finditer(body))
    button = buttons[0] if len(buttons) == 1 else None  # (of two PRs: told by its title)
    if button and button.group(1) and button.group(1).lower() != change.repo.lower():
        button = None  # another repository's PR: not this one's to revert
    if not (m or sha or pr or button):
        return None
    quoted = _QUOTED_PR.search(m.group("title")) if m else None
    reason = by = None
    if pr:
        due = _DUE_TO.search(pr.group("rest"))
        reason = due.group(1).strip() if due else None
        behalf = _ON_BEHALF.search(pr.group("rest"))
        by = behalf.group(1) if behalf else None
    return Revert(
        sha=sha.group(1) if sha else None,
        pr=int(pr.group(1)) if pr else int(button.group(2)) if button else
        int(quoted.group(1)) if quoted else None,
        reason=reason,
        by=by,
        title=m.group("title") if m else None,
    )


def reland_title(change: Change) -> str | None:
    """The original's title for a reland ("Reland …", "[reland] …"), else None."""
    m = _RELAND.match(change.title)
    if m:
        return _TRAILING_PR.sub("", change.title[m.end():]).strip().strip('"').strip()
    if change.reland and revert_of(change) is None:
        return change.title.strip()
    return None


def _ref(c: Change) -> Ref:
    return Ref(pr=c.number, sha=c.sha)


def _norm(title: str) -> str:
    return re.sub(r"\s+", " ", _TRAILING_PR.sub("", title)).strip().lower()


def _moment(c: Change) -> float:
    times = c.times()
    return min(times).timestamp() if times else 0.0


def chain_title(title: str) -> str:
    """A title as a chain tells it: cleaned as headlines are (no tags, links, code or
    made-up references), else without its trailing "(#N)"."""
    return clean_title(title) or _TRAILING_PR.sub("", title).strip()


@dataclass(frozen=True)
class _Link:
    change: Change
    kind: str  # revert | reland
    target: Change | None  # what it undoes or brings back, when the pool holds it
    target_ref: Ref  # the same as a reference (possibly to a change outside the pool)
    revert: Revert | None


class _Pool:
    """The window and history, indexed to find what each revert or reland points at."""

    def __init__(self, changes: Sequence[Change]) -> None:
        self.changes = list(changes)
        self.by_pr = {c.number: c for c in self.changes if c.number is not None}
        self.by_title: dict[str, list[Change]] = {}
        for c in self.changes:
            self.by_title.setdefault(_norm(c.title), []).append(c)

    def _latest_before(self, title: str, c: Change, *, plain: bool) -> Change | None:
        found = [o for o in self.by_title.get(_norm(title), []) if o.key != c.key
                 and _moment(o) <= _moment(c)
                 and not (plain and (revert_of(o) or reland_title(o) is not None))]
        return max(found, key=lambda o: (_moment(o), o.number or 0)) if found else None

    def link(self, c: Change) -> _Link | None:
        rv = revert_of(c)
        if rv is not None:
            target = self._reverted(rv, c)
            ref = _ref(target) if target else Ref(pr=rv.pr, sha=rv.sha)
            kind = "reland" if target is not None and revert_of(target) is not None else "revert"
            return _Link(c, kind, target, ref, rv)
        title = reland_title(c)
        if title is None:
            return None
        named = _TRAILING_PR_NUMBER.search(c.title)
        target = self.by_pr.get(int(named.group(1))) if named else None
        if target is None or target.key == c.key:
            target = self._latest_before(title, c, plain=True)
        if target is None and not _RELAND.match(c.title):
            return None  # a source's reland flag alone ("fix the reland of x") is no chain
        return _Link(c, "reland", target, _ref(target) if target else Ref(), None)

    def _reverted(self, rv: Revert, c: Change) -> Change | None:
        if rv.pr is not None and rv.pr != c.number:
            return self.by_pr.get(rv.pr)
        if rv.sha:
            for o in self.changes:
                if o.key != c.key and any(s.startswith(rv.sha) or rv.sha.startswith(s)
                                          for s in o.shas):
                    return o
        if rv.title:
            return self._latest_before(rv.title, c, plain=False)
        return None


@dataclass(frozen=True)
class _Chain:
    original: Change | None  # the chain's first change, when the pool holds it
    ref: Ref  # the same as a reference (Ref() when nothing names it)
    steps: tuple[_Link, ...]  # oldest first


def _chains(window_changes: Sequence[Change], history: Sequence[Change]) -> list[_Chain]:
    keys = {c.key for c in window_changes}
    pool = _Pool([c for c in history if c.key not in keys] + list(window_changes))
    links = {c.key: link for c in pool.changes if (link := pool.link(c)) is not None}

    def origin(link: _Link) -> tuple[str, Change | None, Ref]:
        seen = {link.change.key}
        while link.target is not None and link.target.key in links \
                and link.target.key not in seen:
            seen.add(link.target.key)
            link = links[link.target.key]
        if link.target is not None:
            return link.target.key, link.target, link.target_ref
        ref = link.target_ref
        key = f"ref:{ref.pr}:{ref.sha}" if ref != Ref() else f"self:{link.change.key}"
        return key, None, ref

    groups: dict[str, tuple[Change | None, Ref, list[_Link]]] = {}
    for link in links.values():
        key, original, ref = origin(link)
        groups.setdefault(key, (original, ref, []))[2].append(link)
    out = [
        _Chain(original, ref, tuple(sorted(steps, key=lambda s: (_moment(s.change),
                                                                 s.change.number or 0))))
        for original, ref, steps in groups.values()
        # a reland of something the pool does not hold, with no revert seen, tells nothing
        if any(s.change.key in keys for s in steps)
        and (original is not None or any(s.kind == "revert" for s in steps))
    ]
    out.sort(key=lambda ch: min((s.change.number or 0, s.change.sha or "") for s in ch.steps
                                if s.change.key in keys))
    return out


def revert_story(
    window: Window, window_changes: Sequence[Change], history: Sequence[Change],
    credit: Mapping[str, str],
) -> tuple[list[RevertChain], list[RevertPair], list[RevertPair]]:
    """(chains, reverts, relands) for the window. Every chain with a step in the window,
    credited through `credit` (change key -> credited handle; "" or absent: nobody but a
    bot); each revert with what it undoes; each reland with its chain's original."""
    keys = {c.key for c in window_changes}
    chains: list[RevertChain] = []
    reverts: list[RevertPair] = []
    relands: list[RevertPair] = []
    for chain in _chains(window_changes, history):
        if chain.original is not None:
            title = chain_title(chain.original.title)
            author = credit.get(chain.original.key) or None
        else:
            head = chain.steps[0].change
            title = chain_title(_said_title(chain.steps[0]) or head.title)
            author = None
        steps = []
        for s in chain.steps:
            steps.append(step := _step(s, window, credit))
            if _redoes(s):
                steps.append(dataclasses.replace(step, kind="reland", reason=None))
        chains.append(RevertChain(original=chain.ref, title=title, author=author,
                                  steps=tuple(steps)))
        for s in chain.steps:
            if s.change.key not in keys:
                continue
            if s.kind == "revert" and s.target_ref != Ref():
                reverts.append(RevertPair(_ref(s.change), s.target_ref,
                                          s.revert.reason if s.revert else None))
            if (s.kind == "reland" or _redoes(s)) and chain.ref != Ref():
                relands.append(RevertPair(_ref(s.change), chain.ref))
    reverts.sort(key=lambda p: (p.revert.pr or 0, p.revert.sha or ""))
    relands.sort(key=lambda p: (p.revert.pr or 0, p.revert.sha or ""))
    return chains, reverts, relands


def _redoes(link: _Link) -> bool:
    """Whether a revert also redoes what it reverts, in the same change."""
    return link.kind == "revert" and _REDONE.search(link.change.title) is not None


def _said_title(link: _Link) -> str | None:
    """What a step says it reverts or relands, for a chain whose original is unknown."""
    if link.revert is not None:
        said = link.revert.title or _REVERT_WORD.sub("", link.change.title)
        return said.strip().strip('"').strip() or None
    return reland_title(link.change)


def _step(link: _Link, window: Window, credit: Mapping[str, str]) -> ChainStep:
    c = link.change
    by = (link.revert.by if link.revert and link.revert.by else None) or credit.get(c.key) or None
    return ChainStep(
        kind=link.kind, ref=_ref(c), by=by,
        reason=link.revert.reason if link.revert else None,
        in_window=not c.times() or c.active_in(window),
    )
