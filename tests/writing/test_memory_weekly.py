"""Cross-day memory wording and the weekly recap mode of the template writer."""

from __future__ import annotations

import dataclasses
import re

import pytest
from writing_builders import DAY, LLM, WRITING, commit_digest, pr, rich_digest

from mergecast import models as m
from mergecast.errors import InputError
from mergecast.writing import Facts, write_script
from mergecast.writing.length import bounds


def write(digest: m.Digest, *, weekly: str | None = None, **writing: object) -> m.Script:
    cfg = dataclasses.replace(WRITING, **writing)  # type: ignore[arg-type]
    return write_script(digest, show="Widget", day=DAY, writing=cfg, lexicon={}, llm=LLM,
                        weekly=weekly)


def first_theme(script: m.Script) -> str:
    return next(s.text for s in script.sections if s.kind == "theme")


def test_yesterday_and_the_third_day_and_more_not_new() -> None:
    two = first_theme(write(rich_digest(continues=m.Continuity(
        "2026-03-11", "tile planning", 2, (584040,)))))
    assert "Work on tile planning continues from yesterday." in two
    assert "kovacs47 adds six more PRs to the eleven-part stack, PRs 584044 through 584049." \
        in two
    assert "landed an eleven-part stack" not in two  # not introduced as new
    three = first_theme(write(rich_digest(continues=m.Continuity(
        "2026-03-11", "tile planning", 3))))
    assert "Work on tile planning is now in its third day." in three


def test_a_stack_said_with_another_size_before_is_only_the_stack_now() -> None:
    # ghstack lists change as a stack is rebased: "fifteen-part" yesterday is not "the
    # eleven-part stack" today
    said = ("kovacs47 posted three parts of a fifteen-part stack, PRs 584040, 584041 and "
            "584042.",)
    script = write(rich_digest(continues=m.Continuity(
        "2026-03-11", "tile planning", 2, (584040,), said)))
    assert "kovacs47 adds six more PRs to the stack, PRs 584044 through 584049." in \
        first_theme(script)
    # and the outro says no size either: "eleven-part" after yesterday's "fifteen-part"
    outro = " ".join(s.text for sec in script.sections if sec.kind == "outro"
                     for s in sec.sentences)
    assert "Watch for the rest of kovacs47's stack: six of its PRs showed up" in outro
    same = ("kovacs47 posted three parts of an eleven-part stack, PRs 584040, 584041 and "
            "584042.",)
    text = first_theme(write(rich_digest(continues=m.Continuity(
        "2026-03-11", "tile planning", 2, (584040,), same))))
    assert "kovacs47 adds six more PRs to the eleven-part stack" in text


def test_covered_earlier_but_not_yesterday_names_that_episode() -> None:
    text = first_theme(write(rich_digest(continues=m.Continuity(
        "2026-03-05", "tile planning", 1))))
    assert "We come back to tile planning from the March 5th episode." in text
    assert "yesterday" not in text and "third day" not in text
    weekly = first_theme(write(rich_digest(continues=m.Continuity(
        "2026-W09", "tile planning", 1))))
    assert "from the weekly recap for the week of February 23rd" in weekly


def test_continuing_commits_and_single_prs_say_more() -> None:
    d = commit_digest(continues=m.Continuity("2026-03-11", "the cache", 2))
    assert "Ivy Zhou adds three more commits." in first_theme(write(d))
    r = rich_digest()
    cont = m.Continuity("2026-03-11", "timeouts", 2)
    r = dataclasses.replace(r, themes=(dataclasses.replace(r.themes[1], continues=cont),))
    assert "b7r2n adds two more PRs, 584064 and 584073." in first_theme(write(r))


def test_a_wrong_day_count_fails_the_fact_check() -> None:
    facts = Facts.from_digest(rich_digest(continues=m.Continuity("2026-03-11", "x", 2)))
    assert facts.problems("This is the fourth day of work on it.")


def test_revert_of_covered_change_names_the_episode_date() -> None:
    d = rich_digest()
    d = dataclasses.replace(d, reverts=(dataclasses.replace(
        d.reverts[0], original_episode="2025-12-30"),))
    reverts = next(s for s in write(d).sections if s.kind == "reverts")
    assert "We covered the original change on December 30th, 2025." in reverts.text



