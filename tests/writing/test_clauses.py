"""Effects told from titles say what the title said: golden title -> effect text for each
pattern the sweep's fidelity figures (benchmarks/sweep_effects.py) found bent, and
properties every effect keeps (no empty slot, no doubled word, no lost noun).

Titles are real torchtitan/torchao titles or general engineering phrasing; none from the
held-out pytorch days.
"""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from mergecast.analysis.language import kind_of, parse_title, words
from mergecast.models import Action, Ref
from mergecast.writing.clauses import OBJECT_WORDS, Clause, article, clauses, factor
from mergecast.writing.lists import spoken_list


def told(title: str) -> str:
    (effect,) = clauses([parse_title(title)])
    return effect.third()


def numbered(*titles: str) -> list[Action]:
    """The titles' actions, each of the PR numbered by its place (0, 1, …)."""
    return [dataclasses.replace(parse_title(t), ref=Ref(pr=i)) for i, t in enumerate(titles)]


@pytest.mark.parametrize(("title", "effect"), [
    # "<X> support for <Y>" adds X support: X is the claim.
    ("CUDAGraph support for SimpleFSDP and TP", "adds CUDAGraph support for SimpleFSDP and TP"),
    # an implementation is added, never "works on the implementation of X"
    ("Implementation of the blockwise quantization for fp8 tensors",
     "adds the blockwise quantization for FP8 tensors"),
    ("Chunked loss implementation in eager", "adds chunked loss implementation in eager"),
    ("Initial support for float8 all-gather", "adds initial support for float8 all-gather"),
    ("Better support for MoE", "adds support for MoE"),  # a generic opener is no claim
    ("Support int8 weights", "adds support for int8 weights"),
    # an upgrade is said as one, never "bumps the widget to the v2 APIs"
    ("Upgrade the widget to the v2 APIs", "upgrades the widget to the v2 APIs"),
    # what is integrated was there before: never "adds a widget backend with the loader"
    ("Integrate the widget backend with the loader",
     "integrates the widget backend with the loader"),
    # a noun title's "around" or "across" links it to what it acts on, as "to" does
    ("Some cleanups around the widget path", "cleans up the widget path"),
    ("Various improvements across the loader", "improves the loader"),
    # handling a case fixes nothing that was broken: never "fixes empty widget inputs"
    ("Handle empty widget inputs", "handles empty widget inputs"),
    ("Handle symbolic widgets gracefully", "handles symbolic widgets gracefully"),
    # "<X> fix for <Y>" fixes X for Y.
    ("weight tying fix for qwen3", "fixes weight tying for Qwen3"),
    ("Minor fixes to the loader", "fixes the loader"),
    # A verb before a clause keeps the whole clause, auxiliary and all.
    ("[BE][doc] explain why float8 needs to be distributed aware",
     "explains why float8 needs to be distributed aware"),
    ("remove float8 install as H100 is not available in CI yet",
     "removes float8 install as H100 is not available in CI yet"),
    # A verb the lexicon lacks after "don't" is still a verb, and the "not" is said.
    ("bug fix: don't swallow OutOfMemoryError when the snapshot is enabled",
     "stops swallowing OutOfMemoryError when the snapshot is enabled"),
    # Verbs added to the lexicon (language.toml [verbs.change]).
    ("Shorten nccl comm timeout", "shortens NCCL comm timeout"),
    ("Fill missing options in toml file with argparse defaults",
     "fills missing options in TOML file with argparse defaults"),
    ("[BE] dump compile trace to CI output for debugging",
     "dumps compile trace to CI output for debugging"),
    # A prefix naming where ("mxfp8 moe:") is said; one naming an action or docs is not.
    ("mxfp8 moe: enable ep=1", "enables EP equals 1 in MXFP8 MoE"),
    ("float8 inference: fix bmm semantics", "fixes bmm semantics in float8 inference"),
    ("[rl] Fix CI: Synchronize bitwise parity test teardown",
     "synchronizes bitwise parity test teardown"),
    ("docs update: quantized inference", "documents quantized inference"),
    ("float8: enable on ROCm gfx942+", "enables float8 on ROCm gfx942+"),
    ("float8 training: move module attribute setting to sync function",
     "moves module attribute setting to sync function in float8 training"),
    # A merge commit is told by its branch name, not "merging from …".
    ("Merge pull request #37 from drisspg/add_nf4_tensor_type", "adds an NF4 tensor type"),
])
def test_an_effect_says_what_its_title_said(title, effect):
    assert told(title) == effect


