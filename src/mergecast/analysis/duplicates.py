"""Duplicated effort: PRs by different authors that tackle the same problem.

A pair qualifies when the authors differ, the PRs are not in one stack, at least one is
active in the window (the other may be from the store's previous 14 days), they share an
area or a file, and one of: the same referenced issue, near-identical titles, or similar
problem statements (title plus the opening paragraph of the cleaned body, TF-IDF cosine).

Same-author resubmissions (one title opened again) are not duplicated effort, so they are
never reported; a window PR pairs with each resubmission of the other author's PR. Each
window PR reports at most MAX_PER_PR pairs, the most similar first.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ..models import Change, Duplicate
from .similarity import Vector, candidate_pairs, cosine, shared_terms

TITLE_SIM = 0.6
PROBLEM_SIM = 0.16  # tuned on the shared pytorch sample: its known pair scores 0.18
MAX_PER_PR = 3
FULL_COMPARE = 40  # areas at most this big compare every pair; bigger ones use the index
MAX_FILE_POSTINGS = 30


@dataclass(frozen=True)
class DupInput:
    """What duplicates needs of one PR (prepared once by the digest)."""

    change: Change
    in_window: bool
    area: str | None
    stack: int | None  # stack id, None when not stacked
    title_vec: Vector
    problem_vec: Vector
    issues: frozenset[int]


def _pairs(items: Sequence[DupInput]) -> set[tuple[int, int]]:
    by_area: dict[str, list[int]] = defaultdict(list)
    for i, it in enumerate(items):
        by_area[it.area or ""].append(i)
    pairs: set[tuple[int, int]] = set()
    for members in by_area.values():
        if len(members) <= FULL_COMPARE:
            pairs.update((a, b) for x, a in enumerate(members) for b in members[x + 1:])
        else:
            keys = [str(i) for i in members]
            vecs = {str(i): items[i].problem_vec for i in members}
            pairs.update((int(a), int(b)) for a, b in candidate_pairs(keys, vecs))
    by_file: dict[str, list[int]] = defaultdict(list)
    by_issue: dict[int, list[int]] = defaultdict(list)
    for i, it in enumerate(items):
        for f in it.change.files or ():
            by_file[f.path].append(i)
        for n in it.issues:
            by_issue[n].append(i)
    for posting in list(by_file.values()) + list(by_issue.values()):
        if 1 < len(posting) <= MAX_FILE_POSTINGS:
            pairs.update((a, b) for x, a in enumerate(posting) for b in posting[x + 1:])
    return {(min(a, b), max(a, b)) for a, b in pairs}


def _files(c: Change) -> set[str]:
    return {f.path for f in c.files or ()}


def find_duplicates(items: Sequence[DupInput]) -> list[Duplicate]:
    scored: list[tuple[float, int, int, str]] = []
    for a, b in _pairs(items):
        x, y = items[a], items[b]
        if not (x.in_window or y.in_window):
            continue
        if x.change.author.handle == y.change.author.handle:
            continue
        if x.stack is not None and x.stack == y.stack:
            continue
        shared_files = _files(x.change) & _files(y.change)
        if not shared_files and (x.area is None or x.area != y.area):
            continue
        issues = sorted(x.issues & y.issues)
        title = cosine(x.title_vec, y.title_vec)
        problem = cosine(x.problem_vec, y.problem_vec)
        if issues:
            why = "both reference issue " + ", ".join(f"#{n}" for n in issues)
            score = 2.0 + problem
        elif title >= TITLE_SIM:
            why = f"near-identical titles (similarity {title:.2f})"
            score = 1.0 + title
        elif problem >= PROBLEM_SIM:
            why = f"similar problem statements (similarity {problem:.2f}"
            score = problem
        else:
            continue
        scored.append((score, a, b, why))
    scored.sort(key=lambda s: (-s[0], _num(items[s[1]]), _num(items[s[2]])))
    used: dict[int, int] = defaultdict(int)
    out: list[Duplicate] = []
    for _, a, b, why in scored:
        window_sides = [i for i in (a, b) if items[i].in_window]
        if any(used[i] >= MAX_PER_PR for i in window_sides):
            continue
        why = _explain(items[a], items[b], why)
        for i in window_sides:
            used[i] += 1
        pa, pb = sorted((_num(items[a]), _num(items[b])))
        out.append(Duplicate(prs=(pa, pb), why=why))
    out.sort(key=lambda d: d.prs)
    return out


def _explain(x: DupInput, y: DupInput, why: str) -> str:
    """Finish a reason only for pairs that are reported (shared terms cost a sort)."""
    if why.startswith("similar problem statements"):
        terms = ", ".join(shared_terms(x.problem_vec, y.problem_vec, 4))
        why += f"; shared terms: {terms})"
    shared = _files(x.change) & _files(y.change)
    if shared:
        why += f"; {len(shared)} shared file{'s' if len(shared) != 1 else ''}"
    return why


def _num(it: DupInput) -> int:
    return it.change.number or 0
