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


def title_core(title: str, learned: frozenset[str]) -> str:
    """A title without its boilerplate (bracket tags, a learned or separated prefix)."""
    return _split(title, learned)[1]


def near_identical(a: str, b: str, learned: frozenset[str]) -> str | None:
    """The shared core when two titles say the same thing once the boilerplate they share
    is gone, else None. A prefix only one of them has goes when it is learned
    boilerplate; two different prefixes stay (they name different places)."""
    head_a, core_a = _split(a, learned)
    head_b, core_b = _split(b, learned)
    if head_a != head_b and head_a and head_b:
        core_a, core_b = _fold(f"{head_a} {core_a}"), _fold(f"{head_b} {core_b}")
    elif head_a != head_b:
        lone = head_a or head_b
        if not all(part in learned or part.startswith("[") for part in _parts(lone)):
            core_a, core_b = _fold(f"{head_a} {core_a}"), _fold(f"{head_b} {core_b}")
    words_a, words_b = _WORDS.findall(core_a), _WORDS.findall(core_b)
    if min(len(words_a), len(words_b)) < MIN_CORE_WORDS:
        return None
    ratio = difflib.SequenceMatcher(None, words_a, words_b, autojunk=False).ratio()
    return core_a if ratio >= NEAR_IDENTICAL else None


def _parts(head: str) -> list[str]:
    """A prefix split into its tags and the text after them."""
    tags = _TAGS.match(head)
    if not tags:
        return [head]
    rest = head[tags.end():].strip()
    return [tags.group(0).strip()] + ([rest] if rest else [])
