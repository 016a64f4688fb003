"""A title's several orders: "Deduplicate X and add tests for them" read as two actions,
a statement subject told by its parts, and a change log's later verbs told as its first."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Sequence

from ...models import Action
from .actions import both_pair, parse_title, read_action, verb_list
from .nouns import NOUN_LINKS
from .statements import Subject, covers, lists, read_subject, said_list
from .titles import clean_title
from .trimming import to_verb
from .words import _load, base_verb, lower_first, sentence_case, third_person, words


@functools.lru_cache(maxsize=50_000)
def parse_actions(title: str) -> tuple[Action, ...]:
    """A title's actions, in order: "Deduplicate X and add tests for them" -> deduplicate
    X, add tests for X. A second action starts where a joiner ("and", "then", "+", a comma,
    a semicolon) is followed by a verb in the form the title's first verb has; a list
    inside an object ("min and max", "add and remove hooks") is never split. A pronoun
    object is the first action's object when that is unambiguous, else the action it is
    in is dropped: nothing is said with "it" and no referent. A statement subject is told
    by its parts (`stated`)."""
    if (subject := read_subject(title)) is not None:
        return stated(subject)
    text = sentence_case(clean_title(title))
    parts = [p for chunk in text.split("; ") for p in _clauses(_opening(chunk.split()))]
    if not parts:
        return (parse_title(title),)
    # "Remove X and insert_observers_", "Fix slicing and get_plain()", "… to copy_ and
    # put_ operators": a name that opens on a verb-like word (or is one with an in-place
    # op's trailing underscore) goes on the object's list; it is no second order, and
    # neither is a verb the title wrote after another and a slash ("prepare/convert
    # functions")
    while len(parts) > 1 and re.search(
            rf"(?<![\w.]){re.escape(parts[1][0])}(?:[_.]\w|_\b)" + (
                rf"|(?<![\w/]){re.escape(parts[0][-1])}\s*/\s*{re.escape(parts[1][0])}(?![\w/])"
                if base_verb(parts[0][-1]) else ""), title, re.I):
        parts = [[*parts[0], "and", *parts[1]], *parts[2:]]
    first = read_action(title, " ".join(parts[0]), cut_second=False)
    out = [first]
    for part in parts[1:]:
        if _form(part[0]) is None:
            continue  # "X; quarantine Y tests": no verb the lexicon knows opens it
        found = _resolved(read_action(title, " ".join(part), cut_second=False), first.obj)
        if found is not None and found.lemma and found not in out:
            out.append(found)
    return tuple(out)


def stated(subject: Subject) -> tuple[Action, ...]:
    """A statement subject's parts as actions, never a verb it does not have: a statement
    is reported ("notes that make demo uses the demo TOML file"), an order read as one
    ("links themes to earlier episodes"), an item covered ("covers lock tests"); the
    label goes with the items ("as part of the skeleton work"), or with the orders when
    there are none. A statement too long for one breath is told by what it is about."""
    s = lists()
    work = subject.label.rsplit(" ", 1)[-1].lower() in s.work_nouns  # "readme updates"
    frame = (s.work_frame if work else s.label_frame).format(label=subject.label) \
        if subject.label else \
        s.file_frame.format(file=subject.file) if subject.file else ""
    out: list[Action] = []
    for p in subject.parts:
        if p.kind == "statement" and len(p.text.split()) <= s.statement_words:
            a = Action(verb="", lemma=s.state, obj="that " + lower_first(p.text))
        elif p.kind == "order" and (a := read_action(p.text, p.text, cut_second=False)).lemma:
            pass
        else:
            a = Action(verb="", lemma=s.cover, obj=said_list(lower_first(p.topic or p.text)))
        if a not in out:
            out.append(a)
    # The label is said once: with the items, else with the first order.
    framed = [a for a in out if covers(a)] or [a for a in out if a.lemma != s.state][:1]
    return tuple(dataclasses.replace(a, qualifier=f"{a.qualifier} {frame}".strip(),
                                     label=subject.label)
                 if frame and a in framed else a for a in out)


def _clauses(ws: list[str]) -> list[list[str]]:
    """Words split where a second action opens: a joiner, or a comma, then a verb."""
    out: list[list[str]] = []
    start = 0
    for end, nxt in _breaks(ws):
        out.append(_tidy(ws[start:end]))
        start = nxt
    out.append(_tidy(ws[start:]))
    return [p for p in out if p]


def _breaks(ws: Sequence[str]) -> list[tuple[int, int]]:
    """Where each later action opens: (the end of the one before, its verb's index)."""
    out: list[tuple[int, int]] = []
    start, i = 0, 2
    # "Optionally enable X + clean up Y": the form is the verb's, after any adverb
    lead = next((w for w in ws if w.lower() not in words().adverbs), None)
    form = _form(lead) if lead else None
    while i < len(ws) - 1:
        j = i + 1 if ws[i].lower() in _lists().joiners else \
            i if ws[i - 1].endswith(",") else None
        if j is not None and ws[j].lower() in ("then", "also") and j + 1 < len(ws) - 1:
            j += 1
        if j is not None and i - start >= 2 and j < len(ws) - 1 and \
                form is not None and (_form(ws[j]) == form or _mixed(form, ws, j)) and \
                not (i == start + 2 and (verb_list(ws, i)
                                         or ws[start + 1].lower() in words().particles)) and \
                not _support_noun(ws, j) and not both_pair(ws, i):
            # ("Fix start and stop layer parsing": two verbs opening the object are a list
            # in it, not "fix missing math import and remove X", whose "import" is a noun;
            # "Clean up and simplify X": two verbs on one object; "save and load support
            # for X" is support of both, unless the verb only ever adds it: "and add support")
            out.append((i, j))
            start, i = j, j + 2
            continue
        i += 1
    return out


def _support_noun(ws: Sequence[str], j: int) -> bool:
    """Whether `ws[j]` is a verb-like word naming what "support" is of ("save and load
    support for X"), not a second order: only a verb that always adds it ("and add
    support") is one."""
    return [w.lower() for w in ws[j + 1:j + 2]] == ["support"] and \
        ws[j].lower() not in words().sure_verbs


def _mixed(form: str, ws: Sequence[str], j: int) -> bool:
    """"Add X and added some logs": an order's later verb written in the past, before its
    object's determiner, is a second action all the same; so is a sure verb's base form
    after a comma in a log of past ones ("skipped some tests, added checks, install
    torchvision")."""
    later = _form(ws[j])
    if form in ("ed", "s") and later == "" and ws[j - 1].endswith(","):
        return ws[j].lower() in words().sure_verbs and \
            ws[j + 1].lower() not in ("for", "of", "to")
    return form == "" and later == "ed" and \
        ws[j + 1].lower() in words().object_openers - {"to", "with", "from", "by", "in", "on"}


def told_of_one(order: str, inflect: Callable[[str], str] = third_person) -> str:
    """The later verbs of an order or a change log's line in the third person, as its first
    is told ("Add a size limit and evict old ones" -> "… and evicts old ones"; "Added X and
    removed Y" -> "… and removes Y"), never a list inside an object ("add min and max") nor
    a verb-like word before a noun ("configure the entity and run name"); a plain verb
    before a plural is one ("… and fixes links"). With `inflect` = gerund they are told
    as a name's ("adding X and fixing Y")."""
    ws = order.split()
    start = 0
    for end, j in _breaks(ws):
        after = ws[j + 1].rstrip(".,;:")
        if any(to_verb(ws, k) for k in range(start, end)):
            continue  # "a kernel to cast to MX and write …": the "to" is the verb's too
        start = j
        if ws[j].lower() in words().nouns and after.lower() in ("for", "of"):
            continue  # "… and support for them": the noun
        if after.lower() in words().op_nouns:
            continue  # "… mul and add kernels": the ops' names
        if _support_noun(ws, j):
            continue  # "tests for save and load support": support of both, no "loads"
        if (after.lower() in words().object_openers or ws[j].lower() in
                words().plural_object_verbs and re.fullmatch(r"[a-z]+[^s]s", after)
                or ws[j].lower() in words().sure_verbs and after.lower() not in NOUN_LINKS[:3]) \
                and (verb := base_verb(ws[j])):
            ws[j] = inflect(verb)
    return " ".join(ws)


def _opening(ws: list[str]) -> list[str]:
    """A clause after a semicolon without its "then" ("X; then Y")."""
    while len(ws) > 1 and (ws[0].lower() in _lists().joiners or ws[0].lower() == "then"):
        ws = ws[1:]
    return ws


def _form(word: str) -> str | None:
    """How a verb is inflected ("" for the base form, else its ending), None for a word
    that is no verb: a second action is said in its title's first verb's form."""
    low = word.lower()
    base = base_verb(word)
    if low in ("don't", "dont"):
        return ""
    if base is None or low in words().function or low in words().adjectives:
        return None
    if low == base:
        return ""
    return next((e for e in ("ing", "ed", "s") if low.endswith(e)), None)


def _tidy(ws: list[str]) -> list[str]:
    """A clause's words without a trailing comma; a "+" left inside it joins two things
    ("float8 + inference mode") and is said "and", never cut off with what follows. A "+"
    with only the verb before it joined a name the cleaning took out, and goes."""
    if ws and ws[-1].endswith(","):
        ws = ws[:-1] + [ws[-1].rstrip(",")]
    while ws and ws[-1] == "+":
        ws = ws[:-1]
    joins = [i for i, w in enumerate(ws) if w == "+" and i > 1]
    out = []
    for i, w in enumerate(ws):
        if w != "+":
            out.append(w)
        elif i in joins[:-1]:  # "hf + moe + nvfp4 script": "hf, moe and nvfp4 script"
            out[-1] += ","
        elif i in joins:
            out.append("and")
    return [w for w in out if w]


def pronoun(referent: str) -> str:
    """The pronoun a thing is referred back to with: "them" for a list or a plural."""
    many = " and " in referent or "," in referent or \
        (referent.endswith("s") and not referent.endswith("ss"))
    return "them" if many else "it"


def _resolved(action: Action, referent: str) -> Action | None:
    """The action with a pronoun in its object said as the first action's object, or None
    when the object is empty, or which thing the pronoun means is not clear."""
    ws = action.obj.split()
    if not ws:
        return None
    lists = _lists()
    many = pronoun(referent) == "them"
    out = []
    for k, w in enumerate(ws):
        low = w.lower().strip(",.")
        nxt = ws[k + 1].lower() if k + 1 < len(ws) else ""
        if low == "that" and k and (nxt in words().finite or nxt.endswith("s") and
                                    base_verb(nxt) not in (None, nxt)):
            out.append(w)  # "only one that addresses X": it opens a clause, no determiner
            continue
        if low in lists.demonstratives and nxt and nxt not in words().function:
            out.append("the")  # "test this path": a noun follows, so it is a determiner
            continue
        if low in lists.possessive or (low in lists.pronouns | lists.demonstratives and (
                not referent or len(referent.split()) > 6 or
                many != (low in lists.plural))):
            return None
        out.append(referent if low in lists.pronouns | lists.demonstratives else w)
    return dataclasses.replace(action, obj=" ".join(out))


@dataclasses.dataclass(frozen=True)
class _Lists:
    joiners: frozenset[str]
    pronouns: frozenset[str]  # said as the referent
    plural: frozenset[str]
    possessive: frozenset[str]  # never rebuilt: the action is dropped
    demonstratives: frozenset[str]


@functools.cache
def _lists() -> _Lists:
    data = _load("language.toml")["actions"]
    singular, plural = set(data["singular_pronouns"]), set(data["plural_pronouns"])
    demo = frozenset(data["demonstratives"])
    return _Lists(joiners=frozenset(data["joiners"]),
                  pronouns=frozenset({"it", "them"} & (singular | plural)),
                  plural=frozenset(plural | {"these", "those"} & demo),
                  possessive=frozenset((singular | plural) - {"it", "them"}),
                  demonstratives=demo)
