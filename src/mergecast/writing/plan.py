"""Plan an episode: what to say, decided from the digest before any sentence is written.

Per theme (theme_plan.py): its concept name (from analysis), who and how big, the
problem, the effects (its titles read as actions), the benefit and what is still open.
For the day: the signal (kinds of work and where), up to four area roundups, duplicated
effort, revert chains, first-time contributors, a few left-overs and what to watch. Pure:
no wording here (that is realise.py, sections.py and titling.py), no I/O.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections import Counter
from collections.abc import Sequence

from ..analysis.language import (
    kind_of,
    name_of,
    parse_actions,
    parse_title,
    said_verb,
)
from ..analysis.reverts import undone_prs
from ..analysis.themes import is_noise
from ..models import (
    Action,
    ChainStep,
    Change,
    Claim,
    Digest,
    Duplicate,
    DuplicatePlan,
    Plan,
    Ref,
    RevertChain,
    Roundup,
    Signal,
    Theme,
    ThemePlan,
    Watch,
)
from .bodies import best, claims
from .changes import (
    action,
    actions,
    area_name,
    by_change,
    content_words,
    is_revert,
    repeats,
    says_something,
    worth_noting,
)
from .numbers import number_words
from .theme_plan import Accept, theme_plan

LIGHT_DAY = 3  # changes; at or below this the episode is a short one and says so
FOCUSED_SHARE = 0.6  # one theme holding this share of a day's changes makes a focused day
ROUNDUP_AREAS = 4
ROUNDUP_ITEMS = 2
NOTES = 2
SERIES = 6  # PRs a theme's "in the same vein" sentence names at most



def _welcomed(digest: Digest) -> Change | None:
    """A lone first-time contributor's one change when it is housekeeping ("minor fix",
    a README typo): it leads no theme, and the welcome says what it does."""
    newcomers = digest.first_time_contributors
    theirs = [c for c in digest.changes if len(newcomers) == 1
              and c.author.handle == newcomers[0] and c.number is not None]
    return theirs[0] if len(theirs) == 1 and is_noise(theirs[0]) else None


def make_plan(digest: Digest, *, show: str, day: dt.date, max_themes: int,
              weekly: str | None = None, accept: Accept = lambda s, r: True) -> Plan:
    """The plan of one episode. `accept` vets sentences lifted from descriptions (the
    writer passes its fact check, so nothing unsupported is even planned)."""
    by_sha = {c.sha: c for c in digest.changes if c.sha}
    welcome = _welcomed(digest)
    chains = digest.chains or _chains_from_pairs(digest)
    undone = undone_prs(chains)
    relanded = frozenset(s.ref.pr for ch in chains for s in ch.steps
                         if s.kind == "reland" and s.ref.pr)  # the chain tells them
    # A theme of nothing but reverts is told once, as a revert chain, not as a theme, and
    # so is one of work reverted for good when the day has other work to lead with; a
    # newcomer's one small change is told with the welcome.
    kept = [t for t in digest.themes if not _only_reverts(digest, by_sha, t, relanded)
            and (welcome is None or t.prs != (welcome.number,))]
    standing = [t for t in kept if not (t.prs and set(t.prs) <= undone and not t.commits)]
    kept = standing or kept
    themes = _full_first(_series(digest, tuple(
        theme_plan(digest, by_sha, t, i, accept, undone | relanded)
        for i, t in enumerate(kept[:max_themes], 1)), relanded))
    told: set[int] = {n for t in themes for n in t.prs}
    # (and a roundup does not tell it too: "On Docs: PR 2962 fixes X. Worth noting: a warm
    # welcome to …, whose PR 2962 fixes X" says it twice in a breath)
    told |= {welcome.number} if welcome is not None and welcome.number is not None else set()
    told |= {a.ref.pr for t in themes for a in t.series if a.ref and a.ref.pr is not None}
    told |= {a.ref.pr for t in themes for a in t.related if a.ref and a.ref.pr is not None}
    told_shas = {s for t in themes for s in t.commits}
    told |= {r.pr for ch in chains for r in (ch.original, *(s.ref for s in ch.steps)) if r.pr}
    duplicates = tuple(_duplicate(digest, d.prs, d.evidence) for d in _distinct(digest)[:2])
    told |= {n for d in duplicates for n in d.prs}
    roundups = _roundups(digest, by_sha, told, told_shas, accept)
    told |= {a.ref.pr for r in roundups for a in r.items if a.ref and a.ref.pr}
    told_shas |= {a.ref.sha for r in roundups for a in r.items if a.ref and a.ref.sha}
    rest = [c for c in digest.changes if not is_revert(c)
            and (c.number not in told if c.number is not None else c.sha not in told_shas)]
    rest.sort(key=lambda c: (-c.lines_changed, c.number or 0, c.sha or ""))
    rest = [c for c in rest if c is not welcome]
    # Said with the welcome even when generic: "whose PR 1494 fixes a minor issue".
    welcomed = tuple(dataclasses.replace(a, ref=Ref(pr=welcome.number, sha=welcome.sha))
                     for a in parse_actions(welcome.title) if a.lemma and a.obj) \
        if welcome is not None else ()
    return Plan(
        show=show, day=day, weekly=weekly, mood=_mood(digest),
        signal=Signal(_work(themes, roundups), digest.counts), themes=themes,
        roundups=roundups, duplicates=duplicates, chains=chains,
        first_timers=digest.first_time_contributors, welcomed=welcomed,
        notes=tuple(a for c in [c for c in rest if worth_noting(action(c))][:NOTES]
                    for a in actions(c)),
        watch=_watch(digest, themes),
    )


def is_brief(t: ThemePlan) -> bool:
    """A theme of one change with nothing to tell beyond its title (no problem, benefit,
    detail, listed step, related change or earlier change it follows): said in a sentence,
    not as a theme."""
    return t.size <= 1 and t.continues is None and not (
        t.follows or t.problem or t.benefit or t.details or t.steps or t.related)


def _series(d: Digest, themes: tuple[ThemePlan, ...], relanded: frozenset[int]
            ) -> tuple[ThemePlan, ...]:
    """One author's run of the same kind of work across areas ("six removals from one
    developer"): a full theme with a single author takes that author's other changes of
    its kind of work, from the brief themes and from what no theme tells, as its series
    (two at least); the brief themes it takes are not told again."""
    told = {n for t in themes if not is_brief(t) for n in t.prs}
    taken: set[int] = set()
    out: list[ThemePlan] = []
    for t in themes:
        if len(t.authors) != 1 or t.work in ("change", "") or is_brief(t):
            out.append(t)
            continue
        found = tuple(a for c in d.changes
                      if c.number is not None and c.number not in told | taken | relanded
                      and c.author.handle == t.authors[0] and not is_revert(c)
                      and says_something(a := action(c)) and kind_of(a) == t.work)[:SERIES]
        if len(found) >= 2:
            taken |= {a.ref.pr for a in found if a.ref and a.ref.pr is not None}
            t = dataclasses.replace(t, series=found)
        out.append(t)
    return tuple(t for t in out if not (is_brief(t) and set(t.prs) & taken))


def _full_first(themes: tuple[ThemePlan, ...]) -> tuple[ThemePlan, ...]:
    """The lead theme stays the lead (the analysis ranked it first); after it, themes with
    something to tell come before the brief ones; numbered again."""
    ordered = list(themes[:1]) + sorted(themes[1:], key=is_brief)
    return tuple(dataclasses.replace(t, index=i) for i, t in enumerate(ordered, 1))


def _only_reverts(d: Digest, by_sha: dict[str, Change], t: Theme,
                  relanded: frozenset[int]) -> bool:
    changes = [c for n in t.prs if (c := d.change(n))] + [by_sha[s] for s in t.commits
                                                          if s in by_sha]
    return bool(changes) and all(is_revert(c) or c.number in relanded for c in changes)


def _mood(d: Digest) -> str:
    n = d.counts.changes
    if n == 0:
        return "quiet"
    if n <= LIGHT_DAY:
        return "light"
    top = d.themes[0] if d.themes else None
    if top is not None and len(top.prs) + len(top.commits) >= FOCUSED_SHARE * n:
        return "focused"
    return "active"


def _work(themes: Sequence[ThemePlan], roundups: Sequence[Roundup]
          ) -> tuple[tuple[str, str | None], ...]:
    """The day's kinds of work with their areas, heaviest first; a kind told by several
    themes counts once per theme, the roundups' actions once each."""
    weight: Counter[tuple[str, str | None]] = Counter()
    for t in themes:  # the lead theme's kind of work leads the signal too
        weight[(t.work, t.area)] += 2 * (len(themes) - t.index) + t.size
    for r in roundups:
        for a, *_ in by_change(r.items):  # a change's kind is its first action's
            if (k := kind_of(a)) not in ("", "change"):
                weight[(k, r.area)] += 1
    return tuple(w for w, _ in sorted(weight.items(), key=lambda x: (-x[1], x[0][0])))


