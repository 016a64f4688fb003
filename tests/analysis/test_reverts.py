from analysis_builders import commit, pr, window

from mergecast.analysis.digest import build_digest
from mergecast.analysis.reverts import pair_reverts, reland_title, revert_of
from mergecast.config import AreasConfig
from mergecast.models import ChainStep, Ref, Revert

ORIGINAL = pr(600, "[cache] Keep widget cache entries across resize", day=8,
              shas=("c0ffee" + "0" * 34,))
REVERT = pr(610, 'Revert "[cache] Keep widget cache entries across resize"', author="bot", day=9,
            body="This reverts commit c0ffee0000.\n\nReverted "
                 "https://github.com/acme/widgets/pull/600 on behalf of "
                 "https://github.com/carol due to breaks the ARM build ([comment](x))")
RELAND = pr(620, "Reland: [cache] Keep widget cache entries across resize", day=10)


def test_revert_is_read_from_title_and_body():
    rv = revert_of(REVERT)
    assert rv == Revert(sha="c0ffee0000", pr=600, reason="breaks the ARM build", by="carol",
                        title="[cache] Keep widget cache entries across resize")
    assert reland_title(RELAND) == "[cache] Keep widget cache entries across resize"
    assert reland_title(pr(1, "[reland] Speed up x")) == "Speed up x"


def test_revert_and_reland_on_two_days_pair_through_history():
    d9 = build_digest([REVERT], window(9), areas=AreasConfig(), history=[ORIGINAL])
    [pair] = d9.reverts
    assert pair.revert == Ref(610, None) and pair.original == Ref(600, ORIGINAL.sha)
    assert pair.reason == "breaks the ARM build"
    assert not any(610 in t.prs for t in d9.themes)  # a revert is no theme's landed work
    [chain] = d9.chains
    assert chain.original == Ref(600, ORIGINAL.sha) and chain.author == "alice"
    assert chain.title == "[cache] Keep widget cache entries across resize"
    assert chain.steps == (ChainStep("revert", Ref(610, None), by="carol",
                                     reason="breaks the ARM build"),)

    d10 = build_digest([RELAND], window(10), areas=AreasConfig(), history=[ORIGINAL, REVERT])
    assert [(p.revert.pr, p.original.pr) for p in d10.relands] == [(620, 600)]
    assert d10.reverts == ()
    [chain] = d10.chains  # told once: the revert yesterday, the reland today
    assert [(s.kind, s.ref.pr, s.in_window) for s in chain.steps] == \
        [("revert", 610, False), ("reland", 620, True)]
    assert chain.relanded and chain.author == "alice"


def test_revert_by_sha_only_and_by_source_parse():
    landed = commit("abc1234" + "f" * 33, "Speed up loader", day=8)
    rv = commit("d" * 40, 'Revert "Speed up loader"', body="This reverts commit abc1234.", day=9)
    reverts, _ = pair_reverts([rv], [landed])
    assert reverts[0].original == Ref(None, landed.sha)
    parsed = pr(5, "Back out loader", revert=Revert(pr=4, reason="flaky"))
    reverts, _ = pair_reverts([parsed], [])
    assert reverts[0].original == Ref(4, None) and reverts[0].reason == "flaky"
