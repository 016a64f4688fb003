"""The plan: what an episode says, decided from the digest before any sentence; and the
day-level sections realised from it (revert chains, duplicates, roundups, outro)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools

from writing_builders import DAY, LLM, WRITING, pr, rich_digest, small_digest

from mergecast import models as m
from mergecast.config import WritingConfig
from mergecast.writing import described, fact_check, write_script
from mergecast.writing.changes import area_name, restates
from mergecast.writing.length import Line, Part, fit, total_words
from mergecast.writing.phrases import Lookup
from mergecast.writing.plan import make_plan
from mergecast.writing.sections import notes


def plan(d: m.Digest) -> m.Plan:
    return make_plan(d, show="Widget", day=DAY, max_themes=3)


def write(d: m.Digest) -> m.Script:
    return write_script(d, show="Widget", day=DAY, writing=WRITING, lexicon={}, llm=LLM)


def section(script: m.Script, kind: str) -> str:
    return " ".join(s.text for s in script.sections if s.kind == kind)


def test_theme_plans_carry_concept_size_problem_effects_benefit_and_open_work():
    first, second, third = plan(rich_digest()).themes
    assert (first.concept, first.status, first.work, first.area) == (
        "convolution tile planning", "landed", "capability", "Inductor")
    assert first.problem is not None and first.problem.kind == "problem"
    assert first.benefit is not None and "Warm starts now skip" in first.benefit.text
    assert [a.lemma for a in first.effects] == ["add", "add", "use", "use", "use", "enable"]
    assert second.open_prs == (584073,) and second.status == "pushed"
    assert third.concept == "Vulkan reductions" and third.prs == (584097,)


def chained() -> m.Digest:
    """The rich day with the analysis stage's revert chains (issue 14), not bare pairs."""
    d = rich_digest(extra=[pr(584150, "[dynamo] Speed up guard checks", "devkumar4417")])
    chain = m.RevertChain(
        original=m.Ref(pr=584150), title="[dynamo] Speed up guard checks",
        author="devkumar4417",
        steps=(m.ChainStep("revert", m.Ref(pr=584200), by="okunle",
                           reason="broke internal tests"),
               m.ChainStep("reland", m.Ref(pr=584201), by="devkumar4417")))
    return dataclasses.replace(d, chains=(chain,))


def test_a_revert_chain_is_told_once_by_what_it_reverted_who_why_and_whether_it_came_back():
    d = chained()
    reverts = section(write(d), "reverts")
    assert reverts == (
        "devkumar4417's PR 584150, speeding up guard checks, was reverted by okunle in "
        "PR 584200. The reason given: broke internal tests. The change came back in PR 584201.")
    assert plan(d).chains == d.chains


def test_a_revert_that_redoes_the_change_says_the_same_pr_brings_it_back():
    d = chained()
    redo = dataclasses.replace(d.chains[0], steps=(
        m.ChainStep("revert", m.Ref(pr=584200), by="okunle"),
        m.ChainStep("reland", m.Ref(pr=584200), by="okunle")))
    assert section(write(dataclasses.replace(d, chains=(redo,))), "reverts") == (
        "devkumar4417's PR 584150, speeding up guard checks, was reverted by okunle in "
        "PR 584200. The same PR brings the change back, redone.")


def test_every_later_step_of_a_chain_is_told_up_to_the_newest():
    # A reland reverted again was told as "The change came back in PR 584201." alone: the
    # day's own news, the second revert, went unsaid and the change sounded back for good.
    d = chained()
    again = dataclasses.replace(d.chains[0], steps=(
        *d.chains[0].steps,
        m.ChainStep("revert", m.Ref(pr=584230), by="wrenfield"),
        m.ChainStep("reland", m.Ref(pr=584240), by="devkumar4417")))
    assert section(write(dataclasses.replace(d, chains=(again,))), "reverts").endswith(
        "The change came back in PR 584201. wrenfield reverted it again in PR 584230. "
        "It came back once more in PR 584240.")
    # its own author's revert names nobody twice
    own = dataclasses.replace(again, steps=(
        *d.chains[0].steps, m.ChainStep("revert", m.Ref(pr=584230), by="devkumar4417")))
    assert section(write(dataclasses.replace(d, chains=(own,))), "reverts").endswith(
        "The change came back in PR 584201. PR 584230 reverted it again.")


def test_a_revert_of_a_reland_says_it_reverted_the_reland():
    # "PR 3427 reverted adding fusion passes. The change came back in PR 3418." had the
    # reland come back after the revert that undid it.
    d = chained()
    reland_first = m.RevertChain(
        original=m.Ref(), title="Add widget fusion passes", author=None,
        steps=(m.ChainStep("reland", m.Ref(pr=584201), by="devkumar4417"),
               m.ChainStep("revert", m.Ref(pr=584230), by="wrenfield")))
    assert section(write(dataclasses.replace(d, chains=(reland_first,))), "reverts") == (
        "PR 584230 reverted PR 584201, another try at adding widget fusion passes.")


def test_a_reland_with_no_revert_names_both_prs_before_what_came_back():
    # "PR 3213 relands enabling bucketing pass, PR 3107." left the second number hanging.
    d = chained()
    back = m.RevertChain(
        original=m.Ref(pr=584150), title="[dynamo] Speed up guard checks",
        author="devkumar4417",
        steps=(m.ChainStep("reland", m.Ref(pr=584201), by="devkumar4417"),))
    assert section(write(dataclasses.replace(d, chains=(back,))), "reverts") == (
        "PR 584201 relands PR 584150, speeding up guard checks.")


def test_a_name_whose_words_repeat_is_said_whole():
    # "Yang Yang landed PR 1324" was said "Yang landed PR 1324": a doubled word is said once,
    # but a person's name is theirs.
    d = rich_digest(extra=[pr(584150, "Add the widget planner", "Wren Wren")])
    x = Lookup(d, show="Widget", day=DAY, lexicon={})
    line = x.line("Also today, Wren Wren landed PR 584150, adding the widget planner.", (584150,))
    assert line is not None and line.text.startswith("Also today, Wren Wren landed"), line
    line = x.line("PR 584150 adds support Support for the widget planner.", (584150,))
    assert line is not None and "support for the widget" in line.text, line


def test_a_reverted_addition_is_told_as_the_adding():
    # "PR 584200 reverted a retry budget" would say the budget was the revert's to undo.
    d = chained()
    chain = dataclasses.replace(d.chains[0], title="Add a retry budget to the uploader",
                                author=None, original=m.Ref(pr=584150))
    reverts = section(write(dataclasses.replace(d, chains=(chain,))), "reverts")
    assert reverts.startswith("PR 584200 reverted adding a retry budget to the uploader, "
                              "PR 584150."), reverts


def test_without_analysis_chains_the_pairs_are_told_as_chains():
    reverts = section(write(rich_digest()), "reverts")
    assert reverts.startswith("PR 584200 reverted speeding up guard checks, PR 584150.")
    assert "came back in PR 584201" in reverts
    assert "not come back" not in reverts  # a pair cannot know that


def test_a_theme_of_only_reverts_is_not_a_theme():
    d = rich_digest()
    revert_theme = m.Theme(1, "a revert of speeding up guard checks", "single", ("pytorchbot",),
                           ("Dynamo",), (584200,), (), None, 9.0, ("revert",))
    d = dataclasses.replace(d, themes=(revert_theme, *d.themes))
    assert [t.concept for t in plan(d).themes][0] == "convolution tile planning"


