"""The episode's title and summary, realised from the plan: grounded patterns built on the
day's concept names, chosen deterministically per day, the title at most TITLE_LIMIT
characters.

Every function takes the plan and the one phrase Lookup; none keeps state of its own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..analysis.language import (
    base_verb,
    has_verb,
    is_phrasal,
    is_tail_word,
    looks_plural,
    lower_first,
    shorten,
    title_case,
    verb_class,
    words,
)
from ..analysis.naming import bag_place, grab_bag, is_activity, vague
from ..models import Plan, ThemePlan
from .chains import chain_what
from .clauses import article
from .numbers import join_words, number_words, parts
from .phrases import Lookup, cap
from .realise import concept
from .sections import day_totals
from .who_size import who

TITLE_LIMIT, WEEKLY_TITLE_LIMIT = 70, 90
STACK_SUMMARY = 3  # a stack of this many parts is named as one in the summary


def _named(x: Lookup, themes: Sequence[ThemePlan], limit: int = 45) -> list[str]:
    # A second name cut inside "A and B <noun>" is not said: "Enabling Graph Trainer and
    # MXFP8" (of "… and MXFP8 composability") enables something the change does not;
    # "Adding X and FSDP" of "… and FSDP to Llama" keeps its things whole.
    # (a single change named by its whole doing is titled by the analysis's shorter name)
    names = [(shorten(whole := t.short if t.short and x.grounded(t.short) else concept(x, t),
                      limit), whole) for t in themes]
    heads = [title_case(_participle_cut(said, whole) if n == 0 else said)
             for n, (said, whole) in enumerate(names) if n == 0 or not _cut_pair(said, whole)]
    return [h for h in heads if h and x.grounded(h)]


def _participle_cut(said: str, whole: str) -> str:
    """The top name cut after a participle ("… Float8FakeQuantizer Missing Enabled", of
    "… missing enabled attribute") ends before the participles instead."""
    ws = said.split()
    if said == whole or not _PAST.search(said):
        return said
    while len(ws) > 2 and (_PARTICIPLE.fullmatch(ws[-1]) or is_tail_word(ws[-1])):
        ws.pop()
    return " ".join(ws)


_PAST = re.compile(r"[a-z]{3,}ed$")  # a cut ending here left its participle's phrase behind
_PARTICIPLE = re.compile(r"[a-z]{3,}(?:ed|ing)$")


def _cut_pair(said: str, whole: str) -> bool:
    rest = whole[len(said):].split()
    if rest and (_PAST.search(said) or
                 re.search(r"(?i)\b(?:why|how|what|whether)\b", said)):
        # "Fixing Extra Averaging Performed" (of "… performed in validation"), "Explaining
        # Why float8 Needs": a participle or a clause cut from what it says
        return True
    return bool(rest) and rest[0].lower() not in words().function and \
        re.search(r"\b(?:and|or)\s+\S+$", said) is not None


def title(x: Lookup, plan: Plan) -> str:
    """A title from the bank, built on concept names and chosen by the day; <= 70 chars."""
    limit = WEEKLY_TITLE_LIMIT if plan.weekly else TITLE_LIMIT
    heads = _named(x, _leads(plan.themes, 3 if plan.weekly else 2))
    # "FusedRMSNorm, Plus Fixing a Minor Issue": a name that names nothing but its place
    # ("fixing a minor issue in Docs") is said in the episode but gives the title no words
    heads = [h for n, h in enumerate(heads)
             if n == 0 or not (_thin(h, plain=not plan.weekly) or _stated(h))]
    options: list[str] = []
    if plan.weekly:
        heads = _places(heads)
        padded = heads + ["", ""]
        # A name with its own "and" is never joined by another ("Weekly Recap - X Tests
        # and Tooling and Metal Lowbit"): two are joined by "Plus", three not at all
        keys = {3: "three", 2: "two", 1: "one"}
        for n in range(len(heads), 0, -1):
            anded = n > 1 and any(" and " in f" {h.lower()} " for h in heads[:n])
            if not (anded and n == 3):
                options.append(x.say("title", "two_plus" if anded else keys[n],
                                     a=padded[0], b=padded[1], c=padded[2]))
    elif heads:
        # A day whose top stories are all grab-bags is titled by their places at once
        # ("Writing and Analysis Work"), never "Writing Work, Plus the Work in Analysis"
        places = _places(heads)
        options = [x.say("title", "one", a=places[0])] if len(places) < len(heads) else \
            _daily_titles(x, plan, heads)
    if not plan.themes and not plan.weekly and (told := _reverted(x, plan, "title")):
        options.append(told)
    options += [x.say("title", "quiet" if not plan.themes else "fallback", show=plan.show)]
    for text in options:
        text = cap(title_case(text))  # "float8 Training …" opens a title as "Float8"
        if text and len(text) <= limit and x.grounded(text):
            return text
    return shorten(title_case(x.say("title", "fallback", show=plan.show)), limit) or "Briefing"


def _leads(themes: Sequence[ThemePlan], n: int) -> list[ThemePlan]:
    """The top `n` themes a title or summary names: "more work in Writing" is the place of
    "the work in Writing" again, and the theme after it leads in its stead."""
    again = f"{words().again} "
    return [t for t in themes
            if not (grab_bag(t.concept) and t.concept.lower().startswith(again))][:n]


def _places(heads: list[str]) -> list[str]:
    """Top themes that are all grab-bags, as one: "Graph Trainer, RL and SPMD Types Work",
    never "Graph Trainer Work, RL Work, and SPMD Types Work" (nor "…, Plus the Work in
    Analysis")."""
    work = words().kind_names["mixed"]
    places = [bag_place(h) for h in heads if grab_bag(h)]
    found = [p for p in places if p]
    return [f"{join_words(found)} {work}"] if len(heads) > 1 and len(found) == len(heads) \
        else heads


def _reverted(x: Lookup, plan: Plan, section: str) -> str:
    """A day whose only story is a revert chain, by what it undid: "Preserving Mutable
    Buffer Inputs, Reverted"; "" when the chain names nothing or the day has no chain."""
    chain = plan.chains[0] if plan.chains else None
    undo = next((s for s in chain.steps if s.kind == "revert"), None) if chain else None
    what = chain_what(chain) if chain else ""
    if chain is None or undo is None or not what or undo.ref.pr is None:
        return ""
    back = next((s for s in chain.steps if s.kind == "reland" and s.ref.pr), None)
    key = "reverted_back" if back else "reverted"
    text = x.say(section, key, what=what, revert=undo.ref.pr,
                 reland=back.ref.pr if back else "")
    return text if x.grounded(text) else ""


def _stated(name: str) -> bool:
    """A name that is a statement ("PyTorch Depends on Psutil"): after "Alongside" or
    "Plus" it reads as a second title, not a second story."""
    ws = name.split()
    return not is_activity(ws[0]) and any(w.lower() in words().finite for w in ws[1:])


def _thin(name: str, plain: bool) -> bool:
    """Whether a second name gives a title no words of its own: one that names nothing, or
    (with `plain`: a day's title, not a recap's list of kinds of work) one plain word
    however placed ("Alongside Pyproject", "Plus Linter in Workflows"); a name written with
    capitals inside it ("FlexAttention", "FSDP2") is a name."""
    core = re.sub(r"(?i)\s+in\s+\S.*$", "", name)
    return vague(core) or plain and len(core.split()) == 1 and not is_activity(core) and \
        not any(c.isupper() for c in core[1:])  # ("Checking in X": the gerund's "in")


def _daily_titles(x: Lookup, plan: Plan, heads: list[str]) -> list[str]:
    a, top = heads[0], plan.themes[0]
    bank: list[str] = []
    verb, _, rest_a = a.partition(" ")
    # A name with its own "and" is never joined by another: "X and Y and Z" reads as three.
    joined = len(heads) > 1 and any(" and " in f" {h.lower()} " for h in heads[:2])
    if len(heads) > 1 and verb.endswith("ing") and heads[1].startswith(f"{verb} ") and \
            rest_a and not joined:
        # "Fixing Doc" and "Fixing LR Scheduling": the verb is said once
        bank += [f"{verb} {rest_a} and {heads[1][len(verb) + 1:]}".replace("{", "{{")
                 .replace("}", "}}")]
    elif len(heads) > 1:
        # "Fixing X and Pyproject" reads as fixing both: after an activity, a name joined
        # by "and" is heard as its object too, so the two are joined another way
        governs = is_activity(a) and not is_activity(heads[1])
        bank += [v for v in x.variants("title", "two")
                 if not (joined or governs) or "} and {" not in v]
    s = top.stack
    # "X Lands in Four Parts" needs a name, not a statement ("Kernel Writes Out Splits").
    if s is not None and s.in_window >= 3 and s.in_window == (s.declared_size or s.in_window) \
            and not has_verb(a.split()):
        # ("Compiler Toolkit Experiments Land in Five Parts": the verb agrees)
        key = "parts_plural" if _plural_name(a) else "parts"
        bank += [v for v in x.variants("title", key)
                 if top.status == "landed" or " Land" not in v]
    kinds = [t.work for t in plan.themes if t.work not in ("change", "")]
    # "A Day of New Capability in DSV3 and Unit Tests": a place every repository has names
    # no work of the day's; nor is a place of the day's other work one of this kind's
    # ("Correctness Fixes Across MXFP8 MoE Training and …" named the top story's place, and
    # that story fixed nothing): the top story is of the kind, or the title says another.
    areas = [t.area for t in plan.themes if t.area and kinds and t.work == kinds[0]
             and t.area.lower() not in words().untitled_areas]
    if len(kinds) >= 2 and len(set(kinds)) == 1 and len(set(areas)) >= 1 and \
            top.work == kinds[0]:
        # (work "Across" one place is in it: "A Day of Hardening in Experiments")
        bank += [v for v in x.variants("title", "kind") if len(set(areas)) > 1
                 or " Across " not in v]
    if not bank and not grab_bag(a):  # "The Work in Components" alone titles nothing
        bank = x.variants("title", "one")
    start = x.seed % len(bank) if bank else 0
    ordered = bank[start:] + bank[:start]
    values = {"a": a, "b": heads[1] if len(heads) > 1 else "",
              "n": title_case(number_words(s.in_window)) if s else "",
              "kind": title_case(x.pick("work", kinds[0]) if kinds else ""),
              "areas": title_case(join_words(list(dict.fromkeys(areas))[:2]))}
    # A top name too long to share the title is said whole and alone, never cut to fit.
    whole = [h for h in _named(x, plan.themes[:1], TITLE_LIMIT) if not grab_bag(h)]
    # (a grab-bag leaves the title to the next story, alone if the two do not fit)
    alone = [x.say("title", "one", a=h) for h in (*whole, a, *heads[1:2] * grab_bag(a))
             if not grab_bag(h)]
    if whole and whole[0] != a:
        return alone
    return [v.format(**values) for v in ordered] + alone




def _whose(t: ThemePlan) -> str:
    """Who, and how big when the work is one author's stack: "Daniel's seven-part stack"
    (a summary says what kind of work it is, as a listener would hear it first)."""
    s = t.stack
    if s is not None and len(t.authors) == 1 and s.in_window >= STACK_SUMMARY and \
            s.in_window == (s.declared_size or s.in_window):
        name = t.authors[0]
        mark = "'" if name.endswith("s") else "'s"
        return f"{name}{mark} {parts(s.in_window, s.is_series)}"
    return who(t)


def _in_prose(name: str) -> str:
    """A name inside a sentence takes the article a speaker would give it ("alongside a
    function to check X", not "alongside function to check X"); a heading does without.
    An -ing word's object takes the article its verb gives it ("deleting the dead prototype
    module"); any other name opening on one ("training recipes") is left."""
    lead = ""
    first, _, rest = name.partition(" ")
    if first.lower() in words().adverbs and rest:  # "temporarily disabling the test"
        lead = f"{first} "
        first, _, rest = rest.partition(" ")
    if not first.endswith("ing"):
        return article(name)
    verb = base_verb(first) if first.islower() else None
    particle, _, after = rest.partition(" ")
    if verb and after and is_phrasal(verb, particle):
        first, rest = f"{first} {particle}", after  # "fixing up a sweep script"
    return f"{lead}{first} {article(rest, verb_class(verb))}" if verb and rest else name


def summary(x: Lookup, plan: Plan) -> str:
    """One or two sentences naming the top themes and who did them, in several shapes."""
    k = plan.signal.counts
    totals = cap(day_totals(x, k))
    if not plan.themes:
        if k.changes and plan.first_timers:  # the day's news is a newcomer, not its totals
            text = x.say("summary", "quiet_welcome", handle=plan.first_timers[0])
            return text if x.grounded(text) else totals
        if k.changes and (told := _reverted(x, plan, "summary")):
            return told  # a day of one revert chain: the summary says what came undone
        return x.say("summary", "quiet") if not k.changes else totals
    lead = [(_in_prose(concept(x, t)), who(t) if plan.weekly else _whose(t))
            for t in _leads(plan.themes, 3 if plan.weekly else 2)]
    if plan.weekly:
        while lead:
            # An item is said as a sentence, with a capital; inside this one it keeps only
            # the name's own ("AutoParallel …", "Muse Glimmer …", "convolution …")
            items = [x.say("summary", "item", headline=h, who=a, **{"from": _by(h)})
                     for h, a in lead]
            items = [i if h[:1].isupper() else lower_first(i)
                     for i, (h, _) in zip(items, lead, strict=True)]
            # "… from Ada, Omar and others and DP rank from …" runs two items together:
            # items with their own "and" are parted by semicolons
            joined = "; ".join(items[:-1]) + "; and " + items[-1] if len(items) > 2 and \
                any(" and " in i for i in items) else join_words(items)
            text = x.say("summary", "weekly", items=joined)
            if x.grounded(text):
                return text
            lead.pop()
        return x.say("summary", "quiet")
    options: list[str] = []
    if len(lead) == 2 and lead[0][1] == lead[1][1] and \
            len(places := _places([lead[0][0], lead[1][0]])) == 1:
        lead = [(places[0], lead[0][1])]  # "Writing and Analysis work", said once
    if len(lead) == 2:
        (a, who_a), (b, who_b) = lead
        shapes = x.variants("summary", "two" if who_a != who_b else "two_same")
        work = plan.signal.work[0][0] if plan.signal.work else "change"
        if work != "change" and who_a != who_b and all(t.work == work for t in plan.themes[:2]):
            shapes += x.variants("summary", "work")
        start = x.seed % len(shapes)
        options += [v.format(a=a, who_a=who_a, b=b, who_b=who_b, from_a=_by(a), from_b=_by(b),
                             work=x.pick("work", work)) for v in shapes[start:] + shapes[:start]]
    a, who_a = lead[0]
    options += [x.say("summary", "one", a=a, who_a=who_a, from_a=_by(a))]
    options += [v.format(a=a, who_a=who_a, from_a=_by(a)) for v in x.variants("summary", "one")]
    options.append(totals)
    for text in options:
        text = text if text.startswith(who_a) else cap(text)
        if x.grounded(text):
            return text
    return totals


def _by(name: str) -> str:
    """"from" before a theme's authors ("linear warmup from Ada"), or "by" after a doing
    ("removing torch dependency from Ada" says where it was removed from, "fixing CI from
    Ada" whose CI it was) and after a name with a "from" of its own ("moving kernels from
    torchaccel from Ada" names two sources)."""
    return "by" if is_activity(name) or re.search(r"\bfrom\b", name) else "from"


def _plural_name(name: str) -> bool:
    """Whether a name's head noun is plural ("compiler toolkit experiments"); an activity
    ("fixing bugs") is one thing."""
    return bool(name.split()) and not is_activity(name) and looks_plural(name.split()[-1])
