"""Fuzz the analysis parsers: stack blocks (ghstack, Graphite), numbered titles, body cleaning."""

from __future__ import annotations

import datetime as dt

import pytest
from fuzz_settings import HOSTILE_TEXT, examples
from hypothesis import given
from hypothesis import strategies as st

from mergecast.analysis import clean_body
from mergecast.analysis.stacks import detect_stacks, numbered, stack_lists
from mergecast.analysis.text import BODY_LIMIT, strip_tags, title_tags, tokens
from mergecast.models import Change, Person, State

pytestmark = pytest.mark.fuzz

NUMBERS = st.lists(st.integers(1, 10**7), min_size=1, max_size=12, unique=True)
GHSTACK = "Stack from [ghstack](https://github.com/ezyang/ghstack) (oldest at bottom):"
GRAPHITE = "This stack of pull requests is managed by Graphite. Learn more about stacking."


def _pr(number: int, body: str = "", title: str = "t", **kw: object) -> Change:
    return Change(repo="o/r", title=title, number=number, body=body,
                  author=Person(login="ada"), state=State.OPEN,
                  created_at=dt.datetime(2026, 8, 11, 9, tzinfo=dt.UTC), **kw)  # type: ignore[arg-type]


@given(NUMBERS, st.integers(0, 11), HOSTILE_TEXT, HOSTILE_TEXT)
def test_ghstack_block_lists_every_number(
    numbers: list[int], current: int, before: str, after: str
) -> None:
    marker = current % len(numbers)
    items = [f"* {'__->__ ' if i == marker else ''}#{n}" for i, n in enumerate(numbers)]
    body = "\n".join([GHSTACK, *items]) + "\n\n" + after
    if before.strip():
        body = before.replace("\n", " ") + "\n" + body
    found = stack_lists(_pr(numbers[marker], body))
    assert ("ghstack", numbers) in found


@given(NUMBERS, HOSTILE_TEXT)
def test_graphite_block_lists_every_number(numbers: list[int], noise: str) -> None:
    comment = "\n".join(f"* **#{n}** <a href=\"x\">" for n in numbers) + f"\n* `main`\n\n{GRAPHITE}"
    found = stack_lists(_pr(numbers[0], noise, stack_comment=comment))
    graphite = [nums for tool, nums in found if tool == "graphite"]
    assert graphite and graphite[0][: len(numbers)] == numbers


@given(HOSTILE_TEXT, st.one_of(st.none(), HOSTILE_TEXT))
def test_stack_lists_never_crash_on_any_body(body: str, comment: str | None) -> None:
    for tool, nums in stack_lists(_pr(5, body, stack_comment=comment)):
        assert tool and all(isinstance(n, int) and n >= 0 for n in nums)


@given(st.integers(1, 99), st.integers(1, 99), HOSTILE_TEXT,
       st.sampled_from(["({k}/{n}) {t}", "[{k}/{n}] {t}", "{k}/{n}: {t}", "{t}, part {k} of {n}"]))
def test_numbered_titles(k: int, n: int, text: str, shape: str) -> None:
    text = text.replace("\n", " ")
    title = shape.format(k=k, n=n, t=text)
    got = numbered(title)
    assert got is None or 1 <= got[0] <= got[1]
    if 1 <= k <= n and n >= 2 and not any(c.isdigit() or c in "()[]/:" for c in text):
        assert got == (k, n)


@given(HOSTILE_TEXT)
def test_numbered_never_crashes(title: str) -> None:
    got = numbered(title)
    assert got is None or (1 <= got[0] <= got[1] and got[1] >= 2)
    strip_tags(title)
    title_tags(title)
    tokens(title)


@given(st.lists(st.tuples(st.integers(1, 60), HOSTILE_TEXT, HOSTILE_TEXT,
                          st.sampled_from(["ada", "bob", "cy"])), max_size=8))
def test_detect_stacks_only_names_prs_it_was_given(rows: list[tuple[int, str, str, str]]) -> None:
    changes = {n: Change(repo="o/r", title=t, number=n, body=b, author=Person(login=a))
               for n, t, b, a in rows}
    for stack in detect_stacks(list(changes.values())):
        assert set(stack.members) <= set(changes)
        assert list(stack.members) == sorted(stack.members)


@given(HOSTILE_TEXT)
def test_clean_body_drops_markup_and_urls(body: str) -> None:
    out = clean_body(body)
    assert "https://" not in out and "http://" not in out
    assert "<!--" not in out
    assert "<script" not in out.lower() and "<img" not in out.lower()
    assert out == out.strip()
    assert "\n\n\n" not in out


@examples(0.02)
@given(st.integers(BODY_LIMIT, 3 * BODY_LIMIT), st.sampled_from(["a", "word ", "<b>x</b>"]))
def test_clean_body_is_bounded(size: int, unit: str) -> None:
    assert len(clean_body((unit * size)[:size])) <= BODY_LIMIT