@pytest.mark.parametrize(("verb", "obj", "third", "ing"), [
    # A verb joined inside one object (a description's list item, say) is told in the
    # clause's form, whatever follows it.
    ("hide", "the gauge when idle and add peak rates", "hides the gauge when idle and adds peak rates",
     "hiding the gauge when idle and adding peak rates"),
    ("enable", "lazy copy and fix slice", "enables lazy copy and fixes slice",
     "enabling lazy copy and fixing slice"),
    # ... but never an op the object names, a noun before "for", nor a verb that shares
    # an earlier "to".
    ("fuse", "mul and add kernels", "fuses mul and add kernels", "fusing mul and add kernels"),
    ("add", "a test and fix for the overflow", "adds a test and fix for the overflow",
     "adding a test and fix for the overflow"),
    ("add", "a kernel to cast rows and write in col-major",
     "adds a kernel to cast rows and write in col-major",
     "adding a kernel to cast rows and write in col-major"),
])
def test_a_verb_joined_inside_an_object_agrees_with_the_clause(verb, obj, third, ing):
    (effect,) = clauses([Action(verb, verb, obj)])
    assert (effect.third(), effect.ing()) == (third, ing)


def test_an_and_between_the_objects_of_two_actions_joins_things_not_verbs():
    (effect,) = clauses([Action("enable", "enable", "3d weights"),
                         Action("enable", "enable", "select")])
    assert effect.ing() == "enabling 3d weights and select"


def test_a_purpose_with_no_object_is_no_item_of_another_titles_list():
    said = [c.third() for c in clauses([parse_title(t) for t in (
        "refactor the planner and the loader", "refactor so that the config does not "
        "depend on the tokenizer", "Refactor to make the cache lazy", "Refactor checkpoint sampling")])]
    assert said == ["refactors the planner and the loader, as well as checkpoint sampling",
                    "refactors so that the config does not depend on the tokenizer",
                    "refactors to make the cache lazy"]


def test_an_object_with_its_own_destination_is_told_apart_from_those_without():
    def said(*titles: str) -> list[str]:
        return [c.third() for c in clauses([parse_title(t) for t in titles])]

    # "adds the kernel and a usage section to README" would put the kernel in README
    assert said("Add the fused kernel", "Add a usage section to README") == [
        "adds the fused kernel", "adds a usage section to the README"]
    # in order of the first object: a destination first keeps its place
    assert said("Move loaders into the data package", "Move the cache",
                "Move tokenizers into the data package") == [
        "moves loaders and tokenizers into the data package", "moves the cache"]
    # a purpose is no destination; all with their own destination stay one list; a
    # shared opening says which words each "to" belongs to
    assert said("Add a hook to reduce copies", "Add a retry budget") == [
        "adds a hook to reduce copies and a retry budget"]
    assert said("Add the guide to the docs", "Add the bench to CI") == [
        "adds the guide to the docs and the bench to CI"]
    assert said("Bump the actions for node 24", "Bump the actions to the latest tags") == [
        "bumps the actions for node 24 and to the latest tags"]


