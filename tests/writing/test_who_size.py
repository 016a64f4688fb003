"""The who-and-size sentence (writing/who_size.py): who landed how much, with the first
effects on it when they fit and the fact check passes them."""

from __future__ import annotations

import dataclasses

from writing_builders import DAY, rich_digest

from mergecast.analysis.language import parse_title
from mergecast.writing.phrases import Lookup
from mergecast.writing.plan import make_plan
from mergecast.writing.realise import effects
from mergecast.writing.who_size import checked_effects, folded, size


def test_an_effect_the_fact_check_fails_takes_no_other_effect_with_it():
    # "telling which of nine PRs does more" of a six-PR stack fails the fact check; folded
    # with "adding a cost model" it was left off, and the effects sentences told the cost
    # model a second time.
    d = rich_digest()
    x = Lookup(d, show="Widget", day=DAY, lexicon={})
    first = make_plan(d, show="Widget", day=DAY, max_themes=3).themes[0]
    wrong = dataclasses.replace(parse_title("Tell which of nine PRs does more"),
                                ref=first.effects[0].ref)
    theme = dataclasses.replace(first, effects=(wrong, *first.effects[1:]))
    assert [c.objects for c in checked_effects(x, theme)][:1] == ["a cost model for tiles"]
    assert [c.objects for c in folded(x, theme)] == ["a cost model for tiles"]
    (line,) = size(x, theme)
    assert line.text.endswith("PRs 584044 through 584049, adding a cost model for tiles."), \
        line.text
    told = " ".join(ln.text for ln in effects(x, theme))
    assert "nine" not in told and "cost model" not in told and "planned tiles" in told, told
