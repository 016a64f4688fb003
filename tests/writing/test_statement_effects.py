"""Statement subjects told as sentences (writing/clauses.py, sections.told): a summary
under a label is covered as part of its label's work, a statement is reported, and
nothing is bent into a verb its subject does not have. Hand-made subjects of the kind
mergecast's own history has; none from the held-out pytorch days."""

from __future__ import annotations

import dataclasses

import pytest

from mergecast.analysis.language import parse_actions
from mergecast.models import Action, Ref
from mergecast.writing.clauses import clauses
from mergecast.writing.sections import told


def commit(title: str, sha: str = "a1") -> tuple[Action, ...]:
    return tuple(dataclasses.replace(a, ref=Ref(pr=None, sha=sha)) for a in parse_actions(title))


@pytest.mark.parametrize(("title", "sentence"), [
    ("Skeleton: package layout, data model, config, errors, dates, CLI and pipeline anchors",
     "covers package layout, data model, config, errors, dates, CLI and pipeline anchors as "
     "part of the skeleton work"),
    ("Cross-day memory: link themes and reverts to earlier episodes; lock tests; "
     "scheduling docs",
     "links themes and reverts to earlier episodes, and covers lock tests and scheduling docs "
     "as part of the cross-day memory work"),
    # Parentheses go, semicolons part, a number stays as written for the fact check.
    ("Hardening: BODY_LIMIT on every analysis path (fact-check vocabulary too) with a test "
     "per path; one-line fields capped at 1,000 characters",
     "covers body limit on every analysis path and one-line fields capped at 1,000 characters "
     "as part of the hardening work"),
    # A statement is reported whole; the path is said as the file it is.
    ("make demo uses examples/demo.toml (show named mergecast); config paths normalised; "
     "lint clean",
     "notes that make demo uses the demo TOML file, and covers config paths normalised and "
     "lint clean"),
    ("A git name written 'Last, First' is said 'First Last' by the voice (the transcript "
     "keeps the name as written): 'Meng, Hengyu and andrewor14' sounded like three people",
     "notes that a git name written Last, First is said First Last by the voice"),
    ("'link', 'connect' and 'attach' are verbs of the add class ('turn to link themes' read "
     "a verb as a thing)", "notes that link, connect and attach are verbs of the add class"),
    # Two statements: "that X and that Y".
    ("An endless answer is refused (test); the fake server's injected claim is the one it "
     "uses", "notes that an endless answer is refused and that the fake server's injected "
     "claim is the one it uses"),
    # A long dash ends a label too; a list written with commas only is said as a list.
    ("Merge h15a: reliability, part one — redaction before cutting, linear globs, broken "
     "clocks", "covers redaction before cutting, linear globs and broken clocks as part of "
     "the reliability work"),
    # A hyphen does not: a vendor prefix is read as a title.
    ("Qualcomm AI Engine Direct - Fix the partitioner for int8 weights",
     "fixes the partitioner for int8 weights"),
    # A label that names work takes no second "work"; with orders only, it is said once.
    ("readme updates: add a table of contents; remove outdated content",
     "adds a table of contents as part of the readme updates and removes the outdated content"),
    ("Review: one article rule for spoken numbers (scope.py); a stale 118 in a comment",
     "covers one article rule for spoken numbers and a stale 118 in a comment as part of the "
     "review"),
    # A file label says where.
    ("benchmarks/run.py: a whole run on a 150-change day, stage by stage",
     "covers a whole run on a 150-change day in the run benchmark"),
])
def test_a_statement_subject_is_told_as_what_it_is(title: str, sentence: str) -> None:
    assert told(commit(title)) == sentence


def test_a_noun_is_never_read_as_a_verb() -> None:
    # "ingest benchmark" ends the list: the commit does not "test" the SQLite store.
    said = told(commit("Foundation: SQLite store, streaming git source, commit message "
                       "parsers, ingest/changes/init commands, ingest benchmark"))
    assert said == ("covers SQLite store, streaming git source, commit message parsers, "
                    "ingest, changes and init commands, ingest benchmark as part of the "
                    "foundation work")
    assert not said.startswith("tests")


def test_several_commits_are_told_by_their_labels_and_one_statement_by_one_of_them() -> None:
    acts = [*commit("Skeleton: package layout, data model, config and errors", "a1"),
            *commit("Analysis: stacks, areas, themes and the digest", "a2"),
            *commit("Voice: piper and text-only backends; chapters", "a3"),
            *commit("make demo uses examples/demo.toml; lint clean", "a4")]
    found = clauses(acts)
    assert [c.third(plural=True) for c in found] == [
        "cover the skeleton, analysis and voice work",
        "include one noting that make demo uses the demo TOML file",
    ]
    # In a gerund slot ("… landed four commits, noting that …") the statement stays whole.
    assert found[1].ing() == "noting that make demo uses the demo TOML file"


def test_a_summarys_cut_item_is_left_out_not_said_half() -> None:
    # The second item would be cut to seven words ("sentences repeating a title word for
    # word"): it is left out, and the items that fit whole are said.
    (clause,) = clauses(commit("Writer: description lists read as steps; sentences "
                               "repeating a title word for word dropped from every theme "
                               "of the day; revert-only themes told as chains"))
    assert clause.third() == ("covers description lists read as steps and revert-only "
                              "themes told as chains as part of the writer work")