def test_a_manner_with_no_object_is_no_item_of_another_titles_list():
    # "fixes how the planner gets the mesh and region checkpointing" has the planner get
    # the checkpointing
    said = [c.third() for c in clauses([parse_title(t) for t in (
        "Fix how the planner gets the mesh", "Fix region checkpointing in the trainer")])]
    assert said == ["fixes how the planner gets the mesh",
                    "fixes region checkpointing in the trainer"]


def test_whom_a_verb_lets_do_something_is_no_item_of_a_list():
    # "enables flex attention, cuDNN attention and users to extend the config" enables the
    # users as one more thing
    said = [c.third() for c in clauses([parse_title(t) for t in (
        "Enable flex attention for the planner", "Enable cuDNN attention",
        "Enable users to extend the config")])]
    assert said == ["enables flex attention for the planner and cuDNN attention",
                    "enables users to extend the config"]


def test_what_a_change_makes_of_a_thing_is_never_cut_from_it():
    # "makes the widget logger a component and the cache purge thread" said the thread was
    # made; it was made a daemon thread. Too long for the list, it is left out whole.
    said = [c.third() for c in clauses([parse_title(t) for t in (
        "Make the widget logger a component",
        "Make the cache purge thread in the loader pool to be a daemon thread",
        "Make the loader quiet")])]
    assert said == ["makes the widget logger a component and loader quiet"]
    # "reads a widget title" of "Read a widget title … as an order": whole, or not at all
    said = [c.third() for c in clauses([parse_title(t) for t in (
        "Read lettered lines as list items",
        "Read a widget title opening on a flag's name as an order",
        "Read a widget title opening on a flag's name in brackets as one more order")])]
    assert said == ["reads lettered lines as list items and a widget title opening on a "
                    "flag's name as an order"]
    # "moves the kernel from the loader folder" of "… from X to Y": both ends, or none
    said = [c.third() for c in clauses([parse_title(t) for t in (
        "Move the widget index kernel from the loader folder to the kernel folder",
        "Move the docs")])]
    assert said == ["moves the widget index kernel from the loader folder to the kernel "
                    "folder", "moves the docs"]
    # "splits the run script" of "Split the run script and the memory script": the pair
    assert told("Split the widget loader run script and the widget memory estimation script"
                ) == "splits the widget loader run script and the widget memory estimation script"


def test_a_shared_head_that_is_a_list_is_not_factored_and_a_near_twin_is_said_once():
    # "support for inference mode and rank 3+ and 3": the tails joined the head's last item
    said = [c.third() for c in clauses([parse_title(t) for t in (
        "widget: support inference_mode and rank 3+",
        "gadget: support inference_mode and rank 3")])]
    assert said == ["adds support for inference mode and rank 3+"]
    # said where it first comes: the list keeps the titles' order
    acts = numbered("Add the widget cache", "Add the loader pool", "Add the widget cache",
                    "Add the retry budget")
    assert [c.third() for c in clauses(acts)] == [
        "adds the widget cache, loader pool and retry budget"]
    assert factor(["loader caching and eviction for reads", "loader caching and eviction for "
                   "writes"]) == ("loader caching and eviction for reads, as well as loader "
                                  "caching and eviction for writes")
    assert factor(["", ""]) == ""  # (no object at all is no list, and no crash)
    # An object cut to the words another opens with says nothing of its own: never "a
    # widget kernel for column major, kernel for transpose and kernel"
    acts = numbered("Add widget conversion kernel for column major",
                    "Add widget conversion kernel for transpose in row major format",
                    "Add widget conversion kernel that writes both row and column major outputs")
    assert [c.third() for c in clauses(acts)] == [
        "adds a widget conversion kernel for column major and transpose"]


def test_the_gerund_of_a_verb_ending_in_two_consonants_doubles_nothing():
    (effect,) = clauses([parse_title("dump compile trace to CI output")])
    assert effect.ing() == "dumping compile trace to CI output"


def test_a_merge_from_a_branch_that_names_nothing_tells_nothing():
    assert clauses([parse_title("Merge pull request #42 from pytorch-labs/gh/jerry/1/head")]) \
        == []


