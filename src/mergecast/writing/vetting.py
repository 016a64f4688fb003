"""Vet what a language model wrote before any of it is said.

A model's answer is untrusted text, like a PR body. Each sentence is cleaned of markup
with the same cleaner as every title (controls, escapes, bidi marks, HTML and speech tags;
then markdown), and must pass, in this order:

- the prose check: one plain statement of 4 to 30 words that ends with a full stop and
  stands alone (no opening "It", "This", "They" or other word leaning on an earlier
  sentence: the rule descriptions pass, leaning.leaning), no code, no first person, no
  numbers (mergecast says PR numbers, counts and ranges in its own sentences), no handle
  of the digest (who did what is mergecast's to say), no braces and no echo of the data
  markers;
- the fact check (`Facts.problems`: PR numbers, handles, counts, names);
- the claim check: no security impact, urgency, call to action, comparison or sweeping
  claim that the PR text the model was given does not state (templates/claims.toml);
- the topic check: most of its content words occur in that PR text, so a fluent sentence
  about something else ("the new version of JavaScript…") is not taken.

Every problem is said in words a retry prompt can carry back to the model.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import tomllib
from collections.abc import Collection, Iterable, Sequence
from importlib import resources

from ..analysis.language import base_verb, looks_plural, speakable, words
from ..analysis.text import strip_markup
from ..sources._clean import clean_line  # the cleaner every title from a source passes
from .factcheck import Facts
from .leaning import leaning  # the template writer's rule for descriptions, not a copy

MIN_WORDS, MAX_WORDS = 4, 30
_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(])")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_URL = re.compile(r"\s*\b(?:https?://|www\.)\S+")
_EMPHASIS = re.compile(r"\*\*|__|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])|`"
                       r"|^\s*#{1,6}\s+|^\s*[-*•]\s+")
_NUMBER = re.compile(r"(?<![\w.])#?\d[\d,.]*(?:x|×|%)?(?![\w])")  # 101, #101, 2x, 30%
_BRACES = re.compile(r"[{}]")
# torch.ops.mps, snake_case, call(): read aloud letter by letter, or not at all
_CODE = re.compile(r"\b[A-Za-z]\w*(?:\.[A-Za-z_]\w*)+|\b[A-Za-z]+_\w+|\w\(\)")
_MARKERS = re.compile(r"untrusted|pr-text|<\s*/?\s*pr", re.I)
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]")
_TOKEN = re.compile(r"[A-Za-z0-9][\w-]*")
_STEM = 5  # letters two words must share to count as the same word


@dataclasses.dataclass(frozen=True)
class _Rule:
    said: str  # "security impact"
    patterns: tuple[re.Pattern[str], ...]


@dataclasses.dataclass(frozen=True)
class _Policy:
    rules: tuple[_Rule, ...]
    first_person: re.Pattern[str]
    common: frozenset[str]
    verbs: frozenset[str]  # prose verbs the title lexicon does not list
    determiners: frozenset[str]
    between: frozenset[str]  # words between a subject and its verb
    prepositions: frozenset[str]


def _whole(pattern: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w'’])(?:" + pattern + r")(?![\w'’])", re.I)


@functools.cache
def _policy() -> _Policy:
    text = resources.files("mergecast.writing").joinpath("templates/claims.toml").read_text(
        encoding="utf-8")
    data = tomllib.loads(text)
    rules = tuple(_Rule(c["said"], tuple(_whole(p) for p in c["patterns"]))
                  for c in data["claims"].values())
    prose = data["prose"]
    first = re.compile(r"(?<![\w'’])(?:" + "|".join(re.escape(w) for w in prose["first_person"])
                       + r")(?![\w'’])", re.I)
    return _Policy(rules, first, frozenset(prose["common"].split()), frozenset(prose["verbs"]),
                   frozenset(prose["determiners"]), frozenset(prose["between"]),
                   frozenset(prose["prepositions"]))


def clean(text: str) -> str:
    """Model text as plain words: one line, no controls, tags, links or markdown."""
    text = strip_markup(clean_line(text))
    text = _URL.sub("", _LINK.sub(r"\1", text))
    return " ".join(_EMPHASIS.sub("", text).split())


def split_sentences(text: str) -> list[str]:
    """Sentences; a last one left without its full stop (as small models do) gets one."""
    said = [s.strip() for s in _SPLIT.split(text) if s.strip()]
    if said and said[-1][-1:].isalnum():
        said[-1] += "."
    return said


def unsupported_claims(text: str, source: str) -> list[str]:
    """The claims in `text` that `source` (the PR text a model was given) does not state."""
    found = []
    for rule in _policy().rules:
        for rx in rule.patterns:
            m = rx.search(text)
            if m and not rx.search(source):
                found.append(f'claims {rule.said} ("{m.group(0)}") that the PR text does not '
                             "state")
                break
    return found


def _stem(word: str) -> str:
    return word.lower().replace("’", "'")[:_STEM]


@dataclasses.dataclass(frozen=True)
class Vetter:
    """Vets a model's sentences for one slot: what it was given (`source`), the digest's
    facts and the handles it may not name."""

    facts: Facts
    source: str  # the PR text (titles, descriptions, names) the model was given
    cites: tuple[int, ...] = ()

    @functools.cached_property
    def _stems(self) -> frozenset[str]:
        return frozenset(_stem(w) for w in _WORD.findall(self.source))

    @functools.cached_property
    def _said_words(self) -> frozenset[str]:
        return frozenset(w.lower() for w in _TOKEN.findall(self.source))

    def sentence(self, text: str, *, handles_ok: Collection[str] = (),
                 statement: bool = True) -> list[str]:
        """What is wrong with one cleaned sentence (or title, `statement=False`); [] when
        nothing is."""
        return self.prose(text, handles_ok=handles_ok, statement=statement) or \
            self.grounded(text)

    def grounded(self, text: str) -> list[str]:
        """The fact, claim and topic checks of a sentence already found to be prose."""
        problems = self.facts.problems(text, self.cites)
        problems += unsupported_claims(text, self.source)
        return problems or self.topic(text)

    def prose(self, text: str, *, handles_ok: Collection[str] = (),
              statement: bool = True) -> list[str]:
        ws = text.split()
        quoted = f'"{_short(text)}"'
        if _MARKERS.search(text):
            return [f"{quoted} repeats the data markers; explain the work in your own words"]
        if _BRACES.search(text):
            return [f"{quoted} has braces; write plain words"]
        if m := _NUMBER.search(text):
            return [f'{quoted} has the number "{m.group(0)}"; leave numbers out, the briefing '
                    "adds them"]
        named = [w for w in _TOKEN.findall(text) if w.lower() in self.facts.handles
                 and w.lower() not in handles_ok and w.lower() not in self._said_words]
        if named:
            return [f'{quoted} names "{named[0]}"; leave people\'s names out, the briefing adds '
                    "them"]
        if statement:
            if not MIN_WORDS <= len(ws) <= MAX_WORDS:
                return [f"{quoted} has {len(ws)} words; write one sentence of {MIN_WORDS} to "
                        f"{MAX_WORDS} words"]
            if not (text[:1].isupper() and text.endswith((".", "!"))):
                return [f"{quoted} is not a complete sentence; start with a capital letter and "
                        "end with a full stop"]
            if lean := leaning(text):
                return [f'{quoted} leans on "{lean}", which the listener cannot place; name '
                        "what it is in the same sentence"]
            if not finite_verb(ws):
                return [f"{quoted} has no verb; write a complete sentence"]
        if _CODE.search(text) or speakable(text) is None:
            return [f"{quoted} has code in it; say identifiers as words"]
        if m := _policy().first_person.search(text):
            return [f'{quoted} speaks as the author ("{m.group(0)}"); write in the third person']
        return []

    def topic(self, text: str) -> list[str]:
        """The sentence is about what the model was given: it names at least one thing the
        PR text names, and at most half of its content words (at most two when it is short)
        are foreign to that text. "The new feature was added to a project" names nothing."""
        content = [w for w in _WORD.findall(text) if len(w) >= 4
                   and w.lower() not in words().function and w.lower() not in _policy().common]
        foreign = list(dict.fromkeys(w for w in content if _stem(w) not in self._stems))
        if len(foreign) == len(content):
            return [f'"{_short(text)}" names nothing the PR text names; say what changed, in '
                    "its words"]
        if len(foreign) > max(2, len(content) // 2):
            listed = ", ".join(f'"{w}"' for w in foreign[:3])
            return [f'"{_short(text)}" talks about {listed}, which the PR text does not mention']
        return []


_FORMS = (("", ""), ("ies", "y"), ("ied", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"),
          ("d", ""))


def _verb(word: str) -> str | None:
    """The base form of a verb the title lexicon or the prose list knows, from any of its
    forms: "closes" -> "close", "lets" -> "let"."""
    if verb := base_verb(word):
        return verb
    for cut, add in _FORMS:
        if word.endswith(cut) and (stem := word[: len(word) - len(cut)] + add) in \
                _policy().verbs:
            return stem
    return None


def _after_noun_phrase(before: Sequence[str]) -> bool:
    """`before` ends on a noun phrase a determiner opens: "the change", "every new job"."""
    for n, word in enumerate(reversed(before[-4:])):
        if word in _policy().determiners:
            return n > 0
        if word in words().function or _verb(word):
            return False
    return False


def finite_verb(ws: Sequence[str]) -> bool:
    """Whether a sentence has a finite verb, as a statement needs ("Vulkan shaders for
    windowed reductions." has none):

    - an auxiliary or irregular past ("is", "can", "fell": the language lexicon's list);
    - a verb the title lexicon or the prose list knows, in its -s or -ed form (not after a
      determiner: "the supported list"), or in its base form after a plural subject or a
      word like "now" ("Warm starts skip …", "Jobs that hang now fail …"), or further on
      when a plural came before it ("Kernels from Someone lead the day", not "to build");
    - any word ending in -s or -ed right after a noun phrase a determiner opens ("The
      change closes the gap"), an -s word only when no preposition follows it ("The new
      reductions for …" is a noun phrase).
    """
    p = _policy()
    low = [w.lower().strip(",.;:!?\"'()") for w in ws]
    for i, w in enumerate(low):
        before, after = (low[i - 1] if i else ""), (low[i + 1] if i + 1 < len(low) else "")
        if w in words().finite:
            return True
        if w.endswith("ing"):
            continue
        if verb := _verb(w):
            if w != verb and before not in p.determiners and (i or after not in p.prepositions):
                return True  # not "the supported list", not "Fixes for the build"
            if w == verb and i and (before in p.between or looks_plural(before) or any(
                    map(looks_plural, low[:i - 1])) and before not in p.determiners
                    and before not in p.prepositions):
                return True  # "Kernels from Someone lead the day"
        elif i and _after_noun_phrase(low[:i]) and (
                len(w) > 4 and w.endswith("ed") or looks_plural(w) and after
                and after not in p.prepositions):
            return True
    return False


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shares_word(text: str, others: Iterable[str]) -> bool:
    """`text` has a content word (four letters or more) in common with one of `others`."""
    said = {_stem(w) for w in _WORD.findall(text) if len(w) >= 4}
    return any(_stem(w) in said for o in others for w in _WORD.findall(o) if len(w) >= 4)


def source_text(parts: Iterable[str]) -> str:
    return "\n".join(p for p in parts if p)


def fill(text: str, values: dict[str, str]) -> tuple[str, list[str]]:
    """`text` with each {placeholder} of `values` filled; the placeholders it used that
    `values` does not know, as problems."""
    unknown: list[str] = []

    def one(m: re.Match[str]) -> str:
        key = m.group(1).strip().lower()
        if key in values:
            return values[key]
        unknown.append(m.group(0))
        return m.group(0)

    filled = re.sub(r"\{\s*([A-Za-z_][\w ]{0,20})\s*\}", one, text)
    return filled, [f'the placeholder {u} is not one of {", ".join("{" + k + "}" for k in values)}'
                    for u in unknown[:1]]


__all__: Sequence[str] = ["Vetter", "clean", "fill", "finite_verb", "shares_word", "source_text",
                          "split_sentences", "unsupported_claims"]
