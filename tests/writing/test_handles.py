"""The fact check's handle and name checks on their own (writing/handles.py); the
sentences of whole digests are in test_factcheck.py."""

from __future__ import annotations

import pytest

from mergecast.writing.handles import check_handles

HANDLES = frozenset({"ada", "liangel-02"})


def test_handles_said_are_counted_once_each():
    said, wrong = check_handles("ada landed PR 5, and liangel-02's stack follows; by ada.",
                                HANDLES, frozenset(), frozenset())
    assert (said, wrong) == (2, [])


@pytest.mark.parametrize(("text", "problem"), [
    ("@omar reviewed it.", "handle @omar is not in the digest"),
    ("omar landed PR 5.", "handle 'omar' is not in the digest"),
    ("A fix by omar.", "handle 'omar' is not in the digest"),
    ("It now runs on the B300.", "name 'B300' is not in the digest"),
])
def test_a_person_or_name_the_digest_does_not_know_is_named(text, problem):
    assert check_handles(text, HANDLES, frozenset(), frozenset()) == (0, [problem])


def test_words_of_titles_and_bodies_and_plain_english_pass():
    names, vocabulary = frozenset({"widget"}), frozenset({"b300", "loader"})
    assert check_handles("widget's series lands; a fix by loader, made by hand, runs on "
                         "the B300 in 2nd place.", HANDLES, names, vocabulary) == (0, [])