def test_duplicates_say_their_evidence_kind():
    d = rich_digest()
    d = dataclasses.replace(d, duplicates=(dataclasses.replace(
        d.duplicates[0], evidence="issue", shared=("#4242",)),))
    dup = section(write(d), "duplicates")
    assert dup.startswith("Two separate PRs, 587111 and 587167, both tackle keeping ChainMap "
                          "lookup order, and both point at the same issue.")


def test_a_duplicate_from_an_earlier_day_is_no_second_effort_beside_the_first():
    # "Two separate PRs, 1007 and 1094, both tackle experimental 6-bit quantization …": PR
    # 1007 had landed two weeks before, under a title without "experimental".
    d = rich_digest()
    for evidence, said in (("title", "comes under nearly the same title as"),
                           ("issue", "points at the same issue as")):
        dup = dataclasses.replace(d.duplicates[0], prs=(500001, 587167), evidence=evidence)
        text = section(write(dataclasses.replace(d, duplicates=(dup,))), "duplicates")
        assert text.startswith(f"PR 587167, preserving lookup order for ChainMap, {said} "
                               "PR 500001, from an earlier day."), text
        assert "Two separate" not in text
    dup = dataclasses.replace(d.duplicates[0], prs=(500001, 587167), evidence="problem")
    script = write(dataclasses.replace(d, duplicates=(dup,)))
    assert section(script, "duplicates") == (
        "PR 587167 describes a problem much like that of PR 500001, from an earlier day.")
    # … and its page heading claims no duplicated effort either
    assert [s.heading for s in script.sections if s.kind == "duplicates"] == [
        "Similar earlier work"]


def test_roundups_take_the_areas_first_items_in_rank_order_two_at_most():
    d = rich_digest()
    ranked = m.Area("Dynamo", (584025, 584024, 587111, 587167), ())  # the analysis's order
    d = dataclasses.replace(d, areas=(ranked,), duplicates=())
    (roundup,) = plan(d).roundups
    assert [a.ref.pr for a in roundup.items if a.ref] == [584025, 584024]
    said = section(write(d), "area")
    assert said == ("On Dynamo: PR 584025 traces hasattr on slotted classes, and "
                    "PR 584024 fixes a guard on ChainMap.")


def test_two_areas_said_by_one_name_are_one_roundup():
    # "On Docs: PR 2313 … On Docs: PR 2304 …": the areas "docs" and "docs/source" are both
    # said "Docs"; told once, their first items two at most
    d = rich_digest()
    areas = (m.Area("Dynamo", (584025,), ()), m.Area("torch/dynamo", (584024, 587111), ()))
    d = dataclasses.replace(d, areas=areas, duplicates=())
    (roundup,) = plan(d).roundups
    assert [a.ref.pr for a in roundup.items if a.ref] == [584025, 584024]
    assert section(write(d), "area").count("On Dynamo") == 1


def test_the_outro_discloses_that_software_wrote_and_voiced_it():
    outro = section(write(rich_digest()), "outro")
    assert "written and voiced by software from the repository's activity" in outro


def test_a_reason_the_fact_check_cannot_vouch_for_is_dropped_not_the_chain():
    d = chained()
    bad = dataclasses.replace(d.chains[0], steps=(m.ChainStep(
        "revert", m.Ref(pr=584200), by="okunle", reason="PR 999999 by mallory99 broke it"),))
    d = dataclasses.replace(d, chains=(bad,))
    script = write(d)
    fact_check(script, d)
    assert "999999" not in script.transcript and "mallory99" not in script.transcript
    assert "was reverted by okunle in PR 584200." in section(script, "reverts")


def removals() -> m.Digest:
    """One developer's clean-up across two areas: a linked pair (a theme), two more
    removals elsewhere (one a brief theme, one in no theme), and a fix of theirs."""
    changes = [pr(701, "Remove the unused NF4 helper", "vkuzo"),
               pr(702, "Remove the multi-input helper", "vkuzo"),
               pr(703, "Remove stale codebook exports", "vkuzo"),
               pr(704, "Delete the orphaned dispatch module", "vkuzo"),
               pr(705, "Fix the int8 matmul fallback", "vkuzo")]
    themes = (m.Theme(1, "quantization clean-up", "cluster", ("vkuzo",), ("Quantization",),
                      (701, 702), (), None, 5.0, ("linked",)),
              m.Theme(2, "stale codebook exports", "single", ("vkuzo",), ("Prototype",),
                      (703,), (), None, 2.0, ("big",)))
    return dataclasses.replace(
        rich_digest(), themes=themes, changes=tuple(changes), duplicates=(), reverts=(),
        relands=(), first_time_contributors=(), counts=m.Counts(5, 5, 0, 1),
        areas=(m.Area("Prototype", (703, 704, 705), ()),))


def test_one_authors_same_kind_of_work_elsewhere_is_told_with_the_theme_as_a_series():
    (first,) = plan(removals()).themes  # the brief theme is taken into the series
    assert [a.ref.pr for a in first.series if a.ref] == [703, 704]  # not the fix: other work
    said = section(write(removals()), "theme")
    assert "vkuzo landed two more PRs of the same kind elsewhere, 703 and 704, removing " \
        "the stale codebook exports and orphaned dispatch module." in said or \
        "In the same vein, vkuzo landed two more PRs, 703 and 704, removing the stale " \
        "codebook exports and orphaned dispatch module." in said, said
    assert "related PRs, 701 and 702" in said  # the series is not called related
    assert "PR 705 fixes the int8 matmul fallback" in section(write(removals()), "area")


def series_of_five(*removed: str) -> m.Digest:
    """vkuzo's clean-up pair, then five more of theirs: a move, a split and `removed`."""
    titles = ("Remove the unused NF4 helper", "Remove the multi-input helper",
              "Move the int8 matmul kernels into the int8 workflow",
              "Split the blockwise float8 kernels out of the kernel package into their "
              "consumers", *removed)
    changes = tuple(pr(701 + i, title, "vkuzo") for i, title in enumerate(titles))
    theme = m.Theme(1, "quantization clean-up", "cluster", ("vkuzo",), ("Quantization",),
                    (701, 702), (), None, 5.0, ("linked",))
    return dataclasses.replace(
        rich_digest(), themes=(theme,), changes=changes, duplicates=(), reverts=(),
        relands=(), first_time_contributors=(), counts=m.Counts(7, 7, 0, 1),
        areas=(m.Area("Prototype", (703, 704, 705, 706, 707), ()),))


def test_a_long_series_is_told_by_which_of_its_prs_do_what():
    # "The five PRs move X and split Y" said two PRs' work of all five, and the other
    # three's went untold.
    said = section(write(series_of_five(
        "Remove the dead widget models", "Remove the release workflow",
        "Remove the AutoRound prototype")), "theme")
    assert "vkuzo landed five more PRs, 703 through 707. Two of them move the int8 matmul " \
        "kernels into the int8 workflow and split the blockwise float8 kernels out of the " \
        "kernel package into their consumers. The remaining three remove the dead widget " \
        "models, release workflow and AutoRound prototype." in said, said
    # One whose effect is left out is never counted in: the rest are "others".
    said = section(write(series_of_five(
        "Remove the dead consumers of the deleted widget models",
        "Remove the model-release CI workflow and its scripts",
        "Delete the prototype AutoRound quantization algorithm")), "theme")
    assert "Two of them move the int8 matmul" in said and \
        ". Two others remove the dead consumers of the deleted widget models" in said, said
    assert "five PRs move" not in said


