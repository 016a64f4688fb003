"""The words of the language module: the lexicon's lists, verbs and their forms, casing
(how a phrase is cut to a name: trimming.py). Every list is data (../data/language.toml
and ../data/lexicon.toml)."""

from __future__ import annotations

import functools
import re
import tomllib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any


@functools.cache
def _load(name: str) -> Mapping[str, Any]:
    path = resources.files("mergecast.analysis").joinpath(f"data/{name}")
    return tomllib.loads(path.read_text(encoding="utf-8"))


@functools.cache
def table(name: str, key: str) -> dict[str, Any]:
    """One table of a data file, read once."""
    return dict(_load(name)[key])


@dataclass(frozen=True)
class Words:
    """The word lists, loaded once."""

    function: frozenset[str]
    small: frozenset[str]
    unspelled: frozenset[str]  # "std": a short consonant word Title Case keeps a word
    together: frozenset[str]  # "compose": "X and Y compose with Z" makes them compose
    clause: frozenset[str]
    breaks: frozenset[str]
    generic: frozenset[str]
    generic_areas: frozenset[str]
    untitled_areas: frozenset[str]
    test_tools: frozenset[str]  # "test_runner" is the test's tooling, not a test
    adverbs: frozenset[str]
    adverb_forms: dict[str, str]  # "temp disable X": temporarily disables X
    name_modifiers: frozenset[str]  # "an unnecessary .to()": no "the" before the method
    finite: frozenset[str]
    adjectives: frozenset[str]  # participles that open a title as adjectives ("scaled X")
    auxiliaries: frozenset[str]  # "X should have Y": a title that states, not orders
    name_verbs: frozenset[str]
    subordinators: frozenset[str]  # words that open a clause inside a title ("why", "when")
    clause_verbs: frozenset[str]  # verbs whose object is a clause ("ensure X is Y")
    complement_verbs: frozenset[str]  # "allow X to Y": the "to Y" is what is allowed
    whole_verbs: frozenset[str]  # "make X a daemon", "split X and Y": said whole or not at all
    whole_nouns: frozenset[str]  # "X support for Y": the whole phrase is what is added
    modifier_nouns: frozenset[str]  # "X fix for Y": fixes X for Y
    named_nouns: frozenset[str]  # "README typos": fixes README typos, not README
    fix_sizes: dict[str, str]  # "minor fix": fixes a minor issue; "misc" said "various"
    fix_qualifiers: frozenset[str]  # "temporary fix for X" fixes X
    object_openers: frozenset[str]  # "… and evict old ones": a verb before them is one
    plural_object_verbs: frozenset[str]  # "… and fix links": verbs before a bare plural
    sure_verbs: frozenset[str]  # "… and add X": a verb after "and" whatever follows
    op_nouns: frozenset[str]  # "… mul and add kernels": unless an op follows
    for_objects: frozenset[str]  # "Fix for X", "Workaround for X": the verb acts on X
    line_joiners: frozenset[str]  # no line ends on these: the next line goes on with it
    problems: frozenset[str]  # "Wrong token count …" names a problem: it is fixed
    faults: frozenset[str]  # "Fix bug when X": fixing a bug when X
    same_words: Mapping[str, str]  # "bfloat16" -> "bf16": one thing written two ways
    lead_adjectives: dict[str, str]  # "Faster doc mask": speeds up the doc mask
    said_as: dict[str, str]  # "Error if X": raise error if X
    trailing_verbs: frozenset[str]  # "XPU binary build enable": enables the build
    made_nouns: frozenset[str]  # "cosmetic changes to X": work made, "makes …"
    noun_verbs: Mapping[str, str]  # "improvements" -> "improve": said with its own verb
    speed_words: frozenset[str]  # "perf improvements": a noun verb that is a speed-up
    kind_nouns: frozenset[str]  # "function", "kernel": a kind of thing, not which one
    verb_class: Mapping[str, str]  # verb -> its class
    merged: frozenset[str]  # verbs told with their class's verb
    say: Mapping[str, str]  # class -> the verb a group of it is told with
    kind: Mapping[str, str]  # class -> kind of work
    nouns: Mapping[str, str]  # "support", "enablement" -> class
    objects: Mapping[str, str]  # an object's first word -> kind of work
    tooling: frozenset[str]  # objects a fix of which is infrastructure work
    double: frozenset[str]
    third: Mapping[str, str]
    past: Mapping[str, str]  # irregular past -> base: "made" -> "make"
    compounds: Mapping[str, str]  # "cleanup" used as a verb -> "clean up"
    particles: frozenset[str]
    phrasal: frozenset[str]
    kind_names: Mapping[str, str]
    again: str  # the second grab-bag of one place: "more work in Writing"
    types: Mapping[str, str]  # conventional-commit type -> verb class
    expand: Mapping[str, str]  # acronym -> expansion
    case: Mapping[str, str]  # lower-case word -> written form


