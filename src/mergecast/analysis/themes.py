"""Themes: units (stacks and single changes) grouped by area and similarity, then ranked.

Grouping: two units join when they share an area and either their TF-IDF centroids are
similar (GROUP_SIM), they reference the same issue, or they touch the same file. Units
with no area join only on the same issue, or on nearly the same title (SAME_SIM) and a
file in common. A theme
holds at most one stack and MAX_UNITS units, so single-link chains cannot swallow a day.

Score: the table of rules `_RULES`, each adding a weight and a reason to `why` (size,
declared stack entries outside the window, lines changed, files with only added lines,
areas reached, relands, first-time contributors). Docs-, CI- and version-bump-only themes
are multiplied by NOISE_FACTOR and always ranked after every other theme, so they can
never outrank a real stack; several people's grab-bag (many changes that share no name,
told by their place or by one of their titles) by MIX_FACTOR, so a day leads with a story
it can name. A cluster named by one title is named by its biggest change doing the work.
Reverts are no theme's work (they are told as revert chains), and neither is a change no
person can be credited for (a bot's).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence, Set
from dataclasses import dataclass, replace

from ..models import Change, Stack, Theme, ThemeKind
from .headlines import GRAB_BAG, headline, side_work
from .language import as_written
from .naming import grab_bag, kind_named, more_of
from .reverts import reland_title
from .similarity import Vector, candidate_pairs, cosine

GROUP_SIM = 0.3
SAME_SIM = 0.8  # units with no area: nearly the same title, and a file in common
MAX_UNITS = 12
FULL_COMPARE = 40
NOISE_FACTOR = 0.25
MIX_FACTOR = 0.5

_NOISE_TITLE = re.compile(
    r"\b(typos?|spelling|bump|version bump|whitespace|lint(?:ing)?|formatting|"
    r"update (?:the )?(?:readme|docs?|changelog|release dates?|copyright)|"
    r"fix (?:a )?(?:broken )?link)\b"
    r"|^\s*\[(?:ci|cd|docs?|typo|nit)\]|^\s*(?:docs?|ci|chore|build\(deps\))\s*[:(]"
    # A title that calls itself minor and names nothing else ("minor fix") leads no day.
    r"|^\s*(?:a\s+)?(?:minor|small|tiny|trivial|misc|some)\s+(?:fix(?:es)?|nits?)\W*$",
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
        buckets.setdefault(area, []).append(i)
    scored: list[tuple[float, int, int]] = []
    for area, members in buckets.items():
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
            elif not area:
                # No area says they belong together: only the same file and nearly the
                # same title do ("Update README.md" twice is one theme, not two namesakes).
                sim = sim if sim >= SAME_SIM and _shared_file(units[a], units[b]) else 0.0
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
    day_titles: Counter[str],
    undone: Set[int] = frozenset(),
) -> list[Theme]:
    """Group units and rank the themes; `day_titles` counts title words over the day,
    `undone` holds the PRs the window reverted for good."""
    area_of_unit = [u.areas[0] if u.areas else "" for u in units]
    ranked: list[tuple[bool, float, int, Theme, list[Unit]]] = []
    for group in _union_find_groups(units, area_of_unit):
        members = [units[i] for i in group]
        theme, noise = _theme(members, first_timers, day_titles, undone)
        ranked.append((noise, -theme.score, min(_order(u) for u in members), theme, members))
    ranked.sort(key=lambda r: (r[0], r[1], r[2]))
    out: list[Theme] = []
    said: set[str] = set()
    for i, (_, _, _, t, members) in enumerate(ranked):
        if t.headline.lower() in said and grab_bag(t.headline) and \
                more_of(t.headline).lower() not in said:
            # Two grab-bags of one area ("the work in Writing" twice, a run of commits too
            # long for one theme): the later one is more of it, "more work in Writing"
            t = replace(t, headline=more_of(t.headline))
        elif t.headline.lower() in said:
            # (any other name said twice: the later one is named as it would be without
            # its place)
            t, _ = _theme(members, first_timers, day_titles, undone, by_place=False)
        said.add(t.headline.lower())
        out.append(replace(t, rank=i + 1))
    return out


def _order(u: Unit) -> int:
    return min((c.number or 0) for c in u.changes)


@dataclass(frozen=True)
class _Facts:
    """What the scoring rules read of one theme."""

    changes: Sequence[Change]
    prs: tuple[int, ...]
    commits: tuple[str, ...]
    stack: Stack | None
    areas: tuple[str, ...]
    newcomers: tuple[str, ...]


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _size(f: _Facts) -> tuple[float, str]:
    said = _plural(len(f.changes), "PR") if not f.commits else \
        f"{len(f.prs)} PRs and {len(f.commits)} commits"
    return len(f.changes), said


def _declared(f: _Facts) -> tuple[float, str] | None:
    s = f.stack
    if s is None or not s.declared_size:
        return None
    outside = max(0, s.declared_size - s.in_window)
    return 0.5 * min(outside, 10), \
        f"{s.tool} stack declaring {s.declared_size} PRs ({s.in_window} in the window)"


def _lines(f: _Facts) -> tuple[float, str] | None:
    lines = sum(c.lines_changed for c in f.changes)
    return (min(4.0, math.log2(1 + lines / 50)), f"{lines:,} lines changed") if lines else None


def _added_only(f: _Facts) -> tuple[float, str] | None:
    added = {p.path for c in f.changes for p in c.files or ()
             if (p.additions or 0) > 0 and p.deletions == 0}
    return (min(3.0, 0.3 * len(added)), _plural(len(added), "file") + " with only added lines") \
        if added else None


def _reach(f: _Facts) -> tuple[float, str] | None:
    n = len(f.areas)
    return (n - 1.0, f"reaches {n} areas: {', '.join(f.areas)}") if n > 1 else None


def _relands(f: _Facts) -> tuple[float, str] | None:
    n = sum(1 for c in f.changes if reland_title(c) is not None)
    return (1.5 * n, _plural(n, "reland")) if n else None


def _newcomers(f: _Facts) -> tuple[float, str] | None:
    n = len(f.newcomers)
    return (float(n), "first-time contributor" + ("s" if n > 1 else "") + ": "
            + ", ".join(f.newcomers)) if n else None


# The score: every rule that applies adds its weight and says why (in this order).
_RULES: tuple[Callable[[_Facts], tuple[float, str] | None], ...] = (
    _size,  # 1 per PR or commit
    _declared,  # 0.5 per declared stack entry outside the window, up to 10
    _lines,  # log2(1 + lines/50), up to 4
    _added_only,  # 0.3 per file with only added lines, up to 3
    _reach,  # 1 per extra area reached
    _relands,  # 1.5 per reland
    _newcomers,  # 1 per first-time contributor
)


def _theme(
    members: Sequence[Unit], first_timers: Set[str], day_titles: Counter[str],
    undone: Set[int] = frozenset(), by_place: bool = True,
) -> tuple[Theme, bool]:
    changes = sorted((c for u in members for c in u.changes),
                     key=lambda c: (c.number is None, c.number or 0, c.sha or ""))
    stack = next((u.stack for u in members if u.stack), None)
    series = stack is not None and stack.is_series
    areas: Counter[str] = Counter(a for u in members for a in u.areas)
    area_list = tuple(sorted(areas, key=lambda a: (-areas[a], a)))
    facts = _Facts(
        changes=changes, stack=stack, areas=area_list,
        prs=tuple(c.number for c in changes if c.number is not None),
        commits=tuple(c.sha for c in changes if c.number is None and c.sha),
        newcomers=tuple(sorted({c.author.handle for c in changes} & first_timers)),
    )
    applied = [found for rule in _RULES if (found := rule(facts)) is not None]
    score = sum(weight for weight, _ in applied)
    why = [reason for _, reason in applied]
    noise = stack is None and all(is_noise(c) for c in changes)
    if noise:
        score *= NOISE_FACTOR
        why.append(f"docs/CI/bump-only work (x{NOISE_FACTOR}, ranked last)")
    kind = (ThemeKind.STACK if stack is not None
            else ThemeKind.CLUSTER if len(members) > 1 else ThemeKind.SINGLE)
    # A stack is named by its own parts: a change grouped with it (same author, same
    # files) is told as related, and its title would credit the stack with its work.
    parts = [c for c in changes if stack is not None and c.number in stack.declared]
    # A cluster named by one of its titles is named by its biggest change doing the work
    # (not a test or a doc around it; a big clean-up is work), not by its first
    named = parts or (changes if stack is not None else sorted(
        changes, key=lambda c: (side_work(c.title, tidy=False), -c.lines_changed)))
    # Work the window reverted for good names no theme that has other work: the episode
    # tells the revert, and the theme would be named by what is gone.
    named = [c for c in named if c.number not in undone] or named
    name = headline([c.title for c in named], day_titles, areas=area_list,
                    stack=stack is not None, series=series, by_place=by_place)
    name = as_written(name, [t for c in named for t in (c.title, c.body)])
    authors = _authors(changes, stack)
    # (a big cluster: one named by its kind or one title; a grab-bag is big by its name)
    big = len(changes) >= GRAB_BAG
    if len(authors) > 1 and not noise and not series and (
            grab_bag(name) or big and (kind_named(name) or stack is None and
                                       _one_title_names(name, changes, area_list))):
        # One author's run of changes in one place is their day's work; several people's
        # is a mix, no one story (named by a place, a kind of work, or one of its titles).
        # A series is its author's story whoever joined it, however it is named.
        score *= MIX_FACTOR
        why.append(f"several people's changes with no shared name (x{MIX_FACTOR})")
    theme = Theme(
        rank=0, kind=kind, headline=name,
        authors=authors, areas=area_list, prs=facts.prs,
        commits=facts.commits, stack=stack, score=round(score, 2), why=tuple(why),
    )
    return theme, noise


def _one_title_names(name: str, changes: Sequence[Change], areas: Sequence[str]) -> bool:
    """Whether a cluster's name is only one of its titles: several people's changes with
    nothing in common to name them by are a mix too, however the one reads."""
    return any(headline([c.title], areas=areas) == name for c in changes)


def _authors(changes: Sequence[Change], stack: Stack | None) -> tuple[str, ...]:
    """Who did a theme's work, most changes first; a stack's owner always leads."""
    counts: Counter[str] = Counter(c.author.handle for c in changes if not c.bot)
    owner = stack.authors[:1] if stack is not None else ()
    rest = sorted((a for a in counts if a not in owner), key=lambda a: (-counts[a], a))
    return (*owner, *rest)

