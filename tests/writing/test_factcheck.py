from __future__ import annotations

import dataclasses

import pytest
from writing_builders import DAY, LLM, WRITING, pr, rich_digest

from mergecast import models as m
from mergecast.errors import FactCheckError
from mergecast.writing import Facts, fact_check, write_script
from mergecast.writing.factcheck import supported


def script_saying(*texts: str, cites: tuple[int, ...] = ()) -> m.Script:
    good = write_script(rich_digest(), show="Widget", day=DAY, writing=WRITING, lexicon={},
                        llm=LLM)
    extra = m.Section("notes", "Worth noting",
                      tuple(m.Sentence(t, t, cites) for t in texts))
    return dataclasses.replace(good, sections=good.sections[:-1] + (extra,) + good.sections[-1:])


def problems(text: str, cites: tuple[int, ...] = ()) -> list[str]:
    return Facts.from_digest(rich_digest(), day=DAY).problems(text, cites)


def test_template_script_passes():
    fact_check(script_saying(), rich_digest())


def test_invented_pr_number_names_sentence_and_token():
    with pytest.raises(FactCheckError) as exc:
        fact_check(script_saying("Worth noting: PR 999999 fixed everything."), rich_digest())
    assert "999999" in str(exc.value)
    assert '"Worth noting: PR 999999 fixed everything."' in str(exc.value)
    assert "(notes) sentence 1" in str(exc.value)
    assert len(exc.value.problems) == 1


@pytest.mark.parametrize("text", [
    "Kovacs47 landed a five-part stack, PRs 584044 through 584049.",
    "Kovacs47 landed seven PRs, 584044 through 584049.",
    "B7r2n pushed three linked PRs, 584064 and 584073.",
    "B7r2n pushed 5 PRs, 584064 and 584073.",
    "Marisol31 landed two PRs, 584097.",
])
def test_wrong_counts_fail(text):
    found = problems(text)
    assert found and "count" in found[0], found


@pytest.mark.parametrize("text", [
    "Kovacs47 landed an eleven-part stack, PRs 584044 through 584049.",
    "Six of its PRs are in this window, PRs 584044 through 584049.",
    "B7r2n pushed two linked PRs, 584064 and 584073.",
    "Marisol31 landed a single PR, 584097.",
    "Two separate PRs, 587111 and 587167, both tackle lookup order.",
    "In all, fifteen changes from eight developers were active in this window.",
])
def test_supported_counts_pass(text):
    assert problems(text) == []


@pytest.mark.parametrize(("text", "token"), [
    ("PR 584097 is from developer mallory.", "mallory"),
    ("Mallory99 landed PR 584097.", "Mallory99"),
    ("Thanks to @eve for PR 584097.", "@eve"),
    ("Mallory's stack, PR 584097, adds kernels.", "Mallory"),
    ("PR 584097 by hackerman.", "hackerman"),
])
def test_handles_not_in_the_data_fail(text, token):
    found = problems(text)
    assert any(token in p for p in found), found


def test_known_handles_pass_in_any_case():
    assert problems("B7r2n's work and kovacs47's stack landed, from marisol31.") == []


def test_cites_and_ranges_must_be_grounded():
    assert "cites PR 424242" in problems("A fine sentence.", (424242,))[0]
    assert "not one stack" in problems("PRs 584044 through 584097 cover kernels.")[0]


def test_title_and_headings_are_checked():
    good = script_saying()
    bad = dataclasses.replace(good, title="PR 999999 Saves the Day")
    with pytest.raises(FactCheckError, match='title "PR 999999 Saves the Day"'):
        fact_check(bad, rich_digest())


def test_years_and_small_numbers_are_fine_but_unknown_pr_slots_are_not():
    assert problems("That's the briefing for March 12th, 2026.") == []
    assert problems("It runs on 4 GPUs.") == []
    assert problems("PR 512 is new.") == ["PR number 512 is not in the digest"]


def test_wrong_totals_fail():
    found = problems("In all, twelve changes from nine developers were active in this window.")
    assert [p.split("'")[1] for p in found] == ["twelve changes", "nine developers"]


# --- issue 15 item 7: the check is of what we claim, never of a quoted title -----------

def _day_titled(title: str) -> m.Digest:
    """The rich day with its top theme renamed after one PR's (hostile) title."""
    d = rich_digest(extra=[pr(584300, title, "ada")])
    top = dataclasses.replace(d.themes[0], headline=title, prs=(584300,), stack=None,
                              authors=("ada",))
    return dataclasses.replace(d, themes=(top, *d.themes[1:]))


@pytest.mark.parametrize("title", ["Zero PRs left behind", "Zero authors",
                                   "Seven commits from nobody", "The tenth day of testing"])
