"""Numbers as words: counts ("eleven-part", "five PRs"), ordinals and PR numbers in digit groups."""

from __future__ import annotations

import re
from collections.abc import Sequence

_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_ORDINALS = (
    "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth"
).split()
_DIGITS = "zero one two three four five six seven eight nine".split()


def stack_noun(series: bool = False) -> str:
    """ "stack"; "series" for PRs linked only by their author, tag and close numbers:
    nothing says one sits on another, so they are no stack."""
    return "series" if series else "stack"


def parts(n: int, series: bool = False) -> str:
    """ "eleven-part stack", "four-part series" (see stack_noun)."""
    return f"{number_words(n)}-part {stack_noun(series)}"


def number_words(n: int) -> str:
    """0..999999 as words: 11 -> "eleven", 191 -> "one hundred ninety-one"."""
    if n < 0:
        return "minus " + number_words(-n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return f"{_ONES[hundreds]} hundred" + (f" {number_words(rest)}" if rest else "")
    if n < 1_000_000:
        thousands, rest = divmod(n, 1000)
        return f"{number_words(thousands)} thousand" + (f" {number_words(rest)}" if rest else "")
    return " ".join(_DIGITS[int(d)] for d in str(n))


def ordinal_words(n: int) -> str:
    """3 -> "third"; beyond twelve, "13th"-style words built from the cardinal."""
    if n < len(_ORDINALS):
        return _ORDINALS[n]
    word = number_words(n)
    for tail, repl in (("one", "first"), ("two", "second"), ("three", "third"), ("nine", "ninth"),
                       ("ve", "fth"), ("t", "th"), ("e", "th"), ("y", "ieth")):
        if word.endswith(tail):
            return word[: -len(tail)] + repl
    return word + "th"


def _group(digits: str) -> str:
    """One group of up to three digits as a speaker reads it: 191 -> "one ninety-one"."""
    if len(digits) == 1:
        return _DIGITS[int(digits)]
    if len(digits) == 2:
        if digits[0] == "0":
            return "oh " + _DIGITS[int(digits[1])]
        return number_words(int(digits))
    head, tail = digits[0], digits[1:]
    if head == "0":
        return "oh " + _group(tail)
    if tail == "00":
        return f"{_DIGITS[int(head)]} hundred"
    return f"{_DIGITS[int(head)]} {_group(tail)}"


def digit_groups(number: str) -> str:
    """A long number read in groups of three from the right.

    584044 -> "five eighty-four oh forty-four" (no comma inside, so lists stay clear).
    """
    groups: list[str] = []
    rest = number
    while rest:
        groups.insert(0, rest[-3:])
        rest = rest[:-3]
    return " ".join(_group(g) for g in groups)


_WORD_VALUES: dict[str, int] = {w: i for i, w in enumerate(_ONES)}
_WORD_VALUES.update({w: i * 10 for i, w in enumerate(_TENS) if w != "_"})
_WORD_VALUES.update({"a": 1, "an": 1, "single": 1, "one": 1, "dozen": 12, "pair": 2})

NUMBER_WORD = (
    r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-(?:one|two|three|four|five|"
    r"six|seven|eight|nine))?|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|\d{1,3})"
)


def parse_count(word: str) -> int | None:
    """"eleven" / "twenty-one" / "11" -> int; None when the word is not a number."""
    low = word.lower().strip()
    if low.isdigit():
        return int(low)
    if low in _WORD_VALUES:
        return _WORD_VALUES[low]
    m = re.fullmatch(r"([a-z]+)-([a-z]+)", low)
    if m and m.group(1) in _WORD_VALUES and m.group(2) in _WORD_VALUES:
        return _WORD_VALUES[m.group(1)] + _WORD_VALUES[m.group(2)]
    return None


def count_phrase(n: int, noun: str, plural: str | None = None) -> str:
    """(1, "PR") -> "a single PR"; (5, "PR") -> "five PRs"."""
    if n == 1:
        return f"a single {noun}"
    return f"{number_words(n)} {plural or noun + 's'}"


def with_article(phrase: str) -> str:
    """"eleven-part stack" -> "an eleven-part stack"; "one-line fix" -> "a one-line fix"
    ("one" is said with a w)."""
    vowel = phrase[:1].lower() in "aeiou" and not phrase.lower().startswith("one")
    return ("an " if vowel else "a ") + phrase


def join_words(items: Sequence[str], conj: str = "and") -> str:
    """["a", "b", "c"] -> "a, b and c"."""
    items = [i for i in items if i]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {conj} " + items[-1]


def join_clauses(items: Sequence[str]) -> str:
    """What one subject does, as a list: "fixes X and adds Y"; when a clause has an "and"
    of its own, the last joins after a comma ("adds A and B, and fixes C"), so its "and"
    is not heard as the list's; so it does after a clause holding a "with" ("adds X with
    a test, and separates Y": never "a test and separates")."""
    items = [i for i in items if i]
    if len(items) > 1 and (any(" and " in i for i in items) or
                           any(" with " in i for i in items[:-1])):
        return ", ".join(items[:-1]) + ", and " + items[-1]
    return join_words(items)


def pr_list(numbers: Sequence[int]) -> str:
    """How a group of PRs is named (ascending): "PR 5", "PRs 5 and 9", "PRs 5 through 12"
    (only for a contiguous run), "PRs 5, 7, 9 and 12", "PRs from 5 to 40"."""
    ns = sorted(dict.fromkeys(numbers))
    if not ns:
        return ""
    if len(ns) == 1:
        return f"PR {ns[0]}"
    if len(ns) <= 3 or (len(ns) <= 5 and ns[-1] - ns[0] + 1 != len(ns)):
        return "PRs " + join_words([str(n) for n in ns])
    if ns[-1] - ns[0] + 1 == len(ns):
        return f"PRs {ns[0]} through {ns[-1]}"
    return f"PRs from {ns[0]} to {ns[-1]}"  # "through" would claim every number between


def pr_numbers(numbers: Sequence[int]) -> str:
    """A group's numbers after a count ("two related PRs, 5 and 9"; "nine related PRs, from 5
    to 40"): no "PRs" prefix."""
    return pr_list(numbers).removeprefix("PRs ").removeprefix("PR ")