@functools.cache
def words() -> Words:
    lang, lex = _load("language.toml"), _load("lexicon.toml")
    verbs: Mapping[str, Any] = lang["verbs"]
    w, inf = lang["words"], lang["inflection"]
    case = {a.lower(): a for a in lex["expand"]} | dict(lex["case"])
    return Words(
        function=frozenset(w["function"]), small=frozenset(w["small"]),
        unspelled=frozenset(w["unspelled"]), together=frozenset(w["together"]),
        clause=frozenset(w["clause"]), breaks=frozenset(w["breaks"]),
        generic=frozenset(w["generic"]), generic_areas=frozenset(w["generic_areas"]),
        untitled_areas=frozenset(w["untitled_areas"]), test_tools=frozenset(w["test_tools"]),
        adverbs=frozenset(w["adverbs"]), adverb_forms=dict(w["adverb_forms"]),
        name_modifiers=frozenset(w["name_modifiers"]),
        finite=frozenset(w["finite"]), adjectives=frozenset(w["adjectives"]),
        auxiliaries=frozenset(w["auxiliaries"]),
        name_verbs=frozenset(w["name_verbs"]), subordinators=frozenset(w["subordinators"]),
        clause_verbs=frozenset(w["clause_verbs"]),
        complement_verbs=frozenset(w["complement_verbs"]),
        whole_verbs=frozenset(w["whole_verbs"]),
        whole_nouns=frozenset(lang["noun_titles"]["whole"]),
        modifier_nouns=frozenset(lang["noun_titles"]["modifier"]),
        named_nouns=frozenset(lang["noun_titles"]["named"]),
        fix_sizes={w: lang["noun_titles"]["size_said"].get(w, w)
                   for w in lang["noun_titles"]["sizes"]},
        fix_qualifiers=frozenset(lang["noun_titles"]["qualifiers"]),
        object_openers=frozenset(w["object_openers"]),
        plural_object_verbs=frozenset(w["plural_object_verbs"]),
        sure_verbs=frozenset(w["sure_verbs"]), op_nouns=frozenset(w["op_nouns"]),
        for_objects=frozenset(w["for_objects"]),
        line_joiners=frozenset(w["line_joiners"]),
        problems=frozenset(lang["noun_titles"]["problems"]),
        faults=frozenset(lang["noun_titles"]["faults"]),
        same_words=dict(lang["same_words"]),
        lead_adjectives=dict(lang["noun_titles"]["leads"]),
        said_as=dict(lang["noun_titles"]["said_as"]),
        trailing_verbs=frozenset(lang["noun_titles"]["trailing"]),
        made_nouns=frozenset(lang["noun_titles"]["made"]),
        noun_verbs=dict(lang["noun_titles"]["verbs"]),
        speed_words=frozenset(lang["noun_titles"]["speed"]),
        kind_nouns=frozenset(w["kind_nouns"]),
        verb_class={v: cls for cls, spec in verbs.items() for v in spec["words"]},
        merged=frozenset(v for spec in verbs.values() for v in spec["merge"]),
        say={cls: spec["say"] for cls, spec in verbs.items()},
        kind={cls: spec["kind"] for cls, spec in verbs.items()},
        nouns=dict(lang["nouns"]),
        objects={o: kind for kind, objs in lang["objects"].items() for o in objs},
        tooling=frozenset(w["tooling"]),
        double=frozenset(inf["double"]), third=dict(inf["third"]), past=dict(inf["past"]),
        compounds=dict(inf["compounds"]),
        particles=frozenset(inf["particles"]), phrasal=frozenset(inf["phrasal"]),
        kind_names=dict(lang["kinds"]), again=lang["grab_bags"]["again"],
        types=dict(lang["types"]), expand=dict(lex["expand"]),
        case=case,
    )


