"""Effects as clauses: a theme's titles read as actions, grouped by verb and said as one
list per verb ("adds a perf run config and linter to CI"), with the article and the shared
qualifier a speaker would use."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..analysis.language import (
    DOUBLED,
    base_verb,
    case_word,
    closing_result,
    covers,
    gerund,
    is_modifier,
    is_stated,
    one_fault,
    said_verb,
    third_person,
    to_verb,
    told_of_one,
    trim,
    words,
)
from ..models import Action, Ref
from .lists import count_nouns, factor, shared_head, spoken_list
from .numbers import number_words
from .phrases import phrases, said, vowel_sound

# An object's opening count, in digits or words ("2 unit test files", "two unit test files")
_COUNT = re.compile(rf"^(?:\d+|{'|'.join(number_words(n) for n in range(2, 11))})\s+(?=\S)",
                    re.I)
_DESTINATION = re.compile(r"\s(?:to|into)\s+\S+(?:\s+\S+){0,3}$")

LIST_ITEMS = 4  # objects named in one list
_ANCHOR = "add"  # a base verb to read objects after (see Clause._rest)
OBJECT_WORDS = 18  # words all of a list's objects take at most (the first is said whole)
ITEM_WORDS = 7  # words an object is cut to as one item of several
WHOLE_WORDS = 12  # words a whole verb's object ("split X and Y") is said in, else left out


@dataclass(frozen=True)
class Clause:
    """Actions told together: one verb, their objects as a list, a shared qualifier."""

    verb: str  # base form; "" for titles that name a thing
    objects: str
    qualifier: str
    cites: tuple[int, ...]
    negated: bool = False
    stated: bool = False  # reports what a subject states ("notes that make demo uses …")
    adverb: str = ""  # "temporarily": before the verb, whatever its form
    joined: bool = False  # objects of several actions: an "and" between them joins things

    def _verb(self) -> str:
        if self.negated:
            return f"{said('negated')} {gerund(self.verb)}"
        if self.verb == "support":
            return said("support")  # "Support X" is "adds support for X"
        if self.verb:
            return self.verb
        # Picked by the object: same day, same words. Never "touches on on-device checks":
        # a phrase ending on the word the object opens on.
        first = re.split(r"[^\w']+", self.objects.lower(), maxsplit=1)[0]
        bank = [str(p) for p in phrases()["effects"]["nameless"]
                if p.split()[-1].lower() != first] or phrases()["effects"]["nameless"]
        return str(bank[sum(map(ord, self.objects)) % len(bank)])

    def third(self, plural: bool = False) -> str:
        """The clause after a subject: "uses X" (or "use X" after a plural subject)."""
        verb = self._verb()
        if plural and self.stated:  # "the commits include one noting that …": one says it
            verb = f"{said('stated_plural')} {gerund(verb)}"
        if plural:
            return _once(f"{self._adverb()}{verb} {self._rest()}".rstrip())
        rest = self._rest(third_person)
        return _once(f"{self._adverb()}{third_person(verb)} {rest}".rstrip())

    def ing(self) -> str:
        if self.negated:
            return _once(f"{said('negated_name')} {gerund(self.verb)} {self._rest()}".rstrip())
        return _once(f"{self._adverb()}{gerund(self._verb())} {self._rest(gerund)}".rstrip())

    def _adverb(self) -> str:
        return f"{self.adverb} " if self.adverb and not self.negated else ""

    def _rest(self, inflect: Callable[[str], str] | None = None) -> str:
        """Objects and qualifier; with `inflect`, a verb joined inside them is told in the
        clause's form ("enables X and fixes slice", never "… and fix slice")."""
        rest = f"{self.objects} {self.qualifier}".strip()
        if inflect is None or not rest or self.joined:
            return rest
        # told after a stand-in base verb, so the joined verbs' form is compared to one
        return told_of_one(f"{_ANCHOR} {rest}", inflect).partition(" ")[2]


def _once(text: str) -> str:
    """A word typed twice in a title ("float8 float8 training"), or a verb meeting the same
    word opening its object ("tests tests for float8"), is said once."""
    return DOUBLED.sub(r"\1", text)