def test_a_series_whose_list_leaves_a_pr_out_says_which_prs_do_what():
    # "landed four more PRs, …, removing A, B and C" had four PRs do three things: the
    # fourth PR's removal fell off the end of the list.
    titles = ("Remove the unused NF4 helper", "Remove the multi-input helper",
              "Remove orphaned zorb dispatch module",
              "Remove unused blorp quantization primitives",
              "Remove shadowed wib tensor method", "Remove stale snorkel codebook exports")
    changes = tuple(pr(701 + i, title, "vkuzo") for i, title in enumerate(titles))
    theme = m.Theme(1, "quantization clean-up", "cluster", ("vkuzo",), ("Quantization",),
                    (701, 702), (), None, 5.0, ("linked",))
    d = dataclasses.replace(
        rich_digest(), themes=(theme,), changes=changes, duplicates=(), reverts=(),
        relands=(), first_time_contributors=(), counts=m.Counts(6, 6, 0, 1),
        areas=(m.Area("Prototype", (703, 704, 705, 706), ()),))
    assert section(write(d), "theme").endswith(
        "In the same vein, vkuzo landed four more PRs, 703 through 706. Three of them remove "
        "the orphaned zorb dispatch module, the unused blorp quantization primitives and a "
        "shadowed wib tensor method. The remaining PR removes the stale snorkel codebook "
        "exports.")


def test_a_revert_of_an_internal_id_is_told_without_reading_the_id():
    chain = m.RevertChain(m.Ref(sha="a" * 40), "D73201409", None,
                          (m.ChainStep("revert", m.Ref(pr=584200)),))
    d = dataclasses.replace(rich_digest(), chains=(chain,), reverts=(), relands=())
    assert section(write(d), "reverts") == "PR 584200 reverted an earlier commit."


def test_a_revert_known_only_by_its_own_title_is_not_called_one_commit():
    # "Revert precompile PRs (#3107, #3178) to fix CI" undid two PRs, not "an earlier commit".
    chain = m.RevertChain(m.Ref(sha="a" * 40), "precompile PRs to fix CI", None,
                          (m.ChainStep("revert", m.Ref(pr=584200)),))
    d = dataclasses.replace(rich_digest(), chains=(chain,), reverts=(), relands=())
    assert section(write(d), "reverts") == "PR 584200 reverted precompile PRs to fix CI."


def relands(chains: tuple[m.RevertChain, ...] = ()) -> m.Digest:
    """A day of nothing but two relands, whose originals and reverts the store never saw."""
    changes = (pr(811, "[Reland] Use the shared pool for widget loaders", "ada"),
               pr(812, "[Reland] Make the cache purge thread a daemon thread", "ada"))
    themes = (m.Theme(1, "a reland of using the shared pool for widget loaders", "cluster",
                      ("ada",), ("Loader",), (811, 812), (), None, 8.0, ("2 relands",)),)
    return dataclasses.replace(
        rich_digest(), themes=themes, changes=changes, duplicates=(), reverts=(), relands=(),
        chains=chains, areas=(), first_time_contributors=(), counts=m.Counts(2, 2, 0, 1))


def test_a_reland_no_revert_chain_tells_is_told_as_work_back():
    # The episode was "A Quiet Day" with nothing in it: both relands were taken for reverts.
    told = plan(relands()).themes
    assert [(a.lemma, a.ref.pr) for t in told for a in t.effects if a.ref] == [
        ("use", 811), ("make", 812)]
    # With a chain that tells the reland, the chain says it once; no theme says it again.
    chain = m.RevertChain(m.Ref(pr=700), "Use the shared pool for widget loaders", "ada",
                          (m.ChainStep("revert", m.Ref(pr=701), by="omar"),
                           m.ChainStep("reland", m.Ref(pr=811), by="ada"),
                           m.ChainStep("reland", m.Ref(pr=812), by="ada")))
    assert plan(relands((chain,))).themes == ()


def welcome_day() -> m.Digest:
    """A first-time contributor's day with two left-overs no theme or area tells."""
    changes = (pr(801, "Add a retry budget to the uploader", "ada", body=""),
               pr(802, "Cache the parsed config for the test runner", "newcomer"),
               pr(803, "Fix a compiler warning in the loader", "omar"))
    themes = (m.Theme(1, "uploader retry budget", "single", ("ada",), ("Uploader",), (801,),
                      (), None, 3.0, ("big",)),)
    return dataclasses.replace(
        rich_digest(), themes=themes, changes=changes, duplicates=(), reverts=(), relands=(),
        chains=(), areas=(), first_time_contributors=("newcomer",), counts=m.Counts(3, 3, 0, 3))


def test_the_note_after_a_welcome_is_a_new_thought_not_an_and():
    for show, days in itertools.product(("Widget", "Gadget", "Sprocket", "Gizmo"), range(4)):
        script = write_script(welcome_day(), show=show, day=DAY + dt.timedelta(days=days),
                              writing=WRITING, lexicon={}, llm=LLM)
        notes = [s.text for sec in script.sections if sec.kind == "notes"
                 for s in sec.sentences]
        assert notes[0] == "Worth noting: a warm welcome to first-time contributor, newcomer."
        assert notes[1].startswith("Also, PR "), notes
        # ... and the next is joined to it: never "Also, …" twice in a row
        assert notes[2].startswith("And PR "), notes


def test_whatever_the_cut_the_notes_never_open_on_also_or_and():
    # "And PR 3225 fixes weight tying parameter accounting." was all the notes said: the
    # note opening them was cut, and the shorter one after it came back alone
    d = dataclasses.replace(welcome_day(), first_time_contributors=())
    x = Lookup(d, show="Widget", day=DAY, lexicon={})
    part = notes(x, make_plan(d, show="Widget", day=DAY, max_themes=3))
    assert part is not None and len(part.lines) > 1
    told = " ".join(["omar landed a single PR, 803, caching the parsed config."] * 6)
    for cut in range(1, part.words + 1):
        parts = [Part("theme", "Third theme: test runner", rank=50, lines=[Line(told, told)]),
                 Part("notes", part.heading, lines=list(part.lines), rank=part.rank)]
        target = (total_words(parts) - cut) / 1.05
        kept = fit(parts, WritingConfig(minutes=target / 136, words_per_minute=136))
        said = [ln.text for p in kept if p.kind == "notes" for ln in p.lines]
        assert not said or said[0].startswith("Worth noting"), (cut, said)


def test_a_welcome_outlasts_a_later_themes_extra_detail_when_the_draft_is_cut():
    d = welcome_day()
    x = Lookup(d, show="Widget", day=DAY, lexicon={})
    part = notes(x, make_plan(d, show="Widget", day=DAY, max_themes=3))
    assert part is not None
    welcome = part.lines[0]
    detail = "The old runner parsed the whole config again for every single test it started."
    told = " ".join(["omar landed a single PR, 803, caching the parsed config."] * 6)
    theme = Part("theme", "Third theme: test runner", rank=50, lines=[
        Line(told, told),
        Line(detail, detail, optional=True, weight=-40)])
    parts = [theme, Part("notes", part.heading, lines=[welcome], rank=part.rank)]
    # a target the draft overshoots by one optional sentence
    target = total_words(parts) / 1.1
    kept = fit(parts, WritingConfig(minutes=target / 136, words_per_minute=136))
    said = [ln.text for p in kept for ln in p.lines]
    assert welcome.text in said and detail not in said, said


