"""The episode around the themes, realised from the plan: intro, signal, area roundups,
duplicated effort, notes and outro (the title and summary: titling.py; revert chains:
chains.py).

Every function takes the plan and the one phrase Lookup; none keeps state of its own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..analysis.language import (
    has_verb,
    looks_plural,
    pronoun,
    trim,
    words,
)
from ..analysis.naming import grab_bag
from ..models import Action, Counts, Plan, Roundup
from .changes import by_change, same_doer
from .clauses import LIST_ITEMS, clauses
from .length import Line, Part
from .numbers import (
    count_phrase,
    join_clauses,
    join_words,
    number_words,
    parts,
    stack_noun,
)
from .phrases import MAX_WORDS, Lookup
from .realise import concept

# ------------------------------------------------------------------ around the themes


def intro(x: Lookup, plan: Plan, date: str) -> Part:
    part = Part("intro", x.say("headings", "intro"), rank=100, required=True)
    x.add(part, x.say("intro", "greeting", show=plan.show, date=date))
    if plan.mood in ("quiet", "light", "thin", "short", "focused", "focused_thin"):
        x.add(part, x.say("intro", plan.mood))
    return part


def _work_phrase(x: Lookup, kind: str, areas: Sequence[str | None], salt: int,
                 most: int) -> str:
    said = x.pick("work", kind if kind in ("capability", "performance", "correctness",
                                           "cleanup", "infrastructure", "documentation")
                  else "change", salt)
    # "docs updates in Docs", "test and tooling work in Tests": the kind names the place
    named = [a for a in dict.fromkeys(areas) if a and not _names_place(said, a)][:most]
    return f"{said} in {join_words([place_said(a) for a in named])}" if named else said


def place_said(area: str) -> str:
    """An area as a place in a sentence: a folder of things ("Unit tests", "Models",
    "Dtypes", [words] untitled_areas) is "the unit tests", "the models", "the dtypes"; a
    name ("Quantization", "Graph trainer", "CI", "c10d") is said as it is."""
    ws = area.split()
    if not ws or len(ws) > 2 or any(not w.isalpha() or w.isupper() for w in ws):
        return area
    last = ws[-1]
    things = area.lower() in words().untitled_areas or looks_plural(last) and \
        last[1:].islower() and (len(ws) == 1 or last.islower())
    return f"the {area.lower()}" if things else area


def _names_place(kind: str, area: str) -> bool:
    """Whether a kind of work already says its place: "docs" in "documentation work"."""
    said = re.findall(r"[a-z]+", kind.lower())
    place = [w.rstrip("s") for w in re.findall(r"[a-z]+", area.lower())]
    return bool(place) and all(len(p) >= 3 and any(w.startswith(p) for w in said)
                               for p in place)


def work_phrases(x: Lookup, plan: Plan) -> list[str]:
    """The day's kinds of work with their places, heaviest first, each place said once."""
    by_kind: dict[str, list[str | None]] = {}
    for kind, area in plan.signal.work:
        by_kind.setdefault(kind, []).append(area)
    if len(by_kind) > 1 and next(iter(by_kind)) != "change":
        by_kind.pop("change", None)  # "ongoing work" says little next to a heavier kind
    places = {a for found in by_kind.values() for a in found}
    if len(by_kind) > 1 and len(places) == 1 and (place := places.pop()):
        # One place, several kinds: "new features and hardening in c10d".
        kinds = [x.pick("work", k, i) for i, k in enumerate(list(by_kind)[:2])]
        return [f"{join_words(kinds)} in {place_said(place)}"]
    # One kind may name two places; several kinds name one each, so the sentence stays clear.
    most = 2 if len(by_kind) == 1 else 1
    named: set[str] = set()
    out = []
    for i, (kind, where) in enumerate(list(by_kind.items())[:3]):
        fresh = [a for a in dict.fromkeys(where) if a and a not in named]
        if any(where) and not fresh:
            continue  # "in Prototype" was said already
        named.update(fresh[:most])
        out.append(_work_phrase(x, kind, fresh, i, most))
    return out


