"""Parallel titles: a few changes whose titles say one thing of several parts.

"Add autograd support for token dispatch op" and "… for token combine op" differ in one
word each: together they are "autograd support for token dispatch and combine ops", a
name that says what both do, where the words they merely share ("token") say neither.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .language import base_verb, clean_title, plural
from .text import STOPWORDS

MAX_TITLES = 3  # more parts than this are a list, not one thing
MAX_PART = 3  # words each title says of its own
MIN_SHARED = 1  # content words the titles share around their parts
_NUMBER = re.compile(r"[\d.+<>=]+")
_FILE = re.compile(r"\w\.(?:py|cu|cuh|cpp|cc|h|hpp|md|rst|toml|ya?ml|json|sh|txt)\b")
_TOPIC = re.compile(r"^\W*(?:\[[^\]]*\]\s*)*[\w -]{1,30}:\s")


def factored_title(titles: Sequence[str]) -> str | None:
    """The titles as one ("Add 2bit packing routines", "Add 5bit packing routines" ->
    "Add 2bit and 5bit packing routines"), or None when they differ in more than one run of
    at most MAX_PART words each, share fewer than MIN_SHARED content words around it, or
    when what differs opens on a verb (two kinds of work) or is a bare number (versions
    are named by the furthest, in headlines.py)."""
    if not 2 <= len(titles) <= MAX_TITLES or any(_TOPIC.match(t) or _FILE.search(t)
                                                 for t in titles):
        # ("docs update: quantized training": the label is what they share; "Remove
        # marlin_kernel_nm.cu": a file's name is no part of a concept)
        return None
    ws = [clean_title(t).split() for t in titles]
    low = [[w.lower() for w in x] for x in ws]
    shortest = min(len(x) for x in low)
    head = 0
    while head < shortest and len({x[head] for x in low}) == 1:
        head += 1
    tail = 0
    while tail < shortest - head and len({x[-1 - tail] for x in low}) == 1:
        tail += 1
    parts = [x[head:len(x) - tail] for x in ws]
    shared = [w for w in low[0][:head] + low[0][len(low[0]) - tail:] if w not in STOPWORDS]
    said = [" ".join(p) for p in parts]
    if len(shared) < MIN_SHARED or \
            not all(1 <= len(p) <= MAX_PART for p in parts) or \
            len({s.lower() for s in said}) < len(said) or \
            any(_NUMBER.fullmatch(s) for s in said) or \
            head == 0 and any(base_verb(p[0]) for p in parts):
        return None
    joined = f"{', '.join(said[:-1])} and {said[-1]}"  # (two titles at least)
    end = ws[0][len(ws[0]) - tail:]
    if end and not any(w.lower() in STOPWORDS for w in end) and \
            not end[-1].lower().endswith("s") and end[-1][-1:].isalpha():
        end = [*end[:-1], plural(end[-1])]  # the parts name several of what follows
    return " ".join([*ws[0][:head], joined, *end])