def lint_day() -> m.Digest:
    """One author linting four folders, each its own area, beside someone else's fix."""
    changes = (pr(801, "Add a retry budget to the uploader", "ada"),
               pr(811, "Lint test folder", "jun"), pr(812, "Lint benchmark folder", "jun"),
               pr(813, "Lint prototype folder", "jun"), pr(814, "Lint docs folder", "jun"),
               pr(815, "Fix a compiler warning in the loader", "omar"))
    themes = (m.Theme(1, "uploader retry budget", "single", ("ada",), ("Uploader",), (801,),
                      (), None, 3.0, ("big",)),)
    areas = (m.Area("tests", (811,), ()), m.Area("benchmarks", (812,), ()),
             m.Area("prototype", (813, 815), ()), m.Area("docs", (814,), ()))
    return dataclasses.replace(
        rich_digest(), themes=themes, changes=changes, duplicates=(), reverts=(), relands=(),
        chains=(), areas=areas, first_time_contributors=(), counts=m.Counts(6, 6, 0, 3))


def test_one_authors_same_work_across_areas_is_told_once_naming_the_areas():
    (run, rest) = plan(lint_day()).roundups
    assert (run.author, run.areas, rest.area) == (
        "jun", ("Tests", "Benchmarks", "Prototype", "Docs"), "Prototype")
    assert section(write(lint_day()), "area") == (
        "Across Tests, Benchmarks, Prototype and Docs, jun lints test folder, benchmark "
        "folder, prototype folder and docs folder, in PRs 811, 812, 813 and 814. "
        "On Prototype: PR 815 fixes a compiler warning in the loader.")
    # The run is headed by whose it is: never "On Tests, …, Prototype and Docs" before
    # "On Prototype", two headings for one place.
    assert [s.heading for s in write(lint_day()).sections if s.kind == "area"] == [
        "jun on Tests, Benchmarks, Prototype and Docs", "On Prototype"]


def test_a_run_cites_only_what_it_says_and_names_one_place_without_across():
    # Three long objects are more than one breath: the third goes to a second sentence,
    # never cited in the first unsaid; a sentence of one place is "In Tests", not "Across".
    day = dataclasses.replace(lint_day(), changes=(
        pr(801, "Add a retry budget to the uploader", "ada"),
        pr(811, "Lint the distributed checkpoint resharding test folder", "jun"),
        pr(812, "Lint the quantized grouped matmul kernel test folder", "jun"),
        pr(814, "Lint the published tutorial and reference docs folder", "jun")),
        areas=(m.Area("tests", (811, 812), ()), m.Area("docs", (814,), ())))
    assert section(write(day), "area") == (
        "In Tests, jun lints the distributed checkpoint resharding test folder and quantized "
        "grouped matmul kernel test folder, in PRs 811 and 812. In Docs, jun also lints the "
        "published tutorial and reference docs folder, in PR 814.")


OFF_TOPIC = ("## Summary\nThe image model is already slightly non-exact across separately "
             "launched runs because its attention backward kernel is nondeterministic.\n")
OFF_TOPIC_SAID = ("The image model is already slightly non-exact across separately launched runs "
                  "because its attention backward kernel is nondeterministic.")


def loader_day(body: str) -> m.Digest:
    changes = (pr(901, "Replace the data loaders with one shared pipeline", "ada", body=body),
               pr(902, "Fix a compiler warning in the loader", "omar"))
    themes = (m.Theme(1, "one shared data pipeline", "single", ("ada",), ("Data",), (901,),
                      (), None, 3.0, ("big",)),)
    return dataclasses.replace(
        rich_digest(), themes=themes, changes=changes, duplicates=(), reverts=(), relands=(),
        chains=(), areas=(), first_time_contributors=(), counts=m.Counts(2, 2, 0, 2))


def test_a_problem_sentence_sharing_no_word_with_the_theme_is_not_its_problem():
    (theme,) = plan(loader_day(OFF_TOPIC)).themes
    assert theme.problem is None
    on_topic = OFF_TOPIC + ("Each recipe kept its own loader, so fixes to shuffling had to be "
                            "made four times over.\n")
    (theme,) = plan(loader_day(on_topic)).themes
    assert theme.problem is not None and theme.problem.text == (
        "Each recipe kept its own loader, so fixes to shuffling had to be made four times over.")


def test_a_description_opening_on_the_old_state_states_its_changes_problem():
    # "The current …" opens the description: about the change whatever words it shares.
    body = ("## Summary\nThe current config check needs a GPU host and a cluster launcher, "
            "so a typo costs an hour.\n")
    (theme,) = plan(loader_day(body)).themes
    assert theme.problem is not None and theme.problem.text == (
        "The current config check needs a GPU host and a cluster launcher, so a typo costs "
        "an hour.")
    # Later in the description, the same sentence may be an aside: not the problem.
    (theme,) = plan(loader_day(OFF_TOPIC + body.removeprefix("## Summary\n"))).themes
    assert theme.problem is None


def one_theme_day(changes: tuple[m.Change, ...], name: str, kind: str = "single") -> m.Digest:
    """A day of one theme, by ada in Data, made of `changes`."""
    prs = tuple(c.number for c in changes if c.number is not None)
    themes = (m.Theme(1, name, kind, ("ada",), ("Data",), prs, (), None, 3.0, ("big",)),)
    n = len(changes)
    return dataclasses.replace(
        rich_digest(), themes=themes, changes=changes, duplicates=(), reverts=(), relands=(),
        chains=(), areas=(), first_time_contributors=(), counts=m.Counts(n, n, 0, n))


def test_a_problem_sharing_a_word_only_with_another_pr_of_the_theme_is_not_the_base_prs():
    # The base PR's aside ("nothing to move for it yet") shares "move" with the second
    # PR's title only: "The problem it tackles: …" would credit the base PR with it.
    body = ("## Summary\nThe tracing module has no owner today, so there is nothing to "
            "move for it yet.\n")
    changes = (pr(901, "Group the loader helpers into a package", "ada", body=body),
               pr(902, "Move the shuffle guard into the base loader", "ada"))
    (theme,) = plan(one_theme_day(changes, "loader helpers package", "cluster")).themes
    assert theme.problem is None
    assert [c.text for c in theme.details] == [
        "The tracing module has no owner today, so there is nothing to move for it yet."]


def test_an_off_topic_problem_is_said_as_a_detail_and_a_measured_gain_is_the_benefit():
    body = OFF_TOPIC + "Epoch startup is about 3x faster on the small config.\n"
    (theme,) = plan(loader_day(body)).themes
    assert theme.problem is None
    assert theme.benefit is not None and theme.benefit.text == (
        "Epoch startup is about 3x faster on the small config.")
    assert [c.text for c in theme.details] == [OFF_TOPIC_SAID]


def test_a_short_detail_about_a_thing_nothing_else_names_is_not_said():
    # "The trigger is the abort hook." leaves a listener asking "what trigger?"; a short
    # sentence about the recorder the title names is heard in context.
    # "The logic will need several fall back plan." (its "Why" sentence before was
    # dropped): which logic? A generic word is heard only as itself; what a change calls
    # itself is this one ("The fix"), and "The default wib path" names its thing after it.
    body = ("## Summary\nEach hooked backend gets its own recorder instance, keyed by the "
            "backend name in a registry.\n\nThe trigger is the abort hook.\n\n"
            "The recorder keeps the last thousand entries.\n\n"
            "The logic will need several fall back plans.\n\n"
            "The fix keeps the last hundred spans.\n\nThe default wib path is unchanged.\n")
    changes = (pr(911, "Add a flight recorder for backends without one", "ada", body=body),)
    (theme,) = plan(one_theme_day(changes, "flight recorder")).themes
    said = [c.text for c in theme.details]
    assert "The trigger is the abort hook." not in said, said
    assert "The logic will need several fall back plans." not in said, said
    assert {"The recorder keeps the last thousand entries.", "The fix keeps the last hundred "
            "spans.", "The default wib path is unchanged."} <= set(said), said


