"""BODY_LIMIT: only the first BODY_LIMIT characters of a body reach any analysis.

Each check puts the same text once inside the limit (it must be seen) and once past it
(it must not be), so a path that forgets to truncate fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from analysis_builders import ghstack, pr

from mergecast.analysis.reverts import revert_of
from mergecast.analysis.stacks import stack_lists
from mergecast.analysis.text import BODY_LIMIT, clean_body, issue_refs
from mergecast.models import Ref
from mergecast.writing.bodies import claims

FILLER = "Padding words here. " * (BODY_LIMIT // 20 + 5)


def _inside(text: str) -> str:
    return text + "\n\n" + FILLER


def _past(text: str) -> str:
    body = FILLER + "\n\n" + text
    assert body.index(text) > BODY_LIMIT
    return body


def test_the_limit_is_documented() -> None:
    docs = (Path(__file__).parents[2] / "docs" / "security.md").read_text(encoding="utf-8")
    assert f"{BODY_LIMIT:,}" in docs


@pytest.mark.parametrize("where,seen", [(_inside, True), (_past, False)])
def test_issue_references(where, seen) -> None:  # type: ignore[no-untyped-def]
    assert (4242 in issue_refs(where("Fixes #4242"))) is seen


@pytest.mark.parametrize("where,seen", [(_inside, True), (_past, False)])
def test_stack_lists(where, seen) -> None:  # type: ignore[no-untyped-def]
    change = pr(301, "Add the cache layer", body=where(ghstack(301, 300, 301, 302)))
    assert bool(stack_lists(change)) is seen


@pytest.mark.parametrize("where,seen", [(_inside, True), (_past, False)])
def test_revert_references(where, seen) -> None:  # type: ignore[no-untyped-def]
    change = pr(9, "Undo a thing", body=where("This reverts commit 0123456789abcdef0123."))
    assert (revert_of(change) is not None) is seen


@pytest.mark.parametrize("where,seen", [(_inside, True), (_past, False)])
def test_cleaned_body_and_spoken_sentences(where, seen) -> None:  # type: ignore[no-untyped-def]
    sentence = "The allocator now returns freed blocks to the pool."
    body = where(sentence)
    assert (sentence in clean_body(body)) is seen
    assert len(clean_body(body)) <= BODY_LIMIT
    said = claims(body, Ref(pr=9), accept=lambda s, ref: "allocator" in s)
    assert bool(said) is seen
