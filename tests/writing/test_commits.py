"""Commit-only and mixed days: themes with prs=() told by who, how many commits and what."""

from __future__ import annotations

import dataclasses
import re

import pytest
from writing_builders import (
    DAY,
    LLM,
    WRITING,
    commit,
    commit_digest,
    rich_digest,
    who_first,
)

from mergecast import models as m
from mergecast.writing import Facts, write_script


def write(digest: m.Digest) -> m.Script:
    return write_script(digest, show="Widget", day=DAY, writing=WRITING, lexicon={}, llm=LLM)


def themes(script: m.Script) -> list[m.Section]:
    return [s for s in script.sections if s.kind == "theme"]


def test_commit_only_day_names_authors_counts_and_work() -> None:
    d = commit_digest()
    script = write(d)
    first, second = themes(script)
    # The titles, read as actions; the one the theme's name already says is not said again.
    assert "First theme: evicting old entries. Ivy Zhou landed three commits, adding a size " \
        "limit setting, then documenting the eviction policy." in who_first(first.text)
    assert "least recently used entries" in first.text  # from the cleaned commit body
    # Nothing to tell beyond its title: one sentence by what it does, not a theme, opening
    # on a turn so it is not heard as part of the theme before it.
    assert second.text == "Also today, omar landed a commit speeding up tokenizing of long lines."
    assert any(s.kind == "area" and "typo in the README" in s.text for s in script.sections)
    everything = " ".join([script.title, script.summary, script.transcript,
                           *(s.spoken for s in script.sections)])
    for c in d.changes:
        assert c.shas[0][:7] not in everything  # shas are never read aloud
    assert "src/" not in everything  # folder areas are named, not read as paths
    assert all(not s.cites for sec in script.sections for s in sec.sentences)


@pytest.mark.parametrize("kind", ["single", "cluster"])
def test_commit_theme_kinds(kind: str) -> None:
    d = commit_digest()
    shas = d.themes[0].commits[:1] if kind == "single" else d.themes[0].commits
    d = dataclasses.replace(d, themes=(dataclasses.replace(d.themes[0], kind=kind,
                                                           commits=shas),))
    text = themes(write(d))[0].text
    told = "a single commit." if kind == "single" else "three commits, adding a size limit"
    assert f"Ivy Zhou landed {told}" in who_first(text)


def test_mixed_day_tells_prs_and_bare_commits() -> None:
    extra = commit("f6" * 20, "Build: pin the compiler version", "Ivy Zhou")
    d = rich_digest(extra=[extra])
    bare = m.Theme(4, "Build: pin the compiler version", "single", ("Ivy Zhou",), ("build",),
                   (), ("f6" * 20,), None, 1.0, ("0 PRs and 1 commits",))
    mixed = dataclasses.replace(d.themes[1], commits=("f6" * 20,))
    d = dataclasses.replace(d, themes=(d.themes[0], mixed, d.themes[2], bare),
                            counts=dataclasses.replace(d.counts, commits=1))
    script = write_script(d, show="Widget", day=DAY, writing=dataclasses.replace(
        WRITING, max_themes=4), lexicon={}, llm=LLM)
    second, fourth = themes(script)[1], themes(script)[3]
    assert "two related PRs, 584064 and 584073" in second.text
    assert fourth.text == "Also today, Ivy Zhou landed a commit pinning the compiler version."


def test_fact_check_vouches_for_commit_counts_only_from_the_digest() -> None:
    facts = Facts.from_digest(commit_digest())
    assert not facts.problems("Ivy Zhou landed three commits.")
    assert not facts.problems("omar landed a single commit.")
    assert not facts.problems("In all, five commits landed.")
    assert facts.problems("Ivy Zhou landed seven commits.") == [
        "count 'seven commits' is not supported by the digest"]
    assert facts.problems("mallory landed three commits.") == [
        "handle 'mallory' is not in the digest"]
    assert any("read aloud" in p for p in facts.problems("Commit a1a1a1a fixes it."))


def test_commit_only_summary_and_title_are_grounded() -> None:
    script = write(commit_digest())
    assert "Ivy Zhou" in script.summary and "omar" in script.summary
    assert re.fullmatch(r"[A-Z][\w ,-]+", script.title) and len(script.title) <= 70


def test_a_theme_of_prs_and_a_bare_commit_says_both_and_credits_no_pr_with_the_commit():
    extra = commit("f6" * 20, "Rename the cache flag for consistency", "Ivy Zhou")
    d = rich_digest(extra=[extra])
    mixed = dataclasses.replace(d.themes[1], commits=("f6" * 20,),
                                authors=(*d.themes[1].authors, "Ivy Zhou"))
    d = dataclasses.replace(d, themes=(d.themes[0], mixed, d.themes[2]),
                            counts=dataclasses.replace(d.counts, commits=1))
    text = themes(write(d))[1].text
    assert re.search(r"b7r2n and Ivy Zhou,? (?:who )?pushed two related PRs, 584064 and "
                     r"584073, and a commit", text), text
    # what the commit does is the changes', never one of the PRs'
    assert "the changes rename the cache flag for consistency, and PR 584073 adds call timing " \
        "to the in-tree transport." in text