def test_a_problem_in_the_plural_of_the_theme_word_is_on_topic():
    # "Make the tensor of indices a LongTensor": "A 32-bit index can overflow …" is its
    # problem although the words differ in number.
    body = ("A 32-bit index can lead to a silent overflow, since the compiler does not "
            "check for overflow on its own.\n")
    changes = (pr(901, "Make the tensor of indices a LongTensor", "ada", body=body),)
    themes = (m.Theme(1, "tensor of indices", "single", ("ada",), ("Data",), (901,),
                      (), None, 3.0, ("big",)),)
    digest = dataclasses.replace(
        rich_digest(), themes=themes, changes=changes, duplicates=(), reverts=(), relands=(),
        chains=(), areas=(), first_time_contributors=(), counts=m.Counts(1, 1, 0, 1))
    (theme,) = plan(digest).themes
    assert theme.problem is not None and theme.problem.text.startswith("A 32-bit index")


def two_action_day() -> m.Digest:
    """Titles with two actions: one in a roundup beside a one-action PR, one in a theme."""
    configs = (pr(12, "Deduplicate the experiment configs and add tests for them", "ada"),
               pr(13, "Fix a typo in the launcher", "omar"))
    d = rich_digest(extra=configs)
    return dataclasses.replace(d, areas=(m.Area("Configs", (12, 13), ()),), duplicates=())


def test_a_roundup_item_with_two_actions_is_one_sentence_citing_its_pr_once():
    (roundup,) = plan(two_action_day()).roundups
    assert [(a.lemma, a.ref.pr if a.ref else None) for a in roundup.items] == [
        ("deduplicate", 12), ("add", 12), ("fix", 13)]
    said = section(write(two_action_day()), "area")
    assert said == ("On Configs: PR 12 deduplicates the experiment configs and adds tests "
                    "for them, and PR 13 fixes a typo in the launcher.")
    assert len(said.split()) <= 30


def test_a_themes_second_actions_are_told_with_its_effects_and_cite_the_same_pr():
    d = rich_digest()
    changes = tuple(dataclasses.replace(c, title="[rpc] Honor the configured retry budget "
                                        "and add a test for it")
                    if c.number == 584064 else c for c in d.changes)
    second = plan(dataclasses.replace(d, changes=changes)).themes[1]
    assert [(a.lemma, a.obj, a.ref.pr if a.ref else None) for a in second.effects] == [
        ("honor", "the configured retry budget", 584064),
        ("add", "a test for the configured retry budget", 584064),
        ("add", "call timing to the in-tree transport", 584073)]
    script = write_script(dataclasses.replace(d, changes=changes), show="Widget", day=DAY,
                          writing=WRITING, lexicon={}, llm=LLM)
    # Told with the theme's effects; not in one list with the other PR's "add": "a test
    # for the budget and call timing to the transport" would put the test in the transport.
    said = {s.text: s.cites for sec in script.sections for s in sec.sentences}
    assert any("the first honoring the configured retry budget and adding a test for the "
               "configured retry budget." in s for s in said), said
    assert said["Beyond that, PR 584073 adds call timing to the in-tree transport."] == (584073,)


def test_a_brief_themes_two_actions_are_told_in_one_breath():
    d = rich_digest()
    changes = tuple(dataclasses.replace(
        c, title="[vulkan] Use Vulkan shaders for windowed reductions, ban the CPU fallback",
        body="") if c.number == 584097 else c for c in d.changes)
    told = [s for sec in write(dataclasses.replace(d, changes=changes)).sections
            for s in sec.sentences if 584097 in s.cites]
    assert [(s.text, s.cites) for s in told] == [
        ("In other work, marisol31 landed PR 584097, using Vulkan shaders for windowed "
         "reductions and banning the CPU fallback.", (584097,))]


def one_change(change: m.Change, name: str, area: str = "Loader") -> m.ThemePlan:
    """The plan of a busy day's first theme, made of `change` alone and named `name`."""
    d = rich_digest(extra=[change])
    theme = m.Theme(1, name, m.ThemeKind.SINGLE, ("ada",), (area,), (change.number or 0,), (),
                    None, 9.0, ("single",))
    return plan(dataclasses.replace(d, themes=(theme, *d.themes[1:]))).themes[0]


def said_of(first: m.ThemePlan) -> list[str]:
    """What a theme's descriptions give it to say: its problem, payoff and details."""
    return [c.text for c in (first.problem, first.benefit, *first.details) if c is not None]


def steps_of(change: m.Change, name: str, area: str = "Loader") -> list[tuple[str, str]]:
    """The steps a theme of one change, named `name`, tells from its description."""
    return [(a.lemma, a.obj) for a in one_change(change, name, area).steps]


def test_a_step_that_says_the_title_again_by_another_fault_name_is_not_an_effect():
    change = pr(2286, "Fix bug when default dtype is BF16", "ada",
                body="- fix error when default dtype is BF16\n"
                     "- skip FP8 optim on unsupported GPUs")
    assert steps_of(change, "fixing a bug when default dtype is BF16", "Optim") == [
        ("skip", "FP8 optim on unsupported GPUs")]


def test_a_step_that_tells_the_titles_act_in_more_detail_is_not_an_effect():
    # "expand widget loader caches for X and Y" is the title's "Expand widget loader caches
    # for X": the same verb on the same thing; "PR 2286 also expands widget loader caches"
    # would say the title twice. A step on another thing stays.
    change = pr(2286, "Expand widget loader caches for sharded runs to cut start-up time",
                "ada", body="- expand widget loader caches for sharded, pipelined and replicated"
                            " jobs\n"
                            "- expand the retry budget for slow disks")
    assert steps_of(change, "widget loader caches") == [
        ("expand", "the retry budget for slow disks")]


def test_a_step_fixing_the_one_thing_a_title_names_is_not_an_effect():
    # "Spelling fixes" listing "Spelling fixes for inpt_tensor" was told "PR 2286 goes
    # further: it fixes spelling for inpt tensor to input tensor".
    change = pr(2286, "Spelling fixes", "ada",
                body="* Spelling fixes for widgt_size to widget_size\n"
                     "* Fix the loader retry budget")
    assert steps_of(change, "fixing spelling") == [("fix", "the loader retry budget")]


def test_a_step_narrowing_the_titles_fix_is_not_a_second_fix():
    # "Fix xnnpack export" listing "Fix int8_unpacked for xnnpack export" was told "PR 2941
    # fixes xnnpack export. … PR 2941 also fixes int8 unpacked for xnnpack export."
    change = pr(2286, "Fix widget export", "ada",
                body="* Fix int8_unpacked for widget export\n"
                     "* Fix the loader retry budget")
    assert steps_of(change, "widget export") == [("fix", "the loader retry budget")]


