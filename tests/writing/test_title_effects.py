"""Effects told from title shapes a listener heard misread (see
tests/analysis/test_title_readings.py for the readings themselves): golden title ->
effect text. Hand-made titles; none from the held-out pytorch days."""

from __future__ import annotations

import dataclasses

import pytest

from mergecast import models as m
from mergecast.analysis.language import parse_actions
from mergecast.writing.changes import actions
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
    ("back out Add triton as a dep", "backs out adding Triton as a dependency"),
    # An identifier holding "is"/"has" does not stop "rename X to Y" being read.
    ("rename is_train to has_train in TrainerConfig",
     "renames is-train to has-train in TrainerConfig"),
    # The purpose clause is the title's why, kept in one breath.
    ("Mark cache shapes as static to avoid a recompile",
     "marks cache shapes as static to avoid a recompile"),
    # "stop X doing Y" keeps X and Y apart.
    ("[c10d] Make abort configurable; stop heartbeat() killing the trainer",
     "makes abort configurable; stops heartbeat from killing the trainer"),
    ("[BE] Chill logs in loader", "chills logs in loader"),
    # An identifier of a switch is a flag: never "fixes the missing DP enabled"
    ("[ci] fix missing wib_enabled", "fixes a missing wib enabled flag"),
    ("Remove zorb_disabled from the wib path", "removes zorb disabled from the wib path"),
    # "Fail when X" raises an error; never "works on fail when …", nor "PR 12 fails …"
    ("Fail when using a zorb made without a wib",
     "raises an error when using a zorb made without a wib"),
    # Lint named is lint fixed: never "deals with ruff lint"
    ("Zorb lint", "fixes zorb lint"),
    # … and a forward fix is a fix: never "fixing forward fix lint"
    ("Forward fix the wib import", "fixes the wib import"),
    # Work a title names with no verb for it is made, never "deals with cosmetic changes".
    ("Cosmetic changes to the zorb module", "makes cosmetic changes to the zorb module"),
    ("Zorb and wib bucketing improvements for blorp trace",
     "makes zorb and wib bucketing improvements for blorp trace"),
    # A verb's particle ends what was written: never "instead of keeping".
    ("Derive the zorb from the wib instead of keeping it apart",
     "derives the zorb from the wib instead of keeping it apart"),
    # … a noun before it is no verb ("check test back" of "turn X back on")
    ("Turn the zorb check test back on", "turns on the zorb check test"),
    ("Add fn to check if config is valid", "adds a function to check if config is valid"),
    # A "+" joins two things; a dash ends the clause; an order before a colon is the action.
    ("fix bug with float8 + inference_mode", "fixes a bug with float8 and inference mode"),
    ("pass the placements without EP too — TP gradients lose their reduction",
     "passes the placements without EP too"),
    ("Fix red CI: numa + H100 startup breaks", "fixes red CI"),
    ("README typos", "fixes README typos"),
    # A thing moved under its own name says where from and where to, never "moves
    # widgets and loader to loader"; a package's generic folder is no list of two things.
    ("Move widgets/loader.py to core/loader.py", "moves the loader module from widgets to core"),
    ("Move widgetlib/_models into benchmarks/_models",
     "moves models from widgetlib into benchmarks"),
    ("Add widgetlib/experimental CI test", "adds a widgetlib experimental CI test"),
    # A private folder ("widgetlib/_models") is said with its parent: "models" alone is
    # heard as any models.
    ("Delete widgetlib/_models and its orphaned consumers",
     "removes widgetlib models and its orphaned consumers"),
    # "support" at the end of a list is the thing supported, not what a verb adds.
    ("Adding tests for widget save/load support",
     "adds tests for widget save and load support"),
    ("Add widget save and load support for planners",
     "adds widget save and load support for planners"),
    # … but a verb that only ever adds support is one: never "and add support"
    ("Fixed the widget loader and add support", "fixes the widget loader and adds support"),
    # "Never" + a word the lexicon does not know as a verb is still an order not to.
    ("Never open two widget panels in a row alike",
     "stops opening two widget panels in a row alike"),
])
def test_a_misread_title_shape_is_told_as_it_reads(title, effect):
    assert told(title) == effect


def test_a_title_naming_a_thing_its_new_files_bring_is_told_as_adding_it():
    added = m.FileStatus.ADDED
    new = m.Change(repo="acme/widget", title="8-bit Adam", number=7,
                   files=(m.FileChange("widget/optim/adam_8bit.py", 300, 0, added),))
    assert "; ".join(c.third() for c in clauses(list(actions(new)))) == "adds 8-bit Adam"
    about = dataclasses.replace(new, files=(m.FileChange("widget/optim/adam.py", 30, 2),))
    assert "; ".join(c.third() for c in clauses(list(actions(about)))) == "touches on 8-bit Adam"
