"""The one phrase lookup every realisation shares: wording, variety, grounding, speech.

Wording lives in templates/phrases.toml. Variants are picked by the episode date, so the
same day always reads the same, and a variant whose opening words the episode has already
said twice is passed over, so no opener is heard more than twice (the "On <area>"
roundups aside). Each line is checked against the digest before it is kept and spoken
through the pronunciation normaliser; an acronym the lexicon can expand is spelled out
the first time it is said.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import tomllib
import zlib
from collections import Counter
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

from ..analysis.language import DOUBLED, VOWEL_LETTERS, words
from ..models import Digest
from .factcheck import Facts
from .length import Line, Part
from .normalise import default_lexicon, normalise
from .numbers import number_words

MAX_WORDS = 30
MAX_OPENER = 2  # times one opener (first three words) may be heard in an episode


@functools.cache
def phrases() -> Mapping[str, Any]:
    text = resources.files("mergecast.writing").joinpath("templates/phrases.toml").read_text(
        encoding="utf-8")
    return tomllib.loads(text)


def said(key: str, which: int = 0) -> str:
    """A fixed piece of effect grammar from the phrase file ([effects])."""
    return str(phrases()["effects"][key][which])


# A small count opening a sentence or a title ("2 small fixes"), not a range or a shape
# ("2 to 5 bit", "1 x 128")
_OPENING_COUNT = re.compile(r"^([1-9]) (?!(?:to|and|or|of|by|x|in|on)\b)(?=[A-Za-z])")


def _keyed(group: str, key: str) -> int:
    """Where a phrase list's turn starts: each key its own, so lists do not move together."""
    return zlib.crc32(f"{group}.{key}".encode())


def cap(text: str) -> str:
    """The text with a capital, unless its first word is a name spelled from a small letter
    ("vLLM", "iOS"), which would read as another name. A small count opening it is said in
    words: "Two small fixes", never "2 small fixes"."""
    if m := _OPENING_COUNT.match(text):
        text = number_words(int(m.group(1))) + text[1:]
    first = re.split(r"[\s-]", text, maxsplit=1)[0]  # ("multi-ISA" is capitalised)
    if first[:1].islower() and any(c.isupper() for c in first[1:]):
        return text
    return text[:1].upper() + text[1:]


_WORD = re.compile(r"[\w'’-]+")


def opener(text: str) -> str:
    return " ".join(_WORD.findall(text.lower())[:3])


def _lead(text: str) -> list[str]:
    return _WORD.findall(text.lower())[:2]


@functools.cache
def _acronyms() -> re.Pattern[str]:
    keys = sorted(words().expand, key=len, reverse=True)
    return re.compile(r"(?<![\w.-])(" + "|".join(re.escape(k) for k in keys) + r")(?![\w-])",
                      re.I)


@functools.cache
def _acronym_keys() -> dict[str, str]:
    return {k.upper(): k for k in words().expand}


_INVERTED = re.compile(r"[A-Z][\w'-]+, [A-Z][\w'-]+")  # "Last, First"


