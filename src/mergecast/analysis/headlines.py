"""Headline text: PR titles cleaned into short, speakable noun phrases.

A headline is said aloud ("First theme: float8 training.") and shown as an episode title,
so it must be short, plain and safe to read: no tags, no conventional-commit prefixes, no
PR or issue references (a number the briefing says must come from the digest's structure,
never from title text), no paths, file extensions, code punctuation or unbalanced brackets.
"""

from __future__ import annotations

import functools
import re

from .text import strip_markup

MAX_WORDS = 6  # a headline longer than this is cut at a natural boundary

_TAGS = re.compile(r"^\s*(?:\[[^\[\]]{0,40}\]\s*|\([^()]{1,20}\)\s*)+")
# `fix:`, `feat(x)!:`, `ci:`, `RL:`, `components.checkpoint:`, `metal lowbit kernels:`
_PREFIX = re.compile(
    r"^\s*(?:[A-Za-z][\w./-]*(?:\([^()]{0,30}\))?!?|[A-Za-z][\w-]*(?:\s[\w-]+){1,2}):\s+")
_TRAILING_REF = re.compile(r"\s*\(\s*(?:[\w.-]+/[\w.-]+)?#\d+\s*\)\s*$")
_REF = (r"(?:(?:\b(?:PRs?|pull requests?|issues?)\s*)?(?:[\w.-]+/[\w.-]+)?#\d+"
        r"|\b(?:PRs?|pull requests?|issues?)\s+\d+|\b[\w-]+#\d+)"
        r"(?:\s*(?:,|and|&)\s*#?\d+)*")
# A reference at the end of a clause takes its preposition along ("fix feedback from PR 111");
# one inside a phrase goes alone ("workaround for pytorch#138575 checkpoint loading").
_TRAILING_PR_REF = re.compile(
    r"\s*\b(?:from|in|see|for|of|after|by|via|and|on|per|like|fixes|closes)\s+" + _REF
    + r"(?=\s*(?:$|[,;:.)]))", re.I)
_PR_REF = re.compile(r"\s*" + _REF, re.I)
_PR_WORD = re.compile(r"\b(?:PRs?|pull|issues?)\b", re.I)
_URL = re.compile(r"\s*\bhttps?://\S+")
_TICKS = re.compile(r"`([^`]*)`")
_CALL = re.compile(r"\b([A-Za-z_][\w.]*)\(\)")
_PARENS = re.compile(r"\s*(?:\([^()]*\)|\[[^\[\]]*\]|\{[^{}]*\})")
_EXT = re.compile(
    r"(?<=\w)\.(?:py|pyi|toml|ya?ml|md|rst|txt|json|cfg|ini|sh|cpp|cc|cu|cuh|h|hpp|c|in|"
    r"lock|gz|ipynb|cff)\b",
    re.I,
)
_PATH = re.compile(r"(?<![\w.])\.?(?:[\w.-]+/)+([\w.-]*\w)")
_LONG_NUMBER = re.compile(r"(?<![\w.])\d{5,}(?![\w.])")
_SNAKE = re.compile(r"(?<![\w.])([A-Za-z][A-Za-z0-9]*(?:[_.][A-Za-z0-9]+)*_[A-Za-z0-9]+"
                    r"(?:[_.][A-Za-z0-9]+)*)"
                    r"(?![\w.])")
_WORD_LIST = re.compile(r"(?<![\w./])([a-z][a-z0-9]*(?:/[a-z][a-z0-9]*){1,3})(?![\w./])")
_ARROW = re.compile(r"\s*(?:->|=>|→)\s*")
# Clause breaks; a comma inside a word list ("start, end and step") is not one.
_CLAUSE = re.compile(r"\s*(?:;|\s[-–—]+\s|:\s|,\s(?![\w-]+\s(?:and|or)\s)|\.\s|\s\+\s|\s&\s"
                     r"|\s\|\s|\.\.\.|…)")
_QUOTES = re.compile(r"[\"“”‘’]|(?<!\w)'|'(?!\w)")
_TAIL_WORDS = frozenset(
    """a an the and or of to for in on at by with from via into onto as when while that
    which so if than vs per its their this these those our your is are be being was after
    before over under between without within also only better more""".split()
)
# Where a long phrase is cut: before a clause word (earliest), else before a preposition.
_CLAUSE_WORDS = frozenset("that which who when while so because if unless until where".split())
_BREAK_WORDS = frozenset("with for in on at by from via to as into across using".split())