def case_word(word: str) -> str:
    """A word as it is written: "moe" -> "MoE", "cuda" -> "CUDA"; others unchanged."""
    return words().case.get(word.lower(), word) if word.islower() else word


# A whole word of a text: not part of a name ("flydsl_utils.py", "torch.flydsl").
_WORD = re.compile(r"(?<![\w./`-])[A-Za-z][A-Za-z0-9]*(?![\w`]|[./-]\w)")


def as_written(name: str, texts: Sequence[str]) -> str:
    """A name's small words as its changes write them: "flydsl MXFP8 quantize" is named
    "FlyDSL MXFP8 quantize" when most of their mentions write "FlyDSL" (a name the lexicon
    does not know); a word they write small, or capitalise only to open a sentence, stays."""
    small = {w for w in name.split(" ") if w.isalnum() and w.islower() and not base_verb(w)}
    if not small:
        return name
    forms: dict[str, Counter[str]] = {}
    for text in texts:
        for m in _WORD.finditer(text):
            if (low := m.group(0).lower()) in small:
                forms.setdefault(low, Counter())[m.group(0)] += 1

    def written(word: str) -> str:
        if not (seen := forms.get(word)):
            return word
        form, count = seen.most_common(1)[0]
        inner = any(ch.isupper() for ch in form[1:])
        return form if inner and count >= 2 and 3 * count >= 2 * sum(seen.values()) else word
    return " ".join(written(w) if w in small else w for w in name.split(" "))


def base_verb(word: str) -> str | None:
    """The base form of a verb the lexicon knows: "Fixes" -> "fix", "added" -> "add"."""
    low = word.lower()
    if low.startswith("re-") and (inner := base_verb(low[3:])):
        return "re-" + inner
    known = words().verb_class
    if low in known:
        return low
    for form, base in words().third.items():
        if low == base and form in known:
            return form
    if (irregular := words().past.get(low)) and irregular in known:
        return irregular  # "made some stylistic changes" makes them
    for cut, add in (("ies", "y"), ("ied", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"),
                     ("d", ""), ("ing", ""), ("ing", "e")):
        if low.endswith(cut) and (stem := low[: -len(cut)] + add) in known:
            return stem
    if low.endswith(("ed", "ing")):  # stopped -> stop, stopping -> stop
        stem = low[:-2] if low.endswith("ed") else low[:-3]
        if len(stem) > 2 and stem[-1] == stem[-2] and stem[:-1] in known:
            return stem[:-1]
    if low.startswith("re") and len(low) > 5 and (inner := base_verb(low[2:])):
        return "re" + inner  # redefine, rewire, reshard
    return _suffix_verb(low)


_VERB_SUFFIX = re.compile(r"^([a-z]{3,}(?:iz|is|if))(?:e|es|ed|ing|y|ies|ied|ying)$")


def _suffix_verb(low: str) -> str | None:
    """Verbs the lexicon does not list but their ending gives away: "concretize",
    "materialized", "simplifying" (-ize, -ise, -ify)."""
    m = _VERB_SUFFIX.match(low)
    if not m or low.endswith(("ise", "ises")) and len(low) < 7 or low.endswith("wise"):
        return None  # "raise", "noise", "wise"; "rowwise" and "tensorwise" say how
    stem = m.group(1)
    return stem + ("y" if stem.endswith("if") else "e")


# Letters whose names open on a vowel: a name spelled out from one takes "an" ("an F S D P
# wrapper", "an HTTP endpoint").
VOWEL_LETTERS = "AEFHILMNORSX"


_DETERMINERS = frozenset("the a an this that these those its their his her our your each every "
                         "no some any all".split())


# Forms of "be" that carry no tense alone: "for the time being", "to be used" is no verb.
_NON_FINITE = frozenset({"be", "been", "being"})


def is_finite(word: str) -> bool:
    """Whether a word is a finite verb the data lists: an auxiliary or an irregular past."""
    low = word.lower().strip(",.;:")
    return low in words().finite and low not in _NON_FINITE


def looks_plural(word: str) -> bool:
    """"jobs", "experiments": a word that reads as a plural noun (or a third-person verb)."""
    return len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "'s")) \
        and word.lower() not in words().function


