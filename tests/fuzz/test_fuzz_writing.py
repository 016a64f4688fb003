"""Fuzz the pronunciation normaliser and the number readers it leans on."""

from __future__ import annotations

import re

import pytest
from fuzz_settings import HOSTILE_TEXT
from hypothesis import given
from hypothesis import strategies as st

from mergecast.writing.normalise import normalise
from mergecast.writing.numbers import digit_groups, number_words, ordinal_words, parse_count

pytestmark = pytest.mark.fuzz

URL = re.compile(r"https?://|www\.")


@given(HOSTILE_TEXT, st.dictionaries(st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,8}", fullmatch=True),
                                     st.text(max_size=10), max_size=3))
def test_normalise_never_crashes_and_drops_urls_and_markup(text: str, lexicon: dict) -> None:
    spoken = normalise(text, lexicon)
    assert not URL.search(spoken)
    assert "`" not in spoken and "**" not in spoken
    assert spoken == spoken.strip() and "  " not in spoken


@given(st.integers(10_000, 10**12), HOSTILE_TEXT.map(lambda s: re.sub(r"[\w#.,]", "", s)))
def test_long_numbers_are_read_as_words(n: int, around: str) -> None:
    spoken = normalise(f"PR {n} {around}", {})
    assert str(n) not in spoken and not re.search(r"\d{5,}", spoken)


@given(st.integers(0, 10**15))
def test_number_words_have_no_digits_and_parse_back(n: int) -> None:
    words = number_words(n)
    assert words and not re.search(r"\d", words)
    assert not re.search(r"\d", ordinal_words(max(n, 1)))
    if n <= 20:
        assert parse_count(words) == n


@given(st.from_regex(r"[0-9]{1,18}", fullmatch=True))
def test_digit_groups_have_no_digits(digits: str) -> None:
    assert not re.search(r"\d", digit_groups(digits))