def clauses(actions: Sequence[Action], overflow: bool = False) -> list[Clause]:
    """Actions grouped by the verb they are told with, in order of first appearance: one
    verb, its objects as a list ("adds X and Y", never "adds X, adds Y"); a qualifier they
    all share is said once, after the list, else each object keeps its own. With
    `overflow`, the objects one breath could not hold are told too, as a second list with
    the same verb after all the others (a stack is told by all its parts)."""
    groups: dict[tuple[str, bool, str, int], list[Action]] = {}
    more: list[Clause] = []
    for i, a in enumerate(actions):
        if a.obj:
            # "refactor so that X does not depend on Y" has no object, only its purpose:
            # no list item ("refactors A and B, as well as so that X …"), a clause alone
            alone = i + 1 if _purpose_only(a.obj) or _complemented(a) else 0
            groups.setdefault((said_verb(a, group=True), a.negated, a.adverb, alone),
                              []).append(a)
    out = []
    for (verb, negated, adverb, _), acts in groups.items():
        if labelled := _labelled(acts):
            out.append(labelled)
            continue
        shared = len({a.qualifier for a in acts}) == 1
        qualifier = acts[0].qualifier if shared else ""
        whole = {id(a) for a in acts if _whole(a)}
        # An opening the objects share is said once: one cut to it would say nothing of
        # its own ("parameter name support" of "parameter name support to the int4
        # transform"), so it keeps as many words after it.
        head = shared_head([a.obj.split() for a in acts]) if len(acts) > 1 else 0
        said_as = {id(a): _object(
            a, WHOLE_WORDS if id(a) in whole else 10 if len(acts) == 1
            else ITEM_WORDS + head * _only_head(a, head), id(a) in whole,
            alone=len(acts) == 1) + ("" if shared or not a.qualifier else f" {a.qualifier}")
            for a in acts}
        # One count said of two changes ("ports 2 unit test files" of two PRs porting two
        # files each) would be half the truth: the object said twice is said uncounted.
        same = [_bare(o) for o in said_as.values()]
        said_as = {k: _COUNT.sub("", o) if same.count(_bare(o)) > 1 else o
                   for k, o in said_as.items()}
        # A summary's items after the first are said whole or not at all: a cut one
        # ("description lists read") would say something the subject did not; so is what
        # a change makes of a thing ("makes the purge thread" of "… to be a daemon thread").
        cut = {said_as[id(a)] for a in acts[1:] if (covers(a) or id(a) in whole)
               and a.obj not in said_as[id(a)]}
        # (one object twice but for its punctuation, "rank 3+" and "rank 3", is said once,
        # where it first comes)
        first: dict[str, str] = {}
        for o in said_as.values():
            if o not in cut:
                first.setdefault(_bare(o), o)
        # (and one cut to the words another opens with, "an FP8 conversion kernel" beside
        # "an FP8 conversion kernel for column major", says nothing of its own)
        todo = [o for o in first.values()
                if not any(_bare(p).startswith(f"{_bare(o)} ") for p in first.values())]
        if any(_TEST_OF.match(o) for o in todo):
            todo = _with_test(todo, {o: {a.ref for a in acts if said_as[id(a)] == o}
                                     for o in todo})
        stated = all(is_stated(a) for a in acts)
        for n, kept in ((n, kept) for part in _apart(todo)
                        for n, kept in enumerate(_breaths(part)[:2 if overflow else 1])):
            cites = tuple(dict.fromkeys(a.ref.pr for a in acts if said_as[id(a)] in kept
                                        and a.ref and a.ref.pr is not None))
            if objects := (_statements(kept) if stated else factor(kept)):  # ("Support the -")
                (more if n else out).append(
                    Clause(verb, objects, qualifier, cites, negated, stated, adverb,
                           joined=len(kept) > 1))
    return out + more


_TEST_OF = re.compile(r"^(a (?:unit )?test(?: function| case)?|(?:unit )?tests|test cases) for "
                      r"(?:the )?(.+)$", re.I)


def _with_test(objects: list[str], refs: Mapping[str, set[Ref | None]]) -> list[str]:
    """A thing and one change's test of it, said as one ("adds precompute scale for FSDP2
    with a test"): "X and a test for X" names the thing twice, in a list of any length.
    Another change's test stays its own item: "PR 5 adds X with a test" would credit PR 5
    with PR 6's test."""
    tested: dict[int, list[str]] = {}  # a thing's place -> its tests
    gone: set[int] = set()  # the tests said with their thing
    for k, o in enumerate(objects):
        m = _TEST_OF.match(o)
        at = next((i for i, p in enumerate(objects) if m and p != o and not _TEST_OF.match(p)
                   and len(refs.get(p, ())) == 1 and refs.get(p) == refs.get(o)
                   and set(_bare(m.group(2)).split()) <= set(_bare(p).split())), None)
        if m and at is not None:
            tested.setdefault(at, []).append(m.group(1).lower())
            gone.add(k)
    # (two tests of one thing are its tests: never "X with a test with a test function")
    return [f"{o} with {t[0] if len(t) == 1 else 'tests'}" if (t := tested.get(i)) else o
            for i, o in enumerate(objects) if i not in gone]


