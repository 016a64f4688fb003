"""Realisation: titles become effect sentences with proper lists, each slot on its own, and
no sentence ever has an empty slot, a doubled word or an unbalanced quote."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re

from hypothesis import example, given, settings
from hypothesis import strategies as st
from writing_builders import DAY, LLM, WINDOW, WRITING, pr, rich_digest, who_first

from mergecast import models as m
from mergecast.analysis.digest import build_digest
from mergecast.analysis.language import parse_actions, parse_title
from mergecast.config import AreasConfig
from mergecast.writing import write_script
from mergecast.writing.clauses import clauses, factor
from mergecast.writing.described import benefit, details, listed, problem
from mergecast.writing.phrases import Lookup
from mergecast.writing.phrases import opener as opening
from mergecast.writing.plan import make_plan
from mergecast.writing.realise import SLOTS, effects, opener
from mergecast.writing.who_size import size, who


def told(*titles: str, ing: bool = False) -> list[str]:
    found = clauses([dataclasses.replace(parse_title(t), ref=m.Ref(pr=i + 1))
                     for i, t in enumerate(titles)])
    return [c.ing() if ing else c.third() for c in found]


def test_titles_grouped_by_verb_with_shared_openings_said_once():
    assert told("Add shared tiling machinery", "Add a cost model for tiles",
                "Use planned tiles for depthwise filters", "Use planned tiles for dilated windows",
                "Use planned tiles for grouped channels", ing=True) == [
        "adding shared tiling machinery and a cost model for tiles",
        "using planned tiles for depthwise filters, dilated windows and grouped channels"]


def test_verbs_of_one_class_are_told_together_with_the_class_verb():
    assert told("Migrate sum to Vulkan", "Migrate mean to Vulkan", "Move cumsum to Vulkan") == [
        "moves sum, mean and cumsum to Vulkan"]
    assert told("Fix the guard on sets", "Resolve a race in the guard") == [
        "fixes the guard on sets and a race in the guard"]
    # handling a case says nothing was broken: it keeps its verb
    assert told("Fix the guard on sets", "Handle empty inputs in the guard") == [
        "fixes the guard on sets", "handles empty inputs in the guard"]
    # "fuse" is not always a speed-up: it keeps its own verb
    assert told("Optimize the cast kernel", "Fuse the epilogue") == [
        "speeds up the cast kernel", "fuses the epilogue"]


def test_support_negation_and_nameless_titles():
    assert told("Support int8 weights") == ["adds support for int8 weights"]
    assert told("Do not count MoE tokens during warmup") == [
        "stops counting MoE tokens during warmup"]
    # a title with no verb is framed from a small bank in data, never "works on"
    assert told("int4 sparse marlin tensor") == ["touches on int4 sparse marlin tensor"]
    # ... and never a phrase ending on the word the name opens on ("touches on on-device")
    for name in ("on-device checks of group sizes", "on-device validation of group sizes",
                 "with-statement support"):
        frame = told(name)[0].removesuffix(name).split()
        assert frame[-1] != name.split("-")[0], told(name)
    # an opening adverb stays before its verb: after a long object it would qualify the
    # wrong words ("runs the suite when the branch is main only")
    assert told("Temporarily disable the flaky test") == [
        "temporarily disables the flaky test"]
    assert told("Only run the suite when the branch is main") == [
        "only runs the suite when the branch is main"]


def test_lists_keep_their_own_ands_apart():
    assert factor(["min and max", "argmax"]) == "min and max, as well as argmax"
    # … and their own commas: "the planner as a default, never as a fallback and the
    # loader" ran the loader into the planner's clause
    assert factor(["the planner as a default, never as a fallback", "the loader"]) == \
        "the planner as a default, never as a fallback, as well as the loader"
    assert factor(["the cache", "the cache warmer"]) == "the cache and cache warmer"
    # A rest that ends another would say it twice ("… utils import path and import path"):
    # the head gives back its last word, and the kind both end on is said once
    assert factor(["the old loader utils import path", "the old loader import path"]) == \
        "the old loader utils and loader import paths"


def slot_lines(digest: m.Digest) -> tuple[Lookup, m.Plan]:
    x = Lookup(digest, show="Widget", day=DAY, lexicon={})
    return x, make_plan(digest, show="Widget", day=DAY, max_themes=3)


def test_each_slot_can_be_realised_on_its_own():
    x, plan = slot_lines(rich_digest())
    first = plan.themes[0]
    assert [ln.text for ln in opener(x, first)] == ["First theme: convolution tile planning."]
    (line,) = size(x, first)
    assert line.text.endswith(  # the opening varies by date; the content does not
        "kovacs47, who landed six parts of an eleven-part stack, PRs 584044 through 584049, "
        "adding shared tiling machinery and a cost model for tiles.")
    assert line.cites == tuple(range(584044, 584050))
    assert all(callable(s) for s in SLOTS) and len(SLOTS) >= 8


def test_sentences_are_from_the_template_writer():
    script = write_script(rich_digest(), show="Widget", day=DAY, writing=WRITING, lexicon={},
                          llm=LLM)
    assert {s.origin for sec in script.sections for s in sec.sentences} == {"template"}


# ------------------------------------------------------------------ properties

WORDS = ["Add", "Fix", "Use", "Migrate", "Support", "Remove", "the", "cache", "kernels",
         "for", "to", "Vulkan", "and", "of", "loader", "quantized_moe_ffn", "torch._native",
         "`compute_slice`", "[vulkan]", "[rpc]", "Revert", "\"", "(", ")", "'", "-", ":",
         "ZERO", "PRs", "two", "authors", "Qualcomm AI Engine Direct -", "add", "add",
         "<speak>", "..", "README.md", "#12", "v1.2", "ok", "x" * 40, "e.g.", "it", "them"]
TITLE = st.lists(st.sampled_from(WORDS), min_size=1, max_size=9).map(" ".join)
BODY = st.lists(st.sampled_from(WORDS + [".", "The", "is", "was", "slow", "now"]),
                max_size=40).map(" ".join)
_DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.I)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(TITLE, BODY), min_size=1, max_size=6))
@example([("Add to - for", "")])  # "adding to.": a dash left the cut object its "to"
@example([("of Fix of Add", "")])  # "Fixing of of Add": a leading "of" said before "of"
# a closing "and" past a long object: nothing after it to read as a second doing
@example([("quantized_moe_ffn Add quantized_moe_ffn torch._native Add and", "")])
def test_no_sentence_has_an_empty_slot_a_doubled_word_or_an_unbalanced_quote(prs):
    changes = [pr(300 + i, title, f"dev{i % 3}", body=body)
               for i, (title, body) in enumerate(prs)]
    digest = build_digest(changes, WINDOW, areas=AreasConfig())
    script = write_script(digest, show="Widget", day=DAY, writing=WRITING, lexicon={},
                          llm=LLM)
    assert script.title and len(script.title) <= 70
    for text in [script.title, script.summary] + [s.text for sec in script.sections
                                                  for s in sec.sentences]:
        assert text.strip() and "{" not in text and "}" not in text, text
        assert not re.search(r"\s[,.;:]|,\s*[,.]|\(\s*\)|\s{2}", text), text
        assert not _DOUBLED.search(text), text
        assert text.count('"') % 2 == 0 and text.count("(") == text.count(")"), text
        assert not re.search(r"\b(?:covers|on|with|for|to|the|and)\.$", text), text


def test_one_verb_per_list_with_articles_and_each_qualifier_kept():
    assert told("Add perf run config", "Add linter to CI", "Fix race in loader") == [
        "adds a performance run config and linter to CI", "fixes a race in loader"]
    assert told("Move the cache to disk", "Move logs to the run folder") == [
        "moves the cache to disk and logs to the run folder"]
    # No article where the verb does not make, mend or drop a thing, or the noun is plural.
    assert told("Overlap trainer to generator weight sync") == [
        "overlaps trainer to generator weight sync"]
    assert told("Add unit tests for the loader") == ["adds unit tests for the loader"]
    # The article follows the sound, not the letter.
    assert told("Add unified config", "Fix one-shot hook bug", "Add hourly job") == [
        "adds a unified config and an hourly job", "fixes a one-shot hook bug"]
    assert told("Add urgent check") == ["adds an urgent check"]


def test_participles_and_area_prefixes_read_as_a_person_would():
    assert told("scaled bias rowwise linear") == ["deals with scaled bias rowwise linear"]
    assert told("float8: enable on ROCm gfx942+") == ["enables float8 on ROCm gfx942+"]


def test_a_brief_theme_by_a_handle_ending_in_digits_names_them_first():
    change = pr(3910, "[rl] Add a weight sync check", "liangel-02")
    digest = dataclasses.replace(
        rich_digest(extra=[change]),
        themes=rich_digest().themes[:2] + (m.Theme(3, "weight sync check", "single",
                                               ("liangel-02",), ("RL",), (3910,), (), None,
                                               2.0, ("single",)),))
    script = write_script(digest, show="Widget", day=DAY, writing=WRITING, lexicon={}, llm=LLM)
    said = [s.text for sec in script.sections for s in sec.sentences if 3910 in s.cites]
    assert any(re.match(r"(In other work, |Also today, )?liangel-02 (landed|merged) PR 3910, "
                        r"adding a weight "
                        r"sync check\.$", s) for s in said), said


def test_two_verbs_on_one_object_are_both_inflected():
    assert told("Add and remove hooks") == ["adds and removes hooks"]
    assert told("Save and load the optimizer state", ing=True) == [
        "saving and loading the optimizer state"]


def test_lower_case_letters_before_a_digit_are_spelled_and_take_their_article():
    assert told("Add sm90 conversion kernel") == ["adds an sm90 conversion kernel"]
    assert told("Add h100 path") == ["adds an h100 path"]
    assert told("Add llama3 model") == ["adds a llama3 model"]
    # A word with no vowel is letters too; what follows "without" is not the head noun.
    assert told("Add rms scheduler") == ["adds an rms scheduler"]
    # A word the lexicon writes in capitals is written so in any title ("bf16" -> "BF16").
    assert told("Add bf16 path") == ["adds a BF16 path"]
    assert told("Add mlp scheduler") == ["adds an MLP scheduler"]
    # A word in capitals said as a word is no spelling: "a README", not "an README".
    assert told("Add README") == ["adds a README"]
    assert told("Add MANIFESTO doc") == ["adds a MANIFESTO doc"]
    assert told("Add FLUX inference test") == ["adds a FLUX inference test"]
    assert told("Add ROCm inference test") == ["adds a ROCm inference test"]
    assert told("Add NCCL2 inference test") == ["adds a NCCL2 inference test"]
    assert told("Reject lr_scheduler loads without optimizer") == \
        ["rejects LR scheduler loads without optimizer"]


def test_a_doing_and_its_object_take_no_article():
    # "Stop using the old cache" stops a doing: never "stops an using the old cache".
    assert told("Stop using the old widget cache") == ["stops using the old widget cache"]
    assert told("Remove padding config") == ["removes a padding config"]  # a thing's name
    # "only" picks the thing: never "an only one"
    assert told("Drop only one that loads a widget config") == [
        "removes only one that loads a widget config"]


def test_a_name_that_opens_on_a_verb_is_a_thing_with_the():
    # "removes apply widget AC" would be heard as a second order
    assert told("[widget] Remove apply_widget_ac") == ["removes the apply widget AC"]
    assert told("Disable register_loader_cpu_pass") == ["disables the register loader CPU pass"]
    assert told("Move collect_widget_nodes to the graph utils") == [
        "moves the collect widget nodes to the graph utils"]
    # a thing added is new ("a"); a feature named by its verb keeps its bare name
    assert told("Add eliminate_widget_pass") == ["adds an eliminate widget pass"]
    assert told("Re-enable compile for widget tests") == ["re-enables compile for widget tests"]


def test_a_bare_fault_fixed_takes_its_article():
    assert told("Fix bug when default dtype is BF16") == [
        "fixes a bug when default dtype is BF16"]
    assert told("Fix issue: no module named fbgemm") == ["fixes an issue: no module named fbgemm"]
    assert told("Fix error message in float8 utils") == ["fixes error message in float8 utils"]
    assert told("make sure tests are run with pytest") == [
        "makes sure tests are run with pytest"]  # (a verb that takes a clause, no subject)
    assert told("Fix broken link in the install guide") == [
        "fixes a broken link in the install guide"]


def test_a_thing_already_there_takes_the_when_no_count_noun_gives_it_a():
    assert told("Delete broken mixed-precision prototype") == [
        "removes the broken mixed-precision prototype"]
    assert told("Skip failing CI tests on old GPUs") == ["skips the failing CI tests on old GPUs"]
    assert told("Remove unused NF4 and multi-input helpers") == [
        "removes the unused NF4 and multi-input helpers"]
    assert told("Add missing top_p to SamplingParams") == ["adds the missing top p to SamplingParams"]
    # A count noun still takes "a"; a lone adjective, or one in a list, takes nothing.
    assert told("Remove flaky test") == ["removes a flaky test"]
    assert told("Remove stale and unused files") == ["removes stale and unused files"]
    assert told("Refactor legacy loader code") == ["refactors legacy loader code"]
    # The head noun ends before "as": "SPMD types as default backend" is no backend.
    assert told("Add SPMD types as default backend") == ["adds SPMD types as default backend"]


def test_a_brief_theme_named_by_an_action_is_told_as_that_action():
    change = pr(3911, "Move test file to right place", "ada")
    digest = dataclasses.replace(
        rich_digest(extra=[change]),
        themes=rich_digest().themes[:2] + (m.Theme(3, "moving test file to right place",
                                                   "single", ("ada",), ("Tests",), (3911,), (),
                                                   None, 2.0, ("single",)),))
    script = write_script(digest, show="Widget", day=DAY, writing=WRITING, lexicon={}, llm=LLM)
    said = [s.text for sec in script.sections for s in sec.sentences if 3911 in s.cites]
    assert any(s.endswith("PR 3911, moving test file to right place.") for s in said), said


def test_a_title_that_is_a_list_is_said_with_its_and():
    assert told("[env] - TaskEnv, Episode types, Scorer, Formatter") == [
        "deals with TaskEnv, episode types, Scorer and formatter"]


def test_a_title_that_lists_its_objects_is_told_whole_not_cut_to_the_first_item():
    assert told("Add reusable source, mixing, packing, collation, distributed sharding, "
                "and checkpoint extension points") == [
        "adds reusable source, mixing, packing, collation, distributed sharding, and "
        "checkpoint extension points"]
    assert told("Support text pretraining, SFT, and Flux; keep the old loader") == [
        "adds support for text pretraining, SFT, and Flux"]


def test_a_stack_named_by_its_base_part_tells_the_other_parts_not_the_name_again():
    d = rich_digest()
    named = dataclasses.replace(d.themes[0],
                                headline="shared tiling machinery and a cost model for tiles")
    x, plan = slot_lines(dataclasses.replace(d, themes=(named, *d.themes[1:])))
    (line,) = size(x, plan.themes[0])
    assert line.text.endswith("PRs 584044 through 584049, using planned tiles for depthwise "
                              "filters, dilated windows and grouped channels."), line.text


def test_items_of_one_kind_are_not_all_worded_alike():
    x = Lookup(rich_digest(), show="Widget", day=DAY, lexicon={})
    values = {"who": "ada", "status": "landed", "effect": "adding a cache"}
    first, second = (x.say("theme", "brief", i, pr=12, **values) for i in (1, 2))
    assert first != second
    assert {first, second} == {"In other work, ada landed PR 12, adding a cache.",
                               "Also today, ada landed PR 12, adding a cache."}


def test_an_acronym_spelled_out_takes_its_words_article_and_never_repeats_a_word():
    x = Lookup(rich_digest(), show="Widget", day=DAY, lexicon={})
    line = x.line("The stack also disables an FSDP bucketing pass.")
    assert line is not None
    assert line.text == "The stack also disables a fully sharded data parallel (FSDP) bucketing pass."
    # A combination is said by its letters: spelled out, "… (FSDP)+tensor-parallel (TP)+…"
    # ran each part's words into the next.
    x = Lookup(rich_digest(), show="Widget", day=DAY, lexicon={})
    line = x.line("PR 12 fixes the widget FSDP+TP+compile test, and the TP loader.")
    assert line is not None
    assert line.text == \
        "PR 12 fixes the widget FSDP+TP+compile test, and the tensor-parallel (TP) loader.", \
        line.text
    line = x.line("PR 7 adds a MoE router for the vision model.")
    assert line is not None
    assert line.text == "PR 7 adds a mixture-of-experts (MoE) router for the vision model."
    line = x.line("PR 7 adds an MTP head for the widget model.")
    assert line is not None
    assert line.text == "PR 7 adds a multi-token prediction (MTP) head for the widget model."
    line = x.line("The widget test covers LUT based quantization.")
    assert line is not None
    assert line.text == "The widget test covers lookup table (LUT) based quantization."
    # Before its expansion's own last word an acronym stays short: "AC checkpointing" would
    # be "activation checkpointing checkpointing".
    assert lines_said(("PR 7 fixes the AC checkpointing flag in the loader.",
                       "PR 7 fixes the AC policy in the loader."), x) == [
        "PR 7 fixes the AC checkpointing flag in the loader.",
        "PR 7 fixes the activation checkpointing (AC) policy in the loader."]


def lines_said(texts: tuple[str, ...], x: Lookup | None = None) -> list[str | None]:
    """Each text as one episode's Lookup says it in turn (None: not said at all)."""
    x = Lookup(rich_digest(), show="Widget", day=DAY, lexicon={}) if x is None else x
    return [ln.text if (ln := x.line(t)) else None for t in texts]