def test_a_step_removing_the_titles_thing_by_its_kind_is_not_an_effect():
    # "Remove WidgetPlanner, use static planner specs" listing "Remove WidgetPlanner class"
    # was told "PR 2286 also removes a WidgetPlanner class" after "removing WidgetPlanner".
    change = pr(2286, "Remove WidgetPlanner, use static planner specs", "ada",
                body="- set planner specs on every loader\n"
                     "- remove WidgetPlanner class; subclasses inherit Loader")
    assert steps_of(change, "static planner specs") == [("set", "planner specs on every loader")]


def test_a_step_saying_the_title_with_a_typo_is_not_an_effect():
    # "Third theme: using manual transpose and pack. … PR 2380 goes further: it uses manual
    # tranpose and pack." said the title again, typo and all.
    change = pr(2286, "Use manual zorbing and wibble", "ada",
                body="* use manual zrobing and wibble\n"
                     "* Fix the loader retry budget")
    assert steps_of(change, "using manual zorbing and wibble") == [
        ("fix", "the loader retry budget")]


def test_a_step_saying_the_title_again_takes_no_place_of_the_three():
    # "… and cleans up CUDA graph" was lost when a first item saying the title again
    # ("Support SimpleFSDP and TP") took one of the three places
    change = pr(2286, "Add zorb caching to the loader", "ada",
                body="- add zorb caching to the loader\n- skip FP8 optim on slow disks\n"
                     "- pin the wib cache action\n- drop the blorp retry budget\n")
    assert steps_of(change, "zorb caching") == [
        ("skip", "FP8 optim on slow disks"), ("pin", "the wib cache action"),
        ("drop", "the blorp retry budget")]


def test_an_items_second_order_is_a_step_of_its_own_and_a_checks_result_none():
    # "adds cutedsl to quantize 2d tensor along dim0, as well as docstrings, update
    # variable names for clarity" was one object of "adds"; "goes further: it passes 1-step
    # typechecking smokes" told a test's result as a step
    change = pr(2286, "Widget loader caches", "ada",
                body="* add a retry budget, update variable names for clarity\n"
                     "* Passes 1-step zorb smokes and 10-step bitwise parity\n"
                     "* Passing 2-step wib smokes: dense, sharded\n"
                     "* Passing 10-step bitwise zorb loss and grad norm\n")
    assert steps_of(change, "widget loader caches") == [
        ("add", "a retry budget"), ("update", "variable names for clarity")]


def test_a_step_another_title_of_the_theme_or_a_kept_sentence_tells_is_not_said_again():
    bump = pr(2286, "Bump GitHub actions to latest versions", "ada",
              body="- update to latest action versions\n"
                   "- pin the cache action to a commit SHA\n\n"
                   "The loader now retries a failed download three times before giving up.\n\n"
                   "- retry a failed download three times")
    assert steps_of(bump, "GitHub actions", "CI") == [
        ("pin", "the cache action to a commit SHA")]


def test_a_problem_sharing_a_word_with_a_name_in_the_title_is_the_changes():
    # "Checkpoint discovery and retention have to be reimplemented per backend …" is the
    # problem of "Introduce a storage seam in BaseCheckpointManager"; a behaviour the change
    # alters on the way ("One behavior change: the checkpoint-folder probe …") is not
    change = pr(2286, "Introduce a zorb seam in WibBlorpManager", "ada",
                body="Blorp discovery and retention have to be reimplemented per backend "
                     "even though the logic is identical.\n\nOne behavior change: the "
                     "blorp folder probe was broken and no longer registers a file.\n")
    first = one_change(change, "zorb seam in WibBlorpManager")
    assert first.problem is not None and first.problem.text.startswith("Blorp discovery")
    assert [c.kind for c in first.details] == ["detail"]


def test_a_step_whose_words_are_only_spread_over_other_sentences_is_still_said():
    # "adds FlyDSL 2D 1x32 and 3D MoE quantize kernels": the 32x1 kernel was lost, its
    # "32x1" in a sentence on speed and its other words in the title and the other items
    change = pr(2286, "Zorb wib quantize", "ada",
                body="- add zorb 2D 1x32 quantize kernel for blorp\n"
                     "- add zorb 2D 32x1 quantize kernel for blorp\n\n"
                     "The 32x1 path now runs four waves per workgroup, which halves its "
                     "launch count on large inputs.\n\n"
                     "Every 2D kernel for blorp now shares one set of helpers, so a fix "
                     "lands once.\n")
    assert steps_of(change, "zorb wib quantize") == [
        ("add", "zorb 2D 1x32 quantize kernel for blorp"),
        ("add", "zorb 2D 32x1 quantize kernel for blorp")]


def test_a_sentence_an_earlier_episode_said_of_continuing_work_is_not_said_again():
    before = plan(rich_digest()).themes[0]
    told = before.problem or before.details[0]
    said = f"The problem: {told.text[0].lower()}{told.text[1:]}"
    earlier = m.Continuity("2026-03-11", before.concept, prs=(584044,), said=(said,))
    after = plan(rich_digest(continues=earlier)).themes[0]
    kept = [c.text for c in (after.problem, after.benefit, *after.details) if c is not None]
    assert told.text not in kept
    assert len(kept) == len([c for c in (before.problem, before.benefit, *before.details)
                             if c is not None]) - 1


def test_what_the_files_are_outranks_what_the_title_says_of_the_work():
    # "Add performance file" reads as performance work; touching only docs, it is docs work.
    def day(path: str) -> m.Digest:
        change = dataclasses.replace(pr(903, "Add performance file to show convergence", "ada"),
                                     files=(m.FileChange(path, 40, 0),))
        theme = m.Theme(1, "performance file to show convergence", "single", ("ada",), (),
                        (903,), (), None, 2.0, ("1 PR",))
        return dataclasses.replace(
            rich_digest(), themes=(theme,), changes=(change,), duplicates=(), reverts=(),
            relands=(), chains=(), areas=(), first_time_contributors=(),
            counts=m.Counts(1, 1, 0, 1))
    assert plan(day("docs/performance.md")).themes[0].work == "documentation"
    assert plan(day(".github/workflows/perf.yml")).themes[0].work == "infrastructure"
    assert plan(day("widget/perf/report.py")).themes[0].work == "performance"


def test_a_bots_description_is_never_mined_for_sentences():
    # A dependency bump's body is the upstream project's release notes: nothing in it is
    # about this repository's change.
    notes = ("## Release notes\nMaintainers also found that the signing service slowdown "
             "was the main cause of last week's outage.\n")
    bump = dataclasses.replace(
        pr(941, "Bump upload-action from 1.2.1 to 1.2.2", "dependabot[bot]", body=notes),
        bot=True)
    d = rich_digest(extra=[bump])
    d = dataclasses.replace(d, areas=(m.Area("Workflows", (941,), ()),), duplicates=())
    text = write(d).transcript
    assert "PR 941 bumps upload-action from 1.2.1 to 1.2.2" in text
    assert "signing service" not in text


def test_worth_noting_is_never_a_document_touched():
    d = rich_digest(extra=[pr(950, "Update README", "ada"),
                           pr(951, "Log the total number of tokens seen", "omar"),
                           pr(952, "Update contributing", "lin"), pr(953, "Update LICENSE", "kai")])
    noted = [a.ref.pr for a in plan(d).notes if a.ref]
    assert 951 in noted and not {950, 952, 953} & set(noted), noted