def test_two_reverted_changes_covered_the_same_day_say_so_once() -> None:
    d = rich_digest()
    chain = m.RevertChain(original=m.Ref(pr=584150), title="[dynamo] Speed up guard checks",
                          author="devkumar4417", original_episode="2025-12-30",
                          steps=(m.ChainStep("revert", m.Ref(pr=584200), by="okunle"),))
    other = m.RevertChain(original=m.Ref(pr=584064), title="Raise the store timeout",
                          author="b7r2n", original_episode="2025-12-30",
                          steps=(m.ChainStep("revert", m.Ref(pr=584073), by="okunle"),))
    reverts = next(s for s in write(dataclasses.replace(d, chains=(chain, other))).sections
                   if s.kind == "reverts")
    assert reverts.text.count("December 30th, 2025") == 2
    assert reverts.text.count("We covered the original change") == 1
    assert "That one was in the December 30th, 2025 episode too." in reverts.text


def weekly_digest() -> m.Digest:
    """A busy week: the rich day plus a fourth theme and more area work."""
    more = [pr(192000 + i, f"[dynamo] {t}", "devkumar4417") for i, t in enumerate([
        "Fix recompiles on dict keys", "Support generators in graph breaks",
        "Cache guard failures", "Trace through functools partial",
        "Speed up bytecode analysis"])]
    profiler = [pr(193001, "[profiler] Record memory events for every allocator", "sraikov",
                   body="Memory events were only recorded for the default allocator. "
                        "The change records them for every allocator, including custom "
                        "ones. Traces now show where memory goes during long runs."),
                pr(193002, "[profiler] Show allocator names in traces", "sraikov")]
    d = rich_digest(extra=more + profiler)
    fourth = m.Theme(4, "profiler memory events", "cluster", ("sraikov",), ("Profiler",),
                     (193001, 193002), (), None, 3.0, ("linked",))
    areas = (dataclasses.replace(d.areas[0], prs=d.areas[0].prs + tuple(c.number or 0
                                                                       for c in more)),
             *d.areas[1:])
    return dataclasses.replace(d, themes=(*d.themes, fourth), areas=areas,
                               counts=dataclasses.replace(d.counts, changes=len(d.changes),
                                                          prs=len(d.changes)))


def test_weekly_recap_structure_wording_and_title() -> None:
    script = write(weekly_digest(), weekly="2026-W11", minutes=3.5, max_themes=4)
    intro = script.sections[0].text
    assert intro.startswith("Welcome to the Widget weekly recap for the week of March 9th, 2026.")
    signal = next(s for s in script.sections if s.kind == "signal")
    assert signal.heading == "The signal this week"
    assert signal.text.startswith("The signal this week is ")
    assert [s.kind for s in script.sections].count("theme") == 4
    assert {"area", "duplicates", "reverts"} <= {s.kind for s in script.sections}
    outro = script.sections[-1].text
    assert outro.endswith("That's the week in Widget. The daily episodes have the details.")
    assert "today" not in script.transcript.lower().replace("the signal today", "")
    assert script.title.startswith("Weekly Recap - Convolution Tile Planning")
    assert len(script.title) <= 90
    assert re.fullmatch(r"Weekly Recap - [\w -]+(, [\w -]+)*(,? and [\w -]+)?", script.title)
    assert "kovacs47" in script.summary and "b7r2n" in script.summary
    assert script.summary.startswith("The week's top themes were convolution tile planning")


def weekly_title(*names: str) -> str:
    """The title of the busy week's recap with its four themes named `names`."""
    d = weekly_digest()
    named = tuple(dataclasses.replace(t, headline=h) for t, h in zip(d.themes, names,
                                                                     strict=True))
    return write(dataclasses.replace(d, themes=named), weekly="2026-W11", minutes=3.5,
                 max_themes=4).title


def test_weekly_title_keeps_three_themes_when_they_fit() -> None:
    assert weekly_title("cleanup", "correctness", "a faster checkpoint writer", "profiling") \
        == "Weekly Recap - Cleanup, Correctness, and a Faster Checkpoint Writer"


def test_a_weekly_title_joins_no_name_with_its_own_and_by_another() -> None:
    # "Weekly Recap - MXFP8 Tests and Tooling and Metal Lowbit" read as three stories
    assert weekly_title("widget tests and tooling", "correctness", "profiling", "cleanup") \
        == "Weekly Recap - Widget Tests and Tooling, Plus Correctness"


