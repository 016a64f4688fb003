"""The one language module: titles read as names and actions, identifiers said as words.

The analysis stage (theme names) and the writer (effects, explanations, titles) both read
PR text through here, so a title is cleaned, a verb recognised and an identifier spoken
the same way everywhere. The word lists are data: data/language.toml (verb classes,
function words, inflection) and data/lexicon.toml (acronym expansions and casing).

Titles are untrusted: nothing here follows them. Cleaning drops tags, conventional-commit
and vendor prefixes, PR references (a number the briefing says must come from the
digest's structure), links, paths and code punctuation, and says identifiers as words.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..models import Action
from .text import strip_markup


@functools.cache
def _load(name: str) -> Mapping[str, Any]:
    path = resources.files("mergecast.analysis").joinpath(f"data/{name}")
    return tomllib.loads(path.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Words:
    """The word lists, loaded once."""

    function: frozenset[str]
    small: frozenset[str]
    clause: frozenset[str]
    breaks: frozenset[str]
    generic: frozenset[str]
    generic_areas: frozenset[str]
    not_topics: frozenset[str]
    adverbs: frozenset[str]
    finite: frozenset[str]
    name_verbs: frozenset[str]
    verb_class: Mapping[str, str]  # verb -> its class
    merged: frozenset[str]  # verbs told with their class's verb
    say: Mapping[str, str]  # class -> the verb a group of it is told with
    kind: Mapping[str, str]  # class -> kind of work
    nouns: Mapping[str, str]  # "support", "enablement" -> class
    objects: Mapping[str, str]  # an object's first word -> kind of work
    double: frozenset[str]
    third: Mapping[str, str]
    particles: frozenset[str]
    phrasal: frozenset[str]
    kind_names: Mapping[str, str]
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
        clause=frozenset(w["clause"]), breaks=frozenset(w["breaks"]),
        generic=frozenset(w["generic"]), generic_areas=frozenset(w["generic_areas"]),
        not_topics=frozenset(w["not_topics"]), adverbs=frozenset(w["adverbs"]),
        finite=frozenset(w["finite"]),
        name_verbs=frozenset(w["name_verbs"]),
        verb_class={v: cls for cls, spec in verbs.items() for v in spec["words"]},
        merged=frozenset(v for spec in verbs.values() for v in spec["merge"]),
        say={cls: spec["say"] for cls, spec in verbs.items()},
        kind={cls: spec["kind"] for cls, spec in verbs.items()},
        nouns=dict(lang["nouns"]),
        objects={o: kind for kind, objs in lang["objects"].items() for o in objs},
        double=frozenset(inf["double"]), third=dict(inf["third"]),
        particles=frozenset(inf["particles"]), phrasal=frozenset(inf["phrasal"]),
        kind_names=dict(lang["kinds"]), types=dict(lang["types"]), expand=dict(lex["expand"]),
        case=case,
    )


# ------------------------------------------------------------------ patterns (one of each)

URL = re.compile(r"\s*\bhttps?://\S+")
TICKS = re.compile(r"`([^`]*)`")
CALL = re.compile(r"\b([A-Za-z_][\w.]*)\(\)")
EXT = re.compile(
    r"(?<=\w)\.(?:py|pyi|toml|ya?ml|md|rst|txt|json|cfg|ini|sh|cpp|cc|cu|cuh|h|hpp|c|in|"
    r"lock|gz|ipynb|cff|mm|metal|bzl|cmake)\b", re.I)
# An identifier: snake_case, dotted.names, _private; said as words.
IDENT = re.compile(r"(?<![\w.])(?!(?:e\.g|i\.e|a\.k\.a)\b)_*[A-Za-z][A-Za-z0-9]*"
                   r"(?:_+[A-Za-z0-9]+|_*\.+_*[A-Za-z][A-Za-z0-9]*)+_*(?![\w])")
_TAGS = re.compile(r"^\s*(?:\[[^\[\]]{0,40}\]\s*|\([^()]{1,20}\)\s*)+")
# `fix:`, `feat(x)!:`, `RL:`, `components.checkpoint:`, `metal lowbit kernels:`
_PREFIX = re.compile(
    r"^\s*(?:[A-Za-z][\w./-]*(?:\([^()]{0,30}\))?!?|[A-Za-z][\w-]*(?:\s[\w-]+){1,2}):\s+")
# "Qualcomm AI Engine Direct - Fix x": a vendor or area prefix before a dash.
_DASH_PREFIX = re.compile(r"^\s*([A-Za-z][\w.+-]*(?:\s[\w.+-]+){0,4})\s+[-–—]\s+(?=\S)")
_TRAILING_REF = re.compile(r"\s*\(\s*(?:[\w.-]+/[\w.-]+)?#\d+\s*\)\s*$")
_REF = (r"(?:(?:\b(?:PRs?|pull requests?|issues?)\s*)?(?:[\w.-]+/[\w.-]+)?#\d+"
        r"|\b(?:PRs?|pull requests?|issues?)\s+\d+|\b[\w-]+#\d+)"
        r"(?:\s*(?:,|and|&)\s*#?\d+)*")
# A reference at the end of a clause takes its preposition along ("fix feedback from PR 111").
_TRAILING_PR_REF = re.compile(
    r"\s*\b(?:from|in|see|for|of|after|by|via|and|on|per|like|fixes|closes)\s+" + _REF
    + r"(?=\s*(?:$|[,;:.)]))", re.I)
_PR_REF = re.compile(r"\s*" + _REF, re.I)
_PR_WORD = re.compile(r"\b(?:PRs?|pull|issues?)\b", re.I)
_PARENS = re.compile(r"\s*(?:\([^()]*\)|\[[^\[\]]*\]|\{[^{}]*\})")
_PATH = re.compile(r"(?<![\w.])\.?(?:[\w.-]+/)+([\w.-]*\w)")
_WORD_LIST = re.compile(r"(?<![\w./])([a-z][a-z0-9]*(?:/[a-z][a-z0-9]*){1,3})(?![\w./])")
_LONG_NUMBER = re.compile(r"(?<![\w.])\d{5,}(?![\w.])")
_ARROW = re.compile(r"\s*(?:->|=>|→)\s*")
_QUOTES = re.compile(r"[\"“”‘’]|(?<!\w)'|'(?!\w)")
_FLAG = re.compile(r"(?<![\w-])--?([A-Za-z][\w-]*)(?:=\S*)?")
_CODE = re.compile(r"[{}<>|=\\$@#*]|::|->|\(\)|\w\(|\[\w*\]|`|\w\.\.\.?\w")
# No word anyone can say runs past this many letters (identifiers are split first).
LONGEST_WORD = 30
_LONG_WORD = re.compile(rf"[^\s]{{{LONGEST_WORD + 1},}}")
_SYMBOL = re.compile(r"[^\w\s\-.,:;!?'\"()\[\]{}<>/\\|=+*&%$#@~^`]")  # emoji, pictographs
_DOUBLED = re.compile(r"\b(\w+)(?:\s+\1\b)+", re.I)
_TYPE = re.compile(r"^\s*(?:\[[^\]]*\]\s*)*([A-Za-z]+)(?:\([^()]{0,30}\))?!?:\s+")
_DOT_WORD = re.compile(r"(?<![\w.])\.([A-Za-z_]\w*)\b")
_FILE_TYPES = frozenset("py pyi toml yaml yml md rst txt json cfg ini sh cpp cu h hpp ipynb "
                        "metadata".split())
_CLAUSE = re.compile(r"\s*(?:;|\s[-–—]+\s|:\s|,\s(?![\w-]+\s(?:and|or)\s)|\.\s|\s\+\s|\s&\s"
                     r"|\s\|\s|\.\.\.|…)")


# ------------------------------------------------------------------ identifiers


def case_word(word: str) -> str:
    """A word as it is written: "moe" -> "MoE", "cuda" -> "CUDA"; others unchanged."""
    return words().case.get(word.lower(), word) if word.islower() else word


def speak_identifier(token: str) -> str:
    """An identifier as a person says it: "torch._native" -> "torch native",
    "quantized_moe_ffn" -> "quantized MoE FFN", "a.b.c.state_dict" -> "c state dict"."""
    dotted = [p for p in token.strip("._").split(".") if p.strip("_")]
    if len(dotted) > 3:
        dotted = dotted[-2:]
    parts = [p for seg in dotted for p in seg.split("_") if p]
    return " ".join(case_word(p) for p in parts)


def _dot_word(m: re.Match[str]) -> str:
    """".toml" -> "TOML file"; ".to" (a method) -> "the to method"; ".foo" -> "foo"."""
    word = m.group(1).strip("_")
    if word.lower() in _FILE_TYPES:
        return f"{case_word(word.lower())} file"
    return f"the {word} method" if word.lower() in words().function else word


def speakable(text: str) -> str | None:
    """A prose sentence with its identifiers said as words, or None when code is left that
    no person would read out (an assignment, a call with arguments, a flag, braces)."""
    text = TICKS.sub(r"\1", text)
    text = CALL.sub(r"\1", text)
    if _FLAG.search(text) or _CODE.search(text) or re.search(r"\w/\w|/\w+\.\w", text):
        return None
    text = _DOT_WORD.sub(_dot_word, EXT.sub("", text))
    text = IDENT.sub(lambda m: speak_identifier(m.group(0)), text)
    return None if _LONG_WORD.search(text) else text


# ------------------------------------------------------------------ titles


def split_prefix(title: str) -> tuple[str | None, str]:
    """A leading "Vendor Name - " prefix and the rest; (None, title) when there is none."""
    m = _DASH_PREFIX.match(title)
    if not m or base_verb(m.group(1).split()[0]) or len(title[m.end():].split()) < 2:
        return None, title
    return m.group(1), title[m.end():]


@functools.lru_cache(maxsize=50_000)
def clean_title(title: str) -> str:
    """A title without tags, prefixes, PR references, links, paths and code punctuation;
    identifiers said as words."""
    t = " ".join(_SYMBOL.sub(" ", strip_markup(title)).split())
    t = re.sub(r'^(?:Revert|Reland)\s+"(.*)"?$', r"\1", t, flags=re.I)
    t = re.sub(r"^\s*\[?(?:reland|revert)\]?\s*:?\s+", "", t, flags=re.I)
    t = _TRAILING_REF.sub("", t)
    for _ in range(3):  # "[BE] fix(ckpt): [x] ..." has several layers of prefix
        before = t
        t = _TAGS.sub("", t)
        t = _PREFIX.sub("", t)
        t = split_prefix(t)[1]
        if t == before:
            break
    t = URL.sub("", t)
    t = TICKS.sub(r"\1", t)
    t = CALL.sub(r"\1", t)
    if "#" in t or _PR_WORD.search(t):  # the reference patterns are the slow ones
        t = _TRAILING_PR_REF.sub("", t)
        t = _PR_REF.sub("", t)
    t = _ARROW.sub(" to ", t)
    t = _PARENS.sub("", t)
    t = re.sub(r"[()\[\]{}<>]", " ", t)  # whatever brackets are left are unbalanced
    t = _DOT_WORD.sub(_dot_word, EXT.sub("", t))
    t = _FLAG.sub(lambda m: m.group(1).replace("-", " "), t)
    # "trainer/generator/controller" is a list of words; "torchao/csrc/x" is a path.
    t = _WORD_LIST.sub(lambda m: _word_list(m.group(1)), t)
    t = _PATH.sub(lambda m: m.group(1).lstrip("_."), t)
    t = re.sub(r"\b(?:[A-Za-z]\w*::)+(\w+)", r"\1", t)  # torchao::parallel_for -> parallel_for
    t = t.replace("/", " ")  # whatever slashes are left: "flow/", "fbcode//ao"
    t = _LONG_NUMBER.sub("", t)
    t = IDENT.sub(lambda m: speak_identifier(m.group(0)), t)
    t = re.sub(r"(?<=\w)_+(?!\w)|(?<!\w)_+(?=\w)", "", t)  # copy_ -> copy, _models -> models
    t = _LONG_WORD.sub(" ", t)  # an 80-letter "word" is noise, not a name
    t = _QUOTES.sub("", t)
    t = re.sub(r"[*=#@$\\|~^]+", " ", t)
    t = re.sub(r"(?<!\S)[.,;:!?]+(?!\S)", " ", t)  # stray punctuation: "Add .. cache"
    t = _DOUBLED.sub(r"\1", t)  # "add add fp8 kernels"
    return " ".join(t.split()).strip(" .,;:!?-")


def _word_list(text: str) -> str:
    parts = text.split("/")
    if all(p.isalpha() and len(p) > 2 for p in parts):
        return ", ".join(parts[:-1]) + " and " + parts[-1]
    return parts[-1]


def sentence_case(text: str) -> str:
    """Title Case titles ("Unified Path in RL") read as plain words ("unified path in RL")."""
    ws = text.split()
    long = [w for w in ws[1:] if w.isalpha() and len(w) >= 4]
    capital = [w for w in long if w[0].isupper() and w[1:].islower()]
    if len(capital) < 2 or len(capital) * 2 < len(long):
        return text
    return " ".join(w.lower() if w.isalpha() and w[0].isupper() and w[1:].islower() else w
                    for w in ws)


# ------------------------------------------------------------------ verbs


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
    if not m or low.endswith(("ise", "ises")) and len(low) < 7:
        return None  # "raise", "noise", "wise"
    stem = m.group(1)
    return stem + ("y" if stem.endswith("if") else "e")


def has_verb(ws: list[str]) -> bool:
    """Whether words carry a finite verb: an auxiliary, an irregular past, a past or
    third-person form of a verb the lexicon knows, or any -ed past."""
    for w in ws:
        low = w.lower().strip(",.;:")
        if low in words().finite or (len(low) > 4 and low.endswith("ed")):
            return True
        if (v := base_verb(low)) and low != v and not low.endswith("ing"):
            return True
    return False


def verb_class(verb: str) -> str:
    return words().verb_class.get(verb.removeprefix("re-"), "change")


def third_person(verb: str) -> str:
    """"fix" -> "fixes", "apply" -> "applies", "speed up" -> "speeds up"."""
    head, sep, rest = verb.partition(" ")
    w = words()
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
    head, sep, rest = verb.partition(" ")
    if head in words().double:
        ing = head + head[-1] + "ing"
    elif head.endswith("ie"):
        ing = head[:-2] + "ying"
    elif head.endswith("e") and not head.endswith(("ee", "ye", "oe")) and len(head) > 2:
        ing = head[:-1] + "ing"
    else:
        ing = head + "ing"
    return ing + sep + rest


def lower_first(text: str) -> str:
    """"The cache" -> "the cache"; "MPS kernels" and "I/O" stay as they are."""
    first = text.split(" ", 1)[0]
    if len(first) > 1 and first[0].isupper() and first[1:].islower():
        return first.lower() + text[len(first):]
    if len(first) == 1 and first.isupper() and first != "I":
        return first.lower() + text[1:]
    return text


@functools.lru_cache(maxsize=50_000)
def parse_title(title: str) -> Action:
    """A title as an action: "Migrate min and max to Metal (#12)" -> verb class "move",
    verb "migrate", object "min and max", qualifier "to Metal". A title that names a
    thing ("int4 sparse marlin tensor") has no verb; "X support" is the action "support X"."""
    text = sentence_case(clean_title(title)).split("; ")[0].strip()
    ws = text.split()
    if not ws:
        return Action(verb="", lemma="", obj="")
    typed = _TYPE.match(_SYMBOL.sub(" ", strip_markup(title)))
    hint = words().types.get(typed.group(1).lower()) if typed else None
    negated = False
    if ws[0].lower() in ("don't", "dont") or (ws[0].lower() == "do" and ws[1:2] == ["not"]):
        ws = ws[2:] if ws[0].lower() == "do" else ws[1:]
        negated = bool(ws)
    adverb = ""
    if len(ws) > 2 and ws[0].lower() in words().adverbs and base_verb(ws[1]):
        adverb, ws = ws[0].lower(), ws[1:]
    lemma = base_verb(ws[0]) if ws else None
    if lemma is None or len(ws) < 2:
        found = _noun_action(" ".join(ws) or text)
        if found.lemma or hint is None:
            return found
        return Action(verb=hint, lemma=words().say[hint], obj=found.obj)  # "fix: a leak"
    rest = ws[1:]
    w = words()
    if lemma in w.phrasal and rest[0].lower() in w.particles and len(rest) > 1:
        lemma, rest = f"{lemma} {rest[0].lower()}", rest[1:]
    elif lemma in w.phrasal and rest[-1].lower() in w.particles and len(rest) > 1:
        lemma, rest = f"{lemma} {rest[-1].lower()}", rest[:-1]  # "split X off" -> split off X
    cls = verb_class(lemma.split()[0])
    if hint and cls == "change":
        cls = hint  # "docs: update the quick start" is documentation work
    # "Fix X and check Y": the first action names the change; the second is a detail.
    cut = next((i for i in range(1, len(rest) - 1)
                if rest[i].lower() in ("and", "then") and base_verb(rest[i + 1])
                and rest[i + 1].lower() not in words().function), None)
    obj, qualifier = " ".join(rest[:cut]), ""
    if cls in ("move", "rename") or lemma in ("convert", "switch"):
        head, sep, tail = obj.rpartition(" to ")
        if sep and head and tail:
            obj, qualifier = head, "to " + tail
    if lemma == "support" and not obj.lower().startswith("for "):
        obj = "for " + obj
    qualifier = f"{qualifier} {adverb}".strip()
    return Action(verb=cls, lemma=lemma, obj=_object(obj), qualifier=qualifier,
                  negated=negated)


def _object(text: str) -> str:
    """An object keeps its capitals ("Metal kernels" after "Add" is a name), except a
    function word capitalised by a Title Case title ("The cache")."""
    first, _, rest = text.partition(" ")
    if first.lower() in words().function and first[1:].islower():
        return first.lower() + (" " + rest if rest else "")
    return text


def _noun_action(text: str) -> Action:
    ws = text.split()
    nouns = words().nouns
    if len(ws) >= 2 and ws[-1].lower() in nouns:
        cls, obj = nouns[ws[-1].lower()], " ".join(ws[:-1])
        obj = obj[4:] if obj.lower().startswith("for ") and cls == "support" else obj
    elif (i := next((i for i in range(min(3, len(ws) - 2)) if ws[i].lower() in nouns
                     and ws[i + 1].lower() in ("for", "of", "to", "in", "on")), None)) is not None:
        cls, obj = nouns[ws[i].lower()], " ".join(ws[i + 2:])  # "minor fixes to the loader"
    else:
        return Action(verb="", lemma="", obj=lower_first(text))
    lemma = words().say[cls]
    return Action(verb=cls, lemma=lemma, obj=("for " if cls == "support" else "") +
                  _object(obj))


def kind_of(action: Action) -> str:
    """The kind of work an action is: capability, performance, correctness, cleanup or
    infrastructure (tests, CI, docs and builds, whatever the verb); "change" when neither
    the verb nor the object tells, "" for a title without a verb."""
    first = next((w for w in action.obj.lower().split()
                  if w not in ("for", "a", "an", "the", "some", "more", "new")), "")
    found = words().objects.get(first)
    if found and action.verb not in ("fix", "speed") and (
            action.verb or found in ("documentation", "infrastructure")):
        return found
    if action.verb == "document" or (action.verb in ("change", "bump", "fix") and first in (
            "readme", "docs", "docstring", "typo", "typos")):
        return "documentation"
    return words().kind.get(action.verb, "")


def said_verb(action: Action, group: bool = False) -> str:
    """The verb an action is told with; in a group, merged verbs take their class's verb."""
    if group and action.lemma in words().merged:
        return words().say[action.verb]
    return action.lemma


