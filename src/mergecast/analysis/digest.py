"""The day's digest: stacks, areas, themes, duplicates, reverts and newcomers in one pure call.

No I/O and no clock: everything comes in as arguments. `changes` should be the window's
changes (the store's `changes_in(window)`); any change with timestamps that are all
outside the window is dropped, and a change without any timestamp is kept. `history`
holds the store's previous 14 days: duplicates and revert/reland originals may come
from it, and changes also in the window are ignored there.

Every change is first credited to the person who did the work (identity.py); from then
on each carries that person's one identity. `earlier_authors` are the people the store
saw before the window and `history_since` its first activity: a first-time contributor
is claimed only when GitHub says so or that history reaches FIRST_TIME_HISTORY back.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence, Set

from ..config import AreaRule, AreasConfig
from ..models import (
    Area,
    Change,
    Counts,
    Digest,
    Episode,
    Person,
    RevertChain,
    Stack,
    State,
    Theme,
    Window,
)
from ..models.merging import merge_change
from .areas import assign_areas
from .boilerplate import Titles
from .duplicates import DupInput, find_duplicates, references, specific_files
from .followups import follow_ups
from .identity import Identities, bot_names, credit_changes, first_time_association
from .reverts import revert_of, revert_story, undone_prs
from .similarity import TITLE_WEIGHT, centroid, tfidf
from .stacks import detect_stacks, stack_lists
from .text import (
    clean_body,
    issue_refs,
    own_description,
    strip_tags,
    title_key,
    tokens,
    truncate,
)
from .themes import Unit, build_themes, is_noise

PROBLEM_CHARS = 600  # the opening of a cleaned body that states the problem
# First-time claims from history only when the store reaches this far before the window.
FIRST_TIME_HISTORY = dt.timedelta(days=90)
OTHER_GROUP = "Other changes"  # the ledger group of a change with neither theme nor area
_LANDED = frozenset({State.MERGED, State.LANDED})


def _order(c: Change) -> tuple[bool, int, str]:
    return (c.number is None, c.number or 0, c.sha or "")


def _unique(changes: Sequence[Change]) -> list[Change]:
    """One record per change: a later copy of one key wins (it is the fresher record), and
    copies of one landed commit under two repository names (a store fed the same history
    before and after its GitHub name was set) are one change, the numbered copy kept."""
    by_key: dict[str, Change] = {}
    for c in changes:
        by_key[c.key] = c
    by_sha: dict[str, Change] = {}
    out: list[Change] = []
    for c in sorted(by_key.values(), key=_named_first):
        if not c.sha:
            out.append(c)
        else:
            kept = by_sha.get(c.sha)
            by_sha[c.sha] = c if kept is None else merge_change(kept, c)
    return sorted([*out, *by_sha.values()], key=_order)


def _named_first(c: Change) -> tuple[bool, bool, str]:
    """The copy a commit is told by: with its PR number, then under an owner/name."""
    return (c.number is None, "/" not in c.repo, c.key)


def _own(c: Change, titles: Set[tuple[str, ...]]) -> Change:
    """The change with its own description only: a squash log may hold other changes'."""
    body = own_description(c.body, c.title, titles)
    return c if body is c.body else dataclasses.replace(c, body=body)


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
    earlier_authors: Iterable[str | Person] | None = None,
    history_since: dt.datetime | None = None,
    bots: Sequence[str] = (),
    path_rules: Sequence[AreaRule] = (),
    show: str = "",  # the show's name: an area named so is no area
    earlier: Sequence[Episode] = (),  # accepted for cross-day memory; not used here
) -> Digest:
    titles = frozenset(title_key(c.title) for c in [*changes, *history])
    window_raw = [_own(c, titles) for c in _unique(changes)
                  if not c.times() or c.active_in(window)]
    keys = {c.key for c in window_raw}
    past_raw = [_own(c, titles) for c in _unique(history) if c.key not in keys]
    known = [_person(p) for p in earlier_authors or ()]
    credited = credit_changes(window_raw + past_raw, bot_names(bots), known)
    today = [credited.changes[c.key] for c in window_raw]
    past = [credited.changes[c.key] for c in past_raw]

    area_of_all = assign_areas(today + past, areas, path_rules, show)
    area_of = {c.key: area_of_all[c.key] for c in today if c.key in area_of_all}
    stacks = detect_stacks(today)
    stack_of = {n: i for i, s in enumerate(stacks) for n in s.members}

    full_docs: dict[str, Counter[str]] = {}
    problem_docs: dict[str, Counter[str]] = {}
    issues: dict[str, frozenset[int]] = {}
    for c in today + past:
        title_terms = Counter(tokens(c.title))
        cleaned = clean_body(c.body)
        problem = Counter({t: n * TITLE_WEIGHT for t, n in title_terms.items()})
        problem.update(tokens(_problem(cleaned)))
        problem_docs[c.key] = problem
        issues[c.key] = issue_refs(c.body)
        if c.key in keys:
            full = Counter({t: n * TITLE_WEIGHT for t, n in title_terms.items()})
            full.update(tokens(cleaned))
            full_docs[c.key] = full
    full_vecs = tfidf(full_docs)

    handles = {k: cr.handle for k, cr in credited.credits.items()}
    chains, reverts, relands = revert_story(window, today, past, handles)
    reverting = {c.key for c in today + past if revert_of(c) is not None}

    first_timers: set[str] = set()
    if earlier_authors is not None or any(c.author_association for c in today):
        first_timers = _first_timers(today, window, credited.identities,
                                     known + [c.author for c in past if not c.bot],
                                     history_since if earlier_authors is not None else None)

    told = [c for c in today if c.key not in reverting and not c.bot]
    units = _units(told, stacks, stack_of, area_of, full_vecs, issues)
    day_words: Counter[str] = Counter(
        w.lower() for c in today for w in set(strip_tags(c.title).split())
    )
    themes = build_themes(units, first_timers=first_timers, day_titles=day_words,
                          undone=undone_prs(chains))
    themes = list(follow_ups(themes, today, past, window))
    duplicates = find_duplicates(
        _dup_inputs(today, past, keys, area_of_all, stacks, chains, problem_docs, reverting),
        Titles(c.title for c in today + past))
    return Digest(
        window=window,
        counts=Counts(
            changes=len(today),
            prs=sum(1 for c in today if c.number is not None),
            commits=sum(1 for c in today if c.shas),
            authors=len({c.author.handle for c in today if not c.bot}),
        ),
        themes=tuple(themes),
        duplicates=tuple(duplicates),
        reverts=tuple(reverts),
        relands=tuple(relands),
        areas=_areas(today, area_of, themes),
        first_time_contributors=tuple(sorted(first_timers)),
        chains=tuple(chains),
        changes=tuple(today),
        area_of=area_of,
        credits=tuple(credited.credits[c.key] for c in today),
        group_of=_groups(today, area_of, themes),
    )


