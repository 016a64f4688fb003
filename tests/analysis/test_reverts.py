from analysis_builders import commit, files, pr, window

from mergecast.analysis.digest import build_digest
from mergecast.analysis.reverts import reland_title, revert_of, revert_story
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
    assert chain.title == "Keep widget cache entries across resize"
    assert chain.steps == (ChainStep("revert", Ref(610, None), by="carol",
                                     reason="breaks the ARM build"),)

    d10 = build_digest([RELAND], window(10), areas=AreasConfig(), history=[ORIGINAL, REVERT])
    assert [(p.revert.pr, p.original.pr) for p in d10.relands] == [(620, 600)]
    assert d10.reverts == ()
    [chain] = d10.chains  # told once: the revert yesterday, the reland today
    assert [(s.kind, s.ref.pr, s.in_window) for s in chain.steps] == \
        [("revert", 610, False), ("reland", 620, True)]
    assert chain.relanded and chain.author == "alice"


def test_a_revert_that_redoes_the_change_in_the_same_pr_brings_it_back():
    # (the git source reads "Reverts PR: …/pull/600" in the message as this revert)
    redo = pr(611, 'Revert PR-600 & Redo "Keep widget cache entries across resize"', day=9,
              revert=Revert(pr=600))
    d9 = build_digest([redo], window(9), areas=AreasConfig(), history=[ORIGINAL])
    [chain] = d9.chains
    assert [(s.kind, s.ref.pr) for s in chain.steps] == [("revert", 611), ("reland", 611)]
    assert chain.relanded
    assert [(p.revert.pr, p.original.pr) for p in d9.relands] == [(611, 600)]
    # A plain revert is not redone.
    [chain] = build_digest([REVERT], window(9), areas=AreasConfig(), history=[ORIGINAL]).chains
    assert not chain.relanded


def test_a_back_out_of_a_quoted_title_is_a_revert_of_that_change():
    # What an internal tool writes for a revert: 'Back out "X (#600)"'.
    back = pr(612, 'Back out "[cache] Keep widget cache entries across resize (#600)"',
              author="bob", day=9)
    assert revert_of(back) == Revert(
        pr=600, title="[cache] Keep widget cache entries across resize (#600)")
    [chain] = build_digest([back], window(9), areas=AreasConfig(), history=[ORIGINAL]).chains
    assert (chain.original.pr, chain.author, [(s.kind, s.ref.pr) for s in chain.steps]) == \
        (600, "alice", [("revert", 612)])
    assert revert_of(pr(613, "Back out the loader change for now")) is None


def test_revert_by_sha_only_and_by_source_parse():
    landed = commit("abc1234" + "f" * 33, "Speed up loader", day=8)
    rv = commit("d" * 40, 'Revert "Speed up loader"', body="This reverts commit abc1234.", day=9)
    _, reverts, _ = revert_story(window(9), [rv], [landed], {})
    assert reverts[0].original == Ref(None, landed.sha)
    parsed = pr(5, "Back out loader", revert=Revert(pr=4, reason="flaky"))
    _, reverts, _ = revert_story(window(10), [parsed], [], {})
    assert reverts[0].original == Ref(4, None) and reverts[0].reason == "flaky"


