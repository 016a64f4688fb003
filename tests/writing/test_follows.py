"""What a theme follows, in one sentence: the earlier change's number, author, day and
place, and what its title says it did; only what the digest's link carries."""

from __future__ import annotations

import dataclasses
import datetime as dt

from writing_builders import DAY, WINDOW, pr

from mergecast import models as m
from mergecast.writing.factcheck import Facts
from mergecast.writing.follows import follows
from mergecast.writing.phrases import Lookup
from mergecast.writing.plan import make_plan

QUANT = "torchao/quantization/autoquant.py"


def digest(follow: m.FollowUp | None) -> m.Digest:
    change = dataclasses.replace(pr(1328, "Speed up autoquant v2 for Mixtral", "jerryzh168"),
                                 files=(m.FileChange(QUANT, 60, 3),))
    theme = m.Theme(1, "speeding up autoquant v2", "single", ("jerryzh168",), ("Quantization",),
                    (1328,), (), None, 5.0, (), follows=follow)
    return m.Digest(window=WINDOW, counts=m.Counts(1, 1, 0, 1), themes=(theme,), duplicates=(),
                    reverts=(), relands=(), areas=(m.Area("Quantization", (1328,), ()),),
                    first_time_contributors=(), changes=(change,))


def follow(title: str = "Add the first version of autoquant v2", back: int = 2,
           ref: m.Ref | None = None, path: str = QUANT) -> m.FollowUp:
    return m.FollowUp(ref=ref or m.Ref(pr=1240), author="jerryzh168", landed=DAY - dt.timedelta(days=back),
                      title=title, path=path)


def said(f: m.FollowUp | None, day: dt.date = DAY, weekly: bool = False) -> list[str]:
    d = digest(f)
    x = Lookup(d, show="Widget", day=day, lexicon={}, weekly=weekly)
    plan = make_plan(d, show="Widget", day=day, max_themes=3)
    return [ln.text for ln in follows(x, plan.themes[0])]


def test_the_earlier_change_is_told_by_its_number_day_place_and_title():
    # DAY is a Thursday: two days back is Tuesday
    assert said(follow()) == [
        "On Tuesday, jerryzh168 landed PR 1240 in the same autoquant module, adding the "
        "first version of autoquant v2."]
    assert said(follow(back=1), DAY.replace(day=13)) == [
        "Before this, jerryzh168 landed PR 1240 on Wednesday in the same autoquant module, "
        "adding the first version of autoquant v2."]
    assert said(follow(back=3), DAY.replace(day=14)) == [
        "The work follows PR 1240, which jerryzh168 landed on Monday in the same autoquant "
        "module, adding the first version of autoquant v2."]
    assert said(follow(back=1), DAY.replace(day=12)) == [
        "Yesterday, jerryzh168 landed PR 1240 in the same autoquant module, adding the "
        "first version of autoquant v2."]


def test_a_week_back_is_said_as_a_date():
    assert said(follow(back=8)) == [
        "On March 4th, jerryzh168 landed PR 1240 in the same autoquant module, adding the "
        "first version of autoquant v2."]


def test_a_title_with_no_clean_reading_gives_only_number_day_and_place():
    assert said(follow(title="Autoquant v2 initial version")) == [
        "On Tuesday, jerryzh168 landed PR 1240 in the same autoquant module."]


def test_a_commit_is_never_read_by_its_hash_and_a_nameless_file_is_one_of_the_same():
    f = follow(ref=m.Ref(sha="0123abcd" * 5), path="x/_.py")
    assert said(f) == ["On Tuesday, jerryzh168 landed a commit in one of the same files, "
                       "adding the first version of autoquant v2."]
    # With no number and no clean reading, nothing is left to look up: no sentence.
    assert said(dataclasses.replace(f, title="Autoquant v2 initial version")) == []


def test_nothing_without_a_link_or_in_a_weekly_recap():
    assert said(None) == []
    assert said(follow(), weekly=True) == []


def test_the_earlier_number_passes_only_because_the_digest_carries_the_link():
    text = "Before this, jerryzh168 landed PR 1240 on Tuesday in the same autoquant module."
    assert Facts.from_digest(digest(follow())).problems(text, (1240,)) == []
    unknown = Facts.from_digest(digest(None))
    assert unknown.problems(text) == ["PR number 1240 is not in the digest"]
    assert unknown.problems(text, (1240,))[0] == "cites PR 1240, which is not in the digest"
    # a link to another PR vouches for that one only
    other = Facts.from_digest(digest(follow(ref=m.Ref(pr=1239))))
    assert other.problems(text) == ["PR number 1240 is not in the digest"]


def test_the_sentence_after_the_who_sentence_never_opens_on_its_two_words():
    # "The work comes from jerryzh168, … The work follows PR 1240, which …" was heard: two
    # sentences in a row opening alike.
    d = digest(follow(back=3))
    day = DAY.replace(day=14)
    x = Lookup(d, show="Widget", day=day, lexicon={})
    plan = make_plan(d, show="Widget", day=day, max_themes=3)
    x.line("The work comes from jerryzh168, who landed a single PR, 1328.", (1328,))
    (text,) = [ln.text for ln in follows(x, plan.themes[0])]
    assert not text.startswith("The work"), text
    assert "PR 1240" in text and "Monday" in text, text
