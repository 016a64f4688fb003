"""Title boilerplate a repository repeats, learned from its own history.

Many repositories open titles with a vendor or area prefix ("Qualcomm AI Engine Direct -
", "Arm backend: ", "[MPS]"). Two titles that share such a prefix look alike without being
alike, so titles are compared by their cores. A prefix is boilerplate when at least
MIN_TITLES distinct titles in the pool start with it (the day plus the store's recent
history): bracket tags, the text before a " - " or ": " separator, and leading runs of
three or more words.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

MIN_TITLES = 3  # distinct titles that must share a prefix before it counts as boilerplate
NEAR_IDENTICAL = 0.85  # word-sequence similarity of two cores
MIN_CORE_WORDS = 3  # shorter cores ("Fix typo") are too generic to call anything a duplicate

_TAGS = re.compile(r"^\s*(?:\[[^\[\]]{0,40}\]\s*)+")
_SEPARATED = re.compile(r"^\s*([^:\[\]]{2,60}?)\s*(?::\s+| [-–—] )")
_TRAILING = re.compile(r"\s*\((?:[\w.-]+/[\w.-]+)?#\d+\)\s*$")
_WORDS = re.compile(r"[a-z0-9][a-z0-9_.+-]*[a-z0-9+]|[a-z0-9]")
_GHSTACK_TAG = re.compile(r"\[\s*ghstack-poisoned\s*\]", re.I)
_LEAD_WORDS = 3  # a prefix without a separator is at least this many words


def _fold(text: str) -> str:
    return " ".join(text.lower().split())


def _prefixes(title: str) -> set[str]:
    """Every candidate prefix of one title, folded."""
    title = _GHSTACK_TAG.sub(" ", title)
    found: set[str] = set()
    tags = _TAGS.match(title)
    rest = title[tags.end():] if tags else title
    if tags:
        found.add(_fold(tags.group(0)))
    m = _SEPARATED.match(rest)
    if m:
        found.add(_fold(m.group(1)))
    words = rest.split()
    for n in range(_LEAD_WORDS, min(len(words), 7)):
        found.add(_fold(" ".join(words[:n])))
    return found


def learn_prefixes(titles: Iterable[str]) -> frozenset[str]:
    """Prefixes that at least MIN_TITLES distinct titles share."""
    seen: dict[str, set[str]] = defaultdict(set)
    for title in {_fold(t) for t in titles}:
        for p in _prefixes(title):
            seen[p].add(title)
    return frozenset(p for p, ts in seen.items() if len(ts) >= MIN_TITLES)


def _split(title: str, learned: frozenset[str]) -> tuple[str, str]:
    """(its boilerplate prefix, the rest): bracket tags, then a learned or separated
    prefix, folded."""
    title = _TRAILING.sub("", _GHSTACK_TAG.sub(" ", title))
    head = ""
    tags = _TAGS.match(title)
    if tags:
        head, title = _fold(tags.group(0)), title[tags.end():]
    folded = _fold(title)
    m = _SEPARATED.match(title)
    if m:
        return f"{head} {_fold(m.group(1))}".strip(), _fold(title[m.end():])
    words = folded.split()
    for n in range(min(len(words) - 1, 6), _LEAD_WORDS - 1, -1):
        lead = " ".join(words[:n])
        if lead in learned:
            return f"{head} {lead}".strip(), " ".join(words[n:])
    return head, folded


@dataclass(frozen=True)
class _Core:
    head: str  # the boilerplate prefix, folded ("" when none)
    core: str  # the rest, folded
    words: tuple[str, ...]
    distinct: frozenset[str]


def _core(head: str, core: str) -> _Core:
    words = tuple(_WORDS.findall(core))
    return _Core(head, core, words, frozenset(words))


class Titles:
    """Titles compared by their cores, with the boilerplate a pool of titles teaches."""

    def __init__(self, pool: Iterable[str]) -> None:
        self.learned = learn_prefixes(pool)
        self._cores: dict[str, _Core] = {}
        self._whole: dict[str, _Core] = {}

    def _split(self, title: str) -> _Core:
        found = self._cores.get(title)
        if found is None:
            found = self._cores[title] = _core(*_split(title, self.learned))
        return found

    def _unsplit(self, title: str) -> _Core:
        """The title with its prefix kept (when two titles' prefixes name two places)."""
        found = self._whole.get(title)
        if found is None:
            c = self._split(title)
            found = self._whole[title] = _core("", _fold(f"{c.head} {c.core}"))
        return found

    def near_identical(self, a: str, b: str) -> str | None:
        """The shared core when two titles say the same thing once the boilerplate they
        share is gone, else None. A prefix only one of them has goes when it is learned
        boilerplate; two different prefixes stay (they name different places)."""
        x, y = self._split(a), self._split(b)
        if x.head != y.head and (
            (x.head and y.head)  # two different prefixes: two places
            or not all(part in self.learned or part.startswith("[")
                       for part in _parts(x.head or y.head))
        ):
            x, y = self._unsplit(a), self._unsplit(b)
        total = len(x.words) + len(y.words)
        if min(len(x.words), len(y.words)) < MIN_CORE_WORDS:
            return None
        # the ratio is at most twice the words both share (repeats included) over all words:
        # when even that bound is too low, skip the full match
        repeats = max(len(x.words) - len(x.distinct), len(y.words) - len(y.distinct))
        if 2 * (len(x.distinct & y.distinct) + repeats) < NEAR_IDENTICAL * total:
            return None
        ratio = difflib.SequenceMatcher(None, x.words, y.words, autojunk=False).ratio()
        return x.core if ratio >= NEAR_IDENTICAL else None


def _parts(head: str) -> list[str]:
    """A prefix split into its tags and the text after them."""
    tags = _TAGS.match(head)
    if not tags:
        return [head]
    rest = head[tags.end():].strip()
    return [tags.group(0).strip()] + ([rest] if rest else [])
