"""What a theme follows: the same author's most recent earlier change to one of its files.

A relation the data shows and nothing more: same author, same file, earlier. For each
theme, the most recent change that landed in the LOOKBACK before the window, by one of the
theme's authors, sharing at least one substantive file with the theme's changes (code:
not tests, docs, CI, configuration, lockfiles, `__init__.py` or READMEs — scope.py's
kinds, duplicates' generic files and data/scope.toml's [config] files). Never a
bot's change, a revert or a change reverted since, nor a sweep (more than SWEEP_FILES
files: sharing a file with a lint sweep says nothing), and only when the two also share a
content word of their titles: sharing a file alone links "Quantization per-module config"
to "Update ruff version".

Pure: changes in, themes out; no I/O, no clock.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from ..models import Change, FollowUp, Ref, State, Theme, Window
from .duplicates import specific_files
from .language import base_verb, words
from .reverts import revert_of
from .scope import is_config, path_kind
from .text import strip_tags, tokens

LOOKBACK = dt.timedelta(days=7)
SWEEP_FILES = 20  # an earlier change touching more files than this is a sweep
SHARED_WORDS = 2  # content words the two titles share, or one rare word:
RARE = 0.04  # in at most this share of the titles of the window and its history
_LANDED = frozenset({State.MERGED, State.LANDED})


def substantive(c: Change) -> frozenset[str]:
    """The change's code files: what sharing says something about."""
    return frozenset(p for p in specific_files(c)
                     if path_kind(p) == "code" and not is_config(p))


def _landed(c: Change) -> dt.datetime | None:
    return c.merged_at or c.landed_at


def _reverted(changes: Iterable[Change]) -> tuple[set[int], set[str], set[str]]:
    """The PR numbers, sha prefixes and titles that some change reverts."""
    prs: set[int] = set()
    shas: set[str] = set()
    titles: set[str] = set()
    for c in changes:
        r = revert_of(c)
        if r is None:
            continue
        if r.pr is not None:
            prs.add(r.pr)
        if r.sha:
            shas.add(r.sha.lower())
        if r.title:
            titles.add(r.title.strip().lower())
    return prs, shas, titles


def _words(title: str) -> frozenset[str]:
    """A title's content words as similarity stems them, each whole ("MinimalAsyncEP",
    "qwen3"): no function or generic word, no verb in its base form ("enable", "pass",
    "refactor"), no part of a compound ("pass" of "custom_codegen_pass")."""
    w = words()
    out = set()
    for raw in strip_tags(title).split():
        low = raw.lower().strip(".,:;!?()[]'\"`")
        if not low or low in w.function or low in w.generic or base_verb(low) == low:
            continue
        if terms := tokens(raw):
            out.add(terms[0])  # the compound itself, else the word's one stem
    return frozenset(out)


def _related(earlier: str, mine: str, share: Mapping[str, float]) -> bool:
    """The titles share SHARED_WORDS content words, or one rare one (in at most RARE of
    the titles around): a file in common alone links "Update ruff version" to anything."""
    found = _words(earlier) & _words(mine)
    return len(found) >= SHARED_WORDS or any(share.get(x, 1.0) <= RARE for x in found)


def follow_ups(themes: Sequence[Theme], today: Sequence[Change], past: Sequence[Change],
               window: Window) -> tuple[Theme, ...]:
    """`themes`, each with `follows` set when an earlier change qualifies (see above).
    `today` and `past` carry their credited authors (identity.py)."""
    prs, shas, titles = _reverted([*today, *past])

    def eligible(c: Change) -> bool:
        when = _landed(c)
        return (c.state in _LANDED and when is not None
                and window.since - LOOKBACK <= when < window.since
                and not c.bot and c.files is not None and not c.files_truncated
                and len(c.files) <= SWEEP_FILES and (c.changed_files or 0) <= SWEEP_FILES
                and revert_of(c) is None and not c.reland
                and c.number not in prs and c.title.strip().lower() not in titles
                and not any(s.lower().startswith(x) or x.startswith(s.lower())
                            for s in c.shas for x in shas))

    earlier = sorted((c for c in past if eligible(c)), key=lambda c: _landed(c) or window.since,
                     reverse=True)
    df = Counter(x for c in [*today, *past] for x in _words(c.title))
    share = {t: n / (len(today) + len(past)) for t, n in df.items()}
    by_number = {c.number: c for c in today if c.number is not None}
    by_sha = {c.sha: c for c in today if c.sha}
    out = []
    taken: set[Ref] = set()  # one earlier change is followed by one theme, the first
    for t in themes:
        mine = [c for n in t.prs if (c := by_number.get(n))]
        mine += [c for s in t.commits if (c := by_sha.get(s))]
        found = _follows(t, mine, earlier, window, share)
        if found and found.ref not in taken:
            taken.add(found.ref)
            t = dataclasses.replace(t, follows=found)
        out.append(t)
    return tuple(out)


def _follows(t: Theme, mine: Sequence[Change], earlier: Sequence[Change],
             window: Window, share: Mapping[str, float]) -> FollowUp | None:
    """The most recent earlier change that one of the theme's changes follows: same
    author, a substantive file in common and related titles, pair by pair."""
    authors = set(t.authors) | {c.author.handle for c in mine}
    files = [(m, substantive(m)) for m in mine]
    for c in earlier:  # the most recent first
        if c.author.handle not in authors:
            continue
        theirs = substantive(c)
        for m, own in files:
            if (shared := own & theirs) and _related(c.title, m.title, share):
                when = _landed(c)
                assert when is not None
                tz = window.since.tzinfo
                return FollowUp(
                    ref=Ref(pr=c.number, sha=c.sha), author=c.author.handle,
                    landed=(when.astimezone(tz) if tz else when).date(), title=c.title,
                    path=_heaviest(shared, c, m), url=c.url)
    return None


def _heaviest(shared: frozenset[str], earlier: Change, mine: Change) -> str:
    """The shared file both changed most lines of (the one to name)."""
    def lines(path: str) -> int:
        return sum((f.additions or 0) + (f.deletions or 0) for c in (earlier, mine)
                   for f in c.files or () if f.path == path)
    return min(shared, key=lambda p: (-lines(p), p))