def test_a_change_whose_object_becomes_itself_as_said_is_no_effect():
    # "Write mm, ft and pg as MM, FT and PG": the lexicon says both sides alike, and
    # "adds MM, FT and PG as MM, FT and PG" tells a listener nothing.
    d = rich_digest(extra=[pr(954, "Write mm, ft and pg as MM, FT and PG", "ada"),
                           pr(955, "Move the loader to the loader", "omar")])
    said = write(d).transcript
    assert "as MM" not in said and "the loader to the loader" not in said
    noted = [a.ref.pr for a in plan(d).notes if a.ref]
    assert not {954, 955} & set(noted), noted


def test_a_thing_named_by_an_ing_word_is_something_said():
    # "Fix spelling" and "Improve caching" were no effect at all once "spell" and "cache"
    # were verbs: their one word read as a verb form, not the thing fixed
    d = rich_digest(extra=[pr(956, "Fix spelling", "ada"), pr(957, "Improve caching", "omar")])
    # (with room to say both: the one-liners are the first trimmed)
    told = write_script(d, show="Widget", day=DAY, lexicon={}, llm=LLM,
                        writing=dataclasses.replace(WRITING, minutes=3.5)).transcript
    assert "fixes spelling" in told and "improves caching" in told, told


def test_a_sentence_saying_the_title_again_with_its_verb_and_the_repo_name_is_not_said():
    # "PR 901 enables structured-caching in widget" says no more than its title: the verb
    # and the repository's own name are no news
    body = "## Summary\nThis PR enables structured-caching in widget.\n"
    changes = (pr(901, "Add structured caching and load instrumentation", "ada", body=body),)
    (theme,) = plan(one_theme_day(changes, "structured caching")).themes
    assert theme.details == () and theme.benefit is None


def _reverted(d: m.Digest, pr: int, *steps: str) -> m.Digest:
    chain = m.RevertChain(m.Ref(pr=pr), "", None, tuple(
        m.ChainStep(kind, m.Ref(pr=590000 + i), by="okunle") for i, kind in enumerate(steps)))
    return dataclasses.replace(d, chains=(chain,))


def test_work_reverted_for_good_is_told_by_its_revert_chain_not_as_standing_work():
    # A single PR reverted in the window is no theme when the day has other work.
    d = _reverted(rich_digest(), 584097, "revert")
    assert "Vulkan reductions" not in [t.concept for t in plan(d).themes]
    assert "PR 584097" in section(write(d), "reverts")
    # A reverted part of a cluster is counted, but what it did is not said as done.
    d = _reverted(rich_digest(), 584064, "revert")
    second = plan(d).themes[1]
    assert 584064 in second.prs
    assert not any(a.ref and a.ref.pr == 584064 for a in second.effects), second.effects
    assert not any(c.ref.pr == 584064 for c in (second.problem, second.benefit, *second.details)
                   if c is not None)
    # A revert that was itself reverted, or a reland, leaves the work standing.
    for steps in (("revert", "revert"), ("revert", "reland")):
        assert "Vulkan reductions" in [t.concept for t in plan(
            _reverted(rich_digest(), 584097, *steps)).themes]


def test_a_day_whose_only_work_was_reverted_still_tells_it():
    d = _reverted(small_digest(), 500, "revert")
    assert [t.prs for t in plan(d).themes] == [(500,)]


def test_one_changes_two_doings_are_joined_by_and_not_put_in_an_order():
    # "then" orders a stack's parts; one PR's title gives no order to what it does.
    changes = (pr(901, "Add a retry budget to the uploader and log retries in the loader",
                  "ada"),)
    text = section(write(one_theme_day(changes, "upload retries")), "theme")
    assert "landed a single PR, 901, adding a retry budget to the uploader and logging " \
        "retries in the loader." in text, text


def test_a_later_prs_problem_in_a_theme_of_several_is_said_as_that_prs():
    # The cluster's first PR says nothing; its second's problem is the second's alone.
    d = rich_digest()
    quiet = dataclasses.replace(d.change(584064), body="")
    told = dataclasses.replace(d.change(584073), body=(
        "Summary:\nThe widget transport ignored the loader's timing hooks, so calls were "
        "never timed.\n"))
    d = dataclasses.replace(d, changes=tuple(
        {584064: quiet, 584073: told}.get(c.number, c) for c in d.changes))
    text = section(write(d), "theme")
    assert "The problem PR 584073 tackles: the widget transport ignored" in text or \
        "What prompted PR 584073: the widget transport ignored" in text


def test_a_detail_that_says_again_what_one_before_it_said_is_said_once():
    change = pr(2286, "Add cosine and linear widget schedulers", "ada", body=(
        "The cosine widget scheduler is widely used in loader training, while the linear "
        "widget scheduler keeps a constant warmup rate before its decay stage.\n\n"
        "The cosine widget scheduler is a standard for loader training, and the linear "
        "widget scheduler keeps the warmup rate stable during training.\n"))
    assert said_of(one_change(change, "widget schedulers")) == ["The cosine widget scheduler is widely used in loader training, while the "
                    "linear widget scheduler keeps a constant warmup rate before its decay "
                    "stage."]


def test_a_detail_saying_the_title_again_with_a_dtypes_other_name_is_not_said():
    # "Second theme: support for full BF16 training. … PR 1646 adds support for full
    # bfloat16 training." said one thing twice
    change = pr(2287, "Support full BF16 widget training", "ada", body=(
        "This PR adds support for full bfloat16 widget training.\n"))
    first = one_change(change, "support for full BF16 widget training")
    assert first.details == () and first.benefit is None, first


def test_a_single_change_named_by_its_doing_cut_short_is_named_by_the_whole():
    # "First theme: fixing the incorrect step log. … landed a single PR, 293, fixing the
    # incorrect step log for profiler after resuming." said the name twice
    change = pr(2288, "Fix the incorrect widget log on resume", "ada")
    d = rich_digest(extra=[change])
    theme = m.Theme(1, "fixing the incorrect widget log", m.ThemeKind.SINGLE, ("ada",),
                    ("Loader",), (2288,), (), None, 9.0, ("single",))
    d = dataclasses.replace(d, themes=(theme, *d.themes[1:]))
    first = plan(d).themes[0]
    assert (first.concept, first.short) == (
        "fixing the incorrect widget log on resume",
        "fixing the incorrect widget log")
    text = section(write(d), "theme")
    assert text.count("incorrect widget log") == 1, text
    assert "First theme: fixing the incorrect widget log on resume." in text
    # a name that is no doing, or a doing said whole, stays as the analysis made it
    thing = dataclasses.replace(theme, headline="widget log fixes")
    assert plan(dataclasses.replace(d, themes=(thing, *d.themes[1:]))).themes[0].short == ""


def test_a_related_changes_listed_steps_are_no_steps_of_the_theme():
    # "PR 2486 also adds X" came before "Related: PR 2486 turns on Y": the steps a related
    # change's description lists are not the stack's work
    body = ("Implements what the zorb needs:\n* Support weak capture of zorb tensors in the "
            "widget loader\n* Rewrite the widget wrapper to avoid a graph break\n")
    changes = [pr(2291, "Add the zorb planner", "ada"), pr(2292, "Use the zorb planner", "ada"),
               pr(2293, "Turn on zorb compile in the widget loader", "bea", body=body)]
    d = rich_digest(extra=changes)
    stack = m.Stack("ghstack", ("ada",), 2, (2291, 2292), (2291, 2292))
    theme = m.Theme(1, "zorb planning", m.ThemeKind.STACK, ("ada",), ("Loader",),
                    (2291, 2292, 2293), (), stack, 9.0, ("stack",))
    first = plan(dataclasses.replace(d, themes=(theme, *d.themes[1:]))).themes[0]
    assert [a.ref.pr for a in first.steps if a.ref] == [] and \
        [a.ref.pr for a in first.related if a.ref] == [2293], first
    # the same description on a member lists its steps
    member = dataclasses.replace(stack, members=(2291, 2292, 2293), declared=(2291, 2292, 2293))
    first = plan(dataclasses.replace(d, themes=(dataclasses.replace(theme, stack=member),
                                                *d.themes[1:]))).themes[0]
    assert {a.ref.pr for a in first.steps if a.ref} == {2293}, first


