"""Which of a theme's effects are told, and how many: not one its name already says, the
ones telling more of the name first when some must go, and, of two PRs, the one doing more
than the name said by its place ("the second fixing X")."""

from __future__ import annotations

from collections.abc import Sequence

from ..analysis.language import singular
from ..models import ThemePlan
from .changes import stems
from .clauses import Clause, clauses
from .numbers import join_clauses
from .phrases import said

CLAUSES = 4  # groups of effects told per theme
BIG_CLAUSES = 6  # ... per theme of GRAB_BAG changes or more, whose parts are its story


def told_effects(t: ThemePlan) -> list[Clause]:
    """The theme's effects worth saying: not one its name already says ("fixing the path"
    needs no "…, fixing the path"; a stack named by its base part goes on to the rest),
    unless a cluster is named by one of its changes and the others' effects would follow
    as if they were the name's ("always saving shape ops. … landed two related PRs,
    hoisting X" hides which PR saves the ops; beside_name says "the second hoisting X")."""
    found = clauses(t.effects, overflow=True)
    kept = [c for c in found if not says_name(t, c)]
    if t.stack is None and kept and len(kept) < len(found) and \
            all(len(c.cites) < len(t.prs) for c in found):
        return found
    return kept


_NOTHING_MORE = frozenset("the a an for that all some each every any".split())


def says_name(t: ThemePlan, c: Clause) -> bool:
    """Whether an effect only says the theme's name again ("all X to Y" of "moving X to
    Y": an article or a quantifier more is nothing more)."""
    return _singular(c.objects) <= _singular(t.concept) | _NOTHING_MORE


def beside_name(t: ThemePlan, fold: Sequence[Clause], prs: Sequence[int]) -> str:
    """Of two PRs, the one doing more than the theme's name says: "… landed two related
    PRs, 1 and 2, the second fixing X" (or "the first adding X and removing Y") after
    "Third theme: updating the matrix", never "…, updating the matrix, then fixing X".
    "" unless one effect is the name's, of one PR, and the others (two at most) the
    other PR's."""
    names = [c for c in fold if says_name(t, c)]
    others = [c for c in fold if not says_name(t, c)]
    if len(prs) != 2 or len(names) != 1 or not 1 <= len(others) <= 2:
        return ""
    own = {n for c in others for n in c.cites}
    if len(own) != 1 or {*own, *names[0].cites} != set(prs) or own & set(names[0].cites):
        return ""
    which = said("which_of_two", list(prs).index(own.pop()))
    return f"{which} {join_clauses([c.ing() for c in others])}"


def each_of_two(t: ThemePlan, fold: Sequence[Clause], prs: Sequence[int]) -> str:
    """Of two PRs that are no stack, each effect said of its own: "… landed two related
    PRs, 1 and 2, the first adding X, the second using Y" ("adding X, then using Y" would
    say both do both). "" unless each effect is one of the two PRs'."""
    if len(prs) != 2 or t.commits or (t.stack is not None and t.stack.members) or \
            any(len(c.cites) != 1 or c.cites[0] not in prs for c in fold):
        return ""
    return ", ".join(f"{said('which_of_two', i)} " + join_clauses(
        [c.ing() for c in fold if c.cites[0] == pr]) for i, pr in enumerate(prs)
        if any(c.cites[0] == pr for c in fold))


def room(told: list[Clause], fold: int, concept: str, big: bool
          ) -> tuple[list[Clause], bool]:
    """The effects told after the `fold` the size sentence carries, CLAUSES in all
    (BIG_CLAUSES for a `big` theme), in order, and whether any had to go. Those telling
    more of the theme's name go last: a stack named "flight recorder" tells its flight
    recorder, whatever part adds it."""
    rest = told[fold:]
    room = max(0, (BIG_CLAUSES if big else CLAUSES) - fold)
    if len(rest) <= room:
        return rest, False
    # Cut, the effects end on no "Finally": two to a sentence, in at most two "also"
    # sentences after the first.
    room = min(room, 2 * (2 + (not fold)))
    named = stems(concept)

    def tells_name(c: Clause) -> bool:  # (one that only says the name again adds nothing)
        return bool(stems(c.objects) & named) and not stems(c.objects) <= named

    keep = sorted(range(len(rest)), key=lambda i: (not tells_name(rest[i]), i))[:room]
    return [rest[i] for i in sorted(keep)], True


def _singular(text: str) -> set[str]:
    """Words as compared with a name: "dispatch and combine ops" holds "op"."""
    return {singular(w) if len(w) > 2 else w for w in text.lower().split()}


def sparse(t: ThemePlan, told: Sequence[Clause]) -> bool:
    """Whether the effects told stand for fewer than half of three or more changes:
    "landed nine commits, adding X" and "the PRs fix X" would say all of them do X."""
    return t.size >= 3 and 2 * sum(max(1, len(c.cites)) for c in told) < t.size
