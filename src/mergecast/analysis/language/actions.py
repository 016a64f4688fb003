"""Titles read as actions: verb (and its class), object and qualifier (kinds.py tells what
kind of work an action is and says it as a name; nouns.py reads a title with no verb)."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Sequence

from ...models import Action
from ..text import strip_markup, title_tags
from .kinds import OBJECT_VERBS, name_of
from .nouns import NOUN_LINKS, listed_opening, noun_action, object_case
from .readings import QUOTED, hindered, revert_of, the_documents
from .statements import names_work, read_subject
from .titles import SYMBOL, clean_title
from .trimming import is_tail_word
from .words import (
    base_verb,
    case_word,
    gerund,
    is_phrasal,
    lower_first,
    sentence_case,
    verb_class,
    words,
)

_TYPE = re.compile(r"^\s*(?:\[[^\]]*\]\s*)*([A-Za-z]+)(?:\([^()]{0,30}\))?!?:\s+")


_AREA = re.compile(r"^\s*([A-Za-z][A-Za-z0-9-]*):\s")
_ARROW = re.compile(r"->|=>|→")
_PREPOSITIONS = frozenset("on in for to from with via by at under across".split())


@functools.lru_cache(maxsize=50_000)
def parse_title(title: str) -> Action:
    """A title as an action: "Migrate min and max to Metal (#12)" -> verb class "move",
    verb "migrate", object "min and max", qualifier "to Metal". A title that names a
    thing ("int4 sparse marlin tensor") has no verb; "X support" is the action "support X".
    A summary under a label ("Skeleton: package layout, data model, …") is named by its
    label; a statement as a title, for its name, unless its subject opens on a word that
    would read as a verb ("make demo uses X" is about make demo)."""
    if (subject := read_subject(title)) is not None:
        first = subject.parts[0]
        if subject.label and names_work(subject.label) and \
                (len(subject.parts) > 1 or ", " in first.text):
            return Action(verb="", lemma="", obj=object_case(subject.label))
        if first.kind == "statement" and base_verb(first.topic.split()[0]):
            return Action(verb="", lemma="", obj=lower_first(first.topic))  # not "making demo"
    return read_action(title, sentence_case(clean_title(title)).split("; ")[0].strip())


def read_action(title: str, text: str, cut_second: bool = True) -> Action:
    """One clause of a title as an action; the title's own prefix ("docs:", "mxfp8 moe:")
    still tells its kind and scope."""
    ws = text.split()
    if not ws:
        return Action(verb="", lemma="", obj="")
    parts = re.split(r"[-_]", ws[0]) if len(ws) == 1 else []
    if len(parts) > 1 and re.fullmatch(r"[a-z]+(?:[-_][a-z0-9]+)+", ws[0]) and \
            (base_verb(parts[0]) or parts[-1] in words().noun_verbs):
        # A branch name as the title ("fix-ci", "update_readme", "readme-updates"): its
        # words, said apart
        return read_action(title, " ".join(case_word(w) for w in parts), cut_second)
    # "prefetching for cpu offloading" is written "CPU" as in any name; not inside a path
    # or a dotted name ("torch.cpu").
    text = _PLAIN_WORD.sub(lambda m: case_word(m.group(0)), text)
    text = _CAPITAL_WORD.sub(lambda m: _recased(m.group(0), f"{text} {title}"), text)
    ws = text.split()
    if (undone := revert_of(text)) and (inner := read_action(undone[1], undone[1])).lemma:
        # "back out Add X" undoes adding X: "backing out adding X"
        return Action(verb="change", lemma=undone[0], obj=lower_first(name_of(inner, True)))
    if len(ws) > 2 and base_verb(ws[0]) in ("re-land", "reland") and base_verb(ws[1]) and \
            (inner := read_action(title, " ".join(ws[1:]))).lemma:
        # 'Re-land "Add INT8 SDPA path"' lands the same thing again: "re-landing INT8 SDPA
        # path", not "re-landing Add INT8 SDPA path"
        said = " ".join(x for x in (inner.obj, inner.qualifier) if x) \
            if inner.lemma in OBJECT_VERBS | {"enable"} else lower_first(name_of(inner, True))
        return Action(verb="change", lemma=base_verb(ws[0]) or "", obj=said)
    typed = _TYPE.match(SYMBOL.sub(" ", strip_markup(title)))
    hint = words().types.get(typed.group(1).lower()) if typed else None
    if hint is None:  # "[hotfix] malformed docstring" is a fix as much as "fix: …" is
        hint = next((words().types[t.lower()] for t in title_tags(title)
                     if t.lower() in words().types), None)
    prefix = _PREFIX_WORDS.match(SYMBOL.sub(" ", strip_markup(title)))
    where = prefix.group(1).split() if prefix else []
    scope = _scope(where, text)
    if hint is None and any(words().objects.get(w.lower()) == "documentation" for w in where):
        hint = "document"  # "docs update: quantized inference" documents it
    negated = False
    if ws[0].lower() in ("don't", "dont") or (ws[0].lower() == "do" and ws[1:2] == ["not"]):
        ws = ws[2:] if ws[0].lower() == "do" else ws[1:]
        negated = bool(ws)
    elif ws[0].lower() == "never" and len(ws) > 2 and (
            base_verb(ws[1]) == ws[1].lower() or ws[2].lower() in ("a", "an", "the")
            or _plain(ws[1].capitalize()) and ws[1].islower()):
        # "Never name a theme after a unit": an order not to; "Never open two …" too,
        # whether or not the lexicon knows the word after it as a verb
        ws, negated = ws[1:], True
    adverb = ""
    if len(ws) > 2 and ws[0].lower() in words().adverbs and base_verb(ws[1]):
        adverb, ws = ws[0].lower(), ws[1:]
    elif (opening := listed_opening(ws, words().adverb_forms)) and len(ws) > (n := len(
            opening.split())) + 1 and base_verb(ws[n]) == ws[n].lower():
        # "temp Disable X": temporarily; "By default disable X": by default
        adverb, ws = words().adverb_forms[opening], [ws[n].lower(), *ws[n + 1:]]
    lemma = base_verb(ws[0]) if ws else None
    if lemma and len(title.split()) > 1 and not _said(ws[0], title) and \
            re.match(rf"\s*(?:\[[^\]]*\]\s*)*`?{re.escape(ws[0])}_\w", title, re.I):
        lemma = None  # "`get_x` matches observer": a name that opens on a verb's word
    if negated and lemma is None and (m := re.fullmatch(r"([A-Za-z]+)-(\w[\w-]*)", ws[0])) \
            and base_verb(m.group(1)):
        ws = [m.group(1), *m.group(2).split("-"), *ws[1:]]  # "Don't use_cache": not "use"
        lemma = base_verb(ws[0])
    if negated and lemma is None and ws[0].isalpha():
        lemma = ws[0].lower()  # after "don't" comes a verb, known or not: never drop the "not"
    if lemma is None and len(ws) > 2 and _plain(ws[0]) and ws[1] in ("the", "a", "an"):
        # "Group the optimizer components into a package": a plain word before an article
        # can only be its verb, known or not; named "grouping …", never as an order
        lemma = ws[0].lower()
    elif lemma is None and len(ws) > 4 and _plain(ws[0]) and ws[1].lower() == "and" and \
            ws[3] in ("the", "a", "an") and _plain(ws[2].capitalize()) and ws[2].islower():
        # … and so are both words of "Checkpoint and resume the training loop"
        lemma, ws = f"{ws[0].lower()} and {ws[2]}", ws[2:]
    # ("make sure tests are run": the verb takes a clause, its "are" is no sign of a subject)
    sure = [w.lower() for w in ws[:2]] == ["make", "sure"]
    # ("Fix the loader is not called": what is fixed is a fault, said as a statement)
    fault = lemma == "fix" and ws[0].lower() == "fix" and any(
        w.lower() in ("not", "cannot") or w.lower().endswith("n't") for w in ws[2:6])
    if ws and ws[0].lower() in words().adjectives or lemma not in words().clause_verbs and \
            not sure and not fault and any(w.lower() in words().auxiliaries and _said(w, title)
                for w in _main_clause(ws)[1:4]) or \
            len(ws) > 2 and ws[1].lower() in words().finite and _said(ws[1], title):
        # "scaled bias rowwise linear", "batch configs should …", "Init includes the first
        # step": no verb, the first word is the subject
        lemma = None
    if lemma is None and len(_ARROW.findall(title)) == 1 and " to " in text and \
            not text.lower().startswith("to "):
        # "_permute_bf16 -> permute_and_pad": an arrow with no verb switches one to the other
        kept = re.search(rf"(?<!\w){re.escape(ws[0])}(?!\w)", title)  # "Adam -> AdamW"
        return read_action(title, f"Switch {text if kept else lower_first(text)}", cut_second)
    if len(ws) > 2 and ws[0].lower() in words().nouns and ws[0].lower().endswith("s") and \
            ws[1].lower() in ("to", "for"):
        lemma = None  # "fixes to hqq in int4": a noun, what is fixed follows "to"
    if len(ws) > 1 and lemma and ws[1].lower() in ("fix", "fixes") and \
            (verb_class(lemma) == "test" or ws[0].lower().endswith("ing")):
        # "Lint fixes for X", "Lint fixes test/sparsity", "Spelling fixes": fixes of the
        # lint or the spelling, no linting or spelling
        if len(ws) > 2 and ws[2].lower() not in NOUN_LINKS:
            return read_action(title, " ".join(["Fix", ws[0].lower(), "in", *ws[2:]]), cut_second)
        lemma = None
    if lemma is None or len(ws) < 2:
        said = " ".join(ws) or text
        found = noun_action(said)
        found = read_action(said, found) if isinstance(found, str) else found
        if not found.lemma and hint is not None:
            found = Action(verb=hint, lemma=words().say[hint], obj=found.obj)  # "fix: a leak"
        return dataclasses.replace(found, qualifier=f"{found.qualifier} {scope}".strip())
    w = words()
    first, at = lemma, 1
    if lemma and len(ws) > 4 and ws[2].lower() == "and" and is_phrasal(lemma, ws[1]):
        first, at = f"{lemma} {ws[1].lower()}", 2  # "Clean up and simplify X"
    if lemma and len(ws) > at + 2 and ws[at].lower() == "and" and \
            (second := base_verb(ws[at + 1])) and second != lemma and \
            (second == ws[at + 1].lower() or ws[0].lower() != lemma):
        # "Fix and re-enable the loader tests", "Added and updated comments": two verbs on
        # one object, both said (each a phrasal verb if it is one: "refactor and clean up")
        more = ws[at + 2:]
        if second in w.phrasal and more[0].lower() in w.particles and len(more) > 1:
            second, more = f"{second} {more[0].lower()}", more[1:]
        lemma, ws = f"{first} and {second}", [ws[at + 1], *more]
    rest = ws[1:]
    if is_phrasal(lemma, rest[0]) and len(rest) > 1:
        lemma, rest = f"{lemma} {rest[0].lower()}", rest[1:]
    elif lemma in w.phrasal and rest[-1].lower() in w.particles and len(rest) > 1:
        lemma, rest = f"{lemma} {rest[-1].lower()}", rest[:-1]  # "split X off" -> split off X
    cls = verb_class(lemma.split()[0])
    if lemma in w.for_objects and rest[0].lower() == "for" and len(rest) > 1:
        rest = rest[1:]  # "Fix for weights-only load" is a fix of it: "fixing weights-only load"
    if hint and cls == "change":
        cls = hint  # "docs: update the quick start" is documentation work
    # "Fix X and check Y": the first action names the change; the second is a detail.
    cut = None if not cut_second else next((i for i in range(1, len(rest) - 1)
                if rest[i].lower() in ("and", "then") and base_verb(rest[i + 1])
                and rest[i + 1].lower() not in words().function
                and not verb_list(rest, i) and not _names_next(title, rest[i + 1])
                and not both_pair(rest, i)), None)
    # (a cut before ", and check Y" leaves no comma behind: "… as Title Case," is no end)
    obj, qualifier = " ".join(rest[:cut]).rstrip(",;"), ""
    if cls in ("move", "rename") or lemma in ("convert", "switch"):
        head, sep, tail = obj.rpartition(" to ")
        ends = tail.split()
        while len(ends) > 1 and is_tail_word(ends[-1]):
            ends.pop()  # "to disk when" is a cut title: "to disk"
        tail = " ".join(ends)
        if sep and head and tail and (tail.split()[0].lower() not in words().function
                                      or not _said(tail.split()[0], title)):
            obj, qualifier = head, "to " + tail
            target, _, where = tail.partition(" ")
            where = where if where.split(" ", 1)[0].lower() in _PREPOSITIONS else ""
            if _same(head, tail if not where else target):
                qualifier = where  # `X` -> `x.py` reads the same: say what is moved or renamed
    area = _AREA.match(title)
    if area and rest[0].lower() in _PREPOSITIONS and area.group(1).lower() not in words().types:
        obj = f"{area.group(1)} {obj}"  # "float8: enable on ROCm" enables float8 on ROCm
    elif where and rest[0].lower() in _PREPOSITIONS and len(where) > 1 and \
            where[0].lower() not in words().types and not base_verb(where[0]):
        # "mx inference test: fix on B200" fixes the MX inference test there, not "on B200"
        obj, scope = f"{' '.join(case_word(w) for w in where)} {obj}", ""
    if lemma == "make" and where and not scope and rest[0].lower() in _COMPARATIVES:
        # "float8 kernel test: make more robust": the prefix is what is made more robust
        obj = f"{' '.join(where)} {obj}"
    if (m := re.match(r"(support\s+)?to\s+(\w+)\s+(?=\S)", obj, re.I)) and \
            (lemma == "support" or m.group(1)) and base_verb(m.group(2)) == m.group(2).lower():
        # "Support to load X", "Add support to load X": support for loading X
        obj = f"{m.group(1) or ''}for {gerund(m.group(2).lower())} {obj[m.end():]}"
    if lemma == "support" and not obj.lower().startswith("for "):
        obj = "for " + obj
    if lemma == "allow" and obj.lower().startswith("for ") and len(obj.split()) > 1:
        obj = obj[4:]  # "Allow for scales to be in X" enables scales to be in X
    if lemma in ("enable", "allow") and re.match(r"to\s+\w", obj) and \
            base_verb(obj.split()[1]) == obj.split()[1].lower():
        # "Enable to specify the file name": no one is enabled; it makes specifying possible
        # (a cut title's last "the" goes: "to cache the" is "to cache")
        purpose = obj.split()
        while len(purpose) > 2 and is_tail_word(purpose[-1]):
            purpose.pop()
        lemma, obj = "make", f"it possible {' '.join(purpose)}"
    if cls == "remove" and (m := re.fullmatch(r"(\S+\s.*\d\S*)\s+support", obj)):
        obj = f"support for {m.group(1)}"  # a version: "drop PyTorch before 2.11 support"
    if lemma in w.clause_verbs and _clause_object(obj, title):
        obj = "that " + obj  # "Check X is idempotent" checks that X is idempotent, not X
    obj = _clause_with_subject(obj)
    if cls == "change" and (once := _said_once(obj)) != obj:
        # "modify _orig_dtype to orig_dtype": a name written anew, its value unchanged
        obj, cls, lemma = once, "rename", "rename"
    later = adverb if adverb == "by default" else ""  # ("disables X by default")
    qualifier = " ".join(x for x in (qualifier, later, scope) if x)
    obj = the_documents(object_case(hindered(obj, lemma)), made=cls == "add")
    return Action(verb=cls, lemma=lemma, obj=obj, qualifier=the_documents(qualifier),
                  negated=negated, adverb="" if later else adverb)


_PLAIN_WORD = re.compile(r"(?<![\w./`])[a-z][a-z0-9]*(?![\w./`])")
# A capitalised word inside a title, not its first ("Enable Fused qkv …", "Fix Readme").
_CAPITAL_WORD = re.compile(r"(?<=\s)(?<![\w./`])[A-Z][a-z]+(?![\w./`])")


def _recased(word: str, text: str) -> str:
    """A capital the writer's habit gave a word, not a name: "Readme" is written "README"
    as in any name, and a participle is plain when the title writes it so too ("Enable
    Fused qkv by default and fused gate up")."""
    low = word.lower()
    if (written := case_word(low)) != low:
        return written
    # Only a past participle: "Linear" beside "common linear" may be the class, and
    # "Embedding" beside "embedding" the module.
    return low if low.endswith("ed") and \
        re.search(rf"(?<![\w./`]){low}(?![\w./`])", text) else word


def _names_next(title: str, word: str) -> bool:
    """Whether "and <word>" opens a name in the title ("Split implements and
    implements_torch_function"): a second thing, not a second order."""
    return re.search(rf"\band\s+{re.escape(word)}[_.]\w", title, re.I) is not None


def both_pair(ws: Sequence[str], i: int) -> bool:
    """Whether the "and" at i joins "both X and Y" ("to both console and log files"): one
    word after "both", not a plural it counts ("run both widgets and check X")."""
    return i > 1 and ws[i - 2].lower() == "both" and not ws[i - 1].lower().endswith("s")


def _plain(word: str) -> bool:
    """A capitalised plain word, no function word or name ("Llama the …" is a name)."""
    return word.isalpha() and word[:1].isupper() and word[1:].islower() and \
        word.lower() not in words().function | words().adverbs and \
        case_word(word.lower()) == word.lower()


def _said(word: str, title: str) -> bool:
    """A word the title says as a word, not one only inside an identifier ("is_bias") or a
    quoted message."""
    return re.search(rf"(?<![\w.`]){re.escape(word)}(?![\w.`])", QUOTED.sub(" ", title),
                     re.I) is not None


_COMPARATIVES = frozenset("more less faster slower smaller larger cheaper safer".split())

# "mxfp8 moe: enable ep=1": a prefix of two or three words before a colon names where.
_PREFIX_WORDS = re.compile(
    r"^\s*(?:\[[^\]]*\]\s*)*([A-Za-z][\w.+-]*(?:\s[\w.+-]+){1,2}):\s+\S")


def _scope(ws: list[str], text: str) -> str:
    """Where a title's change is, from a prefix its cleaned text no longer says ("mxfp8
    moe: enable ep=1" enables ep 1 "in MXFP8 MoE"); "" when the prefix is an action ("Fix
    CI: …", "docs update: …"), a generic word, or already said."""
    low = [w.lower() for w in ws]
    w = words()
    if not ws or base_verb(ws[0]) or low[-1] in w.nouns or low[-1] in w.generic or \
            low[0] in w.types or any(w.objects.get(x) == "documentation" for x in low) or \
            any(x in text.lower().split() for x in low):
        return ""
    said = " ".join(case_word(x) for x in ws)
    return "in " + (lower_first(said) if all(x.islower() for x in ws[1:]) else said)


def _clause_object(obj: str, title: str) -> bool:
    """Whether a clause verb's object is a clause of its own ("X is idempotent"), its
    auxiliary after a subject of one to three words and not said inside an identifier."""
    ws = _main_clause(obj.split())
    return bool(ws) and ws[0].lower() not in words().subordinators and any(
        w.lower() in words().auxiliaries and _said(w, title) for w in ws[1:4])


def _main_clause(ws: list[str]) -> list[str]:
    """The words before a subordinate clause: in "explain why float8 needs to be …" the
    auxiliary belongs to "why …", so "explain" is still the title's verb."""
    cut = next((i for i, w in enumerate(ws) if i and w.lower() in words().subordinators),
               len(ws))
    return ws[:cut]


# A clause after one of these needs its own subject: "since are now a tensor input" has none
_NEEDS_SUBJECT = frozenset("since because if when while unless until once after before "
                           "whether although though".split())


def _clause_with_subject(obj: str) -> str:
    """"save for backward since are now a tensor input" -> "save for backward": a clause
    whose verb comes right after its subordinator lost its subject, and is not said."""
    ws = obj.split()
    finite = words().auxiliaries | {"has", "have", "had"}  # ("after do_bench …": a name)
    for i in range(1, len(ws) - 1):
        if ws[i].lower() in _NEEDS_SUBJECT and ws[i + 1].lower() in finite:
            return " ".join(ws[:i]).rstrip(",;")
    return obj


def _said_once(obj: str) -> str:
    """"orig dtype to orig dtype for MX tensor" -> "orig dtype for MX tensor": a change of
    names said the same aloud (`_orig_dtype` to `orig_dtype`) names them once."""
    head, sep, tail = obj.partition(" to ")
    if not sep or not head:
        return obj
    ws = tail.split()
    for n in range(len(ws), 0, -1):  # (the name whole: "foo" to "foo v2" is two names)
        if _same(head, " ".join(ws[:n])) and (n == len(ws) or ws[n].lower() in _PREPOSITIONS):
            return " ".join([head, *ws[n:]])
    return obj


def _same(a: str, b: str) -> bool:
    """Two names that read the same aloud ("block size" and "blocksize")."""
    return re.sub(r"[\W_]+", "", a.lower()) == re.sub(r"[\W_]+", "", b.lower())


def one_fault(obj: str) -> str:
    """"bug when default dtype is BF16" -> "a bug when …": a bare fault fixed is one fault,
    as a speaker says it; "error message", "regression tests" and "issue 12" are no bare
    fault. Said after a name or effect is cut, so the article costs it no words."""
    ws = obj.split()
    if not ws or ws[0].rstrip(":").lower() not in words().faults or \
            ws[0].rstrip(":") != ws[0].rstrip(":").lower():
        return obj
    if ws[0].lower() == "race" and ws[1:2] == ["condition"]:
        ws = [f"{ws[0]} {ws[1]}", *ws[2:]]  # "race condition in X" is one fault
    after = ws[1].lower() if len(ws) > 1 else ""
    if not (ws[0].endswith(":") or not after or after in words().function
            or re.fullmatch(r"[a-z]{3,}ed", after)):
        return obj
    return ("an " if ws[0][0].lower() in "aeiou" else "a ") + obj


def verb_list(ws: Sequence[str], i: int) -> bool:
    """ "save and load": two base verbs joined by `ws[i]` are one object ("tests for save
    and load support"), never a second action."""
    return ws[i].lower() == "and" and base_verb(ws[i - 1]) == ws[i - 1].lower()