@pytest.mark.parametrize(("title", "kind"), [
    ("[BE][doc] add memory_profiler to README", "documentation"),
    ("[BE][doc] explain why float8 needs to be distributed aware", "documentation"),
    ("Describe the checkpoint layout", "documentation"),
    # no document named: the verb tells (a memory profiler added speeds nothing up: it was
    # "speed-ups in X" when "memory" alone made it performance work)
    ("Add memory profiler", "capability"),
    ("Fix typo in docs", "documentation"),
    ("[14/x] docs update: improve workflows page", "documentation"),
    # a fix of the tooling is tooling work; a fix of a test is a fix
    ("Lint fixes for the kernel folder", "infrastructure"),
    ("CI fix for linux wheels", "infrastructure"),
    ("Fix the flaky loader test", "correctness"),
])
def test_work_on_documents_is_documentation(title, kind):
    assert kind_of(parse_title(title)) == kind


# Titles from torchtitan and torchao, with the nouns their effect must keep.
KEEPS = [
    ("CUDAGraph support for SimpleFSDP and TP", ("CUDAGraph", "SimpleFSDP", "TP")),
    ("weight tying fix for qwen3", ("weight", "tying", "qwen3")),
    ("[BE][doc] explain why float8 needs to be distributed aware", ("float8", "aware")),
    ("[BE][doc] add memory_profiler to README", ("memory", "profiler", "README")),
    ("Let loss_compare.py check the repo cleaness", ("loss", "compare", "repo")),
    ("Migrate sum and mean to Vulkan (#12)", ("sum", "mean", "Vulkan")),
    ("[rl] grpo chunked loss", ("grpo", "chunked", "loss")),
    ("Make input_splits D2H non-blocking", ("input", "splits", "D2H", "non-blocking")),
    ("mxfp8 moe: enable ep=1", ("MXFP8", "MoE", "ep")),
    ("Do Not Count MoE Tokens During warmup", ("MoE", "tokens", "warmup")),
]


@pytest.mark.parametrize(("title", "nouns"), KEEPS)
def test_no_noun_of_the_title_is_lost(title, nouns):
    said = told(title).lower().split()
    assert [n for n in nouns if n.lower() not in said] == []


_DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.I)
_WORD = st.sampled_from(["cache", "float8", "loader", "MoE", "the", "for", "to", "support",
                         "fix", "why", "needs", "be", "and", "README", "docs", "kernel",
                         "don't", "when", "is", "a", "tests", "Add", "Fix", "explain",
                         "weight", "tying", "as", "H100", "CUDAGraph", "#12", "[BE]",
                         "loss_compare.py", "enable", "in", "training:", "Temporarily",
                         "Move"])


@given(st.lists(_WORD, min_size=1, max_size=9))
@example(["don't"])  # a lone negation leaves no word to read
@example(["Move", "cache", "to", "when"])  # "moves cache to when": a move to a function word
@example(["Move", "cache", "to", "cache", "when"])  # "moves cache to cache when": a cut title
@example(["float8", "tests", "in", "tests", "float8"])  # "tests tests float8"
@example(["float8", "float8", "training:", "cache"])  # a word typed twice
@example(["float8", "the", "to", "cache", "the"])  # a cut purpose leaves no "the" behind
@example(["enable", "to", "cache", "the"])  # … nor a cut "enable to" ("possible to cache")
def test_an_effect_has_no_empty_slot_and_no_doubled_word(ws):
    title = " ".join(ws)
    for effect in clauses([parse_title(title)]):
        for text in (effect.third(), effect.ing()):
            assert text == " ".join(text.split()), text  # no empty slot between words
            assert not text.endswith(" ") and text.split()[-1].lower() not in \
                words().function, text  # no object cut on a function word
            doubled = _DOUBLED.search(text)
            assert doubled is None or doubled.group(1).lower() in ("that", "had"), text