# ------------------------------------------------------------------ names


def title_case(text: str) -> str:
    """Title Case, keeping acronyms, identifiers and small words (except the first)."""
    out = []
    small = words().small
    for i, w in enumerate(text.split()):
        if any(c.isdigit() for c in w) or any(c.isupper() for c in w[1:]):
            out.append(w)
        elif i and w.lower() in small:
            out.append(w.lower())
        else:
            out.append("-".join(p if j and p.lower() in small else p[:1].upper() + p[1:]
                                for j, p in enumerate(w.split("-"))))
    return " ".join(out)


def is_tail_word(word: str) -> bool:
    """A word no name may end on: a function word or a particle ("split X off")."""
    low = word.lower().strip(",;:")
    return low in words().function or low in words().particles


def trim(text: str, limit: int = 6) -> str:
    """Cut to the first clause, then to `limit` words at a natural break; never ends on a
    function word. No ellipsis: a name must read as a complete phrase."""
    first = _CLAUSE.split(text, maxsplit=1)[0].strip()
    if len(first.split()) >= 2 or len(text.split()) <= 1:
        text = first
    ws = text.split()
    if len(ws) > limit:
        low = [x.lower() for x in ws]
        w = words()
        cut = next((i for i in range(2, limit + 1) if low[i] in w.clause), None)
        for group in (w.breaks, {"and", "or"}):  # a cut keeps three words or none is made
            if cut is None:
                cut = next((i for i in range(limit, 2, -1) if low[i] in group), None)
        ws = ws[: cut or limit]
    while len(ws) > 1 and (is_tail_word(ws[-1]) or (
            len(ws) > 2 and ws[-2].lower() in ("and", "or") and base_verb(ws[-1]))):
        ws.pop()
        if ws[-1].lower() in ("and", "or"):
            ws.pop()
    if len(ws) == 1 and is_tail_word(ws[0]):
        return ""  # "for" is no name at all
    return " ".join(ws).strip(" ,;:-")