def signal(x: Lookup, plan: Plan, lead: Line | None = None) -> Part:
    """The kind of work and where, in one or two sentences: not a list of headlines.
    `lead`, a first sentence worded elsewhere (the LLM writer's), replaces the phrase
    file's; what follows it is the same."""
    part = Part("signal", x.say("headings", "signal"), rank=95, required=True)
    if lead is not None:
        part.lines.append(lead)
    # ("Today's signal: steady work." says nothing: no kind of work, no place)
    phrases = work_phrases(x, plan) if any(
        kind != "change" or area for kind, area in plan.signal.work) else []
    key = {1: "one", 2: "two"}.get(len(phrases[:3]), "three")
    text = x.say("signal", key, work=phrases[0], work2=(phrases + ["", ""])[1],
                 work3=(phrases + ["", "", ""])[2]) if phrases else ""
    areas = [a for t in plan.themes if (a := t.area)]
    plain = x.say("signal", "plain", areas=join_words(list(dict.fromkeys(areas))[:3]))
    k = plan.signal.counts
    totals = day_totals(x, k)
    for candidate in (text, plain if areas else "", totals):
        if part.lines or (candidate and x.add(part, candidate)):
            break
    top = plan.themes[0] if plan.themes else None
    if top is not None and top.stack is not None and top.stack.in_window > 2 and top.authors:
        s = top.stack
        size = parts(s.declared_size or s.in_window, s.is_series)
        # No cites: the theme tells (and links) the stack; the signal only points at it.
        named = concept(x, top)
        # "a stack on <name>"; a name that is a statement ("kernel writes out splits") is
        # no topic to be on, nor is a place's work ("a series on Graph trainer work" says
        # work twice): the theme says it
        topic = not has_verb(named.split()) and not grab_bag(named)
        x.add(part, x.say("signal", "biggest" if topic else "biggest_plain",
                          who=top.authors[0], size=size, concept=named), optional=True)
    elif len(part.lines) == 1 and plan.mood != "light" and part.lines[0].text != totals:
        x.add(part, totals, optional=True)
    return part


def roundups(x: Lookup, plan: Plan) -> list[Part]:
    """At most four areas, one sentence each, up to two items told by what they do."""
    parts = []
    for i, r in enumerate(plan.roundups):
        if r.author is not None:
            if (run := _run(x, r, rank=25 - i)) is not None:
                parts.append(run)
            continue
        changes = by_change(r.items)
        items = [(acts[0], _item(x, acts)) for acts in changes]
        items = [(a, text) for a, text in items if text]
        part = Part("area", x.say("headings", "area", area=r.area), rank=25 - i)
        cites = [a.ref.pr for a, _ in items if a.ref and a.ref.pr is not None]
        same = _same_effect(r.items) if len(changes) == len(r.items) else None
        if same and len(cites) == 2:  # "PRs 618 and 619 update the README"
            x.add(part, x.say("area", "one", area=r.area, item=x.say(
                "area", "prs", pr=cites[0], pr2=cites[1], effect=same)), cites, roundup=True)
        elif len(items) == 2:
            text = x.say("area", "two", area=r.area, item=items[0][1], item2=items[1][1])
            if len(text.split()) > MAX_WORDS:  # one breath: each change's first action
                text = x.say("area", "two", area=r.area, item=_item(x, changes[0][:1]),
                             item2=_item(x, changes[1][:1]))
            x.add(part, text, cites, roundup=True)
        if not part.lines and items:
            x.add(part, x.say("area", "one", area=r.area, item=items[0][1]), cites[:1],
                  roundup=True)
        for c in r.why if part.lines else ():
            # What an item is for, when there is time: trimmed before any theme's extras.
            # Beside two items, only a sentence that names its PR says whose it is, and
            # one opening as its PR's line did ("PR 12 adds …" twice) tells what the change
            # does, again; an item alone is told again as "The change adds …", for its
            # reason.
            if len(items) > 1 and (f"PR {c.ref.pr} " not in c.text or any(
                    same_doer(c.text, text) for _, text in items)):
                continue
            text = c.text
            if len(items) == 1 and cites == [c.ref.pr] and text.startswith(f"PR {c.ref.pr} "):
                text = f"{x.say('area', 'again')} {text[len(f'PR {c.ref.pr} '):]}"
            x.add(part, text, (c.ref.pr,) if c.ref.pr is not None else (), optional=True,
                  weight=-10)
        if part.lines:
            parts.append(part)
    return parts