def _only_head(a: Action, head: int) -> bool:
    """Whether an object cut to a list item's length keeps no more than the `head` words
    its list shares."""
    ws = _bare(_object(a, ITEM_WORDS, False)).split()
    return len(ws[1:] if ws[:1] in (["a"], ["an"], ["the"]) else ws) <= head


def _complemented(a: Action) -> bool:
    """Whether an object is whom a verb lets do something ("enables users to extend the
    config"): in a list ("enables FlexAttention, CUDNN attention and users to extend …")
    the users read as one more thing enabled."""
    ws = a.obj.split()
    at = next((i for i, w in enumerate(ws) if w.lower() == "to"), None)
    return a.lemma in words().complement_verbs and at is not None and to_verb(ws, at)


def _apart(objects: list[str]) -> list[list[str]]:
    """Objects in the lists they are told in: "adds the kernel and a usage section to
    README" puts the kernel in README, so objects with a destination of their own are
    told apart from those without, unless a shared opening makes each its own ("bumps
    actions for node 24 and to latest versions")."""
    tails = [o[m.start():] if (m := _AFTER_AND.search(o)) else "" for o in objects]
    if any(t and tails.count(t) == 1 for t in tails[:-1]) or \
            any(closing_result(o) for o in objects[:-1]):  # ("X, enabling Y and Z")
        # "uses custom ops instead of wrap Triton and llama4 shapes": the next object reads
        # as the "instead of"'s; each is told with its own verb (a phrase objects share is
        # said once, after them: "X and Y before scheduling")
        return [[o] for o in objects]
    going = [_destined(o) for o in objects]
    if all(going) or not any(going) or shared_head([o.split() for o in objects]):
        return [objects]
    # in order of their first object: told with "then", the first part comes first
    first = going[0]
    return [[o for o, g in zip(objects, going, strict=True) if g == first],
            [o for o, g in zip(objects, going, strict=True) if g != first]]


# A phrase whose object an "and" after it would extend ("after removing X and Y")
# (… and a purpose: "adds X to avoid Y and Z" has Z avoided too)
_AFTER_AND = re.compile(r"\s(?:instead of|rather than|after|before|except|other than|"
                        r"to avoid|to prevent|in order to|so that)\s\S")


def _destined(obj: str) -> bool:
    """Whether an object ends on where it goes: "usage notes to README", "kernels into the
    MX path"; not a purpose ("a hook to reduce copies")."""
    found = _DESTINATION.search(obj)
    return found is not None and not to_verb(found[0].split(), 0)  # ("into" is never one)


def _purpose_only(obj: str) -> bool:
    """Whether an object is a clause, not a thing: a purpose ("so that X", "to make X") or
    a manner ("how X gets the mesh and Y" would have X get Y too). Not "that": what a
    statement notes ("that X, and that Y") lists, and "that bug" is a thing."""
    ws = obj.lower().split()
    opens = ws[0] in words().subordinators and ws[0] != "that" if ws else False
    return len(ws) > 1 and (opens or ws[:2] == ["in", "order"] or
                            to_verb(ws, 0))


def _breaths(objects: Sequence[str]) -> list[list[str]]:
    """Objects in lists a listener can hold: whole items, LIST_ITEMS at most, in one
    breath of OBJECT_WORDS as factor says them (the first item is said whole whatever its
    length)."""
    out: list[list[str]] = []
    kept: list[str] = []
    for o in objects:
        if kept and (len(kept) == LIST_ITEMS or
                     len(factor([*kept, o]).split()) > OBJECT_WORDS):
            out.append(kept)
            kept = []
        kept.append(o)
    return [*out, kept] if kept else out


def _labelled(acts: Sequence[Action]) -> Clause | None:
    """Summaries under several labels, told by their labels: "cover the skeleton,
    foundation and analysis work" (each label's own list would take a breath of its own)."""
    labels = list(dict.fromkeys(a.label for a in acts if covers(a) and a.label))
    if len(labels) < 2 or not all(covers(a) for a in acts):
        return None
    labels = labels[:LIST_ITEMS]
    cites = tuple(dict.fromkeys(a.ref.pr for a in acts if a.label in labels and a.ref
                                and a.ref.pr is not None))
    return Clause(acts[0].lemma, said("labels").format(labels=spoken_list(labels)), "", cites)


# "from int to size_t": the change's two ends; cut after the first, it tells none.
_FROM_TO = re.compile(r"\bfrom\s+\S+(?:\s+\S+){0,3}?\s+to\s+\S")