def test_a_doing_of_up_to_twelve_words_names_its_change_whole():
    # "First theme: making the test runner warn. … landed a single PR, 343, making the test
    # runner warn on non-empty output dir": a cut name, then the name again with the rest
    def named(title: str, name: str) -> tuple[str, str]:
        first = one_change(pr(2289, title, "ada"), name)
        return first.concept, first.short

    assert named("Make the widget runner warn on a non-empty zorb output dir",
                 "making the widget runner warn") == (
        "making the widget runner warn on a non-empty zorb output dir",
        "making the widget runner warn")
    # past twelve words the name stays as the analysis cut it
    assert named("Make the widget runner warn on a non-empty zorb output dir of the nightly "
                 "frob job", "making the widget runner warn") == (
        "making the widget runner warn", "")


def test_a_roundup_items_reason_that_does_what_its_line_did_again_is_not_said():
    body = ("PR 12 adds a section summarizing the key features of widget loading for new "
            "users.\n\nPR 13 keeps the launcher from reading a stale widget cache after a "
            "restart.\n")
    docs = (pr(12, "Add a key features section", "ada", body=body.split("\n\n")[0]),
            pr(13, "Fix the launcher cache", "omar", body=body.split("\n\n")[1]))
    d = dataclasses.replace(rich_digest(extra=docs), areas=(m.Area("Docs", (12, 13), ()),),
                            duplicates=())
    said = section(write(d), "area")
    assert said == ("On Docs: PR 12 adds a key features section, and PR 13 fixes the launcher "
                    "cache. PR 13 keeps the launcher from reading a stale widget cache after "
                    "a restart.")


def test_a_detail_opening_as_the_payoff_did_on_the_same_things_is_said_once():
    change = pr(3927, "Add windowed widget scheduling", "ada", body=(
        "Strict widget ordering stalls the loader whenever one slow worker holds the queue "
        "head.\n\n"
        "PR 3927 lets users provide the widget lag steps and window fraction.\n\n"
        "PR 3927 lets users provide the target widget lag steps and the max lag steps they "
        "can tolerate for the extra speed.\n"))
    told = said_of(one_change(change, "widget scheduling"))
    assert [t for t in told if t.startswith("PR 3927 lets")] == [
        "PR 3927 lets users provide the widget lag steps and window fraction."]


def test_a_description_doing_the_titles_act_again_is_not_a_detail():
    change = pr(3928, "Implement the zorb_count calculation in get_wib_and_zorbs() function "
                "for Blorp", "ada", body=(
                    "This PR implements zorb_count computation for Blorp model.\n\n"
                    "This PR implements zorb_count for blorp and marks snorkel mode for a "
                    "future deprecation.\n"))
    # (three words more may be news)
    assert said_of(one_change(change, "zorb count for blorp")) == ["PR 3928 implements zorb count for blorp and marks snorkel mode for a "
                    "future deprecation."]


def _told_problem(title: str, body: str) -> str | None:
    first = one_change(pr(3929, title, "ada", body=body), "zorb")
    return first.problem.text if first.problem else None


def test_what_a_new_thing_cannot_do_yet_is_no_problem_that_prompted_it():
    limit = "The zorb backend currently supports wib scale only; the dispatch asserts on blorp."
    assert _told_problem("Zorb wib quantize", limit) is None
    assert _told_problem("Add zorb wib quantize kernels", limit) is None
    # … but the thing a change works on, or a state told in the past, is one
    assert _told_problem("Add blorp files to the zorb loader",
                         "The zorb loader currently supports local wib files only.") == \
        "The zorb loader currently supports local wib files only."
    assert _told_problem("Add zorb wib kernels", "The zorb backend was slow on wib scale.") \
        == "The zorb backend was slow on wib scale."
    assert _told_problem("Zorb wib converter",
                         "The zorb op needs a local region; the wib backend cannot run it.") \
        == "The zorb op needs a local region; the wib backend cannot run it."


def test_two_things_done_to_one_subject_are_not_the_same_thing_said_twice():
    kernel = "PR 41 deletes the widget kernel and its tensor layouts and implementations."
    assert not restates("PR 41 deletes tests and benchmarks of the widget kernel.", kernel)
    assert not restates("PR 42 deletes the widget kernel and its layouts.", kernel)
    assert restates("PR 41 deletes the widget kernel, its tensor layouts and its "
                    "implementations from the loader.", kernel)


def test_a_later_prs_problem_beside_the_first_prs_own_is_said_as_that_prs_once():
    # The first PR has its own problem, so the second's is one of the theme's details:
    # still the second's, and framed once though it gives two.
    d = rich_digest()
    first = dataclasses.replace(d.change(584064), body=(
        "Summary:\nThe rpc client retried forever, so a dead widget server hung every "
        "caller.\n"))
    second = dataclasses.replace(d.change(584073), body=(
        "Summary:\nThe widget transport ignored the loader's timing hooks, so calls were "
        "never timed.\n\nThe retry counter in the widget transport also reset on every "
        "reconnect, so retry budgets were never enforced.\n\nCalls through the widget "
        "transport are now timed by the loader's hooks.\n"))
    d = dataclasses.replace(d, changes=tuple(
        {584064: first, 584073: second}.get(c.number, c) for c in d.changes))
    theme = plan(d).themes[1]
    assert theme.problem is not None and theme.problem.ref.pr == 584064
    x = Lookup(d, show="Widget", day=DAY, lexicon={})
    said = [ln.text for ln in described.details(x, theme)]
    assert said[0] in (
        "The problem PR 584073 tackles: the widget transport ignored the loader's timing "
        "hooks, so calls were never timed.",
        "What prompted PR 584073: the widget transport ignored the loader's timing hooks, "
        "so calls were never timed.")
    # its second problem goes on bare; its payoff is its own too
    assert said[1] == ("The retry counter in the widget transport also reset on every "
                       "reconnect, so retry budgets were never enforced.")
    assert said[2] in (
        "Why PR 584073 matters: calls through the widget transport are now timed by the "
        "loader's hooks.",
        "The payoff of PR 584073: calls through the widget transport are now timed by the "
        "loader's hooks.")
    assert len(said) == 3


def test_an_authors_title_case_tag_writes_a_known_short_form_as_written():
    # "[Tp Test] Fix …" was said "On Tp Test"; a name the lexicon does not know stays
    assert area_name("Tp Test") == "TP Test"
    assert area_name("Fsdp Widget Utils") == "FSDP Widget Utils"
    assert area_name("Widget Glimmer") == "Widget Glimmer"


def test_a_folder_area_with_a_known_word_opens_on_a_capital():
    # "quantize_vit" was said "On quantize ViT:" once "vit" was known as "ViT"
    assert area_name("quantize vit") == "Quantize ViT"
    assert area_name("vllm") == "vLLM"  # a known word keeps its own case
    assert area_name("moe widgets") == "MoE widgets"