def test_the_terms_of_kernels_and_training_are_spelled_out():
    assert lines_said(("PR 7 adds a grouped MM kernel for the widget model.",
                       "PR 7 fixes an OOB in the widget embedding.",
                       "PR 7 clamps the LR of the widget scheduler.")) == [
        "PR 7 adds a grouped matrix multiply (MM) kernel for the widget model.",
        "PR 7 fixes an out-of-bounds access (OOB) in the widget embedding.",
        "PR 7 clamps the learning rate (LR) of the widget scheduler."]


def test_an_acronym_is_spelled_out_at_its_first_mention_whatever_its_casing():
    # "MOE" is the MoE of the lexicon: spelled out there, not at a later "MoE"; a word in
    # lower case ("moe") or with one capital is no acronym.
    assert lines_said(("PR 7 adds a MOE router for the vision model.",
                       "PR 7 also adds a MoE router for the text model.",
                       "PR 7 adds a moe flag to the vision model.")) == [
        "PR 7 adds a mixture-of-experts (MOE) router for the vision model.",
        "PR 7 also adds a MoE router for the text model.",
        "PR 7 adds a moe flag to the vision model."]


def test_a_doubled_word_goes_but_a_compound_opening_on_it_stays():
    x = Lookup(rich_digest(), show="Widget", day=DAY, lexicon={})
    line = x.line("PR 7 adds Support support for the loader.")
    assert line is not None and line.text == "PR 7 adds Support for the loader."
    line = x.line("PR 7 touches on on-device checks of the loader.")
    assert line is not None and line.text == "PR 7 touches on on-device checks of the loader."


