"""Statement subjects (analysis/language/statements.py): a commit subject that states what
is now true, or sums work up under a label, is read as such, never bent into a verb and
an object it does not have. Titles are of mergecast's own kind of history (summary
subjects) or general engineering phrasing; none from the held-out pytorch days."""

from __future__ import annotations

import pytest

from mergecast.analysis.headlines import single_headline
from mergecast.analysis.language import parse_actions, parse_title
from mergecast.analysis.language.statements import read_subject


def kinds(title: str) -> list[tuple[str, str]]:
    subject = read_subject(title)
    assert subject is not None
    return [(p.kind, p.text) for p in subject.parts]


@pytest.mark.parametrize(("title", "label", "parts"), [
    ("Skeleton: package layout, data model, config, errors, dates, CLI and pipeline anchors",
     "skeleton", [("item", "package layout, data model, config, errors, dates, CLI and "
                           "pipeline anchors")]),
    # Semicolons part; an order keeps its verb; two words may be a noun phrase.
    ("Cross-day memory: link themes and reverts to earlier episodes; lock tests; "
     "scheduling docs",
     "cross-day memory", [("order", "link themes and reverts to earlier episodes"),
                          ("item", "lock tests"), ("item", "scheduling docs")]),
    # Asides in brackets go; a label's own aside ("first part") too.
    ("Hardening, first part: untrusted text cleaned at the boundary (all of it); "
     "git refs validated",
     "hardening", [("item", "untrusted text cleaned at the boundary"),
                   ("item", "git refs validated")]),
    # "The daily job" is the daily job work, not "the the daily job work".
    ("The daily job: run, backfill and weekly with a lock, cached media, and doctor",
     "daily job", [("item", "run, backfill and weekly with a lock, cached media, and doctor")]),
])
def test_a_label_and_its_parts(title: str, label: str, parts: list[tuple[str, str]]) -> None:
    subject = read_subject(title)
    assert subject is not None and subject.label == label
    assert kinds(title) == parts


@pytest.mark.parametrize(("title", "statement"), [
    # A Makefile target is a name: "make demo" is the subject, "uses" the verb, and a path
    # is said as the file it is.
    ("make demo uses examples/demo.toml (show named mergecast); config paths normalised",
     "make demo uses the demo TOML file"),
    ("A git name written 'Last, First' is said 'First Last' by the voice (the transcript "
     "keeps the name as written): 'Meng, Hengyu' sounded like two people",
     "A git name written Last, First is said First Last by the voice"),
    ("'link', 'connect' and 'attach' are verbs of the add class ('turn to' read a verb as "
     "a thing)", "link, connect and attach are verbs of the add class"),
    ("Real-server script test reads the totals as printed (estimated prompt tokens)",
     "Real-server script test reads the totals as printed"),
    # After a relative clause, the main verb is the second.
    ("a server that fails once is not asked again", "a server that fails once is not asked again"),
    # A statement longer than a breath ends at its first comma after the verb.
    ("titles: a series part number ('1/x', '[2/3]') is stripped, so each part is read as "
     "its action and the series named once", "a series part number is stripped"),
    # A question word opens an object clause: the verb before it is a verb.
    ("effects keep what the title said", "effects keep what the title said"),
    # A particle may stand between the verb and its object.
    ("the exchange kernel writes out its output splits",
     "the exchange kernel writes out its output splits"),
    # A type label ("docs:") says only the kind of work: the statement after it is told.
    ("docs: security.md gains the second pass's classes",
     "the security page gains the second pass's classes"),
    # A word GitHub cut off at the title's end is no word of it.
    ("[loader] the loader should respect the pools selected by WidgetPoolSelec…",
     "the loader should respect the pools selected"),
])
def test_a_statement_is_read_as_one(title: str, statement: str) -> None:
    assert kinds(title)[0] == ("statement", statement)


