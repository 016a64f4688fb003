from analysis_builders import commit, files, ghstack, pr, window

from mergecast.analysis import build_digest
from mergecast.analysis.ledger import change_url, ledger
from mergecast.config import AreasConfig
from mergecast.models import Change, State


def test_every_window_change_is_told_or_listed_under_its_theme_or_area():
    changes = [
        *(pr(n, f"[cache] Warm cache part {n}", body=ghstack(n, 1, 2)) for n in (1, 2)),
        pr(3, 'Revert "[cache] Evict by size"', author="bo",
           files=files("cache/evict.py")),
        pr(4, "Bump numpy", author="dependabot[bot]", bot=True),
        commit("d" * 40, "Tidy the loader"),
    ]
    d = build_digest(changes, window(10), areas=AreasConfig())
    entries = {e.number or e.sha: e for e in ledger(d, cited={1, 3})}
    stack = d.themes[0].headline
    assert (entries[1].group, entries[1].told, entries[2].told) == (stack, True, False)
    assert (entries[3].group, entries[3].told) == ("cache", True)  # a revert: its area
    assert (entries[4].group, entries[4].author, entries[4].credit) == ("Other changes", "",
                                                                         "bot")
    assert entries[1].url == "https://github.com/acme/widgets/pull/1"
    assert entries["d" * 40].url == f"https://github.com/acme/widgets/commit/{'d' * 40}"
    assert len(entries) == d.counts.changes


def test_change_url_needs_an_owner_name_slug():
    local = Change(repo="widgets", title="x", number=5, state=State.OPEN)
    assert change_url(local) is None
    own = Change(repo="widgets", title="x", number=5, url="https://git.example/5")
    assert change_url(own) == "https://git.example/5"


def test_ledger_titles_carry_no_made_up_references():
    d = build_digest([pr(5, "<b>Lookalike</b> ＰＲ ９９９９９９ fix, see #12345")], window(10),
                     areas=AreasConfig())
    [entry] = ledger(d, cited=())
    assert entry.title == "Lookalike ＰＲ fix" and entry.number == 5