def test_revert_chain_from_a_real_history_credits_the_original_author(make_repo):
    import datetime as dt

    from gitrepo import Commit, day
    from mergecast.models import Window
    from mergecast.sources.git import GitSource

    bot = ("PyTorch MergeBot", "pytorchmergebot@users.noreply.github.com")
    ada = ("Ada Lovelace", "4242+ada-l@users.noreply.github.com")
    repo = make_repo([
        Commit("Speed up the widget loader (#600)", day(18), {"w/load.py": b"fast\n"},
               author=ada),
        Commit('Revert "Speed up the widget loader (#600)"\n\nReverted '
               "https://github.com/acme/widgets/pull/600 on behalf of "
               "https://github.com/carol-c due to breaks the ARM build ([comment](https://"
               "github.com/acme/widgets/pull/600#issuecomment-1))", day(19),
               {"w/load.py": b"slow\n"}, author=bot),
        Commit('Revert "Revert "Speed up the widget loader (#600)""\n\n'
               "Pull Request resolved: https://github.com/acme/widgets/pull/620", day(20, 9),
               {"w/load.py": b"fast\n"}, author=ada),
        Commit("Render gadgets faster (#621)", day(20, 10), {"g/r.py": b"x\n"},
               author=("Bob Babbage", "bob@acme.dev")),
    ])
    changes = list(GitSource(repo, slug="acme/widgets").read())
    w = Window(day(20, 0), day(20, 0) + dt.timedelta(days=1))
    today = [c for c in changes if c.active_in(w)]
    history = [c for c in changes if not c.active_in(w)]
    d = build_digest(today, w, areas=AreasConfig(), history=history)
    [chain] = d.chains
    assert (chain.original.pr, chain.title, chain.author) == \
        (600, "Speed up the widget loader", "ada-l")
    assert [(s.kind, s.by, s.reason, s.in_window) for s in chain.steps] == [
        ("revert", "carol-c", "breaks the ARM build", False),
        ("reland", "ada-l", None, True),
    ]
    assert chain.relanded
    assert all(620 not in t.prs for t in d.themes)  # told by its chain, not as a theme
    assert [(p.revert.pr, p.original.pr) for p in d.relands] == [(620, 600)]


def test_work_reverted_for_good_names_no_theme_that_has_other_work():
    # Two PRs on one file: the bigger one was reverted the same day, so the theme is
    # named by the work that stayed, not by what is gone.
    gone = pr(700, "Rewrite the widget planner", day=9, files=files("widget/plan.py", add=400),
              shas=("d00d" + "0" * 36,))
    kept = pr(701, "Add a retry knob to the widget planner", day=9,
              files=files("widget/plan.py", add=20))
    undo = pr(702, 'Revert "Rewrite the widget planner"', author="bob", day=9,
              body="This reverts commit d00d000000.")
    d = build_digest([gone, kept, undo], window(9), areas=AreasConfig())
    [chain] = d.chains
    assert chain.undone
    [theme] = [t for t in d.themes if 700 in t.prs]
    assert theme.prs == (700, 701)
    assert theme.headline == "adding a retry knob to the widget planner"
    # Reverted and relanded, the work stands and names the theme with the rest.
    back = pr(703, "Reland: Rewrite the widget planner", day=9, files=files("widget/plan.py"))
    d = build_digest([gone, kept, undo, back], window(9), areas=AreasConfig())
    assert not d.chains[0].undone
    assert [t.headline for t in d.themes if 700 in t.prs] == ["widget planner"]


def test_the_revert_buttons_body_names_the_pr_it_reverts():
    # GitHub's revert button writes "Reverts owner/repo#N"; the title alone may be cut.
    button = pr(703, 'Revert "Rewrite the widget planner"', body="Reverts acme/widgets#700\n\nOops")
    assert revert_of(button) == Revert(pr=700, title="Rewrite the widget planner")
    assert revert_of(pr(704, "Undo the planner", body="Reverts #700")) == Revert(pr=700)
    # another repository's PR is not this one's to revert
    other = pr(705, "Undo the planner", body="Reverts other/repo#700")
    assert revert_of(other) is None
    # … and a summary's item says it too: "PR 2964 reverted FlexAttn max autotune default
    # to True" was heard with no word of the PR it undid
    item = pr(706, "Revert widget planner default to True",
              body="## Summary\n- Reverts #700 which changed the default to False\n- Skips "
                   "the planner tests")
    assert revert_of(item) == Revert(pr=700)
    both = pr(707, "Revert widget PRs to fix CI", body="- Reverts #700\n- Reverts #701")
    assert (revert_of(both) or Revert()).pr is None  # (of two PRs: not the first alone)