def test_a_list_of_long_lists_stops_at_one_breath_and_cites_only_what_it_says():
    # The demo's own history: commit subjects that are lists of a dozen parts each made a
    # fifty-word effect sentence.
    titles = ["Add package layout, data model, config, errors, dates, CLI and pipeline anchors",
              "Add stacks, areas, themes, duplicates, reverts, body cleaning and the digest",
              "Add episode pages, show page, RSS feeds and an atomic incremental swap"]
    acts = [dataclasses.replace(parse_title(t), ref=Ref(pr=n)) for n, t in
            zip((11, 12, 13), titles, strict=True)]
    (clause,) = clauses(acts)
    assert len(clause.objects.split()) <= OBJECT_WORDS + 2
    assert clause.objects.startswith("package layout, data model")
    assert clause.cites == tuple(n for n, t in zip((11, 12, 13), titles, strict=True)
                                 if t.split(" ", 2)[1].rstrip(",") in clause.objects)


def test_a_stack_told_by_all_its_parts_says_what_one_breath_could_not_after_the_rest():
    titles = ["Add a dispatch autograd function", "Add a token permute autograd function",
              "Add an unpermute autograd function", "Add a combine autograd function",
              "Add an integration test of the pipeline", "Fix pre-quantized inputs"]
    acts = [dataclasses.replace(parse_title(t), ref=Ref(pr=n)) for n, t in
            enumerate(titles, start=1)]
    assert [c.third() for c in clauses(acts)] == [
        "adds dispatch, token permute, unpermute and combine autograd functions",
        "fixes pre-quantized inputs"]
    told = clauses(acts, overflow=True)
    assert [c.third() for c in told] == [
        "adds dispatch, token permute, unpermute and combine autograd functions",
        "fixes pre-quantized inputs", "adds an integration test of the pipeline"]
    assert [c.cites for c in told] == [(1, 2, 3, 4), (6,), (5,)]


def test_a_word_is_said_once_but_a_compound_opening_on_it_stays():
    assert Clause("test", "tests for the loader", "", ()).third() == "tests for the loader"
    assert Clause("touch on", "on-device checks", "", ()).third() == \
        "touches on on-device checks"


def test_a_head_is_said_once_only_over_rests_that_go_on_alike():
    # "moves widget format to the loader folder and used by int4 to the widget module": the
    # second rest is no place the format goes
    assert factor(["widget format to the loader folder",
                   "widget format used by int4 to the widget module"]) == (
        "widget format to the loader folder and widget format used by int4 to the widget "
        "module")
    # a head ending on its preposition keeps its list, whatever the rests open with
    assert factor(["a loader kernel for per group layout", "a loader kernel for groups "
                   "along M"]) == "a loader kernel for per group layout and groups along M"


def test_a_place_every_item_goes_is_said_once_after_them():
    assert factor(["training to the loader API", "inference to the loader API"]) == (
        "training and inference to the loader API")
    # an item saying more than a short thing before the place keeps its own
    assert factor(["a hook for reads to the cache", "writes to the cache"]) == (
        "a hook for reads to the cache and writes to the cache")
    assert factor(["X for the loader", "Y for the widget"]) == "X for the loader and Y for " \
        "the widget"


def test_items_ending_alike_say_their_ending_once():
    # "QDQLayout and related code, Int4XPULayout and related code, as well as …"
    assert factor(["the old widget and related code", "the old loader and related code",
                   "the old gadget and related code"]) == (
        "the old widget, loader and gadget, along with related code")
    # things of one kind: the kind once, in the plural ("a X graph pass, Y graph pass …")
    assert factor(["a widget graph pass", "a loader graph pass"]) == (
        "widget and loader graph passes")
    assert factor(["the broken widget test", "the slow widget test"]) == (
        "the broken and slow widget tests")
    assert factor(["widget support", "loader support"]) == "widget and loader support"
    # a noun not known to have a plural or none keeps its items: "widget and loader folder"
    # would say one folder
    assert factor(["widget folder", "loader folder"]) == "widget folder and loader folder"
    # a number opening each item counts the kind: "2 widget and 2 loader test files" would
    # count widgets
    assert factor(["2 widget test files", "2 loader test files"]) == (
        "2 widget test files and 2 loader test files")


