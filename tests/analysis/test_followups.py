import dataclasses
import datetime as dt

from mergecast import models as m
from mergecast.analysis.followups import SWEEP_FILES, follow_ups, substantive
from mergecast.analysis.memory import link_earlier
from mergecast.analysis.report import digest_json, format_digest

UTC = dt.UTC
WINDOW = m.Window(dt.datetime(2026, 8, 6, 13, tzinfo=UTC), dt.datetime(2026, 8, 7, 13, tzinfo=UTC))
QUANT = "torchao/quantization/autoquant.py"


def change(number, title, files=(QUANT,), author="jerryzh168", days_back=2.0, **kw):
    when = WINDOW.since - dt.timedelta(days=days_back)
    return m.Change(repo="o/r", number=number, title=title, author=m.Person(login=author),
                    state=m.State.MERGED, merged_at=when, created_at=when,
                    files=tuple(m.FileChange(p, 10, 2) for p in files), **kw)


TODAY = change(1328, "Speed up autoquant v2 for Mixtral", days_back=-0.5)


def theme(*changes, authors=("jerryzh168",), headline="speeding up autoquant v2"):
    return m.Theme(1, headline, m.ThemeKind.SINGLE, authors, ("quantization",),
                   tuple(c.number for c in changes), (), None, 5.0, ())


def linked(past, today=(TODAY,), authors=("jerryzh168",)):
    return follow_ups([theme(*today, authors=authors)], list(today), list(past), WINDOW)[0]


def test_the_same_authors_earlier_change_to_one_of_its_files_is_followed():
    f = linked([change(1240, "Autoquant v2 initial version")]).follows
    assert f == m.FollowUp(ref=m.Ref(pr=1240), author="jerryzh168",
                           landed=dt.date(2026, 8, 4), title="Autoquant v2 initial version",
                           path=QUANT)


def test_the_most_recent_earlier_change_is_chosen():
    older = change(1200, "Autoquant v2 scaffolding", days_back=5)
    newer = change(1240, "Autoquant v2 initial version", days_back=1)
    assert linked([newer, older]).follows.ref.pr == 1240
    assert linked([older, newer]).follows.ref.pr == 1240


def test_an_earlier_change_is_followed_by_the_first_theme_only():
    # Two themes building on one earlier change: "Before this, … landed PR 1240 …" once.
    other = change(1329, "Autoquant v2 cache for Mixtral", days_back=-0.4)
    first, second = follow_ups([theme(TODAY), theme(other, headline="autoquant v2 cache")],
                               [TODAY, other], [change(1240, "Autoquant v2 initial version")],
                               WINDOW)
    assert first.follows is not None and first.follows.ref.pr == 1240
    assert second.follows is None


def test_a_bots_change_is_not_followed():
    assert linked([change(1240, "Autoquant v2 initial version", bot=True)]).follows is None


def test_a_revert_is_not_followed_nor_a_reverted_change():
    revert = change(1250, 'Revert "Autoquant v2 initial version"', days_back=1)
    assert linked([revert]).follows is None
    original = change(1240, "Autoquant v2 initial version", days_back=3)
    assert linked([original, revert]).follows is None


def test_a_sweep_is_not_followed():
    files = [QUANT] + [f"torchao/m{i}.py" for i in range(SWEEP_FILES)]
    assert linked([change(1240, "Autoquant v2 lint everything", files=files)]).follows is None


def test_sharing_only_tests_docs_or_configs_is_no_link():
    shared = ("test/quantization/test_autoquant.py", "docs/autoquant.md", "pyproject.toml",
              "torchao/quantization/__init__.py")
    today = change(1328, "Speed up autoquant v2 for Mixtral", files=shared, days_back=-0.5)
    before = change(1240, "Autoquant v2 initial version", files=shared)
    assert substantive(before) == frozenset()
    assert linked([before], today=(today,)).follows is None


def test_another_authors_change_is_not_followed():
    other = change(1240, "Autoquant v2 initial version", author="HDCharles")
    assert linked([other]).follows is None
    assert linked([other], authors=("jerryzh168", "HDCharles")).follows.ref.pr == 1240


def test_a_change_older_than_a_week_is_not_followed():
    assert linked([change(1240, "Autoquant v2 initial version", days_back=7.5)]).follows is None


def test_a_shared_file_without_related_titles_is_no_link():
    assert linked([change(1240, "Update ruff version")]).follows is None


def test_a_theme_that_continues_an_earlier_episode_says_that_instead():
    t = linked([change(1240, "Autoquant v2 initial version")])
    digest = m.Digest(WINDOW, m.Counts(1, 1, 0, 1), (t,), (), (), (), (), ())
    earlier = m.Episode("2026-08-06", "daily", m.Window(WINDOW.since - dt.timedelta(days=1),
                                                        WINDOW.since),
                        WINDOW.since, m.Script("S", dt.date(2026, 8, 6), "T", "s", "template", ()),
                        m.Audio(1.0, (), ()),
                        themes=(m.ThemeRef("x", ("jerryzh168",), (), (1328,)),))
    after = link_earlier(digest, [earlier]).themes[0]
    assert after.continues is not None and after.follows is None
    assert dataclasses.replace(after, continues=None) == dataclasses.replace(t, follows=None)


def test_the_digest_report_says_what_a_theme_follows_and_by_what():
    t = linked([change(1240, "Autoquant v2 initial version")])
    d = m.Digest(WINDOW, m.Counts(1, 1, 0, 1), (t,), (), (), (), (), ())
    assert digest_json(d)["themes"][0]["follows"] == {
        "ref": {"pr": 1240, "sha": None}, "author": "jerryzh168", "landed": "2026-08-04",
        "title": "Autoquant v2 initial version", "path": QUANT, "url": None}
    assert f"      follows #1240 by jerryzh168, landed 2026-08-04, in {QUANT}" in \
        format_digest(d).splitlines()
