import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mergecast import models as m

UTC = dt.UTC


def test_change_round_trips_through_json():
    c = m.Change(
        repo="o/r", title="t", number=5, shas=("abc",), author=m.Person(login="x"),
        created_at=dt.datetime(2026, 7, 24, tzinfo=UTC), state=m.State.MERGED,
        labels=("module: mps",), files=(m.FileChange("a.py", 1, None),),
        trailers=(m.Trailer("Signed-off-by", "X <x@y>"),), revert=m.Revert(pr=4, reason="broke"),
    )
    assert m.from_dict(m.Change, m.to_dict(c)) == c


def test_episode_round_trips_with_int_keyed_links():
    script = m.Script("S", dt.date(2026, 7, 25), "T", "sum", "template", (
        m.Section("intro", "Intro", (m.Sentence("Hi.", "Hi.", (5,)),)),))
    audio = m.Audio(1.5, (m.Cue(0, 0, 0.0, 1.0, "Hi."),), (m.Chapter(0.0, "Intro"),), 10, "ff", "piper")
    w = m.Window(dt.datetime(2026, 7, 24, 13, tzinfo=UTC), dt.datetime(2026, 7, 25, 13, tzinfo=UTC))
    ep = m.Episode(
        "2026-07-25", "daily", w, w.until, script, audio, links={5: "https://x/5"},
        ledger=(m.LedgerEntry(5, None, "Fix", "https://x/5", "fixes", True, "ada", "author"),
                m.LedgerEntry(None, "abc", "Tidy", None, "Other changes", False, "", "bot")),
        duplicates=(m.Duplicate((5, 6), "both say they fix #7", "issue", ("#7",)),),
        chains=(m.RevertChain(m.Ref(3), "Speed up", "ada",
                              (m.ChainStep("revert", m.Ref(5), "bo", "flaky", True),)),))
    back = m.from_dict(m.Episode, m.to_dict(ep))
    assert back == ep
    assert back.links[5] == "https://x/5"
    assert back.coverage == "2 changes: 1 told, 1 listed"


def test_window_is_half_open():
    w = m.Window(dt.datetime(2026, 1, 1, tzinfo=UTC), dt.datetime(2026, 1, 2, tzinfo=UTC))
    assert w.contains(w.since)
    assert not w.contains(w.until)


def test_section_cites_keep_first_seen_order():
    s = m.Section("theme", "h", (m.Sentence("a", "a", (3, 1)), m.Sentence("b", "b", (1, 2))))
    assert s.cites == (3, 1, 2)
    assert s.text == "a b"


@given(st.text(), st.integers(min_value=1, max_value=10**7) | st.none(), st.lists(st.text(), max_size=3))
def test_any_change_round_trips(title, number, labels):
    c = m.Change(repo="o/r", title=title, number=number, labels=tuple(labels), shas=("s",))
    assert m.from_dict(m.Change, m.to_dict(c)) == c


@pytest.mark.parametrize(("field", "value", "error"), [
    ("title", 5, "expected str, got int"),
    ("title", None, "expected str, got NoneType"),
    ("number", True, "expected int, got bool"),
    ("number", 1.5, "expected int, got float"),
    ("labels", "module: mps", "expected tuple[str, ...], got str"),
    ("author", ["x"], "expected Person, got list"),
    ("created_at", 5, "expected datetime, got int"),
])
def test_a_stored_value_of_the_wrong_type_is_refused_not_passed_on(field, value, error):
    # a malformed store row must fail where it is read (named there), not deep in analysis
    data = m.to_dict(m.Change(repo="o/r", title="t", number=5, shas=("abc",)))
    data[field] = value
    with pytest.raises(TypeError) as caught:
        m.from_dict(m.Change, data)
    assert str(caught.value) == error