def test_items_sharing_a_place_are_told_together_before_the_rest():
    assert factor(["widget size before loading", "the loader schedule",
                   "gadget size before loading"]) == (
        "widget size and gadget size before loading, as well as the loader schedule")
    # two items alone share it or keep their own
    assert factor(["a hook for reads to the cache", "writes to the cache"]) == (
        "a hook for reads to the cache and writes to the cache")


def test_things_of_one_kind_going_to_one_place_are_said_once():
    # "adds a FlyDSL 2D 1x32 quantize kernel for AMD and 3D MoE quantize kernel for AMD"
    assert factor(["a Zorb 2D wib kernel for AMD", "a Zorb 3D blorp wib kernel for AMD"]) == (
        "Zorb 2D and 3D blorp wib kernels for AMD")
    assert factor(["a zorb kernel for AMD", "a wib kernel for AMD"]) == (
        "zorb and wib kernels for AMD")


def test_an_item_with_a_purpose_is_not_run_into_the_next():
    # "adds cutedsl to quantize 2d tensor along dim0 and docstrings" quantized docstrings
    assert spoken_list(["a zorb kernel to quantize wibs", "docstrings"]) == (
        "a zorb kernel to quantize wibs, as well as docstrings")
    assert spoken_list(["a zorb kernel", "wibs", "docstrings"]) == (
        "a zorb kernel, wibs and docstrings")


def test_a_name_the_voice_spells_out_takes_the_article_of_its_first_letter():
    # "MoE" is said "M O E" (the shipped lexicon): "a M O E router" was heard
    assert article("MoE router", "add") == "an MoE router"
    assert article("Metal kernel", "add") == "a Metal kernel"  # a word, said as one
    # a "y" after the first letter is a vowel: "an FlyDSL kernel" was heard
    assert article("FlyZorb kernel", "add") == "a FlyZorb kernel"
    assert article("sync kernel", "add") == "a sync kernel"


def test_a_fault_fixed_takes_a_and_a_thing_fixed_takes_the():
    # "fixes widget import error", "fixing loader issue" were heard without one
    assert [article(o, "fix") for o in ("widget import error", "loader issue",
                                        "CI failure", "cache problem")] == [
        "a widget import error", "a loader issue", "a CI failure", "a cache problem"]
    # A thing fixed was there before, so it is the one: "fixes a widget script" was heard;
    # a fault said by what is wrong with it is one of its kind
    assert [article(o, "fix") for o in ("widget eval script", "loader test", "missing field",
                                        "wrong loader path")] == [
        "the widget eval script", "the loader test", "a missing field", "a wrong loader path"]
    assert article("widget eval script", "add") == "a widget eval script"
    # ... not a fault written in the plural, nor one named with its own determiner
    assert article("widget import errors", "fix") == "widget import errors"
    assert article("the loader issue", "fix") == "the loader issue"


def test_objects_sharing_an_opening_keep_what_each_says_after_it():
    # Cut to a list item's length, each was "widget name support": the targets went unsaid
    said = [(c.third(), c.cites) for c in clauses(numbered(
        "Add widget name support to _sprocket_weight_only_transform",
        "Add widget name support to _cog_dynamic_gadget_weight_transform"))]
    assert said == [("adds widget name support to sprocket weight only transform and cog "
                     "dynamic gadget weight transform", (0, 1))]