def _roundups(d: Digest, by_sha: dict[str, Change], told: set[int],
              told_shas: set[str], accept: Accept) -> tuple[Roundup, ...]:
    # Two areas said by one name ("docs" and "docs/source": "Docs") are one roundup, told
    # where the first comes: never "On Docs: … On Docs: …"
    named: dict[str, list[tuple[Change, Action]]] = {}
    for area in d.areas:
        prs = [c for n in area.prs if n not in told and (c := d.change(n)) and not is_revert(c)]
        shas = [by_sha[s] for s in area.commits if s not in told_shas and s in by_sha
                and not is_revert(by_sha[s])]
        # The analysis ranks them: the first that say something are told.
        items = named.setdefault(area_name(area.name), [])
        items += [(c, a) for c in prs + shas if all(c is not o for o, _ in items)
                  and says_something(a := action(c))]
    found = list(named.items())
    runs = _runs(found)
    in_run = {id(c) for run in runs for _, c, _ in run}
    out: list[Roundup] = []
    for name, said in found:
        for run in runs:
            if run[0][0] == name:  # a run is told where its first item's area comes
                out.append(Roundup(name, tuple(a for _, _, a in run),
                                   areas=tuple(n for n, _, _ in run),
                                   author=run[0][1].author.handle))
        said = [(c, a) for c, a in said if id(c) not in in_run][:ROUNDUP_ITEMS]
        if said:
            out.append(Roundup(name, tuple(a for c, _ in said for a in actions(c)),
                               tuple(w for c, a in said if (w := _why(c, a, accept)))))
    return tuple(out[:ROUNDUP_AREAS])