_BEFORE_ADJECTIVE = frozenset("with without for of from into via".split())


def _listed(ws: list[str], i: int) -> bool:
    """Whether word i is an item of a comma list of things ("bug reports, feature requests,
    and …"): it ends on a comma or comes before "and"/"or", with a comma near it."""
    w = ws[i]
    return (w.endswith(",") or i + 1 < len(ws) and ws[i + 1].lower() in ("and", "or")) and \
        any(x.endswith(",") for x in [*ws[max(0, i - 3):i], *ws[i + 1:i + 4]])


def has_verb(ws: list[str]) -> bool:
    """Whether words carry a finite verb: an auxiliary, an irregular past, a past or
    third-person form of a verb the lexicon knows, or any -ed past."""
    for i, w in enumerate(ws):
        low = w.lower().strip(",.;:")
        if is_finite(low):
            return True
        after = ws[i - 1].lower() if i else ""
        if low.endswith("ed") and (after in _DETERMINERS or after in _BEFORE_ADJECTIVE or
                                   i > 1 and ws[i - 2].lower() == "to" and
                                   base_verb(after) == after):
            continue  # "the supported list", "with structured fields", "to apply mixed
            # precision": an adjective
        if low.endswith("ed") and i + 1 < len(ws) and ws[i + 1].lower() == "by" and \
                not w.endswith(","):
            continue  # "Breakage reported by a customer": a participle, the verb is to come
        if len(low) > 4 and low.endswith("ed"):
            return True  # "it failed"
        v = base_verb(low)
        if v and low != v:
            if after in _BEFORE_ADJECTIVE or after.endswith("ing") and i > 1 and \
                    ws[i - 2].lower() in _BEFORE_ADJECTIVE | {"by"}:
                continue  # "for tests", "for skipping tests": a preposition's object, a noun
            if not low.endswith("ing") and not _listed(ws, i):
                return True
        if v and low == v and after.endswith("s") and after not in _DETERMINERS:
            return True  # "Logs keep …": a plural subject and its verb
    return False


def is_phrasal(verb: str, particle: str) -> bool:
    """Whether `particle` stays with `verb` ("speed up X", "fix up X", "work around X")."""
    w = words()
    low = particle.lower()
    return verb in w.phrasal and low in w.particles or f"{verb} {low}" in w.phrasal


def verb_class(verb: str) -> str:
    return words().verb_class.get(verb.removeprefix("re-"), "change")


def third_person(verb: str) -> str:
    """"fix" -> "fixes", "apply" -> "applies", "speed up" -> "speeds up"; "fix and re-enable"
    -> "fixes and re-enables"."""
    if " and " in verb:
        return " and ".join(third_person(v) for v in verb.split(" and "))
    w = words()
    head, sep, rest = w.compounds.get(verb, verb).partition(" ")
    if head.startswith("re-") and len(head) > 3:
        return "re-" + third_person(head[3:] + sep + rest)  # "re-do" -> "re-does"
    if head in w.third:
        said = w.third[head]
    elif head.endswith(("s", "sh", "ch", "x", "z", "o")):
        said = head + "es"
    elif head.endswith("y") and head[-2:-1] not in "aeiou":
        said = head[:-1] + "ies"
    else:
        said = head + "s"
    return said + sep + rest


def gerund(verb: str) -> str:
    """"make" -> "making", "stop" -> "stopping", "speed up" -> "speeding up"."""
    if " and " in verb:
        return " and ".join(gerund(v) for v in verb.split(" and "))
    head, sep, rest = words().compounds.get(verb, verb).partition(" ")
    if "-" in head.strip("-"):  # "re-run" -> "re-running", "pre-split" -> "pre-splitting"
        lead, _, last = head.rpartition("-")
        return f"{lead}-{gerund(last + sep + rest)}"
    if head in words().double:
        ing = head + head[-1] + "ing"
    elif head.endswith("ie"):
        ing = head[:-2] + "ying"
    elif head.endswith("e") and not head.endswith(("ee", "ye", "oe")) and len(head) > 2:
        ing = head[:-1] + "ing"
    else:
        ing = head + "ing"
    return ing + sep + rest