# Verbs whose object is the noun phrase itself: "Add float8 training" -> "float8 training".
_OBJECT_VERBS = frozenset(
    "add adds added introduce introduces implement implements create creates enable enables "
    "expose exposes provide provides land lands initial basic".split()
)
_VERBS = frozenset(
    """adjust align allow apply avoid bump cache change check clarify clean convert define
    delete deprecate disable document drop ensure expand extend fix fold generate give guard
    handle honor improve inline keep let log lower make mark merge migrate move optimize
    pass port preserve prevent propagate raise record reduce refactor register reland remove
    rename reorder replace respect restore return reuse revert rewrite route run set show
    simplify skip speed split start stop teach tighten track turn unify update upgrade use
    validate wire wrap trace emit lift hoist bind cast fuse shard decompose annotate
    deduplicate specialize unroll vectorize warn build bring clamp cap capture defer delay
    enhance generalize increase decrease limit load save pin unpin print rework replay
    reset resolve retry scale separate shuffle support hook sync swap test tune unblock extract
    unskip""".split()
)
_DOUBLE = frozenset("stop drop wrap skip set let run ship plan pin unpin tag log cap trim "
                    "strip split swap flag map".split())
_IRREGULAR_3RD = {"fixes": "fix", "passes": "pass", "patches": "patch", "switches": "switch",
                  "applies": "apply", "unifies": "unify", "simplifies": "simplify",
                  "does": "do", "goes": "go", "copies": "copy"}


@functools.lru_cache(maxsize=50_000)
def clean_title(title: str) -> str:
    """A title without tags, prefixes, PR references, links, paths and code punctuation."""
    t = " ".join(strip_markup(title).split())
    t = re.sub(r'^(?:Revert|Reland)\s+"(.*)"?$', r"\1", t, flags=re.I)
    t = re.sub(r"^\s*\[?(?:reland|revert)\]?\s*:?\s+", "", t, flags=re.I)
    t = _TRAILING_REF.sub("", t)
    for _ in range(3):  # "[BE] fix(ckpt): [x] ..." has several layers of prefix
        before = t
        t = _TAGS.sub("", t)
        t = _PREFIX.sub("", t)
        if t == before:
            break
    t = _URL.sub("", t)
    t = _TICKS.sub(r"\1", t)
    t = _CALL.sub(r"\1", t)
    if "#" in t or _PR_WORD.search(t):  # the reference patterns are the slow ones
        t = _TRAILING_PR_REF.sub("", t)
        t = _PR_REF.sub("", t)
    t = _ARROW.sub(" to ", t)
    t = _PARENS.sub("", t)
    t = re.sub(r"[()\[\]{}<>]", " ", t)  # whatever brackets are left are unbalanced
    t = _EXT.sub("", t)
    # "trainer/generator/controller" is a list of words; "torchao/csrc/x" is a path.
    t = _WORD_LIST.sub(lambda m: _word_list(m.group(1)), t)
    t = _PATH.sub(lambda m: m.group(1).lstrip("_."), t)
    t = re.sub(r"\b(?:[A-Za-z]\w*::)+(\w+)", r"\1", t)  # torchao::parallel_for -> parallel_for
    t = t.replace("/", " ")  # whatever slashes are left: "flow/", "fbcode//ao"
    t = _LONG_NUMBER.sub("", t)
    t = _SNAKE.sub(lambda m: re.sub(r"[_.]", " ", m.group(1)), t)
    t = re.sub(r"(?<=\w)_+(?!\w)|(?<!\w)_+(?=\w)", "", t)  # copy_ -> copy, _models -> models
    t = _QUOTES.sub("", t)
    t = re.sub(r"[*=#@$\\|~^]+", " ", t)
    return " ".join(t.split()).strip(" .,;:!?-")


def _word_list(text: str) -> str:
    parts = text.split("/")
    if all(p.isalpha() and len(p) > 2 for p in parts):
        return ", ".join(parts[:-1]) + " and " + parts[-1]
    return parts[-1]


def _sentence_case(text: str) -> str:
    """Title Case titles ("Unified Path in RL") read as plain words ("unified path in RL")."""
    words = text.split()
    long = [w for w in words[1:] if w.isalpha() and len(w) >= 4]
    capital = [w for w in long if w[0].isupper() and w[1:].islower()]
    if len(capital) < 2 or len(capital) * 2 < len(long):
        return text
    return " ".join(w.lower() if w.isalpha() and w[0].isupper() and w[1:].islower() else w
                    for w in words)


