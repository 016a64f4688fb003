"""A theme's who-and-size sentence: who landed how much ("ada landed a four-part stack,
PRs 1 through 4"), with its first effects on it when they fit and pass the fact check."""

from __future__ import annotations

from collections.abc import Sequence

from ..analysis.naming import grab_bag
from ..models import ThemePlan
from .clauses import Clause
from .length import Line, present
from .numbers import (
    count_phrase,
    join_clauses,
    join_words,
    number_words,
    parts,
    pr_list,
    pr_numbers,
    stack_noun,
    with_article,
)
from .phrases import MAX_WORDS, Lookup, said
from .plan import sized_otherwise
from .scope import whose
from .told import beside_name, each_of_two, sparse, told_effects


def who(t: ThemePlan) -> str:
    shown = list(t.authors[:2]) + (["others"] if len(t.authors) > 2 else [])
    return join_words(shown) or "the authors"


def folded(x: Lookup, t: ThemePlan) -> list[Clause]:
    """The first effects, when short enough to ride on the size sentence ("… landed a
    six-part stack, PRs 1 through 6, adding X, then using Y for A and B") whichever way
    the size sentence is worded, and when the fact check passes the two as one: else the
    effects are told on their own (never an "also" after a size sentence that said none)."""
    fold = _fits(x, t)
    if not fold:
        return []
    key, values, cites = _size_slot(t)
    return fold if x.grounded(*_joined(t, _size_text(x, t, key, values), fold, cites)) \
        else []


def _fits(x: Lookup, t: ThemePlan) -> list[Clause]:
    key, values, prs = _size_slot(t)
    if t.continues or not key:
        return []
    told = checked_effects(x, t)
    if sparse(t, told):
        return []  # told apart, as one of them (see effects), never of all
    longest = max(len(v.format(**values).split()) for v in x.variants("theme", key))
    if (other := beside_name(t, told, prs)) and longest + len(other.split()) < MAX_WORDS:
        return told  # ("the second fixing X": the name's own change is not said again)
    taken: list[Clause] = []
    used = longest
    for c in told[:2]:
        n = len(c.ing().split()) + 1
        if used + n > MAX_WORDS:
            break
        taken.append(c)
        used += n
    # ("the first adding X, the second fixing Y" says more words than "adding X, then
    # fixing Y": one breath still holds it, or the first alone)
    while taken and (each := each_of_two(t, taken, prs)) and \
            longest + len(each.split()) > MAX_WORDS:
        taken.pop()
    if whose(t) == "prs" and len(t.prs) > 2 and \
            not set(t.prs) <= {n for c in taken for n in c.cites}:
        # "landed four related PRs, moving X" would say all four move X: what some of
        # them do is said of those (effects), never of all
        return []
    if whose(t) in ("stack", "series") and len(prs) > 2 and \
            len(own := {n for c in taken for n in c.cites}) == 1 and own != {prs[0]}:
        # "posted three parts, PRs 1, 2 and 3, honoring X" says all three honor X: a later
        # part's own effect is told as that part's (effects); the base's is the stack's
        return []
    return taken


def checked_effects(x: Lookup, t: ThemePlan) -> list[Clause]:
    """The effects a theme tells, less any the fact check would not pass ("telling which of
    two PRs does more" of a four-PR theme): one of those would take the effect beside it
    out of its sentence too."""
    return [c for c in told_effects(t) if x.grounded(c.ing(), c.cites)]


def size(x: Lookup, t: ThemePlan, fold_effects: bool = True) -> list[Line]:
    """Who and how big, with the first effects folded in when they are short (and when
    no other sentence tells the effects: `fold_effects`)."""
    key, values, cites = _size_slot(t)
    if not key:
        return []
    text = _size_text(x, t, key, values)
    if fold := folded(x, t) if fold_effects else []:
        text, cites = _joined(t, text, fold, cites)
    return present(x.line(text, cites))


def _size_text(x: Lookup, t: ThemePlan, key: str, values: dict[str, str]) -> str:
    text = x.say_in_turn("theme", key, t.index, **values)
    if grab_bag(t.concept) and text.startswith("The work "):
        # never "Quantization work. The work …"
        text = x.say_in_turn("theme", key, t.index + 1, **values)
    return text


def _joined(t: ThemePlan, text: str, fold: Sequence[Clause],
            cites: tuple[int, ...]) -> tuple[str, tuple[int, ...]]:
    """The size sentence with the first effects on it, and the PRs the two name."""
    # "then" orders parts; one change's two doings have no order the input gives
    then = f", {said('then')} "
    effects = join_clauses([c.ing() for c in fold]) if t.size == 1 else \
        beside_name(t, fold, cites) or each_of_two(t, fold, cites) or \
        then.join(c.ing() for c in fold)
    return f"{text[:-1]}, {effects}.", \
        tuple(dict.fromkeys(cites + tuple(n for c in fold for n in c.cites)))


def _size_slot(t: ThemePlan) -> tuple[str, dict[str, str], tuple[int, ...]]:
    """The size phrase's key, its values and the PRs it names; ("", …) when it has none."""
    s = t.stack
    values = {"who": who(t), "status": t.status, "adds": _adds(t),
              "are": "are" if len(t.authors) > 1 else "is"}
    if s is not None and s.members:
        n = s.size
        stack = parts(n, s.is_series)
        values["prs"] = pr_list(s.members)
        if t.continues:
            key = "more_stack"
            size = f"the {stack_noun(s.is_series) if sized_otherwise(t, n) else stack}"
            values |= {"more": more_count(s.in_window, "PR"), "size": size}
        elif s.in_window == 1:
            key = "stack_one"
            values |= {"size": with_article(stack), "pr": str(s.members[0])}
        elif n > s.in_window:
            key = "stack_partial"
            values |= {"size": with_article(stack), "in_window": number_words(s.in_window)}
        else:
            key = "stack"
            values["size"] = with_article(stack)
        return key, values, tuple(s.members)
    if t.prs:
        values["prs"] = pr_numbers(t.prs)
        # A grab-bag's changes share a place, not a story: "twelve PRs", never "related"
        related = "PR" if grab_bag(t.concept) else "related PR"
        if t.continues:
            key, values["more"] = "more_prs", more_count(len(t.prs), "PR")
        elif t.commits:  # a commit with no PR is not one of the PRs: "a PR, 12, and a commit"
            key = "mixed"
            values |= {"size": _a_or_count(len(t.prs), "PR", f"{related}s"),
                       "commits": _a_or_count(len(t.commits), "commit", "commits")}
        elif len(t.prs) > 1:
            key, values["size"] = "cluster", count_phrase(len(t.prs), related)
        else:
            key, values["pr"] = "single", str(t.prs[0])
        return key, values, tuple(t.prs)
    if t.commits:
        n = len(t.commits)
        if t.continues:
            return "more_commits", values | {"size": more_count(n, "commit")}, ()
        return "commits", values | {"size": count_phrase(n, "commit")}, ()
    return "", values, ()


def _a_or_count(n: int, noun: str, plural: str) -> str:
    """(1, "PR", …) -> "a PR"; (2, "PR", "related PRs") -> "two related PRs": one "a single"
    to a sentence ("a single PR, 12, and a single commit" says it twice)."""
    return f"a {noun}" if n == 1 else f"{number_words(n)} {plural}"


def _adds(t: ThemePlan) -> str:
    return "add" if len(t.authors) > 1 else "adds"


def more_count(n: int, noun: str) -> str:
    """(1, "PR") -> "one more PR"; (3, "commit") -> "three more commits"."""
    return f"{number_words(n)} more {noun}{'' if n == 1 else 's'}"