def _run(x: Lookup, r: Roundup, rank: int) -> Part | None:
    """One author's same work across areas, told once: "Across Tests and Docs, ada lints
    the test folder and the doc builder, in PRs 11 and 12"; what one breath cannot hold
    follows in a second sentence ("In Kernels, ada also lints …")."""
    part = Part("area", x.say("headings", "run", who=r.author, areas=join_words(list(
        dict.fromkeys(r.areas)))), rank=rank)
    start, key = 0, "run"
    while start < len(r.items):
        for n in range(len(r.items) - start, 0, -1):
            items, areas = r.items[start:start + n], r.areas[start:start + n]
            cites = [a.ref.pr for a in items if a.ref and a.ref.pr is not None]
            found = clauses(items)
            # (a list one breath cannot hold keeps its first items: the rest are not said,
            # so they are not cited either)
            if len(found) != 1 or len(cites) != n or n > LIST_ITEMS or \
                    set(found[0].cites) != set(cites):
                continue
            places = list(dict.fromkeys(areas))
            text = x.say("area", "run_one" if key == "run" and len(places) == 1 else key,
                         areas=join_words(places),
                         who=r.author, effect=found[0].third(),
                         prs=join_words([str(n) for n in cites]),  # never "11 through 14"
                         pr_s="PR" if n == 1 else "PRs")
            if len(text.split()) <= MAX_WORDS and x.add(part, text, cites, roundup=True):
                break
        else:
            break  # nothing more fits: the page's coverage list has the rest
        start, key = start + n, "run_more"
    return part if part.lines else None


def _same_effect(actions: Sequence[Action]) -> str | None:
    """The effect two items share word for word, said for both (plural), or None."""
    found = {c.third(plural=True) for a in actions for c in clauses([a])}
    return found.pop() if len(actions) == 2 and len(found) == 1 else None


def told(actions: Sequence[Action]) -> str:
    """What one change does, from its title's actions: "deduplicates the experiment
    configs and adds tests for them" (a verb its actions share is said once)."""
    said = [c.third() for c in clauses(actions)[:2]]
    first = actions[0].obj
    if len(said) == 2 and len(actions) == 2 and first and first != actions[1].obj and \
            first in said[1] and first in said[0]:  # said just before: "… and adds tests for them"
        said[1] = said[1].replace(first, pronoun(first), 1)
    return join_clauses(said)


def _item(x: Lookup, acts: Sequence[Action]) -> str:
    a = acts[0]
    if a.ref is None or not (effect := told(acts)):
        return ""
    if a.ref.pr is not None:
        return x.say("area", "pr", pr=a.ref.pr, effect=effect)
    text = x.say("area", "commit", effect=effect)
    return text[:1].lower() + text[1:]


def duplicates(x: Lookup, plan: Plan) -> Part | None:
    alike = all(d.evidence == "problem" for d in plan.duplicates)
    heading = "duplicates_earlier" if all(d.earlier is not None for d in plan.duplicates) \
        else "duplicates_problem" if alike else "duplicates"
    part = Part("duplicates", x.say("headings", heading), rank=30)
    for d in plan.duplicates:
        a, b = d.prs
        evidence = x.say("duplicates", d.evidence).lower() if d.evidence in (
            "issue", "title", "files") else ""
        # Similar descriptions alone show a shared problem, not that both do what one
        # title says: no topic is claimed for them.
        topic = trim(d.topic, 8) if d.evidence != "problem" else ""
        if d.earlier is not None:
            # The other PR was active on an earlier day: the topic is today's PR's own
            now = b if d.earlier == a else a
            key = f"earlier_{d.evidence}" if d.evidence in ("issue", "title", "files") \
                else "earlier_problem"
            if not topic or not x.add(part, x.say("duplicates", key, now=now, then=d.earlier,
                                                  topic=f", {topic},"), (a, b)):
                x.add(part, x.say("duplicates", key, now=now, then=d.earlier, topic=""), (a, b))
        elif d.evidence == "problem":
            x.add(part, x.say("duplicates", "pair_problem", a=a, b=b), (a, b))
        elif not topic or not x.add(part, x.say("duplicates", "pair", a=a, b=b, topic=topic,
                                                  evidence=evidence), (a, b)):
            x.add(part, x.say("duplicates", "pair_plain", a=a, b=b, evidence=evidence), (a, b))
        if len(d.authors) == 2:
            x.add(part, x.say("duplicates", "two_authors", author_a=d.authors[0],
                              author_b=d.authors[1]), (a, b), optional=True)
    return part if part.lines else None


