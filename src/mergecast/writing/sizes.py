"""The fact check's line and file counts: a count said aloud ("about 1,900 lines", "a
four-line fix", "seven files") must be a sum over the files of a change or a theme the
sentence is about, summed and rounded as analysis/scope.py does when the writer says it; a
file said new, gone or renamed in a sentence that counts lines must be one those changes'
sources gave that status ("a new loss compare script" is an added file said that way)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..analysis.scope import claim_markers, claims_of, files_of, rounded
from ..models import Change, Digest
from .numbers import NUMBER_WORD, parse_count

# "about 1,900 lines", "35 added lines", "a four-line fix"; "three files". A bare "one line"
# is ordinary speech ("fits on one line"), so a count of lines is "N lines" or "N-line".
_ABOUT = r"(?:(about|around|roughly|nearly|some)\s+)?"  # group 1 of each line count
LINES = re.compile(
    rf"\b{_ABOUT}(\d{{1,3}}(?:,\d{{3}})+|{NUMBER_WORD})"
    r"(?:-line\b|\s+(?:(?:added|removed|changed|deleted)\s+)?lines\b)", re.I)
# ... and the lines that come in beside those that go: "about 18,000 lines out, about 160 in".
_LINES_IN = re.compile(
    rf"(?<=lines out, ){_ABOUT}(\d{{1,3}}(?:,\d{{3}})+|\d+|{NUMBER_WORD})(?=\s+in\b)", re.I)
FILES = re.compile(rf"\b({NUMBER_WORD})\s+(?:(?:changed|touched|other)\s+)?files\b", re.I)


@dataclass(frozen=True)
class Size:
    """What a change's or a theme's files add up to (analysis/scope.py sums the same way):
    lines added, removed and both, in all and per file, and how many files."""

    prs: frozenset[int]
    lines: frozenset[int]
    files: frozenset[int]
    claims: frozenset[str] = frozenset()  # files said new, gone or renamed (claims_of)


def _size(prs: Iterable[int], changes: Sequence[Change]) -> Size | None:
    files = files_of(changes)
    if not files:
        return None
    added, removed = sum(a for a, _ in files.values()), sum(d for _, d in files.values())
    lines = {added, removed, added + removed}
    lines |= {n for a, d in files.values() for n in (a, d, a + d)}
    return Size(frozenset(prs), frozenset(lines), frozenset({len(files)}), claims_of(changes))


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


def line_counts(text: str) -> list[re.Match[str]]:
    """Every line count in `text`; group 1 is its "about", group 2 its number."""
    return [*LINES.finditer(text), *_LINES_IN.finditer(text)]


def _amount(word: str) -> int | None:
    return int(word.replace(",", "")) if word.replace(",", "").isdigit() else parse_count(word)


def check_sizes(known: Sequence[Size], text: str, mentioned: set[int],
                said: str | None = None) -> list[str]:
    """A line count must be a sum of the files of a change or theme the sentence is
    about (rounded as analysis/scope.py rounds, when said with "about"); a file count
    must be one's number of files. A new, gone or renamed file is checked in `said`, the
    sentence as spoken (`text` may have names masked), when given."""
    sizes = [s for s in known if s.prs & mentioned] if mentioned else list(known)
    lines = {n for s in sizes for n in s.lines}
    found = []
    for m in line_counts(text):
        value = _amount(m.group(2))
        if value is not None and value not in lines and not (
                m.group(1) and any(rounded(n)[0] == value for n in lines)):
            found.append(f"line count {m.group(0)!r} is no sum of the digest's files")
    for m in FILES.finditer(text):
        value = _amount(m.group(1))
        if value is not None and value not in {n for s in sizes for n in s.files}:
            found.append(f"file count {m.group(0)!r} is not supported by the digest")
    if LINES.search(text):
        found += _check_claims({c.lower() for s in sizes for c in s.claims}, said or text)
    return found


def _check_claims(claims: set[str], text: str) -> list[str]:
    """Each new, gone or renamed claim in `text` must lie inside one the files support."""
    low = text.lower()
    spans = [(i, i + len(c)) for c in claims for i in _find_all(low, c)]
    found = []
    for kind, marker in claim_markers().items():
        for i in _find_all(low, marker.lower()):
            if not any(a <= i and i + len(marker) <= b for a, b in spans):
                words = text[i:].split()[:6]
                found.append(f"{kind} file claim {' '.join(words)!r} matches no file of "
                             f"that status in the digest")
    return found


def _find_all(text: str, part: str) -> list[int]:
    """Where `part` starts in `text` as whole words."""
    out, i = [], text.find(part)
    while i >= 0:
        end = i + len(part)
        if (i == 0 or not text[i - 1].isalnum() or not part[0].isalnum()) and (
                end == len(text) or not text[end].isalnum() or not part[-1].isalnum()):
            out.append(i)
        i = text.find(part, i + 1)
    return out