def test_a_weekly_title_says_the_places_of_grab_bags_under_one_work() -> None:
    assert weekly_title("Loader work", "Planner work", "Widget cache work", "profiling") \
        == "Weekly Recap - Loader, Planner and Widget Cache Work"
    assert weekly_title("Loader work", "the work in Experiments", "Widget cache work",
                        "profiling") == "Weekly Recap - Loader, Experiments and Widget Cache Work"
    # one story among them that is no bag keeps every name its own
    assert weekly_title("Loader work", "Planner work", "a faster checkpoint writer",
                        "profiling") == \
        "Weekly Recap - Loader Work, Planner Work, and a Faster Checkpoint Writer"


def test_a_weekly_summary_keeps_a_name_s_own_capitals() -> None:
    d = weekly_digest()
    named = (dataclasses.replace(d.themes[0], headline="AutoParallel trace integration"),
             *d.themes[1:])
    script = write(dataclasses.replace(d, themes=named), weekly="2026-W11", minutes=3.5,
                   max_themes=4)
    assert script.summary.startswith("The week's top themes were AutoParallel trace "
                                     "integration"), script.summary
    # a name of ordinary words with the analysis's capitals keeps them ("Muse Glimmer")
    muse = (dataclasses.replace(d.themes[0], headline="Muse Glimmer model and tests"),
            *d.themes[1:])
    script = write(dataclasses.replace(d, themes=muse), weekly="2026-W11", minutes=3.5,
                   max_themes=4)
    assert script.summary.startswith("The week's top themes were Muse Glimmer model and tests "
                                     "from"), script.summary
    # a name spelled from a small letter keeps it ("vLLM", never "VLLM")
    small = (dataclasses.replace(d.themes[0], headline="vLLM weight sync"), *d.themes[1:])
    script = write(dataclasses.replace(d, themes=small), weekly="2026-W11", minutes=3.5,
                   max_themes=4)
    assert script.summary.startswith("The week's top themes were vLLM weight sync from"), \
        script.summary
    # items with their own "and" are parted by semicolons, never run together
    pair = (small[0], dataclasses.replace(d.themes[1], authors=("b7r2n", "ivy", "omar")),
            *d.themes[2:])
    script = write(dataclasses.replace(d, themes=pair), weekly="2026-W11", minutes=3.5,
                   max_themes=4)
    assert "from b7r2n, ivy and others; and Vulkan reductions from" in script.summary, \
        script.summary


def test_weekly_recap_lands_within_fifteen_percent_of_three_and_a_half_minutes() -> None:
    cfg = dataclasses.replace(WRITING, minutes=3.5, max_themes=4)
    low, high = bounds(cfg)
    script = write(weekly_digest(), weekly="2026-W11", minutes=3.5, max_themes=4)
    assert low <= script.words <= high, script.words


def test_weekly_forces_the_template_writer_and_checks_the_week_id() -> None:
    script = write_script(weekly_digest(), show="Widget", day=DAY, writing=WRITING, lexicon={},
                          llm=LLM, writer="llm", weekly="2026-W11")
    assert script.writer == "template" and "weekly recap" in script.sections[0].text
    with pytest.raises(InputError, match="expected an ISO week id like 2026-W30, got '2026-11'"):
        write(weekly_digest(), weekly="2026-11")


def test_a_weekly_recaps_brief_themes_are_this_weeks_not_todays() -> None:
    change = pr(3911, "Add a weight sync check", "liangel-02")
    brief = m.Theme(3, "weight sync check", "single", ("liangel-02",), ("RL",), (3911,), (),
                    None, 2.0, ("single",))
    digest = dataclasses.replace(rich_digest(extra=[change]),
                                 themes=rich_digest().themes[:2] + (brief,))
    for week in ("2026-W11", "2026-W12", "2026-W13"):
        script = write(digest, weekly=week)
        told = [sec for sec in script.sections if any(3911 in s.cites for s in sec.sentences)]
        assert told and all(sec.heading == "Also this week" for sec in told), told
        assert not any("today" in s.text.lower() for sec in script.sections
                       for s in sec.sentences), script.transcript