def _base_verb(word: str) -> str | None:
    low = word.lower()
    if low.startswith("re-") and _base_verb(low[3:]):
        return "re-" + (_base_verb(low[3:]) or "")
    if low in _IRREGULAR_3RD:
        return _IRREGULAR_3RD[low]
    if low in _VERBS or low in _OBJECT_VERBS:
        return low
    for cut in ("s", "es", "ed", "d"):
        stem = low[: -len(cut)] if low.endswith(cut) else ""
        if stem in _VERBS or stem in _OBJECT_VERBS:
            return stem
    if low.endswith("ied") and low[:-3] + "y" in _VERBS:
        return low[:-3] + "y"
    if low.endswith("ing") and low[:-3] in _VERBS | _OBJECT_VERBS:
        return low[:-3]
    return None


def gerund(verb: str) -> str:
    """"make" -> "making", "stop" -> "stopping", "add" -> "adding"."""
    if verb in _DOUBLE:
        return verb + verb[-1] + "ing"
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")):
        return verb[:-1] + "ing"
    return verb + "ing"


def lower_first(text: str) -> str:
    first = text.split(" ", 1)[0]
    if len(first) > 1 and first[0].isupper() and first[1:].islower():
        return first.lower() + text[len(first):]
    if len(first) == 1 and first.isupper() and first != "I":
        return first.lower() + text[1:]
    return text


def noun_phrase(text: str) -> str:
    """A cleaned title as a topic: "Add float8 training" -> "float8 training";
    "Fix NaN in sdpa" -> "fixing NaN in sdpa"; "Support X" -> "support for X"."""
    words = text.split()
    if not words:
        return ""
    verb = _base_verb(words[0])
    rest = words[1:]
    if verb is None or not rest:
        return lower_first(text)
    if verb == "support":
        return "support for " + " ".join(rest) if rest[0].lower() != "for" else \
            "support " + " ".join(rest)
    if verb in _OBJECT_VERBS or words[0].lower() in ("initial", "basic"):
        if words[0].lower() in ("initial", "basic"):
            return lower_first(text)
        if rest[0].lower() in ("a", "an", "the", "some") and len(rest) > 1:
            rest = rest[1:]
        if rest[0].lower() == "support" and len(rest) > 1:
            return " ".join(["support"] + rest[1:])
        return lower_first(" ".join(rest))
    return gerund(verb) + " " + " ".join(rest)


def trim(text: str, limit: int = MAX_WORDS) -> str:
    """Cut to the first clause, then to `limit` words at a natural break; never ends on a
    small word. No ellipsis: the headline must read as a complete phrase."""
    first = _CLAUSE.split(text, maxsplit=1)[0].strip()
    if len(first.split()) >= 2 or len(text.split()) <= 1:
        text = first
    words = text.split()
    if len(words) > limit:
        low = [w.lower() for w in words]
        cut = next((i for i in range(2, limit + 1) if low[i] in _CLAUSE_WORDS), None)
        for group in (_BREAK_WORDS, {"and", "or"}):
            if cut is None:
                cut = next((i for i in range(limit, 1, -1) if low[i] in group), None)
        words = words[: cut or limit]
    while len(words) > 1 and (
        words[-1].lower().strip(",") in _TAIL_WORDS
        or (len(words) > 2 and words[-2].lower() in ("and", "or") and _base_verb(words[-1]))
    ):
        words.pop()
        if words[-1].lower() in ("and", "or"):
            words.pop()
    return " ".join(words).strip(" ,;:-")


def single_headline(title: str) -> str:
    """One change's headline: its cleaned title as a short noun phrase."""
    cleaned = clean_title(title)
    if not cleaned:
        return "assorted changes"
    phrase = trim(noun_phrase(_sentence_case(trim(cleaned, limit=MAX_WORDS + 2))))
    undo = re.match(r'^\s*(?:\[\s*)?(revert|reland)\b', title, re.I)
    if phrase and undo:
        verb = undo.group(1).lower()
        lead = f"a {verb} of" if phrase.split()[0].endswith("ing") else gerund(verb)
        phrase = f"{lead} {trim(phrase, limit=MAX_WORDS - 1)}"
    return phrase or "assorted changes"