def test_a_breath_holds_the_objects_as_their_shared_words_are_said_once():
    # Measured as written, "the deprecated … and related code" five times, the fourth
    # layout took a second breath of its own: "removes the deprecated A, B and C, along
    # with related code, and removes the deprecated D and E, along with related code"
    acts = numbered(*(f"Remove the deprecated {n} and related code" for n in (
        "WidgetLayout", "GadgetLayout", "SprocketLayout", "CogLayout",
        "PackedLinearWidgetDynamicActivationGadgetLayout")))
    assert [(c.third(), c.cites) for c in clauses(acts, overflow=True)] == [
        ("removes the deprecated WidgetLayout, GadgetLayout, SprocketLayout and CogLayout, "
         "along with related code", (0, 1, 2, 3)),
        ("removes the deprecated PackedLinearWidgetDynamicActivationGadgetLayout and related "
         "code", (4,))]


def test_a_new_thing_is_added_with_its_article():
    # "New tutorial for widget loaders" was told "works on new tutorial for …", and "Add new
    # widget test" "adds new widget test"
    said = [c.third() for t in ("New tutorial for widget loaders", "Add new widget test",
                                "Add new widget tests")
            for c in clauses([parse_title(t)])]
    assert said == ["adds a new tutorial for widget loaders", "adds a new widget test",
                    "adds new widget tests"]


def test_an_effect_said_alone_keeps_a_closing_list_a_few_words_over():
    # Cut at its "and", "… global avg losses" said one of two as if it were all
    def said(title: str) -> list[str]:
        return [c.third() for c in clauses([parse_title(title)])]
    assert said("Update widget state to include global_avg_losses and global_max_losses") == [
        "updates widget state to include global avg losses and global max losses"]
    assert said("[loader] Add support for copy for plain widget layout and gadget tiled "
                "layout") == ["adds support for copy for plain widget layout and gadget "
                              "tiled layout"]
    # ... never past the slack, and never an item of a list, where it would take the breath
    assert said("Update widget state to include the global average widget losses and the "
                "global max widget losses") == [
        "updates widget state to include the global average widget losses"]
    assert [c.third() for c in clauses([parse_title(t) for t in (
        "Update widget state to include global_avg_losses and global_max_losses",
        "Update gadget state to include the last loss")])] == [
        "updates widget state to include global avg losses and gadget state to include the "
        "last loss"]


def test_a_thing_named_before_its_clause_takes_its_article():
    assert article("widget kernel that writes both rows", "add") == (
        "a widget kernel that writes both rows")
    # a word that says the thing was there says "the", whatever the verb
    assert article("unused widget kernel", "remove") == "the unused widget kernel"
    assert article("failing loader test which needs a gadget", "remove") == (
        "the failing loader test which needs a gadget")


def test_the_rest_of_a_thing_is_a_known_part_of_it():
    # "updates rest of tests" was heard; the rest is of a known whole: "the rest of the …"
    assert [c.third() for c in clauses(numbered("update rest of widget tests"))] == [
        "updates the rest of the widget tests"]


