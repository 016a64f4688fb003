"""The slots a theme tells from its changes' descriptions: the problem, the benefit, more
of what a change does, and the steps a description lists. Each is a function over the
theme's plan sharing the episode's phrase Lookup, like the slots in realise.py."""

from __future__ import annotations

from ..analysis.language import kind_of, lower_first, parse_title
from ..analysis.naming import grab_bag, kind_named
from ..models import Action, Claim, ThemePlan
from .changes import stems
from .clauses import clauses
from .length import Line, present
from .numbers import join_clauses
from .phrases import MAX_WORDS, Lookup

_MINOR = ("infrastructure", "documentation")


def listed(x: Lookup, t: ThemePlan) -> list[Line]:
    """What the descriptions list as done, one sentence per change: "Along the way, PR 12
    also adds a size limit and fixes the eviction order."""
    out: list[Line] = []
    by_ref: dict[int, list[Action]] = {}
    for a in t.steps:
        if a.ref is not None and a.ref.pr is not None:
            by_ref.setdefault(a.ref.pr, []).append(a)
    for i, (pr, acts) in enumerate(list(by_ref.items())[:2]):
        # Tidying around the work (lint, tests, docs) is "also" done, never "goes further"
        key = "steps_minor" if all(kind_of(a) in _MINOR for a in acts) else "steps"
        kept: list[str] = []
        for c in clauses(acts)[:3]:  # in order, each that one breath still holds
            text = x.say("theme", key, i, pr=pr, effects=join_clauses([*kept, c.third()]))
            if not kept or len(text.split()) <= MAX_WORDS:
                kept.append(c.third())
        text = x.say("theme", key, i, pr=pr, effects=join_clauses(kept))
        out += present(x.line(text, (pr,), optional=True, weight=-35 - 5 * i))
    return out


def problem(x: Lookup, t: ThemePlan) -> list[Line]:
    return _claim(x, _whose("problem", t, t.problem), t.problem)


def benefit(x: Lookup, t: ThemePlan) -> list[Line]:
    return _claim(x, _whose("benefit", t, t.benefit), t.benefit, optional=True, weight=-5)


def _whose(key: str, t: ThemePlan, c: Claim | None) -> str | None:
    """A grab-bag's problem or payoff (or that of a theme or series named by its kind of
    work, "Checkpoint fixes") is its one change's ("The problem PR 12 tackles"): "The problem:"
    after "landed eleven PRs" would give all eleven the one problem; one of twelve commits,
    with no PR to say it by, is not said (None)."""
    if c is None:
        return key
    if not _loose(t):
        # A later PR's problem in a theme of several that are no stack is that PR's, not
        # the theme's: "What prompted PR 2626: …", never "What prompted it: …"
        own = t.size > 1 and (t.stack is None or t.stack.is_series) and \
            c.ref.pr not in (None, *t.prs[:1])
        return f"{key}_of" if own else key
    return f"{key}_of" if c.ref.pr is not None else None


def _loose(t: ThemePlan) -> bool:
    """Whether a theme's changes share no one story: several in a grab-bag, or named by
    their kind of work (a stack's parts build on its base; a series' do not)."""
    bag = grab_bag(t.concept) or kind_named(t.concept)
    return t.size > 1 and bag and (t.stack is None or t.stack.is_series)


def _core(t: ThemePlan) -> int:
    """How many of the first details of one change explain it: up to the first that says
    what the change does ("PR 12's experiment provides a framework for …"), if it is the
    first or the second after a sentence on the thing the theme is named for
    ("From-nn-module is designed to be a drop-in replacement …" under "replacing
    from-nn-module with native Module subclasses"). They weigh as the theme's core, kept
    before another theme's size (unless the theme states a problem), and are said before
    its payoff and the steps its description lists ("PR 12 goes further: …"): after a
    problem, they are its answer ("PR 2206 implements global token-based loss
    normalization"); 0 for none."""
    if t.size != 1:
        return 0
    i = next((i for i, c in enumerate(t.details[:2]) if c.text.startswith(f"PR {c.ref.pr}")),
             None)
    if i == 1 and not stems(t.details[0].text) & stems(t.concept):
        return 0  # (a sentence before it on something else: "The fused kernel performs …")
    return 0 if i is None or _tidies(t, t.details[i]) else i + 1


