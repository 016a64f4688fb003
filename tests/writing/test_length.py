from __future__ import annotations

import dataclasses

import pytest
from writing_builders import DAY, LLM, WRITING, pr, rich_digest

from mergecast import models as m
from mergecast.config import WritingConfig
from mergecast.writing import write_script
from mergecast.writing.length import Line, Part, bounds, fit, target_words

AREAS = ["Dynamo", "Inductor", "Distributed", "MPS", "Export", "Quantization"]


def busy_digest() -> m.Digest:
    """The rich digest plus four more PRs in each of six areas."""
    extra, areas = [], []
    for i, name in enumerate(AREAS):
        prs = tuple(192000 + 10 * i + j for j in range(4))
        extra += [pr(n, f"[{name.lower()}] Fix a slow path in {name} pass {j}", f"dev{i}x")
                  for j, n in enumerate(prs)]
        areas.append(m.Area(name, prs, ()))
    d = rich_digest(extra=extra)
    return dataclasses.replace(d, areas=tuple(areas) + d.areas,
                               counts=dataclasses.replace(d.counts, changes=len(d.changes),
                                                          prs=len(d.changes)))


def write(d: m.Digest, minutes: float) -> m.Script:
    return write_script(d, show="Widget", day=DAY, lexicon={}, llm=LLM,
                        writing=dataclasses.replace(WRITING, minutes=minutes))


@pytest.mark.parametrize("minutes", [1.5, 2.0, 2.5])
def test_busy_day_lands_within_fifteen_percent(minutes):
    cfg = dataclasses.replace(WRITING, minutes=minutes)
    low, high = bounds(cfg)
    script = write(busy_digest(), minutes)
    assert low <= script.words <= high, (script.words, low, high)


def test_lower_ranked_sections_are_trimmed_first():
    full = write(busy_digest(), 3.5)
    short = write(busy_digest(), 1.5)
    assert short.words < full.words
    def count(s: m.Script, kind: str) -> int:
        return sum(len(x.sentences) for x in s.sections if x.kind == kind)
    assert count(short, "area") < count(full, "area")
    first_full = [x for x in full.sections if x.kind == "theme"][0]
    first_short = [x for x in short.sections if x.kind == "theme"][0]
    assert first_short.sentences[:2] == first_full.sentences[:2]  # headline and size stay
    assert [x.kind for x in short.sections][-1] == "outro"


def test_target_uses_minutes_and_speaking_rate():
    assert target_words(dataclasses.replace(WRITING, minutes=2.0, words_per_minute=120)) == 240
    assert bounds(WritingConfig()) == (289, 391)  # 2.5 minutes at the voice's 136 words a minute


def test_fit_removes_optional_lines_of_the_lowest_rank_first():
    def line(words: int, optional: bool = True) -> Line:
        return Line("x", " ".join(["w"] * words), optional=optional)
    cfg = dataclasses.replace(WRITING, minutes=1.0, words_per_minute=100)  # 100 words
    parts = [Part("theme", "t", [line(40, False), line(20)], rank=70, required=True),
             Part("area", "a", [line(20, False), line(20), line(20)], rank=20),
             Part("notes", "n", [line(20)], rank=10)]
    kept = fit(parts, cfg)
    assert [p.kind for p in kept] == ["theme", "area"]
    assert [ln.words for ln in kept[0].lines] == [40, 20]
    assert sum(p.words for p in kept) == 100


def test_fit_brings_back_a_trimmed_line_that_fits_once_a_longer_one_went():
    def line(text: str, words: int, weight: int, optional: bool = True) -> Line:
        return Line(text, " ".join(["w"] * words), optional=optional, weight=weight)
    cfg = dataclasses.replace(WRITING, minutes=1.0, words_per_minute=100)  # 100 words
    # 120 words, 105 at most: the size line goes first (10) and is not enough, then the
    # longer detail (20), which leaves room for the size line again.
    parts = [Part("theme", "t", [line("opener", 70, 0, optional=False),
                                 line("size", 10, -15), line("detail", 20, 0)], rank=50,
                  required=True),
             Part("notes", "n", [line("welcome", 20, 0, optional=False)], rank=10)]
    kept = fit(parts, cfg)
    assert [ln.text for ln in kept[0].lines] == ["opener", "size"]
    assert sum(p.words for p in kept) == 100


def test_fit_never_keeps_a_line_without_the_line_it_leans_on():
    # "The pass fuses all-gather plus matmul …" of PR 3129 came back after its lead-in
    # "PR 3129 adds an async TP pass" was trimmed, and was heard as the PR before it's.
    def line(text: str, words: int, weight: int, optional: bool = True) -> Line:
        return Line(text, " ".join(["w"] * words), optional=optional, weight=weight)
    cfg = dataclasses.replace(WRITING, minutes=1.0, words_per_minute=100)  # 100 words
    about = line("PR 12 adds a pass", 20, -40)
    leaning = line("The pass fuses X", 10, -45)
    leaning.after = about
    parts = [Part("theme", "t", [line("opener", 70, 0, optional=False), about, leaning],
                  rank=50, required=True),
             Part("notes", "n", [line("welcome", 20, 0, optional=False)], rank=10)]
    kept = fit(parts, cfg)
    assert [ln.text for ln in kept[0].lines] == ["opener"]
    # … and one that goes takes the lines leaning on it with it
    about, leaning = line("PR 12 adds a pass", 20, -45), line("The pass fuses X", 10, -40)
    leaning.after = about
    parts = [Part("theme", "t", [line("opener", 60, 0, optional=False), about, leaning],
                  rank=50, required=True),
             Part("notes", "n", [line("welcome", 30, 0, optional=False)], rank=10)]
    assert [ln.text for ln in fit(parts, cfg)[0].lines] == ["opener"]