def test_an_object_ending_on_instead_of_or_after_is_told_with_its_own_verb():
    # "uses custom ops instead of wrap Triton and llama4 shapes" was heard: the next object
    # read as what the custom ops replace; "fixing X after Y change and the Z module" too.
    assert [c.third() for c in clauses(numbered(
        "Use sprocket ops instead of widget_ops", "Use gadget shapes for the loader"))] == [
        "uses sprocket ops instead of widget ops", "uses gadget shapes for the loader"]
    assert [c.third() for c in clauses(numbered(
        "fix the widget after the sprocket change", "fix the gadget module"))] == [
        "fixes the widget after the sprocket change", "fixes the gadget module"]
    # … and a result after a comma: "refactors the loader, making it faster" keeps why,
    # and is no list ("the loader and making it faster")
    assert [c.third() for c in clauses(numbered(
        "Refactor the widget loader, making it faster", "Refactor the gadget planner"))] == [
        "refactors the widget loader, making it faster", "refactors the gadget planner"]
    assert [c.third() for c in clauses(numbered("Add widgets, gadgets, sprockets"))] == [
        "adds widgets, gadgets and sprockets"]
    # … and a purpose: "adds X to avoid concurrent loads and graceful shutdown" avoided both
    assert [c.third() for c in clauses(numbered(
        "Add a widget lock to avoid concurrent loads", "Add graceful gadget shutdown"))] == [
        "adds a widget lock to avoid concurrent loads", "adds graceful gadget shutdown"]
    # … but a phrase every object ends on is said once, after them
    assert [c.third() for c in clauses(numbered(
        "check the widget size before loading", "check the gadget size before loading"))] == [
        "checks the widget size and gadget size before loading"]
    assert [c.third() for c in clauses(numbered(
        "check the widget size before loading", "check the gadget size before loading",
        "check the cog config"))] == [
        "checks the widget size and gadget size before loading, as well as cog config"]


def test_one_count_said_of_two_changes_is_left_out_and_both_are_cited():
    # Two PRs porting two files each port four: "moving 2 zorb test files" would be half
    (effect,) = clauses([dataclasses.replace(parse_title(
        f"Port 2 test/zorb_{{{a}, {b}}} UT files to intel XPU"), ref=Ref(pr=n))
        for n, a, b in ((7, "fizz", "buzz"), (8, "wib", "wob"))])
    assert effect.ing() == "moving zorb unit test files to Intel XPU" and effect.cites == (7, 8)
    # one change's own count stands
    (one,) = clauses([parse_title("Port 2 test/zorb_{fizz, buzz} UT files to intel XPU")])
    assert one.ing() == "moving 2 zorb unit test files to Intel XPU"


def test_a_thing_and_its_own_test_are_said_as_one():
    # "adds precompute scale for FSDP2 and a test for precompute scale" named it twice
    acts = [dataclasses.replace(parse_title(t), ref=Ref(pr=5)) for t in (
        "Add zorb scale for FSDP2", "Add a test for zorb scale", "Separate the wib surgery")]
    assert [c.third() for c in clauses(acts)] == [
        "adds zorb scale for FSDP2 with a test", "separates the wib surgery"]
    # … in a list of any length, one thing with two tests with "tests" ("add a test for LUT
    # based embedding quantization, LUT based embedding quantization and …" was heard)
    many = [dataclasses.replace(parse_title(t), ref=Ref(pr=5)) for t in (
        "Add a test for zorb wib quantization", "Add the blorp ops for groupwise quantization",
        "Add zorb wib quantization", "Add a test function for zorb wib")]
    assert [c.third() for c in clauses(many)] == [
        "adds the blorp ops for groupwise quantization and zorb wib quantization with tests"]
    # another change's test, or a test of something else, is its own item
    two = [dataclasses.replace(parse_title(t), ref=Ref(pr=n)) for n, t in (
        (5, "Add zorb scale for FSDP2"), (6, "Add a test for zorb scale"))]
    assert clauses(two)[0].third() == "adds zorb scale for FSDP2 and a test for zorb scale"
    other = [dataclasses.replace(parse_title(t), ref=Ref(pr=5)) for t in (
        "Add zorb scale for FSDP2", "Add a test for wib loading")]
    assert clauses(other)[0].third() == "adds zorb scale for FSDP2 and a test for wib loading"


def test_a_speed_is_optimized_never_sped_up():
    # "further speeding up FSDP performance" (of "Further optimize FSDP performance")
    acts = [dataclasses.replace(parse_title(t), ref=Ref(pr=n)) for n, t in (
        (1, "Further optimize zorb performance"), (2, "Accelerate the wib loader"))]
    assert [c.ing() for c in clauses(acts)] == [
        "further optimizing zorb performance", "speeding up the wib loader"]
