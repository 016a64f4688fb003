"""The day's digest: stacks, areas, themes, duplicates, reverts and newcomers in one pure call.

No I/O and no clock: everything comes in as arguments. `changes` should be the window's
changes (the store's `changes_in(window)`); any change with timestamps that are all
outside the window is dropped, and a change without any timestamp is kept. `history`
holds the store's previous 14 days: duplicates and revert/reland originals may come
from it, and changes also in the window are ignored there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence, Set

from ..config import AreaRule, AreasConfig
from ..models import Area, Change, Counts, Digest, Episode, Stack, Window
from .areas import assign_areas
from .duplicates import DupInput, find_duplicates
from .reverts import pair_reverts
from .similarity import TITLE_WEIGHT, centroid, tfidf
from .stacks import detect_stacks
from .text import clean_body, issue_refs, strip_tags, tokens
from .themes import Unit, build_themes

PROBLEM_CHARS = 600  # the opening of a cleaned body that states the problem


def _order(c: Change) -> tuple[bool, int, str]:
    return (c.number is None, c.number or 0, c.sha or "")


def _unique(changes: Sequence[Change]) -> list[Change]:
    by_key: dict[str, Change] = {}
    for c in changes:
        by_key[c.key] = c  # a later copy of one key wins: it is the fresher record
    return sorted(by_key.values(), key=_order)


def _problem(cleaned: str) -> str:
    out = ""
    for para in cleaned.split("\n\n"):
        if para.strip():
            out = f"{out}\n{para}" if out else para
        if len(out) >= PROBLEM_CHARS // 2:
            break
    return out[:PROBLEM_CHARS]


def build_digest(
    changes: Sequence[Change],
    window: Window,
    *,
    areas: AreasConfig,
    history: Sequence[Change] = (),
    earlier_authors: Set[str] | None = None,
    path_rules: Sequence[AreaRule] = (),
    earlier: Sequence[Episode] = (),  # accepted for cross-day memory; not used here
) -> Digest:
    today = [c for c in _unique(changes) if not c.times() or c.active_in(window)]
    keys = {c.key for c in today}
    past = [c for c in _unique(history) if c.key not in keys]

    area_of_all = assign_areas(today + past, areas, path_rules)
    area_of = {c.key: area_of_all[c.key] for c in today if c.key in area_of_all}
    stacks = detect_stacks(today)
    stack_of = {n: i for i, s in enumerate(stacks) for n in s.members}

    full_docs: dict[str, Counter[str]] = {}
    title_docs: dict[str, Counter[str]] = {}
    problem_docs: dict[str, Counter[str]] = {}
    issues: dict[str, frozenset[int]] = {}
    for c in today + past:
        title_terms = Counter(tokens(c.title))
        cleaned = clean_body(c.body)
        title_docs[c.key] = title_terms
        problem = Counter({t: n * TITLE_WEIGHT for t, n in title_terms.items()})
        problem.update(tokens(_problem(cleaned)))
        problem_docs[c.key] = problem
        issues[c.key] = issue_refs(c.body)
        if c.key in keys:
            full = Counter({t: n * TITLE_WEIGHT for t, n in title_terms.items()})
            full.update(tokens(cleaned))
            full_docs[c.key] = full
    full_vecs = tfidf(full_docs)
    title_vecs = tfidf(title_docs)
    problem_vecs = tfidf(problem_docs)

    reverts, relands = pair_reverts(today, past)
    revert_refs = {(p.revert.pr, p.revert.sha) for p in reverts + relands}
    revert_keys = {c.key for c in today if (c.number, c.sha) in revert_refs}

    first_timers: set[str] = set()
    if earlier_authors is not None:
        first_timers = {c.author.handle for c in today
                        if not c.bot and c.author.handle not in earlier_authors}

    units = _units(today, stacks, stack_of, area_of, full_vecs, issues)
    day_words: Counter[str] = Counter(
        w.lower() for c in today for w in set(strip_tags(c.title).split())
    )
    themes = build_themes(units, first_timers=first_timers, revert_keys=revert_keys,
                          day_titles=day_words)

    dup_items = [
        DupInput(
            change=c, in_window=c.key in keys, area=area_of_all.get(c.key),
            stack=stack_of.get(c.number) if c.key in keys and c.number is not None else None,
            title_vec=title_vecs[c.key], problem_vec=problem_vecs[c.key], issues=issues[c.key],
        )
        for c in today + past if c.number is not None
    ]
    return Digest(
        window=window,
        counts=Counts(
            changes=len(today),
            prs=sum(1 for c in today if c.number is not None),
            commits=sum(1 for c in today if c.shas),
            authors=len({c.author.handle for c in today}),
        ),
        themes=tuple(themes),
        duplicates=tuple(find_duplicates(dup_items)),
        reverts=tuple(reverts),
        relands=tuple(relands),
        areas=_areas(today, area_of),
        first_time_contributors=tuple(sorted(first_timers)),
        changes=tuple(today),
        area_of=area_of,
    )


def _units(
    today: Sequence[Change], stacks: Sequence[Stack], stack_of: dict[int, int],
    area_of: dict[str, str], vecs: dict[str, dict[str, float]],
    issues: dict[str, frozenset[int]],
) -> list[Unit]:
    grouped: dict[int, list[Change]] = {}
    units: list[Unit] = []
    for c in today:
        if c.number is not None and c.number in stack_of:
            grouped.setdefault(stack_of[c.number], []).append(c)
        else:
            units.append(_unit([c], None, area_of, vecs, issues))
    for i, members in sorted(grouped.items()):
        units.append(_unit(members, stacks[i], area_of, vecs, issues))
    return units


def _unit(
    members: list[Change], stack: Stack | None, area_of: dict[str, str],
    vecs: dict[str, dict[str, float]], issues: dict[str, frozenset[int]],
) -> Unit:
    counts = Counter(area_of[c.key] for c in members if c.key in area_of)
    return Unit(
        changes=tuple(members),
        stack=stack,
        vector=centroid(vecs[c.key] for c in members),
        areas=tuple(sorted(counts, key=lambda a: (-counts[a], a))),
        issues=frozenset().union(*(issues[c.key] for c in members)),
    )


def _areas(today: Sequence[Change], area_of: dict[str, str]) -> tuple[Area, ...]:
    buckets: dict[str, list[Change]] = {}
    for c in today:
        if c.key in area_of:
            buckets.setdefault(area_of[c.key], []).append(c)
    out = [
        Area(
            name=name,
            prs=tuple(c.number for c in cs if c.number is not None),
            commits=tuple(c.sha for c in cs if c.number is None and c.sha),
        )
        for name, cs in buckets.items()
    ]
    out.sort(key=lambda a: (-(len(a.prs) + len(a.commits)), a.name.lower()))
    return tuple(out)