def test_a_title_that_reads_like_a_count_does_not_block_the_day(title):
    d = _day_titled(title)
    script = write_script(d, show="Widget", day=DAY, writing=WRITING, lexicon={}, llm=LLM)
    said = " ".join([script.title, script.summary, script.transcript]).lower()
    assert title.lower() in said  # named as the theme it is
    fact_check(script, d)  # and what we claim still passes


def test_a_count_we_claim_is_still_checked_next_to_a_quoted_title():
    d = _day_titled("Zero PRs left behind")
    facts = Facts.from_digest(d, day=DAY)
    assert facts.problems("First theme: zero PRs left behind.") == []
    assert facts.problems("Zero PRs left behind landed nine PRs.") == [
        "count 'nine PRs' is not supported by the digest"]


def test_some_of_a_themes_prs_are_counted_by_the_ones_a_sentence_cites_and_does_not_name():
    # The stack's six PRs: "four of the PRs" is true of the four cited and not named
    facts = Facts.from_digest(rich_digest(), day=DAY)
    text = "Four of the PRs use planned tiles, and PR 584049 enables the tile planner."
    assert facts.problems(text, (584044, 584045, 584046, 584047, 584049)) == []
    assert facts.problems("Three of the PRs use planned tiles.", (584046, 584047, 584048)) == []
    # ... never more or fewer than the cites, nor PRs of two themes counted as one's
    fewer = text.replace("Four", "Three")
    assert facts.problems(fewer, (584044, 584045, 584046, 584047, 584049)) == [
        "count 'Three of the PRs' is not supported by the digest"]
    mixed = "Three of the PRs fix guards, and PR 584064 honors the retry budget."
    assert facts.problems(mixed, (584097, 584024, 584025, 584064)) == [
        "count 'Three of the PRs' is not supported by the digest"]


def test_an_unsupported_sentence_is_dropped_not_the_episode():
    good = script_saying("Worth noting: PR 999999 fixed everything.", "Worth noting: more.")
    kept, dropped = supported(good, rich_digest())
    notes = [s for s in kept.sections if s.kind == "notes"][-1]
    assert [s.text for s in notes.sentences] == ["Worth noting: more."]
    assert dropped == ['"Worth noting: PR 999999 fixed everything.": '
                       'PR number 999999 is not in the digest']
    fact_check(kept, rich_digest())


def test_the_show_name_is_ours_not_the_inputs():
    d = rich_digest()
    script = write_script(d, show="h16 daily", day=DAY, writing=WRITING, lexicon={}, llm=LLM)
    assert "h16 daily" in script.sections[0].text
    fact_check(script, d)


def digits_handle_digest() -> m.Digest:
    """A day whose only change is by a handle that ends in digits."""
    change = pr(3910, "[rl] Add a weight sync check", "liangel-02")
    return dataclasses.replace(
        rich_digest(extra=[change]),
        themes=rich_digest().themes + (m.Theme(4, "weight sync check", "single", ("liangel-02",),
                                               ("RL",), (3910,), (), None, 2.0, ("single",)),))


@pytest.mark.parametrize("text", [
    "liangel-02 landed PR 3910, adding a weight sync check.",
    "Also today, liangel-02 merged PR 3910, adding a weight sync check.",
    "Also today, liangel-02's PR 3910 adds a weight sync check.",
])
def test_digits_of_a_known_handle_are_no_count(text):
    assert Facts.from_digest(digits_handle_digest(), day=DAY).problems(text) == []


@pytest.mark.parametrize("text", [
    "liangel-03 landed PR 3910, adding a weight sync check.",
    "Then 02 landed PRs, 3910 among them.",
])
def test_digits_outside_a_known_handle_still_count(text):
    assert Facts.from_digest(digits_handle_digest(), day=DAY).problems(text) != []


def test_a_handle_of_digits_alone_does_not_vouch_for_a_pr_number():
    digest = rich_digest(extra=[pr(3911, "[rl] Add a check", "999999")])
    found = Facts.from_digest(digest, day=DAY).problems("999999 landed PR 999999.")
    assert set(found) == {"PR number 999999 is not in the digest"}


def test_a_figure_from_a_pr_description_is_grounded_only_where_that_pr_is_cited():
    body = "The new path is roughly 3x faster for 256 experts (see #4242)."
    d = rich_digest(extra=[pr(584300, "[moe] Parallel permute kernel", "ada", body=body)])
    facts = Facts.from_digest(d, day=DAY)
    said = "PR 584300 is roughly 3x faster for 256 experts."
    assert facts.problems(said, (584300,)) == []
    assert facts.problems(said.replace("PR 584300 is", "It is"), (584064,)) == [
        "number 256 is not in the digest"]
    # "#4242" in the description is a reference, not a figure it states.
    assert facts.problems("It needs 4242 steps.", (584300,)) == [
        "number 4242 is not in the digest"]