def test_an_effect_one_of_several_changes_makes_is_told_of_one_not_of_all():
    # Three PRs, one title with a verb: "landed three related PRs, fixing X" and "the PRs
    # fix X" would each say all three fix it.
    d = rich_digest(extra=[pr(n, t, "ada") for n, t in (
        (2548, "Fix the variable name"), (2549, "Docs"), (2562, "More"))])
    theme = dataclasses.replace(d.themes[1], prs=(2548, 2549, 2562), authors=("ada",))
    d = dataclasses.replace(d, themes=(d.themes[0], theme, *d.themes[2:]))
    plan_theme = make_plan(d, show="Widget", day=DAY, max_themes=3).themes[1]
    x = Lookup(d, show="Widget", day=DAY, lexicon={})  # (its size sentence checks out)
    one = dataclasses.replace(plan_theme, effects=(
        dataclasses.replace(parse_title("Fix the variable name"), ref=m.Ref(pr=2548)),))
    (line,) = size(x, one)
    assert line.text.endswith("PRs, 2548, 2549 and 2562."), line.text
    assert [ln.text for ln in effects(x, one)] == ["PR 2548 fixes the variable name."]


def test_a_cluster_named_by_one_change_still_tells_that_change_with_the_others():
    # "always saving shape ops. … landed two related PRs, hoisting X" would hide which PR
    # saves the ops, as if the name and the hoisting were one change.
    d = rich_digest(extra=[pr(n, t, "ada") for n, t in (
        (2601, "Always save shape ops"), (2602, "Hoist the group reassignment into a pass"))])
    theme = dataclasses.replace(d.themes[1], prs=(2601, 2602), commits=(), authors=("ada",),
                                stack=None)
    d = dataclasses.replace(d, themes=(d.themes[0], theme, *d.themes[2:]))
    plan_theme = make_plan(d, show="Widget", day=DAY, max_themes=3).themes[1]
    x = Lookup(d, show="Widget", day=DAY, lexicon={})  # (its size sentence checks out)
    both = dataclasses.replace(plan_theme, concept="always saving shape ops", stack=None,
                               effects=tuple(dataclasses.replace(parse_title(t), ref=m.Ref(pr=n))
                                             for n, t in ((2601, "Always save shape ops"),
                                                          (2602, "Hoist the group reassignment "
                                                                 "into a pass"))))
    text = " ".join(ln.text for ln in [*size(x, both), *effects(x, both)])
    # … nor say the name again right after it: "the second" is the one doing more
    assert who_first(text) == ("ada landed two related PRs, 2601 and 2602, the second "
                               "hoisting the group reassignment into a pass."), text
    swapped = dataclasses.replace(both, effects=tuple(
        dataclasses.replace(a, ref=m.Ref(pr=5203 - a.ref.pr)) for a in reversed(both.effects)))
    assert who_first(" ".join(ln.text for ln in [*size(x, swapped), *effects(x, swapped)])) == (
        "ada landed two related PRs, 2601 and 2602, the first hoisting the group reassignment "
        "into a pass.")
    # … however long the name, which the size sentence never has to hold twice
    named = "Always save the shape ops of every widget loader in the planner cache"
    long = dataclasses.replace(both, concept="always saving the shape ops of every widget "
                               "loader in the planner cache", effects=(
                                   dataclasses.replace(parse_title(named), ref=m.Ref(pr=2601)),
                                   dataclasses.replace(parse_title(
                                       "Hoist the group reassignment of the widget planner "
                                       "into a pass"), ref=m.Ref(pr=2602))))
    assert who_first(" ".join(ln.text for ln in [*size(x, long), *effects(x, long)])) == (
        "ada landed two related PRs, 2601 and 2602, the second "
        "hoisting the group reassignment of the widget planner into a pass.")
    # … and so do two things the other PR does
    two = dataclasses.replace(both, effects=(*both.effects, dataclasses.replace(
        parse_title("Drop the old planner flag"), ref=m.Ref(pr=2602))))
    assert who_first(" ".join(ln.text for ln in [*size(x, two), *effects(x, two)])) == (
        "ada landed two related PRs, 2601 and 2602, the second "
        "hoisting the group reassignment into a pass and removing the old planner flag.")
    # When the name's change does more than the name, both are told, in order.
    x = Lookup(d, show="Widget", day=DAY, lexicon={})  # (a new episode: no sentence said)
    more = dataclasses.replace(both, effects=(
        dataclasses.replace(parse_title("Always save shape ops in the loader cache"),
                            ref=m.Ref(pr=2601)), both.effects[1]))
    text = " ".join(ln.text for ln in [*size(x, more), *effects(x, more)])
    assert "always saving shape ops" in text and ("hoisting the group reassignment" in text
                                                  or "PR 2602 hoists the group" in text), text
    # One change alone needs no "always saving shape ops" after its name.
    one = dataclasses.replace(both, prs=(2601,), effects=both.effects[:1])
    assert "saving shape ops" not in " ".join(ln.text for ln in [*size(x, one), *effects(x, one)])


