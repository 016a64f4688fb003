"""The fact check's line and file counts: a count said aloud ("about 1,900 lines", "a
four-line fix", "seven files") must be a sum over the files of a change or a theme the
sentence is about, summed and rounded as analysis/scope.py does when the writer says it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..analysis.scope import files_of, rounded
from ..models import Change, Digest
from .numbers import NUMBER_WORD, parse_count

# "about 1,900 lines", "35 added lines", "a four-line fix"; "three files". A bare "one line"
# is ordinary speech ("fits on one line"), so a count of lines is "N lines" or "N-line".
LINES = re.compile(
    rf"\b(?:(about|around|roughly|nearly|some)\s+)?(\d{{1,3}}(?:,\d{{3}})+|{NUMBER_WORD})"
    r"(?:-line\b|\s+(?:(?:added|removed|changed|deleted)\s+)?lines\b)", re.I)
FILES = re.compile(rf"\b({NUMBER_WORD})\s+(?:(?:changed|touched|other)\s+)?files\b", re.I)


@dataclass(frozen=True)
class Size:
    """What a change's or a theme's files add up to (analysis/scope.py sums the same way):
    lines added, removed and both, in all and per file, and how many files."""

    prs: frozenset[int]
    lines: frozenset[int]
    files: frozenset[int]


def _size(prs: Iterable[int], changes: Sequence[Change]) -> Size | None:
    files = files_of(changes)
    if not files:
        return None
    added, removed = sum(a for a, _ in files.values()), sum(d for _, d in files.values())
    lines = {added, removed, added + removed}
    lines |= {n for a, d in files.values() for n in (a, d, a + d)}
    return Size(frozenset(prs), frozenset(lines), frozenset({len(files)}))


def sizes_of(d: Digest) -> list[Size]:
    """Every change's sizes, and every theme's over all its changes (a theme with a change
    missing from the digest has no size: a sum over part of it would be a false figure)."""
    by_sha = {c.sha: c for c in d.changes if c.sha}
    groups: list[tuple[tuple[int, ...], list[Change]]] = [
        ((c.number,) if c.number is not None else (), [c]) for c in d.changes]
    for t in d.themes:
        prs = tuple(dict.fromkeys((*(t.stack.members if t.stack else ()), *t.prs)))
        found = [c for n in prs if (c := d.change(n)) is not None]
        found += [by_sha[s] for s in t.commits if s in by_sha]
        if len(found) == len(prs) + len(t.commits):
            groups.append((prs, found))
    return [s for prs, changes in groups if (s := _size(prs, changes)) is not None]


def _amount(word: str) -> int | None:
    return int(word.replace(",", "")) if word.replace(",", "").isdigit() else parse_count(word)


def check_sizes(known: Sequence[Size], text: str, mentioned: set[int]) -> list[str]:
    """A line count must be a sum of the files of a change or theme the sentence is
    about (rounded as analysis/scope.py rounds, when said with "about"); a file count
    must be one's number of files."""
    sizes = [s for s in known if s.prs & mentioned] if mentioned else list(known)
    lines = {n for s in sizes for n in s.lines}
    found = []
    for m in LINES.finditer(text):
        value = _amount(m.group(2))
        if value is not None and value not in lines and not (
                m.group(1) and any(rounded(n)[0] == value for n in lines)):
            found.append(f"line count {m.group(0)!r} is no sum of the digest's files")
    for m in FILES.finditer(text):
        value = _amount(m.group(1))
        if value is not None and value not in {n for s in sizes for n in s.files}:
            found.append(f"file count {m.group(0)!r} is not supported by the digest")
    return found
