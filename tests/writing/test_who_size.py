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
    # (the cost model is the second part's alone: said of all six parts on the size
    # sentence it would be all six's, so it is told with the other effects, once)
    assert folded(x, theme) == []
    (line,) = size(x, theme)
    assert line.text.endswith("PRs 584044 through 584049."), line.text
    told = " ".join(ln.text for ln in effects(x, theme))
    assert "nine" not in told and told.count("cost model") == 1 and "planned tiles" in told, \
        told
    # the base's effect is the stack's: it folds, with the next part's beside it
    assert [c.objects for c in folded(x, first)] == [
        "shared tiling machinery and a cost model for tiles"]


def test_themes_in_a_row_open_their_who_sentences_differently_whatever_their_shape():
    # "Behind this one is Jerry Zhang, who landed a single PR …" twice in a row: each theme
    # of one shape took the same wording, and two shapes could open alike too.
    d = rich_digest()
    for day in range(1, 29):
        when = DAY.replace(day=day)
        x = Lookup(d, show="Widget", day=when, lexicon={})
        themes = make_plan(d, show="Widget", day=when, max_themes=3).themes
        single = themes[2]  # one PR, 584097
        for row in ([dataclasses.replace(single, index=i) for i in (1, 2, 3)], themes):
            said = [line.text for t in row for line in size(x, t)]
            openers = [" ".join(s.split()[:3]) for s in said]
            assert len(said) == 3 and len(set(openers)) == 3, said