def test_what_one_of_several_prs_does_never_rides_on_the_size_of_all():
    # "landed five related PRs, fixing the loader" would say all five fix it: the size
    # sentence tells no effect of some of them, and the sentence that does is not one a
    # long day may drop.
    titles = ((2621, "Fix the loader"), (2622, "Add a cache for the planner"),
              (2623, "Remove the old flag"), (2624, "Rename the option"),
              (2625, "Document the public API"))
    x, five = ada_theme(titles, "the loader")
    (line,) = size(x, five)
    assert who_first(line.text) == "ada landed five related PRs, 2621 through 2625.", line.text
    first, *_ = effects(x, five)
    assert first.text.startswith("PR 2621 fixes the loader") and not first.optional, first
    # what all of them do still does
    titles = ((2641, "Fix the loader"), (2642, "Fix the planner"), (2643, "Fix the widget"))
    x, three = ada_theme(titles, "fixes")
    (line,) = size(x, three)
    assert line.text.endswith("PRs, 2641, 2642 and 2643, fixing the loader, planner and "
                              "widget."), line.text


def test_a_statement_that_names_the_theme_is_not_noted_again():
    titles = ((2631, "the exchange kernel reads the output splits"),
              (2632, "Add a cache for the planner"))
    d = rich_digest(extra=[pr(n, t, "ada") for n, t in titles])
    # A stack named by its base part goes on to the rest.
    stack = m.Stack(tool="ghstack", authors=("ada",), declared_size=2, members=(2631, 2632))
    theme = dataclasses.replace(d.themes[1], prs=(2631, 2632), commits=(), authors=("ada",),
                                stack=stack)
    d = dataclasses.replace(d, themes=(d.themes[0], theme, *d.themes[2:]))
    plan_theme = make_plan(d, show="Widget", day=DAY, max_themes=3).themes[1]
    x = Lookup(d, show="Widget", day=DAY, lexicon={})
    named = dataclasses.replace(
        plan_theme, concept="the exchange kernel reads the output splits",
        effects=tuple(a for n, t in titles for a in parse_actions_ref(t, n)))
    text = " ".join(ln.text for ln in [*size(x, named), *effects(x, named)])
    assert "noting that" not in text and "notes that" not in text, text
    assert "cache for the planner" in text, text