def _runs(found: Sequence[tuple[str, Sequence[tuple[Change, Action]]]]
          ) -> list[list[tuple[str, Change, Action]]]:
    """One author's same kind of work (one verb) in several areas ("lint the tests" in
    four folders): told once, naming the areas, not as one roundup line per area; `SERIES`
    changes a run at most."""
    groups: dict[tuple[str, str], list[tuple[str, Change, Action]]] = {}
    seen: set[int] = set()
    for name, said in found:
        for c, a in said:
            if id(c) not in seen and (verb := said_verb(a, group=True)) and not a.negated:
                seen.add(id(c))
                groups.setdefault((c.author.handle, verb), []).append((name, c, a))
    runs = []
    for run in groups.values():
        run = run[:SERIES]
        if len({n for n, _, _ in run}) >= 2:
            runs.append(run)
    return runs


def _why(c: Change, a: Action, accept: Accept) -> Claim | None:
    """The one sentence of an item's description worth adding to its roundup line: its
    problem or benefit, else its first detail; none that only repeats the title. A bot's
    description (a dependency bump's upstream release notes) says nothing of this change."""
    if not c.body or c.bot:
        return None
    title = content_words(a.obj)
    found = [x for x in claims(c.body, Ref(pr=c.number, sha=c.sha), accept=accept, limit=4)
             if not repeats(content_words(x.text), title, 0.6)]
    return best(found, "problem") or best(found, "benefit") or next(iter(found), None)


def _distinct(d: Digest) -> list[Duplicate]:
    """Duplicate pairs, less a pair that shares a PR with one already kept on the very same
    evidence: its other PR is the same description posted again, not a third effort."""
    kept: list[Duplicate] = []
    for dup in d.duplicates:
        if not any(set(dup.prs) & set(k.prs) and (dup.evidence, dup.shared, dup.why) ==
                   (k.evidence, k.shared, k.why) for k in kept):
            kept.append(dup)
    return kept


def _duplicate(d: Digest, prs: tuple[int, int], evidence: str) -> DuplicatePlan:
    a, b = sorted(prs)
    ca, cb = d.change(a), d.change(b)
    known = ca or cb  # one of a pair may be history outside the window
    topic = name_of(parse_title(known.title)) if known else ""
    authors = tuple(dict.fromkeys(c.author.handle for c in (ca, cb) if c is not None))
    earlier = a if ca is None and cb else b if cb is None and ca else None
    return DuplicatePlan((a, b), topic, evidence, authors, earlier)


def _chains_from_pairs(d: Digest) -> tuple[RevertChain, ...]:
    """Revert chains from the digest's revert and reland pairs, for digests made before the
    analysis stage filled `Digest.chains`."""
    out = []
    for pair in d.reverts:
        original = d.change(pair.original.pr) if pair.original.pr is not None else None
        revert = d.change(pair.revert.pr) if pair.revert.pr is not None else None
        # Without the original at hand, the revert's own title names it: Revert "X".
        title = original.title if original else (
            revert.revert.title if revert and revert.revert and revert.revert.title
            else revert.title if revert else "")
        steps = [ChainStep("revert", pair.revert, by=revert.author.handle if revert else None,
                           reason=pair.reason)]
        steps += [ChainStep("reland", r.revert) for r in d.relands
                  if r.original == pair.original]
        out.append(RevertChain(pair.original, title, original.author.handle if original
                               else None, tuple(steps), pair.original_episode))
    reverted = {p.original for p in d.reverts}
    for pair in d.relands:
        if pair.original not in reverted:
            original = d.change(pair.original.pr) if pair.original.pr is not None else None
            out.append(RevertChain(pair.original, original.title if original else "",
                                   original.author.handle if original else None,
                                   (ChainStep("reland", pair.revert),)))
    return tuple(out)


def sized_otherwise(t: ThemePlan, size: int) -> bool:
    """Whether an earlier episode called this continuing stack by another size: its list
    changes as it is rebased, and one said "fifteen-part" yesterday is not "the five-part
    stack" today (the size is then left unsaid)."""
    said = " ".join(t.continues.said) if t.continues else ""
    return bool(set(re.findall(r"\b([a-z-]+)-part (?:stack|series)", said)) - {number_words(size)})


def _watch(d: Digest, themes: Sequence[ThemePlan]) -> Watch | None:
    for t in themes:
        s = t.stack
        size = (s.declared_size or len(s.declared)) if s else 0
        if s is not None and s.members and size > s.in_window:
            return Watch("stack", s.members, t.authors[0] if t.authors else None,
                         0 if sized_otherwise(t, size) else size, s.in_window)
    for t in themes:
        if t.open_prs:
            return Watch("open", t.open_prs[:1])
    return None
