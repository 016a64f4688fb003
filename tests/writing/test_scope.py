"""A theme's scope in words: files in, one sentence out, every count traced by the fact
check; nothing said when the files are unknown."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from writing_builders import DAY, LLM, WINDOW, WRITING, pr

from mergecast import models as m
from mergecast.writing import write_script
from mergecast.writing.factcheck import Facts, fact_check
from mergecast.writing.phrases import Lookup
from mergecast.writing.plan import make_plan
from mergecast.writing.scope import said_lines, scope

Files = tuple[tuple[str, int | None, int | None], ...] | None


def digest(*prs: tuple[int, str, Files], stack: bool = False,
           themed: int | None = None) -> m.Digest:
    """One theme of `prs` (number, title, files; the first `themed` of them), each by ada."""
    changes = tuple(
        dataclasses.replace(pr(n, title, "ada"), files=None if files is None else tuple(
            m.FileChange(*f) for f in files)) for n, title, files in prs)
    numbers = tuple(c.number for c in changes if c.number is not None)[:themed]
    s = m.Stack("ghstack", ("ada",), len(numbers), numbers, numbers) if stack else None
    theme = m.Theme(1, "loss comparison script", "stack" if stack else "single", ("ada",),
                    ("Scripts",), numbers, (), s, 5.0, ("only change",))
    return m.Digest(window=WINDOW, counts=m.Counts(len(changes), len(changes), 0, 1),
                    themes=(theme,), duplicates=(), reverts=(), relands=(),
                    areas=(m.Area("Scripts", numbers, ()),), first_time_contributors=(),
                    changes=changes)


def said(d: m.Digest, day=DAY) -> list[str]:
    x = Lookup(d, show="Widget", day=day, lexicon={})
    plan = make_plan(d, show="Widget", day=day, max_themes=3)
    return [ln.text for ln in scope(x, plan.themes[0])]


@pytest.mark.parametrize(("status", "place"), [
    (m.FileStatus.UNKNOWN, "the loss compare script"),  # a file list alone: never "new"
    (m.FileStatus.MODIFIED, "the loss compare script"),
    (m.FileStatus.ADDED, "a new loss compare script"),  # its source said it was added
])
def test_one_script_and_its_ci_job(status, place):
    d = digest((7, "Add a loss comparison script", (("scripts/loss_compare.py", 890, 0, status),
                                                    (".github/workflows/loss.yaml", 40, 0))))
    assert said(d) == [f"Of 930 added lines, most are in {place}, with CI "
                       "configuration alongside."]
    assert said(d, DAY.replace(day=13)) == [
        f"The change adds 930 lines, most of them in {place}, plus CI configuration."]


def test_a_four_line_fix_in_the_integration_runner():
    d = digest((8, "Fix the runner's exit code", (("scripts/run_integration.py", 3, 1),)))
    assert said(d) == ["A small fix: four lines in the run integration script."]
    assert said(d, DAY.replace(day=13)) == [
        "The change is a four-line fix in the run integration script."]


def test_documentation_only_in_the_float8_guide():
    d = digest((9, "Explain float8 recipes", (("docs/float8.md", 40, 12),)))
    assert said(d) == ["The change is documentation only, in the float8 docs."]


def test_two_linked_prs_are_told_together():
    d = digest((10, "Add a loss comparison script", (("scripts/loss_compare.py", 890, 0),)),
               (11, "Let the loss script check the repo", (("scripts/loss_compare.py", 35, 0),)))
    assert said(d) == ["Everything is in the loss compare script: about 930 added lines."]
    assert said(d, DAY.replace(day=13)) == [
        "Together, the PRs add about 930 lines, all in the loss compare script."]


@pytest.mark.parametrize("files", [
    (("scripts/loss_compare.py", 9, 4),),  # one file
    (("scripts/loss_compare.py", 40, 4), ("scripts/README.md", 3, 0)),  # most in one
])
def test_no_scope_sentence_opens_on_a_count(files):
    d = digest((12, "Let the loss script check the repo", files))
    heard = {s for day in range(1, 29) for s in said(d, DAY.replace(day=day))}
    assert len(heard) > 1 and not [s for s in heard if s[0].isdigit()], heard


def test_mostly_removal_says_both_sides():
    # Files of unknown status: the removed file is not said to go (see the status tests).
    d = digest((12, "Replace the generator router", (
        ("torchtitan/experiments/rl/generator_router.py", 0, 350),
        ("torchtitan/experiments/rl/routing.py", 20, 0))), stack=True)
    assert said(d) == ["More goes than comes here: 350 lines out, 20 in, most of them from "
                       "the generator router module."]


def test_mostly_removal_with_a_rounded_count_in_says_both_sides():
    # 156 lines in are said "about 160", as the 17,619 out are "about 18,000": the fact
    # check traces both (it once traced only the first and dropped the sentence)
    d = digest((14, "Delete the widget models", (
        ("widgets/models/big.py", 0, 17_619), ("widgets/models/stub.py", 156, 0))))
    assert said(d) == ["More goes than comes here: about 18,000 lines out, about 160 in, "
                       "most of them from the big module."]


def test_unknown_files_say_nothing_and_the_script_has_no_scope():
    d = digest((13, "Add a loss comparison script", None))
    assert said(d) == []
    script = write_script(d, show="Widget", day=DAY, writing=WRITING, lexicon={}, llm=LLM)
    assert not any(re.search(r"\blines?\b|\bfiles\b", s.text)
                   for sec in script.sections for s in sec.sentences)


def test_no_scope_in_a_weekly_recap():
    d = digest((7, "Add a loss comparison script", (("scripts/loss_compare.py", 890, 0),)))
    x = Lookup(d, show="Widget", day=DAY, lexicon={}, weekly=True)
    plan = make_plan(d, show="Widget", day=DAY, max_themes=3, weekly="2026-W11")
    assert scope(x, plan.themes[0]) == []


@pytest.mark.parametrize(("n", "text"), [(4, "four"), (35, "35"), (292, "about 290"),
                                         (1936, "about 1,900"), (890, "890")])
def test_line_counts_are_said_as_a_person_says_them(n, text):
    assert said_lines(n) == text


# ------------------------------------------------------------------ the fact check

def facts() -> Facts:
    return Facts.from_digest(digest(
        (7, "Add a loss comparison script", (("scripts/loss_compare.py", 890, 0),
                                             (".github/workflows/loss.yaml", 40, 0))),
        (8, "Fix the runner", (("scripts/run.py", 3, 1),)), themed=1))


@pytest.mark.parametrize("text", [
    "The change adds about 930 lines.",  # the PR's sum, rounded
    "The change adds 890 lines, most of them in the loss compare script.",  # one file's
    "It touches two files.",
])
def test_counts_that_are_sums_of_the_files_pass(text):
    assert facts().problems(text, (7,)) == []
    assert facts().problems("The change is a four-line fix in the run script.", (8,)) == []


@pytest.mark.parametrize(("text", "cites", "problem"), [
    ("The change adds about 800 lines.", (7,),
     "line count 'about 800 lines' is no sum of the digest's files"),
    ("The change adds 900 lines.", (7,),  # a rounded figure said as exact
     "line count '900 lines' is no sum of the digest's files"),
    ("The change is a four-line fix.", (7,),  # PR 8's figure said of PR 7
     "line count 'four-line' is no sum of the digest's files"),
    ("It touches seven files.", (7,),
     "file count 'seven files' is not supported by the digest"),
    ("More goes than comes here: 890 lines out, about 50 in.", (7,),  # 40 in, not 50
     "line count 'about 50' is no sum of the digest's files"),
])
def test_counts_that_are_no_sum_of_the_files_fail(text, cites, problem):
    assert facts().problems(text, cites) == [problem]


# ------------------------------------------------------------------ properties

PATHS = ["scripts/loss_compare.py", "docs/float8.md", "tests/test_loss.py", "README.md",
         ".github/workflows/ci.yaml", "torchtitan/models/llama3/model.py", "a/b/c/d/e.py",
         "torchtitan/experiments/flux/__init__.py", "assets/logo.png", "x_y_z.toml"]
FILES = st.lists(st.tuples(st.sampled_from(PATHS), st.one_of(st.none(), st.integers(0, 3000)),
                           st.one_of(st.none(), st.integers(0, 3000))),
                 min_size=1, max_size=8, unique_by=lambda f: f[0])
_DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.I)


@settings(max_examples=60, deadline=None)
@given(st.lists(FILES, min_size=1, max_size=3), st.integers(0, 30))
def test_every_scope_sentence_is_whole_grounded_and_said_once(prs, offset):
    d = digest(*((20 + i, f"Change number {i}", tuple(f)) for i, f in enumerate(prs)))
    day = DAY.replace(day=1 + offset % 28)
    for text in said(d, day):
        assert text.strip() and "{" not in text and "  " not in text, text
        assert not re.search(r"\s[,.;:]|,\s*[,.]|\bthe\s*[,.]", text), text
        assert not _DOUBLED.search(text), text
        assert "/" not in text and "_" not in text and "new" not in text.split(), text
        assert "one files" not in text, text
        assert Facts.from_digest(d, day=day).problems(text, tuple(c.number or 0
                                                                  for c in d.changes)) == []
    script = write_script(d, show="Widget", day=day, writing=WRITING, lexicon={}, llm=LLM)
    fact_check(script, d)
    scoped = [s.text for sec in script.sections for s in sec.sentences if " lines" in s.text]
    assert len(scoped) == len(set(scoped)) <= 1, scoped


# ------------------------------------------------------------------ new, gone, renamed

ADDED, DELETED, RENAMED, MODIFIED = (m.FileStatus.ADDED, m.FileStatus.DELETED,
                                     m.FileStatus.RENAMED, m.FileStatus.MODIFIED)


def test_a_deleted_file_goes_and_a_renamed_one_is_renamed():
    gone = digest((12, "Replace the flux loader", (
        ("torchtitan/experiments/flux/flux_loader.py", 0, 350, DELETED),
        ("torchtitan/experiments/flux/routing.py", 20, 0, ADDED))), stack=True)
    assert said(gone) == ["More goes than comes here: 350 lines out, 20 in, and the old flux "
                          "loader module goes."]
    moved = digest((14, "Move the dataset", (
        ("torchtitan/datasets/hf_dataset.py", 2, 2, RENAMED, "torchtitan/data/loader.py"),
        ("torchtitan/train.py", 30, 10, MODIFIED), ("torchtitan/models/llama.py", 30, 10, MODIFIED))))
    assert said(moved) == ["The change touches 84 lines across three files, and the loader "
                           "module is renamed to the HF dataset module."]


def test_added_docs_are_never_a_new_docs():
    docs = digest((9, "Explain float8 recipes", (("docs/float8.md", 40, 0, ADDED),
                                                 ("torchtitan/float8.py", 5, 1, MODIFIED))))
    assert said(docs) == ["Of 45 added lines, most are in the float8 docs."]


def status_facts(status: m.FileStatus) -> Facts:
    return Facts.from_digest(digest((7, "Add a loss comparison script", (
        ("scripts/loss_compare.py", 890, 0, status), ("scripts/old_loss.py", 0, 40, DELETED)))))


def test_a_true_new_or_gone_file_passes_the_fact_check():
    text = "The change adds 890 lines, most of them in a new loss compare script."
    assert status_facts(ADDED).problems(text, (7,)) == []
    assert status_facts(ADDED).problems(
        "Of 930 lines, most are in a new loss compare script, and the old old loss script "
        "goes.", (7,)) == []


@pytest.mark.parametrize(("text", "problem"), [
    ("The change adds 890 lines, most of them in a new loss compare script.",
     "new file claim 'a new loss compare script.' matches no file of that status in the "
     "digest"),
    ("The change adds 890 lines, and the old loss compare script goes.",
     "gone file claim 'the old loss compare script goes.' matches no file of that status in "
     "the digest"),
    ("The change adds 890 lines, and the loss script is renamed to the loss compare script.",
     "renamed file claim 'is renamed to the loss compare' matches no file of that status in "
     "the digest"),
])
def test_a_false_new_gone_or_renamed_file_is_refused(text, problem):
    assert status_facts(MODIFIED).problems(text, (7,)) == [problem]