def parse_actions_ref(title: str, n: int) -> list[m.Action]:
    return [dataclasses.replace(a, ref=m.Ref(pr=n)) for a in parse_actions(title)]


def test_a_grab_bag_is_never_followed_by_the_work_comes_from():
    # "Loader work. The work comes from ada, …" says "work" twice in a breath.
    d = rich_digest()
    theme = make_plan(d, show="Widget", day=DAY, max_themes=3).themes[1]
    bag = dataclasses.replace(theme, concept="Loader work")
    said = {size(Lookup(d, show="Widget", day=DAY + dt.timedelta(days=n), lexicon={}), bag)[0]
            .text.split(",")[0] for n in range(8)}
    assert not [s for s in said if s.startswith("The work comes from")], said
    named = dataclasses.replace(theme, concept="retry budgets")
    assert any(size(Lookup(d, show="Widget", day=DAY + dt.timedelta(days=n), lexicon={}),
                    named)[0].text.startswith("The work comes from") for n in range(8))


def test_who_and_how_big_is_worded_three_ways_and_agrees_with_its_authors():
    # "The work comes from X, who landed …" opened most episodes' themes: it takes turns.
    d = rich_digest()
    first, theme = make_plan(d, show="Widget", day=DAY, max_themes=3).themes[:2]
    pair = dataclasses.replace(theme, authors=(first.authors[0], theme.authors[0]))

    def opening(t: m.ThemePlan, n: int) -> str:
        x = Lookup(d, show="Widget", day=DAY + dt.timedelta(days=n), lexicon={})
        return size(x, t)[0].text.split(", who")[0]

    said = {opening(theme, n) for n in range(9)}
    assert {f"The work comes from {who(theme)}", f"Behind this one is {who(theme)}"} <= said
    assert f"Behind this one are {who(pair)}" in {opening(pair, n) for n in range(9)}
    assert " and " in who(pair)


def test_a_grab_bag_s_changes_are_counted_not_called_related():
    # Changes that share only a place are "eleven PRs"; a cluster named by what it does
    # keeps "related PRs".
    d = rich_digest()
    theme = make_plan(d, show="Widget", day=DAY, max_themes=3).themes[1]
    x = Lookup(d, show="Widget", day=DAY, lexicon={})
    bag = size(x, dataclasses.replace(theme, concept="Loader work"))[0].text
    named = size(x, dataclasses.replace(theme, concept="retry budgets"))[0].text
    assert "two PRs" in bag and "related" not in bag, bag
    assert "two related PRs" in named, named