def singular(word: str) -> str:
    """"indices" ~ "index", "entries" ~ "entry", "caches" ~ "cache": close enough to match
    a theme's words with a description's, or titles writing one noun both ways."""
    for tail, said in (("ices", "ex"), ("ies", "y"), ("sses", "ss"), ("ches", "ch"),
                       ("shes", "sh"), ("xes", "x")):
        if word.endswith(tail) and len(word) > len(tail) + 2:
            return word[: -len(tail)] + said
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def plural(text: str) -> str:
    """"function" -> "functions", "pass" -> "passes": a count noun's plural."""
    return text + ("es" if re.search(r"(?:s|x|z|ch|sh)$", text) else "s")


def lower_first(text: str, sentence: bool = False) -> str:
    """"The cache" -> "the cache"; "MPS kernels" and "I/O" stay as they are, and so does a
    name the text writes with its capital later on ("Hadamard on V … full Hadamard"). In a
    `sentence` (a description's, never Title Case) so does a name of two capitalised words
    ("Muse Glimmer supports …")."""
    first, _, rest = text.partition(" ")
    second = rest.split(" ", 1)[0]
    # "Muse Glimmer supports …": a name of two capitalised words stays whole
    named = sentence and second.istitle() and second.isalpha() and \
        not first.lower().endswith("ly")
    if len(first) > 1 and first[0].isupper() and first[1:].islower() and \
            case_word(first.lower()) != first and (first.lower() in words().function or not (
                named or re.search(rf"\s{re.escape(first)}\b", text[len(first):]))):
        return first.lower() + text[len(first):]
    if first == "A":  # the article; any other capital letter is a name ("M G kernel")
        return first.lower() + text[1:]
    return text


# (its adjective ends the title or comes before a preposition: "more GaLore bits" is a noun's)
_DEGREE = re.compile(r"\b((?:more|less|most|least|very|too)\s+)([A-Z][a-z]{2,})"
                     r"(?=\s*$|\s+(?:for|than|to|in|on|with|and|or|across)\b)")


def sentence_case(text: str) -> str:
    """Title Case titles ("Unified Path in RL") read as plain words ("unified path in RL")."""
    ws = text.split()
    # (a hyphenated word is Title Case in each part: "Always Pre-Split Microbatches")
    long = [w for w in ws[1:] if _worded(w) and (len(w) >= 4 or len(w) == 3 and w.istitle())]
    capital = [w for w in long if _capitalised(w)]
    if len(capital) < 2 or len(capital) * 2 < len(long):
        # "more General": a degree word's adjective is no name, whatever its capital
        return _DEGREE.sub(lambda m: m.group(1) + m.group(2).lower(), text)
    return " ".join(w.lower() if _worded(w) and _capitalised(w) else w for w in ws)


def _worded(w: str) -> bool:
    return all(p.isalpha() for p in w.split("-"))


def _capitalised(w: str) -> bool:
    return all(p[0].isupper() and p[1:].islower() for p in w.split("-"))


def phrasal_end(ws: Sequence[str]) -> bool:
    """Whether a phrase ends on a verb's particle ("instead of keeping it apart", "so it
    stays apart"): the end of what was written, not a word waiting for its noun. A
    particle that is a preposition too ("in", "on") may be one ("float8 cache in")."""
    low = ws[-1].lower() if ws else ""
    if len(ws) < 2 or low not in words().particles or low in words().function:
        return False
    # (an inflected verb only: "check test back" of "turn … check test back on" is a noun)
    verb = ws[-3] if len(ws) > 2 and ws[-2].lower() in ("it", "them") else ws[-2]
    low = verb.lower()
    return low.endswith(("ing", "ed")) and base_verb(low) is not None or (
        low.endswith("s") and base_verb(low[:-1]) == low[:-1])
