import datetime as dt

from mergecast import models as m
from mergecast.analysis.memory import link_earlier

UTC = dt.UTC


def window(day: int) -> m.Window:
    until = dt.datetime(2026, 8, day, 13, tzinfo=UTC)
    return m.Window(until - dt.timedelta(days=1), until)


def theme(prs, headline="nccl2 hardening", authors=("tushar00jain",), declared=()):
    stack = (m.Stack("ghstack", authors, len(declared) or None, tuple(prs), tuple(declared))
             if declared else None)
    return m.Theme(1, headline, "stack" if stack else "cluster", authors, ("c10d",), tuple(prs), (),
                   stack, 10.0, ("3 PRs",))


def digest(day: int, themes=(), reverts=()) -> m.Digest:
    return m.Digest(window(day), m.Counts(3, 3, 0, 1), tuple(themes), (), tuple(reverts), (), (),
                    ())


def episode(day: int, refs, links=None) -> m.Episode:
    script = m.Script("S", dt.date(2026, 8, day), "T", "s", "template", ())
    return m.Episode(f"2026-08-{day:02d}", "daily", window(day), window(day).until, script,
                     m.Audio(1.0, (), ()), themes=tuple(refs), links=links or {})


def ref(prs, headline="nccl2 hardening"):
    return m.ThemeRef(headline, ("tushar00jain",), ("c10d",), tuple(prs))


def test_a_stack_seen_yesterday_continues():
    declared = [192104, 192110, 192233, 192234]
    d = link_earlier(digest(5, [theme([192233, 192234], declared=declared)]),
                     [episode(4, [ref([192105, 192110])])])
    c = d.themes[0].continues
    assert c is not None
    assert (c.episode_id, c.days, c.prs) == ("2026-08-04", 2, (192110,))


def test_third_consecutive_day_is_counted():
    earlier = [episode(3, [ref([1])]), episode(4, [ref([2])])]
    d = link_earlier(digest(5, [theme([1, 2, 3])]), earlier)
    assert d.themes[0].continues.days == 3
    assert d.themes[0].continues.episode_id == "2026-08-04"


def test_a_gap_is_not_consecutive():
    d = link_earlier(digest(6, [theme([1, 9])]), [episode(3, [ref([1])])])
    assert d.themes[0].continues.days == 1


def test_unrelated_work_is_new():
    d = link_earlier(digest(5, [theme([7], headline="mps kernels", authors=("someone",))]),
                     [episode(4, [ref([1])])])
    assert d.themes[0].continues is None


def test_same_name_author_and_area_continue_unless_the_name_is_a_grab_bag():
    # Same author, area and name, no PR in common: the same work, said again...
    d = link_earlier(digest(5, [theme([7])]), [episode(4, [ref([1])])])
    assert d.themes[0].continues is not None
    # ... but "Loader work" names where two days' unrelated PRs happened, not one story.
    d = link_earlier(digest(5, [theme([7], headline="Loader work")]),
                     [episode(4, [ref([1], headline="Loader work")])])
    assert d.themes[0].continues is None


def test_future_episodes_are_ignored():
    d = link_earlier(digest(5, [theme([1])]), [episode(6, [ref([1])])])
    assert d.themes[0].continues is None


def test_revert_links_to_the_episode_that_covered_the_original():
    pair = m.RevertPair(m.Ref(pr=50), m.Ref(pr=42), "broke trunk")
    d = link_earlier(digest(5, reverts=[pair]), [episode(3, [ref([42])]), episode(4, [ref([43])])])
    assert d.reverts[0].original_episode == "2026-08-03"


def test_a_chain_whose_original_an_earlier_episode_told_links_to_it():
    chain = m.RevertChain(m.Ref(700), "Speed up the widget loader", "ada-l",
                          (m.ChainStep("revert", m.Ref(710), by="carol-c"),))
    other = m.RevertChain(m.Ref(800), "Unrelated", None,
                          (m.ChainStep("revert", m.Ref(810)),))
    d = m.Digest(window(5), m.Counts(2, 2, 0, 1), (), (), (), (), (), (), chains=(chain, other))
    linked = link_earlier(d, [episode(2, [ref([700])]), episode(3, [ref([1])])])
    assert [c.original_episode for c in linked.chains] == ["2026-08-02", None]


def test_what_the_covering_episode_said_is_remembered_with_the_continuing_theme():
    text = "SIGABRT is not a failure mode a trainer can handle."
    said = m.Sentence(text, text, cites=(192048,))
    script = m.Script("S", dt.date(2026, 8, 4), "T", "s", "template",
                      (m.Section("theme", "First theme", (said,)),))
    earlier = m.Episode("2026-08-04", "daily", window(4), window(4).until, script,
                        m.Audio(1.0, (), ()), themes=(ref([192048]),))
    d = link_earlier(digest(5, [theme([192105])]), [earlier])
    assert d.themes[0].continues.said == (text,)