def ada_theme(titles: tuple[tuple[int, str], ...], concept: str) -> tuple[Lookup, m.ThemePlan]:
    """The second theme made of ada's PRs with these titles, named `concept`."""
    d = rich_digest(extra=[pr(n, t, "ada") for n, t in titles])
    theme = dataclasses.replace(d.themes[1], prs=tuple(n for n, _ in titles), commits=(),
                                authors=("ada",), stack=None)
    d = dataclasses.replace(d, themes=(d.themes[0], theme, *d.themes[2:]))
    plan_theme = make_plan(d, show="Widget", day=DAY, max_themes=3).themes[1]
    x = Lookup(d, show="Widget", day=DAY, lexicon={})  # (its size sentence checks out)
    return x, dataclasses.replace(
        plan_theme, concept=concept, stack=None,
        effects=tuple(dataclasses.replace(parse_title(t), ref=m.Ref(pr=n)) for n, t in titles))


def test_two_effect_sentences_in_a_row_never_open_alike():
    # With "The PRs also" said twice already in the episode, both "also" sentences of a big
    # theme fell to the one other wording: "Beyond that, … Beyond that, …".
    titles = tuple((2640 + i, t) for i, t in enumerate((
        "Add a retry budget", "Drop the legacy cache", "Speed up the hash map",
        "Fix the upload timeout", "Document the cache keys", "Warn on stalled uploads",
        "Rename the loader flag", "Test the planner seeds", "Cache the widget lookups")))
    for day in range(7):
        x, named = ada_theme(titles, "upload robustness")
        x.seed += day
        x.openers[opening("The PRs also")] = 2
        said = [ln.text for ln in effects(x, named)]
        openers = [opening(s) for s in said]
        assert len(said) >= 2 and len(set(openers)) == len(openers), said
        # … and with "Beyond that" used up too, the one wording left is not said twice
        # in a row: "On top of that, … On top of that, …"
        x, named = ada_theme(titles, "upload robustness")
        x.seed += day
        x.openers[opening("The PRs also")] = x.openers[opening("Beyond that, the")] = 2
        said = [ln.text for ln in effects(x, named)]
        openers = [opening(s) for s in said]
        pairs = zip(openers, openers[1:], strict=False)
        assert len(said) >= 2 and all(a != b for a, b in pairs), said


def test_an_effects_sentence_left_out_is_not_followed_by_an_also():
    # The first effects sentence falls to the opener limit ("PR 2660 removes" and
    # "Concretely" said twice already): the next one opened "Beyond that" on nothing said.
    titles = tuple((2660 + i, t) for i, t in enumerate((
        "Drop the legacy cache", "Speed up the hash map", "Fix the upload timeout",
        "Warn on stalled uploads", "Rename the loader flag", "Test the planner seeds")))
    x, named = ada_theme(titles, "upload robustness")
    named = dataclasses.replace(  # (a theme told again folds no effect on its size)
        named, continues=m.Continuity("2026-07-23", "upload robustness"))
    x.openers[opening("PR 2660 removes")] = x.openers[opening("Concretely, PR 2660")] = 2
    said = [ln.text for ln in effects(x, named)]
    assert said == [
        "Concretely, PR 2662 fixes the upload timeout, and PR 2663 warns on stalled uploads.",
        "Beyond that, PR 2664 renames the loader flag, and PR 2665 tests the planner seeds."]


def test_a_name_of_all_the_parts_is_not_said_again_as_their_effect():
    titles = ((2611, "Add timeout support for upload push op"),
              (2612, "Add timeout support for upload pull op"))
    x, named = ada_theme(titles, "timeout support for upload push and pull ops")
    text = " ".join(ln.text for ln in [*size(x, named), *effects(x, named)])
    assert who_first(text).startswith("ada landed two related PRs, 2611 and 2612") and \
        "timeout support" not in text, text


def test_the_steps_a_description_lists_never_point_back_at_the_line_count():
    # The steps sentence mostly follows "The change touches 41 lines …": "Along with that"
    # would point at a line count.
    x, plan = slot_lines(rich_digest())
    first = plan.themes[0]
    prs = first.prs[:2]
    def said(*titles: str) -> list[str]:
        steps = tuple(dataclasses.replace(parse_title(t), ref=m.Ref(pr=n))
                      for n, t in zip(prs, titles, strict=True))
        return [ln.text for ln in listed(x, dataclasses.replace(first, steps=steps))]

    assert said("Fix the get plain path", "Add a slice kernel") == [
        f"PR {prs[0]} also fixes the get plain path.",
        f"PR {prs[1]} goes further: it adds a slice kernel."]
    # Tidying around the work (a test, the docs) is done "also", never "goes further".
    assert said("Fix the get plain path", "Add a slice test") == [
        f"PR {prs[0]} also fixes the get plain path.", f"PR {prs[1]} also adds a slice test."]


def test_a_theme_with_more_effects_than_room_tells_its_name_and_no_last_step():
    # (seven PRs, none riding on the size sentence: what one does is no effect of all)
    titles = ((2621, "Add a retry budget to every worker of the upload pool"),
              (2622, "Rename the loader flags to match the upload and download options of "
                     "the command line tool"),
              (2623, "Drop the legacy cache"), (2624, "Speed up the hash map"),
              (2625, "Fix the upload timeout"), (2626, "Document the cache keys"),
              (2627, "Warn on stalled uploads"))
    x, named = ada_theme(titles, "upload robustness")
    said = [ln.text for ln in effects(x, named)]
    text = " ".join(said)
    # the last part tells the theme's name: cut for room in order, it would go untold
    assert "stalled uploads" in text, said
    # some of the seven go untold (a theme of five or more tells up to six, two to a
    # sentence, in at most three sentences, each in one breath), so none may say the last
    # one told ends the work
    assert "documents" not in text and "hash map" in text, said
    assert not any(s.startswith(("Finally", "To finish")) for s in said), said
    assert len({s.split()[0] for s in said}) == len(said), said  # not "…also…" twice


