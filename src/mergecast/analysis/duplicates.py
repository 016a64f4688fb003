"""Duplicated effort: two people's changes that tackle the same thing, with the evidence.

A pair is reported only with evidence a maintainer would accept, and the evidence is kept
with it (`Duplicate.evidence`, `Duplicate.shared`):

- issue: both reference the same issue or PR (`Fixes #N`, issue URLs; for changes not
  both landed also a bare `#N`), a reference at most MAX_REF_POSTINGS changes share;
- title: near-identical titles once the boilerplate they share is gone (boilerplate.py);
- files: substantial overlap of changed files (generic ones such as CMakeLists.txt do not
  count) and similar problem statements (title plus the opening of the cleaned body);
- problem: similar problem statements alone, only when neither file list is known.

Two changes that both landed count only by a shared closing reference or near-identical
titles; competing changes still in review are the interesting case. Never paired:
same-identity authors, changes in one stack or one revert chain, reverts, bot or
docs/CI-only changes. At least one side is active in the window (the other may come from
the store's recent history). Each window change reports at most MAX_PER_PR pairs.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ..models import Change, Duplicate
from .boilerplate import Titles
from .headlines import clean_title
from .policy import policy
from .similarity import Vector, candidate_pairs, cosine, shared_terms

PROBLEM_SIM = 0.16  # tuned on the shared pytorch sample: its known pair scores 0.18
FILE_OVERLAP = 0.5  # shared specific files / the smaller change's specific files
MAX_PER_PR = 3
FULL_COMPARE = 40  # areas at most this big compare every pair; bigger ones use the index
MAX_FILE_POSTINGS = 30
MAX_REF_POSTINGS = 3  # a reference more changes share is a tracker, not a shared problem
MAX_MENTIONS = 8  # a body naming more PRs than this is a squash of many, not one problem
LANDED_CORE_WORDS = 4  # landed pairs need a longer shared title ("Fix ROCm CI" is no evidence)


@functools.cache
def _generic_files() -> frozenset[str]:
    return frozenset(n.lower() for n in policy("duplicates")["generic_files"])


@dataclass(frozen=True)
class DupInput:
    """What duplicates needs of one change (prepared once by the digest)."""

    change: Change
    in_window: bool
    landed: bool
    area: str | None
    groups: frozenset[str]  # never paired with a change sharing one (its stack or chain)
    person: str  # the credited identity
    problem_vec: Vector
    files: frozenset[str]  # its specific files (generic ones such as CMakeLists.txt left out)
    closing: frozenset[int]  # issues it says it fixes (Fixes #N, Closes …/issues/N)
    mentions: frozenset[int]  # every #N and issue or pull URL it names outside stack lists


def specific_files(c: Change) -> frozenset[str]:
    return frozenset(f.path for f in c.files or ()
                     if f.path.rsplit("/", 1)[-1].lower() not in _generic_files())


def _pairs(items: Sequence[DupInput]) -> set[tuple[int, int]]:
    by_area: dict[str, list[int]] = defaultdict(list)
    for i, it in enumerate(items):
        by_area[it.area or ""].append(i)
    pairs: set[tuple[int, int]] = set()
    for members in by_area.values():
        if len(members) <= FULL_COMPARE:
            pairs.update((a, b) for x, a in enumerate(members) for b in members[x + 1:])
        else:
            # alike titles share their heaviest terms too (the problem vector weighs titles)
            keys = [str(i) for i in members]
            vecs = {str(i): items[i].problem_vec for i in members}
            pairs.update((int(a), int(b)) for a, b in candidate_pairs(keys, vecs))
    postings: dict[str, list[int]] = defaultdict(list)
    for i, it in enumerate(items):
        for path in it.files:
            postings["f:" + path].append(i)
        for n in it.closing | it.mentions:
            postings[f"#{n}"].append(i)
    for posting in postings.values():
        if 1 < len(posting) <= MAX_FILE_POSTINGS:
            pairs.update((a, b) for x, a in enumerate(posting) for b in posting[x + 1:])
    return {(min(a, b), max(a, b)) for a, b in pairs}


def _ref_postings(items: Sequence[DupInput]) -> dict[int, int]:
    counts: dict[int, int] = defaultdict(int)
    for it in items:
        for n in it.closing | it.mentions:
            counts[n] += 1
    return counts


def find_duplicates(items: Sequence[DupInput], titles: Titles) -> list[Duplicate]:
    """The reported pairs, most convincing first per change, sorted by PR numbers."""
    refs = _ref_postings(items)
    scored: list[tuple[float, int, int, Duplicate]] = []
    for a, b in _pairs(items):
        x, y = items[a], items[b]
        if not (x.in_window or y.in_window) or x.person == y.person or x.groups & y.groups:
            continue
        found = _evidence(x, y, refs, titles)
        if found is not None:
            scored.append((found[0], a, b, found[1]))
    scored.sort(key=lambda s: (-s[0], _num(items[s[1]]), _num(items[s[2]])))
    used: dict[int, int] = defaultdict(int)
    out: list[Duplicate] = []
    for _, a, b, dup in scored:
        window_sides = [i for i in (a, b) if items[i].in_window]
        if any(used[i] >= MAX_PER_PR for i in window_sides):
            continue
        for i in window_sides:
            used[i] += 1
        out.append(dup)
    out.sort(key=lambda d: d.prs)
    return out


def _evidence(x: DupInput, y: DupInput, refs: dict[int, int],
              titles: Titles) -> tuple[float, Duplicate] | None:
    both_landed = x.landed and y.landed
    prs = tuple(sorted((_num(x), _num(y))))
    pair = (prs[0], prs[1])
    own = {_num(x), _num(y)}
    if _num(x) in y.mentions or _num(y) in x.mentions:
        return None  # one names the other: a follow-up, cherry-pick or reland, told as related
    refs_x, refs_y = (x.closing, y.closing) if both_landed else \
        (x.closing | x.mentions, y.closing | y.mentions)
    shared = {n for n in refs_x & refs_y if n not in own and refs.get(n, 0) <= MAX_REF_POSTINGS}
    if shared:
        listed = ", ".join(f"#{n}" for n in sorted(shared))
        says = "say they fix" if shared <= (x.closing & y.closing) else "reference"
        return 3.0, Duplicate(pair, f"both {says} {listed}", "issue",
                              tuple(f"#{n}" for n in sorted(shared)))
    files_x, files_y = x.files, y.files
    common = files_x & files_y
    same_area = bool(common) or (x.area is not None and x.area == y.area)
    if not same_area and x.area is not None and y.area is not None:
        return None  # two places: alike titles or words name different work
    core = titles.near_identical(x.change.title, y.change.title)
    if core is not None and (not both_landed or len(core.split()) >= LANDED_CORE_WORDS):
        said = clean_title(core) or core  # shown on the page: no made-up references
        return 2.0, Duplicate(pair, f"near-identical titles: “{said}”", "title", (said,))
    if both_landed or not same_area:
        return None
    problem = cosine(x.problem_vec, y.problem_vec)
    if problem < PROBLEM_SIM:
        return None
    terms = tuple(shared_terms(x.problem_vec, y.problem_vec, 4))
    if common and len(common) >= FILE_OVERLAP * min(len(files_x), len(files_y)):
        paths = tuple(sorted(common))
        return 1.0 + problem, Duplicate(
            pair, f"{_count(len(paths), 'shared file')} and similar problem statements "
                  f"(similarity {problem:.2f}; shared terms: {', '.join(terms)})",
            "files", paths)
    if x.change.files is None and y.change.files is None:
        return problem, Duplicate(
            pair, f"similar problem statements (similarity {problem:.2f}; "
                  f"shared terms: {', '.join(terms)})", "problem", terms)
    return None


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _num(it: DupInput) -> int:
    return it.change.number or 0


_MENTION = re.compile(r"(?<![\w/#])#(\d{1,9})\b|https?://github\.com/[\w.-]+/[\w.-]+/"
                      r"(?:pull|issues)/(\d{1,9})")
# Lines that name a change's own PR, its stack or its revert, not a problem it shares.
_OWN_LINE = re.compile(r"^\s*(?:[*-]\s+(?:__->__\s+)?#\d+|Pull[ -]Request|Reverted|ghstack|"
                       r"Differential Revision|Approved by|X-link|Stack from)", re.I)


_CLOSING = re.compile(r"\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)\s*:?\s+(?:[\w.-]+/[\w.-]+)?"
                      r"(?:#|https?://github\.com/[\w.-]+/[\w.-]+/issues/)(\d{1,9})\b", re.I)


def references(title: str, body: str) -> tuple[frozenset[int], frozenset[int]]:
    """(issues it says it closes, every `#N` and issue or pull URL it names), leaving out
    lines that name its own PR, stack or revert (`Pull Request resolved:`, `* #N` stack
    lists, `Reverted …`). A body naming more than MAX_MENTIONS is a squash of many changes:
    its references say nothing about one problem."""
    kept = "\n".join(line for line in body.split("\n") if not _OWN_LINE.match(line))
    text = title + "\n" + kept
    named = frozenset(int(m.group(1) or m.group(2)) for m in _MENTION.finditer(text))
    if len(named) > MAX_MENTIONS:
        return frozenset(), frozenset()
    return frozenset(int(n) for n in _CLOSING.findall(text)), named
