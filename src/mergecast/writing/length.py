"""Fit a draft to the target length: minutes × words per minute, ±15 %.

A writer builds the richest draft it can; this trims optional sentences, lowest score
first (the section's rank plus the sentence's own weight: a theme's extra details weigh
less than its benefit), until the spoken word count sits near the target.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..config import WritingConfig

TOLERANCE = 0.15


@dataclass
class Line:
    """One sentence of a draft; `optional` sentences may be trimmed."""

    text: str
    spoken: str
    cites: tuple[int, ...] = ()
    optional: bool = False
    weight: int = 0  # added to the section's rank when choosing what to trim first
    origin: str = "template"  # template | llm: who wrote it (Sentence.origin)
    # The line this one leans on, kept before it or this one goes too: a description's
    # sentence told bare after a line about its PR ("The pass fuses …" after "PR 3129
    # adds an async TP pass") is heard as another PR's once that line is trimmed.
    after: Line | None = field(default=None, repr=False, compare=False)

    @property
    def words(self) -> int:
        return len(self.spoken.split())


@dataclass
class Part:
    """A draft section; lower `rank` is trimmed first, `required` parts are never dropped."""

    kind: str
    heading: str
    lines: list[Line] = field(default_factory=list)
    rank: int = 0
    required: bool = False

    @property
    def words(self) -> int:
        return sum(line.words for line in self.lines)


def present(*found: Line | None) -> list[Line]:
    """The lines a slot made that passed their checks (a refused line is None)."""
    return [ln for ln in found if ln is not None]


def target_words(writing: WritingConfig) -> int:
    return round(writing.minutes * writing.words_per_minute)


def bounds(writing: WritingConfig) -> tuple[int, int]:
    """The accepted word range for a full episode."""
    target = target_words(writing)
    return round(target * (1 - TOLERANCE)), round(target * (1 + TOLERANCE))


def total_words(parts: Sequence[Part]) -> int:
    return sum(p.words for p in parts)


def fit(parts: list[Part], writing: WritingConfig) -> list[Part]:
    """Trim `parts` in place toward the target; returns the parts that remain, in order."""
    target = target_words(writing)
    high = target * 1.05  # aim a little under the upper bound, so we stop near the target
    low = target * (1 - TOLERANCE + 0.03)
    total = total_words(parts)
    order = sorted(parts, key=lambda p: p.rank)
    candidates = sorted(
        ((part.rank + line.weight, part.rank, -i, id(line), part, line)
         for part in parts for i, line in enumerate(part.lines) if line.optional),
        key=lambda c: c[:4])
    dropped: list[tuple[Part, Line]] = []
    before = {id(part): list(part.lines) for part in parts}
    for _, _, _, _, part, line in candidates:
        if total <= high:
            break
        if not any(ln is line for ln in part.lines):
            continue  # gone with the line it leans on
        gone = [ln for ln in part.lines if ln.after is line] + [line]
        if total - sum(ln.words for ln in gone) >= low:
            part.lines[:] = [ln for ln in part.lines if not any(ln is g for g in gone)]
            total -= sum(ln.words for ln in gone)
            dropped += [(part, ln) for ln in gone]
    # Trimming in order can overshoot: a long line goes after a short one that, with it
    # gone, would have fitted again. The best of what went comes back while it fits.
    for part, line in reversed(dropped):
        if total + line.words <= high and (
                line.after is None or any(ln is line.after for ln in part.lines)):
            kept = {id(ln) for ln in part.lines} | {id(line)}
            part.lines[:] = [ln for ln in before[id(part)] if id(ln) in kept]
            total += line.words
    if total > target * (1 + TOLERANCE):
        for part in order:
            if not part.required and total > high and total - part.words >= low:
                total -= part.words
                part.lines.clear()
    return [p for p in parts if p.lines]