def test_a_grab_bags_details_are_told_as_one_changes():
    # "The loader keeps shards open." after "landed two PRs" gave both the one detail; one
    # of twelve commits with no PR number to say it by is not said.
    x, plan = slot_lines(rich_digest())
    theme = plan.themes[1]
    pr = theme.prs[0]
    shards = m.Claim("The loader keeps shards open between steps.", "detail", m.Ref(pr=pr))
    commit = m.Claim("No widget test changes.", "detail", m.Ref(sha="a" * 40))
    bag = dataclasses.replace(theme, concept="the work in Loader", stack=None,
                              details=(commit, shards))
    # (as its description says it: "In PR 12, people are creating …" put the state before
    # the change inside it)
    assert [ln.text for ln in details(x, bag)] == [
        f"As PR {pr} describes it, the loader keeps shards open between steps."]
    # a theme that is one work keeps them as they are
    named = dataclasses.replace(bag, concept="retry budgets")
    assert [ln.text for ln in details(x, named)] == [
        "No widget test changes.", "The loader keeps shards open between steps."]


def test_a_detail_after_a_line_about_another_pr_is_told_as_its_own_prs():
    # "PR 1397 goes further: … Metrics processor is passed to the validator." gave PR
    # 1395's detail to PR 1397.
    x, plan = slot_lines(rich_digest())
    theme = plan.themes[1]
    first, other = theme.prs[0], plan.themes[0].prs[0]
    shards = m.Claim("The loader keeps shards open between steps.", "detail", m.Ref(pr=first))
    named = dataclasses.replace(theme, concept="retry budgets", stack=None, details=(shards,),
                                prs=(first, other), commits=())
    x.line(f"PR {first} goes further: it adds a widget.", (first,))
    assert [ln.text for ln in details(x, named)] == [
        "The loader keeps shards open between steps."]
    x.line(f"PR {other} goes further: it adds a gadget.", (other,))
    assert [ln.text for ln in details(x, named)] == [
        f"As PR {first} describes it, the loader keeps shards open between steps."]
    # A line that is another PR's without naming it ("Dumping on timeout should be a safe
    # default." of PR 103, then PR 149's "Init includes the first train step."): what it
    # cites says whose it is
    x.line(f"PR {first} goes further: it adds a widget.", (first,))
    x.line("Gadgets should be a safe default.", (other,))
    assert [ln.text for ln in details(x, named)] == [
        f"As PR {first} describes it, the loader keeps shards open between steps."]
    x.line("Widgets should be a safe default.", (first,))
    assert [ln.text for ln in details(x, named)] == [
        "The loader keeps shards open between steps."]


def test_a_grab_bags_problem_and_payoff_are_told_as_one_changes():  # (or a kind's)
    x, plan = slot_lines(rich_digest())
    theme = plan.themes[1]
    pr = theme.prs[0]
    said = m.Claim("the loader re-read every shard on each step.", "problem", m.Ref(pr=pr))
    gain = m.Claim("a step reads each shard once.", "benefit", m.Ref(pr=pr))
    bag = dataclasses.replace(theme, concept="the work in Loader", stack=None, problem=said,
                              benefit=gain)
    told = [ln.text for ln in [*problem(x, bag), *benefit(x, bag)]]
    # "The problem:" after "landed two PRs" would give both PRs the one problem
    assert all(f"PR {pr}" in t for t in told) and len(told) == 2, told
    assert told[0].endswith(": the loader re-read every shard on each step."), told
    # so is one named by its kind of work: its changes share the kind, not the problem
    kind = dataclasses.replace(bag, concept="Loader fixes")
    assert all(f"PR {pr}" in ln.text for ln in [*problem(x, kind), *benefit(x, kind)])
    # a theme that is one work keeps its plain frame
    named = dataclasses.replace(bag, concept="retry budgets")
    assert not any(f"PR {pr}" in ln.text for ln in [*problem(x, named), *benefit(x, named)])
    # a series named by its place is a bag too (its parts share an author, not a problem);
    # a stack's parts build on its base, whose problem is the stack's
    lone = m.Stack("series", ("ada",), None, theme.prs, ())
    series = dataclasses.replace(bag, stack=lone)
    assert all(f"PR {pr}" in ln.text for ln in [*problem(x, series), *benefit(x, series)])
    stack = dataclasses.replace(bag, stack=dataclasses.replace(lone, tool="ghstack"))
    assert not any(f"PR {pr}" in ln.text for ln in [*problem(x, stack), *benefit(x, stack)])
    # One of the bag's commits, with no PR to say it by, is not said: "The upshot: …"
    # after "landed twelve commits" would be all twelve's.
    sha = m.Ref(sha="b" * 40)
    commits = dataclasses.replace(
        bag, problem=dataclasses.replace(said, ref=sha), benefit=dataclasses.replace(gain, ref=sha))
    assert problem(x, commits) == [] and benefit(x, commits) == []
    # One change's problem too long to say whose is not said, rather than said as all of
    # the theme's.
    long = m.Claim("The loader re-read every shard on each step, because the cache was keyed "
                   "on the step number instead of the name of the shard it came from, so "
                   "nothing hit.", "problem", m.Ref(pr=pr))
    assert problem(x, dataclasses.replace(bag, problem=long)) == []
    assert problem(x, dataclasses.replace(named, problem=long))[0].text == long.text


def test_a_big_theme_tells_up_to_six_of_its_parts_and_ends_on_one_last_step():
    titles = ((2631, "Add a retry budget"), (2632, "Drop the legacy cache"),
              (2633, "Speed up the hash map"), (2634, "Fix the upload timeout"),
              (2635, "Document the cache keys"), (2636, "Warn on stalled uploads"))
    x, named = ada_theme(titles, "upload robustness")
    said = [ln.text for ln in effects(x, named)]  # (after the two the size sentence tells)
    text = " ".join(said)
    assert all(w in text for w in ("hash map", "upload timeout", "cache keys",
                                   "stalled uploads")), said
    assert sum(s.startswith(("Finally", "To finish")) for s in said) == 1, said
    assert said[-1].startswith(("Finally", "To finish")), said
    # one whose description says why gives that the time: four parts in all, as any theme
    why = m.Claim("Uploads no longer stall on a slow link.", "benefit", m.Ref(pr=2631))
    said = [ln.text for ln in effects(x, dataclasses.replace(named, benefit=why))]
    text = " ".join(said)
    assert len(said) == 2 and "cache keys" not in text and "hash map" not in text, said