def _whole(a: Action) -> bool:
    """Whether an object is said whole or not at all: a whole verb's ("split X and Y"),
    or one that goes from one thing to another ("types from int to size_t")."""
    return a.lemma in words().whole_verbs or _FROM_TO.search(a.obj) is not None


def _object(a: Action, limit: int, whole: bool, alone: bool = False) -> str:
    """An object as said: a reported statement whole ("that make demo uses …": the
    language module keeps it to one breath), a `whole` one (see _whole) whole up to
    `limit` words, any other cut to `limit` words with its article (an object `alone`,
    no item of a list, keeps a closing list a few words over: see trim)."""
    if whole and not is_stated(a) and len(a.obj.split()) <= limit:
        return article(a.obj, a.verb)
    return a.obj if is_stated(a) else \
        article(trim(a.obj, limit, lists=True, why=True, alone=alone), a.verb)


def _statements(said: Sequence[str]) -> str:
    """Reported statements in a row: "that X and that Y" ("that X, and that Y" when one
    has its own "and")."""
    return (", and " if any(" and " in s for s in said) else " and ").join(said)


def article(obj: str, verb: str = "add") -> str:
    """"perf run config" -> "a perf run config": a bare singular count noun (a data list,
    [effects] count_nouns) takes its article after a verb that makes, mends or drops a
    thing ([effects] article_verbs), as a speaker would say it: "the" when fixed, unless it
    is a fault ("fixes the eval script", "fixes a build error", "a wrong path"); any other
    thing already there ([effects] known_adjectives) takes "the": "removes the unused NF4
    prototypes"."""
    if verb == "fix" and (fault := one_fault(obj)) != obj:
        return fault  # "fixes a bug when …"
    ws = obj.split()
    if verb in phrases()["effects"]["named_thing_verbs"] and len(ws) > 1 and \
            base_verb(ws[0]) == ws[0] and ws[0] not in words().nouns and \
            ws[0] not in phrases()["effects"]["feature_verbs"]:
        return "the " + obj  # "removes the apply graph AC", "disables the register … pass"
    if verb not in phrases()["effects"]["article_verbs"] or not ws or \
            ws[0].lower() in _determiners() or (ws[0][:1].isdigit() and len(ws) == 1) or \
            ws[0].islower() and ws[0].endswith("ing") and base_verb(ws[0]) and \
            len(ws) > 1 and ws[1].lower() in _determiners():
        return obj  # a doing and its object: "stops using the old cache", never "an using"
    # (the thing is named before its preposition or relative clause: "kernel that writes")
    cut = next((i for i, w in enumerate(ws) if w.lower() in _PREPOSITIONS
                or w.lower() in ("that", "which", "whose") and i > 0), len(ws))
    known = ws[0] in phrases()["effects"]["known_adjectives"] and cut > 1 and \
        ws[1].lower() not in ("and", "or")
    if cut < 1 or ws[cut - 1].lower() not in count_nouns() or \
            any(w.lower() in ("and", "or") or w.endswith(",") and not is_modifier(ws[i + 1])
                for i, w in enumerate(ws[:cut])):
        return "the " + obj if known else obj  # "removes the unused NF4 prototype"
    # A count noun that was there takes "the" ("skips the failing inference test"; a thing
    # fixed: "fixes the eval script"), unless what is wrong with it names a fault ("a
    # missing field", "fixes a build error").
    if ws[0].lower() not in words().problems and (
            known or verb == "fix" and ws[cut - 1].lower() not in words().faults):
        return "the " + obj
    first = ws[0]
    # Capitals, or lower case letters with no vowel before a digit ("fp8"), are spelled out.
    # A lower-case word with no vowel at all ("lr", "tp") is letters too; a "y" after its
    # first letter is its vowel ("FlyDSL", "sync": "a FlyDSL kernel").
    # So are a name written small that is said in capitals ("xpu" is XPU: "an xpu mode").
    spelled = first[:2].isupper() or case_word(first)[:2].isupper() or \
        bool(re.match(r"[b-df-hj-np-tv-z][b-df-hj-np-tv-xz]*(?:\d|$)", first.lower()))
    return ("an " if vowel_sound(first, spelled) else "a ") + obj


_PREPOSITIONS = frozenset("in on for to from with by of into via at under over across as "
                          "between when without within after before during through against "
                          "per if while unless until".split())


@functools.cache
def _determiners() -> frozenset[str]:
    return frozenset(phrases()["effects"]["determiners"])


def _bare(obj: str) -> str:
    return re.sub(r"[^\w\s]", "", obj.lower())
