import dataclasses

from analysis_builders import ghstack, pr, sample, sample_window, window

from mergecast.analysis.digest import build_digest
from mergecast.config import AreasConfig
from mergecast.models import State

BUG = ("The widget cache drops every entry when the window is resized, so each read after "
       "a resize goes to disk. Keep entries whose keys survive the resize.")


def dups(changes, day=10, history=()):
    d = build_digest(changes, window(day), areas=AreasConfig(), history=history)
    return {x.prs: x.why for x in d.duplicates}


def test_two_open_prs_fixing_the_same_bug_across_days():
    mine = pr(500, "[cache] Keep widget cache entries across resize", body=BUG, day=10,
              state=State.OPEN)
    theirs = pr(470, "[cache] Widget cache loses entries on resize", author="bob",
                body=BUG.replace("Keep", "Retain"), day=7, state=State.OPEN)
    found = dups([mine], history=[theirs])
    assert list(found) == [(470, 500)]
    assert found[(470, 500)].startswith("similar problem statements (similarity")
    # once both landed, similar wording is no longer evidence of duplicated effort
    landed = [dataclasses.replace(c, state=State.MERGED) for c in (mine, theirs)]
    assert dups(landed[:1], history=landed[1:]) == {}


def test_same_referenced_issue():
    a = pr(10, "[cache] Handle resize", body="Fixes #77. Resize handling.")
    b = pr(11, "[cache] Do not flush on window change", author="bob",
           body="Closes https://github.com/acme/widgets/issues/77")
    assert dups([a, b]) == {(10, 11): "both say they fix #77"}


def test_same_author_resubmission_and_stack_siblings_are_not_duplicates():
    a = pr(10, "[cache] Keep widget cache entries across resize", body=BUG, state=State.OPEN)
    again = pr(12, "[cache] Keep widget cache entries across resize", body=BUG,
               state=State.OPEN)
    s1 = pr(20, "[cache] Keep entries on resize, part one", author="bob",
            body=ghstack(20, 20, 21) + BUG, state=State.OPEN)
    s2 = pr(21, "[cache] Keep entries on resize, part two", author="bob",
            body=ghstack(21, 20, 21) + BUG, state=State.OPEN)
    found = dups([a, again, s1, s2])
    assert (10, 12) not in found and (20, 21) not in found
    assert {(10, 20), (10, 21), (12, 20)} & set(found)  # cross-author pairs do count


def test_different_areas_are_not_duplicates():
    a = pr(10, "[cache] Keep widget cache entries across resize", body=BUG)
    b = pr(11, "[docs] Keep widget cache entries across resize", author="bob", body=BUG)
    assert dups([a, b]) == {}


def test_real_sample_cross_author_duplicate():
    changes = sample()
    w = sample_window(6)
    today = [c for c in changes if c.active_in(w)]
    history = [c for c in changes if c.created_at and c.created_at < w.since]
    d = build_digest(today, w, areas=AreasConfig(), history=history)
    pairs = {x.prs for x in d.duplicates}
    assert (192105, 192280) in pairs and (191948, 192280) in pairs
    # same-author resubmissions (#191953/#191985/#192110, #191948/#192105) are never pairs
    assert not pairs & {(191953, 191985), (191985, 192110), (191948, 192105)}
    # stack siblings never pair
    assert not pairs & {(192276, 192280), (192280, 192281)}