def _person(p: str | Person) -> Person:
    """An earlier author as the store names them: a Person, or a handle (login, name or
    email)."""
    if isinstance(p, Person):
        return p
    if "@" in p:
        return Person(email=p)
    return Person(name=p) if " " in p.strip() else Person(login=p)


def _first_timers(
    today: Sequence[Change], window: Window, identities: Identities, known: Sequence[Person],
    history_since: dt.datetime | None,
) -> set[str]:
    """Handles new to the repository: the source says so (authorAssociation), or the
    store's history reaches FIRST_TIME_HISTORY before the window and never saw them."""
    deep = history_since is not None and history_since <= window.since - FIRST_TIME_HISTORY
    seen = {identities.root(p) for p in known}
    out: set[str] = set()
    for c in today:
        if c.bot:
            continue
        said = first_time_association(c.author_association)
        if said or (said is None and deep and identities.root(c.author) not in seen):
            out.add(c.author.handle)
    return out


def _dup_inputs(
    today: Sequence[Change], past: Sequence[Change], keys: Set[str],
    area_of: Mapping[str, str], stacks: Sequence[Stack], chains: Sequence[RevertChain],
    problem_docs: Mapping[str, Counter[str]], reverting: Set[str],
) -> list[DupInput]:
    """Every change that can be duplicated effort: a person's PR that is no revert and not
    docs/CI housekeeping."""
    pool = [c for c in [*today, *past] if c.number is not None and not c.bot
            and c.key not in reverting and not is_noise(c)]
    problem_vecs = tfidf({c.key: problem_docs[c.key] for c in pool})
    groups: dict[int, set[str]] = {}
    for i, s in enumerate(stacks):
        for n in s.declared:
            groups.setdefault(n, set()).add(f"stack{i}")
    for i, chain in enumerate(chains):
        for ref in (chain.original, *(step.ref for step in chain.steps)):
            if ref.pr is not None:
                groups.setdefault(ref.pr, set()).add(f"chain{i}")
    out = []
    for c in pool:
        assert c.number is not None
        # a window change's own stack list is already in its stack's `declared`
        listed = set() if c.key in keys else {n for _, ns in stack_lists(c) for n in ns}
        own = set(groups.get(c.number, ())) | {f"stack-of:{n}" for n in listed | {c.number}}
        closing, named = references(c.title, truncate(c.body))
        out.append(DupInput(
            change=c, in_window=c.key in keys, landed=c.state in _LANDED,
            area=area_of.get(c.key), groups=frozenset(own), person=c.author.handle,
            problem_vec=problem_vecs[c.key],
            files=specific_files(c), closing=closing, mentions=named,
        ))
    return out


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


def _areas(today: Sequence[Change], area_of: Mapping[str, str],
           themes: Sequence[Theme]) -> tuple[Area, ...]:
    """Each area's changes, its highest-ranked work first: changes of higher-ranked themes,
    then the rest by size, docs/CI housekeeping and bot changes last."""
    rank = {key: t.rank for key, t in _theme_of(today, themes).items()}
    buckets: dict[str, list[Change]] = {}
    for c in sorted(today, key=lambda c: (is_noise(c), rank.get(c.key, len(themes) + 1),
                                          -c.lines_changed, _order(c))):
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


def _groups(today: Sequence[Change], area_of: Mapping[str, str],
            themes: Sequence[Theme]) -> dict[str, str]:
    """change key -> where the coverage ledger lists it: its theme, else its area."""
    theme_of = _theme_of(today, themes)
    return {c.key: theme_of[c.key].headline if c.key in theme_of
            else area_of.get(c.key, OTHER_GROUP) for c in today}


def _theme_of(today: Sequence[Change], themes: Sequence[Theme]) -> dict[str, Theme]:
    """change key -> the theme that tells it."""
    by_ref: dict[int | str, Theme] = {}
    for t in themes:
        for ref in t.prs:
            by_ref.setdefault(ref, t)
        for sha in t.commits:
            by_ref.setdefault(sha, t)
    found = {c.key: by_ref.get(c.number if c.number is not None else c.sha or "")
             for c in today}
    return {k: t for k, t in found.items() if t is not None}