_LEADS = frozenset("a an the no some all each more less only better other another both "
                   "not".split())


def as_name(phrase: str) -> str:
    """A phrase as a name: no leading "to" or "for" ("to Add" -> "Add"), and not a lone
    verb or generic word ("update", "add" name nothing): "" then."""
    ws = phrase.split()
    while len(ws) > 1 and ws[0].lower() in words().function and ws[0].lower() not in _LEADS:
        ws.pop(0)
    if len(ws) == 1 and (is_tail_word(ws[0]) or ws[0].lower() in words().generic
                         or base_verb(ws[0]) == ws[0].lower()):
        return ""
    return " ".join(ws)


def shorten(text: str, limit: int) -> str:
    """At most `limit` characters, cut at a word boundary and never on a function word.
    A single word longer than the limit is not a name anyone can say: "" comes back."""
    if len(text) <= limit:
        return text
    ws = text[: limit + 1].split()[:-1] if text[limit:limit + 1] != " " else text[:limit].split()
    while ws and is_tail_word(ws[-1]):
        ws.pop()
    return " ".join(ws).rstrip(",;:")


def expand_term(word: str) -> str | None:
    """What an acronym stands for, from the lexicon ("AOT" -> "ahead-of-time")."""
    return words().expand.get(word) or words().expand.get(case_word(word))


_OBJECT_VERBS = frozenset("add introduce implement create expose provide land build write "
                          "integrate".split())


def name_of(action: Action) -> str:
    """An action as a name: "Add float8 training" -> "float8 training"; "Fix NaN in sdpa"
    -> "fixing NaN in sdpa"; "Support X" -> "support for X"; "Do not count X" -> "no longer
    counting X"."""
    obj = " ".join(x for x in (action.obj, action.qualifier) if x)
    if not action.lemma:
        return obj
    if action.negated:
        return f"no longer {gerund(action.lemma)} {obj}"
    if action.lemma == "support":
        return f"support {obj}"
    if action.lemma in _OBJECT_VERBS:
        first, _, rest = obj.partition(" ")
        return rest if first.lower() in ("a", "an", "the", "some") and rest else obj
    return f"{gerund(action.lemma)} {obj}"
