"""Themes: units (stacks and single changes) grouped by area and similarity, then ranked.

Grouping: two units join when they share an area and either their TF-IDF centroids are
similar (GROUP_SIM), they reference the same issue, or they touch the same file. A theme
holds at most one stack and MAX_UNITS units, so single-link chains cannot swallow a day.

Score (every term is listed in `why`): 1 per PR or commit, 0.5 per declared stack entry
outside the window (up to 10), log2(1 + lines/50) up to 4, 0.3 per file with only added
lines (up to 3), 1 per extra area reached, 1.5 per revert or reland, 1 per first-time
contributor. Docs-, CI- and version-bump-only themes are multiplied by NOISE_FACTOR and
always ranked after every other theme, so they can never outrank a real stack.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence, Set
from dataclasses import dataclass, replace

from ..models import Change, Stack, Theme, ThemeKind
from .headlines import headline
from .similarity import Vector, candidate_pairs, cosine

GROUP_SIM = 0.3
MAX_UNITS = 12
FULL_COMPARE = 40
NOISE_FACTOR = 0.25

_NOISE_TITLE = re.compile(
    r"\b(typos?|spelling|bump|version bump|whitespace|lint(?:ing)?|formatting|"
    r"update (?:the )?(?:readme|docs?|changelog|release dates?|copyright)|"
    r"fix (?:a )?(?:broken )?link)\b"
    r"|^\s*\[(?:ci|cd|docs?|typo|nit)\]|^\s*(?:docs?|ci|chore|build\(deps\))\s*[:(]",
    re.I,
)
_NOISE_PATH = re.compile(
    r"^(?:docs?/|\.github/|\.ci/|\.circleci/)|\.(?:md|rst|txt)$|(?:^|/)(?:CHANGELOG|RELEASE)[^/]*$",
    re.I,
)
_VERBS = frozenset(
    """make use give record stop dump honor fix add remove update support implement
    introduce move rename refactor enable disable avoid handle allow improve migrate
    replace clean teach port speed skip bump revert reland ensure expose delete deprecate
    drop""".split()
)

_GENERIC = frozenset(
    """related code stuff things misc various minor small test tests support better more
    deprecated unused old new extra some config configs option options issue issues bug
    bugs case cases part parts file files helper helpers util utils""".split()
)


@dataclass(frozen=True)
class Unit:
    changes: tuple[Change, ...]
    stack: Stack | None
    vector: Vector
    areas: tuple[str, ...]
    issues: frozenset[int]


def is_noise(c: Change) -> bool:
    """Docs typos, CI/version bumps and bot changes: news for nobody."""
    if c.bot or _NOISE_TITLE.search(c.title):
        return True
    paths = [f.path for f in c.files or ()]
    return bool(paths) and all(_NOISE_PATH.search(p) for p in paths)


def _union_find_groups(units: Sequence[Unit], area_of_unit: Sequence[str]) -> list[list[int]]:
    parent = list(range(len(units)))
    size = [1] * len(units)
    stacks = [1 if u.stack else 0 for u in units]

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    buckets: dict[str, list[int]] = {}
    for i, area in enumerate(area_of_unit):
        if area:
            buckets.setdefault(area, []).append(i)
    scored: list[tuple[float, int, int]] = []
    for members in buckets.values():
        if len(members) <= FULL_COMPARE:
            cands = [(a, b) for x, a in enumerate(members) for b in members[x + 1:]]
        else:
            keys = [str(i) for i in members]
            found = candidate_pairs(keys, {str(i): units[i].vector for i in members})
            cands = [(int(a), int(b)) for a, b in found]
        for a, b in cands:
            sim = cosine(units[a].vector, units[b].vector)
            if units[a].issues & units[b].issues:
                sim = max(sim, 1.0)
            elif _shared_file(units[a], units[b]):
                sim = max(sim, GROUP_SIM)
            if sim >= GROUP_SIM:
                scored.append((sim, a, b))
    scored.sort(key=lambda s: (-s[0], s[1], s[2]))
    for _, a, b in scored:
        ra, rb = find(a), find(b)
        if ra == rb or stacks[ra] + stacks[rb] > 1 or size[ra] + size[rb] > MAX_UNITS:
            continue
        parent[rb] = ra
        size[ra] += size[rb]
        stacks[ra] += stacks[rb]
    groups: dict[int, list[int]] = {}
    for i in range(len(units)):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def _shared_file(a: Unit, b: Unit) -> bool:
    files = {f.path for c in a.changes for f in c.files or ()}
    return any(f.path in files for c in b.changes for f in c.files or ())


def build_themes(
    units: Sequence[Unit],
    *,
    first_timers: Set[str],
    revert_keys: Set[str],
    day_titles: Counter[str],
) -> list[Theme]:
    """Group units and rank the themes; `day_titles` counts title words over the day."""
    area_of_unit = [u.areas[0] if u.areas else "" for u in units]
    ranked: list[tuple[bool, float, int, Theme]] = []
    for group in _union_find_groups(units, area_of_unit):
        members = [units[i] for i in group]
        theme, noise = _theme(members, first_timers, revert_keys, day_titles)
        ranked.append((noise, -theme.score, min(_order(u) for u in members), theme))
    ranked.sort(key=lambda r: (r[0], r[1], r[2]))
    return [replace(t, rank=i + 1) for i, (_, _, _, t) in enumerate(ranked)]


def _order(u: Unit) -> int:
    return min((c.number or 0) for c in u.changes)


def _theme(
    members: Sequence[Unit], first_timers: Set[str], revert_keys: Set[str],
    day_titles: Counter[str],
) -> tuple[Theme, bool]:
    changes = sorted((c for u in members for c in u.changes),
                     key=lambda c: (c.number is None, c.number or 0, c.sha or ""))
    stack = next((u.stack for u in members if u.stack), None)
    prs = tuple(c.number for c in changes if c.number is not None)
    commits = tuple(c.sha for c in changes if c.number is None and c.sha)
    areas: Counter[str] = Counter(a for u in members for a in u.areas)
    area_list = tuple(sorted(areas, key=lambda a: (-areas[a], a)))
    authors: Counter[str] = Counter(c.author.handle for c in changes)
    author_list = tuple(sorted(authors, key=lambda a: (-authors[a], a)))

    score = 0.0
    why: list[str] = []
    n = len(changes)
    score += n
    why.append(f"{n} PR{'s' if n != 1 else ''}" if not commits else
               f"{len(prs)} PRs and {len(commits)} commits")
    if stack is not None and stack.declared_size:
        outside = max(0, stack.declared_size - stack.in_window)
        if outside:
            score += 0.5 * min(outside, 10)
        why.append(f"{stack.tool} stack declaring {stack.declared_size} PRs "
                   f"({stack.in_window} in the window)")
    lines = sum(c.lines_changed for c in changes)
    if lines:
        score += min(4.0, math.log2(1 + lines / 50))
        why.append(f"{lines:,} lines changed")
    added_only = {f.path for c in changes for f in c.files or ()
                  if (f.additions or 0) > 0 and f.deletions == 0}
    if added_only:
        score += min(3.0, 0.3 * len(added_only))
        why.append(f"{len(added_only)} file{'s' if len(added_only) != 1 else ''} "
                   "with only added lines")
    if len(area_list) > 1:
        score += len(area_list) - 1
        why.append(f"reaches {len(area_list)} areas: {', '.join(area_list)}")
    n_reverts = sum(1 for c in changes if c.key in revert_keys)
    if n_reverts:
        score += 1.5 * n_reverts
        why.append(f"{n_reverts} revert{'s' if n_reverts != 1 else ''} or reland")
    newcomers = sorted({c.author.handle for c in changes} & first_timers)
    if newcomers:
        score += len(newcomers)
        why.append("first-time contributor" + ("s" if len(newcomers) > 1 else "") + ": "
                   + ", ".join(newcomers))
    noise = stack is None and all(is_noise(c) for c in changes)
    if noise:
        score *= NOISE_FACTOR
        why.append(f"docs/CI/bump-only work (x{NOISE_FACTOR}, ranked last)")
    kind = (ThemeKind.STACK if stack is not None
            else ThemeKind.CLUSTER if len(members) > 1 else ThemeKind.SINGLE)
    theme = Theme(
        rank=0, kind=kind,
        headline=headline([c.title for c in changes], day_titles, areas=area_list,
                          goal_last=stack is not None),
        authors=author_list, areas=area_list, prs=prs, commits=commits, stack=stack,
        score=round(score, 2), why=tuple(why),
    )
    return theme, noise