# A welcome to a first-time contributor is one short sentence a community hears gladly:
# trimmed for length after the later themes' extra details (notes rank 10).
WELCOME_WEIGHT = 15


def notes(x: Lookup, plan: Plan) -> Part | None:
    """First-time contributors and a left-over or two; "Worth noting" is said once."""
    part = Part("notes", x.say("headings", "notes"), rank=10)
    firsts = list(plan.first_timers)
    # The plan welcomes only a PR (a change with a number), so there is no commit wording.
    pr = plan.welcomed[0].ref.pr if plan.welcomed and plan.welcomed[0].ref else None
    welcomed = pr is not None and bool(effect := told(plan.welcomed)) and x.add(
        part, x.say("notes", "first_timer_pr", handle=firsts[0], pr=pr, effect=effect), (pr,),
        optional=True, weight=WELCOME_WEIGHT)
    if firsts and not welcomed:
        x.add(part, x.say("notes", "first_timers", handles=join_words(firsts[:4]),
                          contributors="contributor" if len(firsts) == 1 else "contributors"),
              optional=True, weight=WELCOME_WEIGHT)
    for acts in by_change(plan.notes):
        a = acts[0]
        if a.ref is None or not (effect := told(acts)):
            continue
        # After the welcome a note is a new thought, never "And PR …".
        key = "first" if not part.lines else "after_welcome" \
            if len(part.lines) == 1 and firsts else "after_also" \
            if part.lines[-1].text.startswith("Also") else "next"
        n = a.ref.pr
        text = x.say("notes", key, pr=n, effect=effect) if n is not None else \
            x.say("notes", f"{key}_commit", effect=effect)
        if x.add(part, text, (n,) if n is not None else (), optional=True) and \
                len(part.lines) > 1:
            # "Also, PR 12 …" leans on the note that opened the section: trimmed alone,
            # it would open the notes on "Also".
            part.lines[-1].after = part.lines[0]
    return part if part.lines else None


def outro(x: Lookup, plan: Plan, date: str) -> Part:
    w = plan.watch
    # "What to watch" over a sign-off alone promises what the episode never says.
    heading = x.say("headings", "outro" if w is not None else "outro_plain")
    part = Part("outro", heading, rank=100, required=True)
    if w is not None and w.kind == "stack":
        x.add(part, x.say("outro", "watch_partial", author=w.author or "the author",
                          size=parts(w.size) if w.size else stack_noun(),
                          in_window=number_words(w.in_window)), w.prs)
    elif w is not None:
        x.add(part, x.say("outro", "watch_open", pr=w.prs[0]), w.prs[:1])
    x.add(part, x.say("outro", "disclosure"))
    x.add(part, x.say("outro", "signoff", date=date, show=plan.show))
    return part

def day_totals(x: Lookup, k: Counts) -> str:
    """How many changes and developers, the verb agreeing ("a single change … was"); a
    window of bots' changes alone says so, never "from zero developers"."""
    were = "was" if k.changes == 1 else "were"
    if not k.authors:
        return x.say("signal", "totals_bots", changes=count_phrase(k.changes, "change"),
                     were=were, all="all of it" if k.changes == 1 else "all of them")
    if k.changes == 1 and k.authors == 1:
        return x.say("signal", "totals_one")  # never "In all, a single change from a single …"
    return x.say("signal", "totals", changes=count_phrase(k.changes, "change"),
                 authors=count_phrase(k.authors, "developer"), were=were)
