"""Effects told from title shapes a listener heard misread (see
tests/analysis/test_title_readings.py for the readings themselves): golden title ->
effect text. Hand-made titles; none from the held-out pytorch days."""

from __future__ import annotations

import pytest

from mergecast.analysis.language import parse_actions
from mergecast.writing.clauses import clauses


def told(title: str) -> str:
    return "; ".join(c.third() for c in clauses(list(parse_actions(title))))


@pytest.mark.parametrize(("title", "effect"), [
    # Two modifiers of one noun take one article ("adding on device" was all that was said).
    ("[Kernels] add on device, vectorized gather indices kernel",
     "adds an on-device and vectorized gather indices kernel"),
    # A method in ticks: never "enables cache to for float8 linear".
    ("Enable `cache.to` for float8 linear", "enables the cache's to method for float8 linear"),
    # "back out X" is a revert of X, told with X's own verb.
    ("back out Add triton as a dep", "backs out adding triton as a dependency"),
    # An identifier holding "is"/"has" does not stop "rename X to Y" being read.
    ("rename is_train to has_train in TrainerConfig",
     "renames is train to has train in TrainerConfig"),
    # The purpose clause is the title's why, kept in one breath.
    ("Mark cache shapes as static to avoid a recompile",
     "marks cache shapes as static to avoid a recompile"),
    # "stop X doing Y" keeps X and Y apart.
    ("[c10d] Make abort configurable; stop heartbeat() killing the trainer",
     "makes abort configurable; stops heartbeat from killing the trainer"),
    ("[BE] Chill logs in loader", "chills logs in loader"),
    ("Add fn to check if config is valid", "adds a function to check if config is valid"),
])
def test_a_misread_title_shape_is_told_as_it_reads(title, effect):
    assert told(title) == effect