class Lookup:
    """Phrases, grounding and spoken form for one episode."""

    def __init__(self, digest: Digest, *, show: str, day: dt.date, lexicon: Mapping[str, str],
                 weekly: bool = False) -> None:
        self.seed = day.toordinal()
        self.weekly = weekly
        self.lexicon = lexicon
        self.facts = Facts.from_digest(digest, day=day, show=show)
        self.openers: Counter[str] = Counter()
        self.last = ""  # the last line made, as written before its acronyms are spelled
        # out: the next one does not open on its two words
        self.made: Line | None = None  # and that line itself
        self.expanded: set[str] = set()
        # A git name written "Meng, Hengyu" is one person; read out with its comma it sounds
        # like two ("Meng, Hengyu and andrewor14 landed …"): the voice says "Hengyu Meng".
        self.inverted = {h: " ".join(reversed(h.split(", "))) for c in digest.changes
                         if _INVERTED.fullmatch(h := c.author.handle)}
        # A name whose words repeat ("Yang Yang") is one person's whole name, never a doubled
        # word to say once
        self.named_twice = {h.lower() for c in digest.changes
                            if DOUBLED.fullmatch(h := c.author.handle)}

    # ------------------------------------------------------------ wording

    def variants(self, group: str, key: str) -> list[str]:
        table = phrases()[group]
        found = table.get(f"weekly_{key}") if self.weekly else None
        found = table[key] if found is None else found
        return [found] if isinstance(found, str) else list(found)

    def say(self, group: str, key: str, salt: int = 0, /, **values: Any) -> str:
        """A phrase for this episode; in weekly mode a `weekly_<key>` variant wins.
        `salt`: which of several items of one kind this is (the second brief theme, the
        second PR's steps), so they are not all worded alike ("Also today, … Also today, …")."""
        return self._said(group, key, salt + _keyed(group, key), values)

    def say_in_turn(self, group: str, key: str, turn: int, /, **values: Any) -> str:
        """`say` for keys whose variants open alike in the same order (the who-and-size
        sentences): the `turn`-th item of the episode takes the next opening whatever its
        key, so two themes in a row do not both open "Behind this one …"."""
        return self._said(group, key, turn, values)

    def _said(self, group: str, key: str, offset: int, values: dict[str, Any]) -> str:
        options = self.variants(group, key)
        start = (self.seed + offset) % len(options)
        said = [_fill(options[(start + i) % len(options)], values) for i in range(len(options))]
        fresh = [t for t in said if self.openers[opener(t)] < MAX_OPENER]
        # "The work comes from … The work follows …": two lines in a row open apart
        apart = [t for t in fresh if _lead(t) != _lead(self.last)]
        return (apart or fresh or said)[0]

    def pick(self, group: str, key: str, salt: int = 0) -> str:
        """A word or phrase from a list (no filling, no opener bookkeeping)."""
        options = self.variants(group, key)
        return options[(self.seed + salt + _keyed(group, key)) % len(options)]

    # ------------------------------------------------------------ lines

    def grounded(self, text: str, cites: Sequence[int] = ()) -> bool:
        return not self.facts.problems(text, cites)

    def fresh(self, text: str) -> bool:
        return self.openers[opener(text)] < MAX_OPENER

    def line(self, text: str, cites: Sequence[int] = (), optional: bool = False,
             roundup: bool = False, expand: bool = True, weight: int = 0,
             origin: str = "template") -> Line | None:
        """A checked line, or None: ungrounded, over-long or a third use of its opener."""
        # a title's word next to ours: "support Support"
        text = DOUBLED.sub(lambda m: m.group(0) if m.group(0).lower() in self.named_twice
                           else m.group(1), text)
        if not text or not self.grounded(text, cites):
            return None
        if len(text.split()) > MAX_WORDS and optional:
            return None
        if not roundup and not self.fresh(text):
            return None
        if not roundup:
            self.openers[opener(text)] += 1
        self.last = text
        if expand:
            said, spelled = self._expand(text)
            if len(said.split()) <= MAX_WORDS:  # else no room here: a later mention spells it
                text = cap(said) if text[:1].isupper() else said
                self.expanded |= spelled
        self.made = Line(text, self.spoken(text), tuple(cites), optional, weight, origin)
        return self.made

    @property
    def cited(self) -> tuple[int, ...]:
        """The PRs the last line made cites."""
        return self.made.cites if self.made is not None else ()

    def spoken(self, text: str) -> str:
        """How a checked line's text is said: names as the lexicon says them."""
        return normalise(self._names_said(text), self.lexicon)

    def _names_said(self, text: str) -> str:
        for written, said in self.inverted.items():
            text = text.replace(written, said)
        return text

    def add(self, part: Part, text: str, cites: Sequence[int] = (), optional: bool = False,
            roundup: bool = False, weight: int = 0, origin: str = "template") -> bool:
        # The intro and the signal name areas and kinds of work; acronyms are spelled out
        # where the work itself is told.
        ln = self.line(text, cites, optional, roundup, weight=weight,
                       expand=part.kind not in ("intro", "signal"), origin=origin)
        if ln is not None:
            part.lines.append(ln)
        return ln is not None

    def _expand(self, text: str) -> tuple[str, set[str]]:
        """The first mention of an acronym the lexicon knows: "FSDP" -> "fully sharded data
        parallel (FSDP)"; later mentions stay short. Returns the text and what it spelled."""
        spelled: set[str] = set()

        def one(m: re.Match[str]) -> str:
            written = m.group(1)
            acronym = _acronym_keys()[written.upper()]
            if written != acronym and sum(c.isupper() for c in written) < 2:
                return written  # "moe", "Ep": a word, or a name's casing, no acronym
            if acronym in self.expanded or acronym in spelled:
                return written  # ("DSv3" after "DSV3" was spelled out: said as written)
            if m.string[m.start() - 1:m.start()] == "+" or m.string[m.end():m.end() + 1] == "+":
                # "FSDP+TP+EP+compile": a combination said by its letters; spelled out, each
                # part's words ran into the next ("… (FSDP)+tensor-parallel (TP)+…")
                return written
            said = words().expand[acronym]
            after = m.string[m.end():].split(" ", 2)
            if said.lower() in text.lower() or (len(after) > 1 and after[1].lower().strip(
                    ",.;:") == said.split()[-1].lower()):
                return written  # "AC checkpointing" is no "activation checkpointing checkpointing"
            spelled.add(acronym)
            return f"{said} ({written})"
        expanded = _acronyms().sub(one, text)
        for acronym in spelled:  # "an FSDP pass" is "a fully sharded … (FSDP) pass"
            said = words().expand[acronym]
            found = re.search(rf"\b([Aa])n? (?={re.escape(said)} \({re.escape(acronym)}\))",
                              expanded, re.I)
            if found:
                expanded = expanded[:found.start()] + _article(found.group(1), said) + \
                    expanded[found.end():]
        return expanded, spelled