def _tidies(t: ThemePlan, c: Claim) -> bool:
    """Whether a detail only tidies ("PR 12 moves the helpers into one module") while a
    step its description lists brings the thing the theme is named for ("adds FlyDSL
    quantize kernels for AMD" under "FlyDSL MXFP8 quantize"): that is the news, told first;
    the tidying is a detail after it. A step adding something else ("adds accuracy sanity
    checks" under "autoquant v2") is no more news than the tidying."""
    named = stems(t.concept)
    return kind_of(parse_title(c.text[len(f"PR {c.ref.pr} "):])) == "cleanup" and \
        any(kind_of(a) == "capability" and stems(a.obj) & named for a in t.steps)


def core(x: Lookup, t: ThemePlan) -> list[Line]:
    """The core details of a theme of one change (see _core), said before its steps."""
    return details(x, t, first=True) if _core(t) else []


def details(x: Lookup, t: ThemePlan, first: bool = False) -> list[Line]:
    """More of what the change does, when the titles said little; trimmed first. The
    core detail (`first`) alone, or the rest."""
    out: list[Line] = []
    told = _core(t)
    # A grab-bag's detail is one change's, said as that PR's; with no PR to say it by
    # ("No sweep day changes." of one of twelve commits) it would be all twelve's
    loose = _loose(t)
    sayable = list(enumerate(c for c in t.details if not loose or c.ref.pr is not None))[:3]
    if told:  # (the core is said before the steps, and once)
        sayable = sayable[:told] if first else sayable[told:]
    framed: set[tuple[str, int | None]] = set()
    for i, c in sayable:
        # The core itself weighs, not its lead; after a problem the theme has its point,
        # and the core is one more detail when the episode is cut to length.
        weight = 0 if i == told - 1 and t.problem is None else -40 - 5 * i
        text = c.text
        if not c.text.startswith(f"PR {c.ref.pr}"):
            # A later PR's own problem or payoff is said as that PR's ("The problem PR 12
            # tackles: …"): bare, after "landed four PRs", it would be all four's.
            # (once: its second problem goes on from "What prompted PR 12: …" bare)
            later = t.size > 1 and c.kind in ("problem", "benefit") and \
                c.ref.pr not in (None, *t.prs[:1]) and (c.kind, c.ref.pr) not in framed
            # A detail said right after a line about another PR would be heard as that
            # one's ("PR 1397 goes further: … Metrics processor is passed to …" of PR 1395)
            after = set(x.cited)
            other = t.size > 1 and c.kind == "detail" and c.ref.pr is not None and \
                bool(after) and c.ref.pr not in after
            key = f"{c.kind}_of" if later else "detail_of" if loose or other else None
            framed.add((c.kind, c.ref.pr))
            if key is not None:
                text = x.say("theme", key, text=lower_first(c.text, sentence=True), pr=c.ref.pr)
        # (told bare after a line about its PR, it is that PR's only while that line is)
        lean = x.made if t.size > 1 and c.ref.pr in x.cited and \
            f"PR {c.ref.pr}" not in text else None
        if (line := x.line(text, _cites(c), optional=True, weight=weight)) is not None:
            line.after = lean
            out.append(line)
    return out


def _claim(x: Lookup, key: str | None, c: Claim | None, optional: bool = False,
           weight: int = 0) -> list[Line]:
    if c is None or key is None:
        return []
    # After "The problem:" the sentence goes on in lower case ("The problem: the cache …").
    text = x.say("theme", key, text=lower_first(c.text, sentence=True), pr=c.ref.pr)
    if len(text.split()) > MAX_WORDS or not x.fresh(text):
        if key.endswith("_of"):
            return []  # said bare, one change's problem would be all of the theme's
        text = c.text
    return present(x.line(text, _cites(c), optional=optional, weight=weight))


def _cites(c: Claim) -> tuple[int, ...]:
    return (c.ref.pr,) if c.ref.pr is not None else ()