@pytest.mark.parametrize("title", [
    "Add float8 tests for the loader",  # "tests" after an order's verb is its object
    "Sort imports in voice/captions.py",  # "imports" is a noun after "Sort"
    "Fix FSDP passes compat with BitsetAncestors",
    "Run core tests only if core files are modified",
    "Have agents run perf runs with at least 10 iterations",
    "mxfp8 moe: enable ep=1",  # an area and an order: a PR title
    "float8: enable on ROCm",
    "metal lowbit ops: ci",  # an area and one thing
    "RL: observability spans across trainer/generator/controller",  # no list: a name
    "Relations that are true: credit to the person who did the work",  # a relative clause
    "one scrubber for every secret the process holds",  # a noun phrase with its clause
    "One share helper for the four in-range shares",  # "share" needs a plural subject
    "Clean up the loader",  # a particle after an order's verb

    "Revert pairs come from revert_story alone",  # a revert is read by the revert rules
    "Issue 18 items 5, 7-10: forge links, progress that moves",  # a reference is no label
])
def test_an_ordinary_title_is_no_statement_subject(title: str) -> None:
    assert read_subject(title) is None


@pytest.mark.parametrize(("title", "actions"), [
    ("Skeleton: package layout, data model, config and errors",
     [("", "cover", "package layout, data model, config and errors",
       "as part of the skeleton work")]),
    # The label goes with the items; an order keeps its own verb.
    ("Cross-day memory: link themes to earlier episodes; lock tests; scheduling docs",
     [("add", "link", "themes to earlier episodes", ""),
      ("", "cover", "lock tests", "as part of the cross-day memory work"),
      ("", "cover", "scheduling docs", "as part of the cross-day memory work")]),
    # A statement is reported; the items after it are covered.
    ("make demo uses examples/demo.toml; config paths normalised; lint clean",
     [("", "note", "that make demo uses the demo TOML file", ""),
      ("", "cover", "config paths normalised", ""), ("", "cover", "lint clean", "")]),
    # A file label says where: "in the redact module".
    ("redact.py: one scrubber for every secret, by value; a mask per stretch",
     [("", "cover", "one scrubber for every secret, by value", "in the redact module"),
      ("", "cover", "a mask per stretch", "in the redact module")]),
    # A part whose pronoun has no antecedent in it, or that opens on a conjunction, or an
    # item with an auxiliary (a statement not read as one), is not told.
    ("Schema checker: object and array share one child walk; its own test module; "
     "so the rules read once; cleanup used as a verb is cleaning up",
     [("", "note", "that object and array share one child walk", "")]),
])
def test_a_statement_subjects_actions(title: str,
                                      actions: list[tuple[str, str, str, str]]) -> None:
    assert [(a.verb, a.lemma, a.obj, a.qualifier) for a in parse_actions(title)] == actions


def test_a_summary_is_named_by_its_label_and_a_statement_as_a_title() -> None:
    assert single_headline(
        "Skeleton: package layout, data model, config, errors, dates, CLI and pipeline "
        "anchors") == "skeleton"
    assert single_headline("Hardening: BODY_LIMIT on every path; fields capped") == \
        "hardening"
    assert single_headline("Cross-day memory: link themes to earlier episodes; lock "
                           "tests") == "cross-day memory"
    # A label that names a place, not work ("VLM", "SAM2": the theme's area says it), is
    # no name: the title's own is.
    assert parse_title("VLM: onboarding native resolution, native aspect ratio").obj == \
        "native resolution, native aspect ratio"
    # A statement whose subject opens on a word that reads as a verb is named by its
    # subject ("make demo"), never "making demo uses …".
    assert parse_title("make demo uses examples/demo.toml; lint clean").obj == "make demo"


def test_a_statement_cut_after_its_verb_is_named_by_what_it_is_about() -> None:
    # "PYTHONHASHSEED needs" names nothing; the cut of a long statement keeps its subject.
    assert single_headline("LOADERSEED needs to be in the range of zero to two to the "
                           "thirty-two") == "LOADERSEED"
    assert single_headline("Loader drops the last shard") == "loader drops the last shard"


def test_a_second_order_of_another_kind_is_no_part_of_the_name() -> None:
    # "ShardBox, remove Validation class" named the removal as a thing added.
    assert single_headline("Add ShardBox, remove Validation class") == "ShardBox"
    assert single_headline("Add ShardBox, remove Validation class and old flags") == "ShardBox"