def test_an_effect_of_one_pr_among_several_is_said_of_that_pr():
    # "On top of that, the PRs use the dim1 kernel" said all of them use it, where one did;
    # an effect two of five PRs share is said of those two.
    titles = ((2701, "Add a retry budget"), (2702, "Warn on stalled uploads"),
              (2703, "Fix the upload timeout"), (2704, "Fix the loader flag"),
              (2705, "Rename the planner seeds"))
    x, named = ada_theme(titles, "upload robustness")
    said = [(ln.text, ln.cites) for ln in effects(x, named)]
    assert said[-1] == ("Beyond that, PRs 2703 and 2704 fix the upload timeout and loader flag, "
                        "and PR 2705 renames the planner seeds.", (2703, 2704, 2705)), said


def test_two_prs_effects_are_each_said_of_their_own_pr():
    # "landed two related PRs, 2711 and 2712, adding a retry budget, then warning on stalled
    # uploads" said both do both, and put an order on two changes that have none.
    titles = ((2711, "Add a retry budget"), (2712, "Warn on stalled uploads"))
    x, named = ada_theme(titles, "upload robustness")
    (line,) = size(x, named)
    assert who_first(line.text) == ("ada landed two related PRs, 2711 and 2712, the first "
                                    "adding a retry budget, the second warning on stalled "
                                    "uploads."), line.text


def test_two_prs_effects_each_said_of_their_own_still_fit_one_breath():
    # "the first …, the second …" says two words more than "…, then …": past the limit
    # the size sentence carries the first alone and the second is told after it
    titles = ((2721, "Add support for the widget loader test framework"),
              (2722, "Fix the broken widget loader tests"))
    x, named = ada_theme(titles, "upload robustness")
    (line,) = size(x, named)
    assert len(line.text.split()) <= 30 and "the first adding support" in line.text and \
        "the second" not in line.text, line.text
    assert any("PR 2722" in ln.text and "fixes the broken widget loader tests" in ln.text
               for ln in effects(x, named))


def test_an_effect_of_some_prs_beside_another_prs_is_said_with_their_count():
    # "Four of the PRs add X, and PR 2745 fixes Y" failed the fact check, which counted the
    # five PRs the sentence cites: both effects went unsaid.
    titles = ((2741, "Add retry support to the widget loader"),
              (2742, "Add retry support to the gadget loader"),
              (2743, "Add retry support to the sprocket loader"),
              (2744, "Add retry support to the cog loader"),
              (2745, "Fix the upload timeout for slow mirrors on the download page"))
    x, named = ada_theme(titles, "upload robustness")
    assert [(ln.text, sorted(ln.cites)) for ln in effects(x, named)] == [(
        "Four of the PRs add retry support to the widget, gadget, sprocket and cog loaders, "
        "and PR 2745 fixes the upload timeout for slow mirrors on the download page.",
        [2741, 2742, 2743, 2744, 2745])]


def test_effects_said_together_for_room_are_said_of_the_prs_that_make_them():
    # Naming each PR would pass the word limit, so both effects are said together: of the
    # three PRs that make them, never "the PRs" of all five.
    titles = ((2731, "Add a retry budget to the widget upload pool workers"),
              (2732, "Add a stall warning to the widget upload pool workers"),
              (2733, "Rename the loader flags to match the upload and download options of "
                     "the widget command line tool"),
              (2734, "Drop the legacy cache"), (2735, "Speed up the hash map"))
    x, named = ada_theme(titles, "upload robustness")
    first = effects(x, named)[0]
    assert first.text.startswith("Three of the PRs add a retry budget and stall warning, and "
                                 "rename the loader flags") and \
        first.cites == (2731, 2732, 2733), first


def test_a_name_that_leaves_out_a_function_word_is_not_said_again_as_an_effect():
    # "moving blorp passes to the blorp module" names "Move all blorp passes to …": "PR 2
    # also moves all blorp passes …" would say the name again
    titles = ((2631, "Register the zib node in the frob trace path"),
              (2632, "Move all blorp passes to the blorp module"))
    x, named = ada_theme(titles, "moving blorp passes to the blorp module")
    text = " ".join(ln.text for ln in [*size(x, named), *effects(x, named)])
    assert "moves all blorp passes" not in text and "registering the zib node" in text, text


def test_a_pr_not_said_yet_is_never_said_to_do_something_also():
    # "PR 803 also generalizes X" after "PR 801 adds Y, and PR 802 deprecates Z" says PR 803
    # did something already; whatever the day's wording, it opens otherwise
    changes = [pr(801, "New multi-step zorb API", "ada"), pr(802, "Deprecate old zorb APIs", "ada"),
               pr(803, "Generalize WibQuantizer beyond blorp", "ada")]
    theme = m.Theme(1, "zorb clean-up", "cluster", ("ada",), ("Quantization",),
                    (801, 802, 803), (), None, 5.0, ("linked",))
    d = dataclasses.replace(rich_digest(), themes=(theme,), changes=tuple(changes),
                            duplicates=(), reverts=(), relands=(), first_time_contributors=(),
                            counts=m.Counts(3, 3, 0, 1), areas=())
    for k in range(8):
        script = write_script(d, show="Widget", day=DAY + dt.timedelta(days=k),
                              writing=WRITING, lexicon={}, llm=LLM)
        said = " ".join(s.text for sec in script.sections for s in sec.sentences)
        assert "PR 802 deprecates the old zorb APIs." in said, said
        assert "PR 803 also" not in said and "PR 803 generalizes WibQuantizer" in said, said