def vowel_sound(word: str, spelled: bool = False) -> bool:
    """Whether a word is said opening on a vowel, so it takes "an": by its first letter, or
    by the letter's name when it is `spelled` ("an EP pass"), then by how it sounds ("a
    unit test", "an hour", "a README": [effects] sounds)."""
    low = word.lower()
    # a name the voice says letter by letter ("MoE" is "M O E"): "an MoE router"
    if word in _said_as_letters():
        spelled = True
    vowel = low[:1] in "aeiou" if not spelled else word[:1].upper() in VOWEL_LETTERS
    sounds = phrases()["effects"]
    if any(low.startswith(p) for p in sounds["said_with_consonant"]):
        return False
    if any(low.startswith(p) for p in sounds["said_with_vowel"]):
        return True
    return vowel


@functools.cache
def _said_as_letters() -> frozenset[str]:
    """The names the shipped lexicon has the voice spell out ("MoE" = "M O E")."""
    return frozenset(k for k, v in default_lexicon().items()
                     if re.fullmatch(r"(?:[A-Z] )+[A-Z]", v))


def _article(a: str, word: str) -> str:
    """ "a " or "an " (keeping the capital of `a`) for a spoken word, by its sound."""
    return a + ("n " if vowel_sound(word) else " ")


def _fill(raw: str, values: Mapping[str, Any]) -> str:
    text = raw.format(**values)
    # Handles keep their case even at the start of a sentence: "b7r2n landed …".
    keep = raw.startswith(("{who}", "{author}", "{handles}", "{by}")) and \
        not text.startswith("the ")
    return text if keep else cap(text)
