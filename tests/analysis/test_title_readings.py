"""Title shapes read as a person reads them (analysis/language/readings.py and the rules
it feeds): a reviewer's shorthand said in full, two-word modifiers hyphenated, a method
name in ticks said as a method, "back out X" told as undoing X, an identifier holding "is"
or "has" never taken for a finite verb, "stop X doing Y" said with its "from", and a
closing purpose clause kept as the title's why.

Hand-made titles of the shapes heard in the torchtitan and torchao histories; none from
the held-out pytorch days.
"""

from __future__ import annotations

import pytest

from mergecast.analysis.language import clean_title, name_of, parse_title, trim
from mergecast.analysis.language.readings import said_in_full, shorthand_words


@pytest.mark.parametrize(("title", "cleaned"), [
    # Shorthand in full; a count noun takes "a" after a verb or a preposition only.
    ("Add fn to check if config is valid", "Add a function to check if config is valid"),
    ("Move the fn to utils", "Move the function to utils"),
    # after a noun, a word that could be a verb is the noun's ("the widget check function")
    ("Move widget check fn into utils", "Move widget check function into utils"),
    ("Pin triton as a dep", "Pin triton as a dependency"),
    ("Speed up impl of fp8 gather w/o padding",
     "Speed up implementation of fp8 gather without padding"),
    # Never inside an identifier or a code span.
    ("Rename my_fn to run_fn", "Rename my fn to run fn"),
    # Two-word modifiers before a noun are one word; at the end they stay two.
    ("[Kernels] add on device, vectorized gather indices kernel",
     "add on-device, vectorized gather indices kernel"),
    ("Run the sampler on device", "Run the sampler on device"),
    # A method in ticks named by a function word is said as a method.
    ("Enable `cache.to` for float8 linear", "Enable the cache's to method for float8 linear"),
    # A package bumped by its owner's path is said by its name; a list stays a list, and a
    # commit id range is no version anyone reads out.
    ("Bump acme-actions/changed-files from 47.0.5 to 47.0.6 in the actions group",
     "Bump changed-files from 47.0.5 to 47.0.6 in the actions group"),
    ("Bump actions/checkout from 4 to 5", "Bump checkout from 4 to 5"),
    ("Update trainer/generator to the new API", "Update trainer and generator to the new API"),
    # An action named by its owner anywhere else is one action, not "acme-actions and
    # changed-files"
    ("Tags in acme-actions/changed-files are compromised",
     "Tags in the changed-files action are compromised"),
    ("Use acme/gh-action-publish for releases", "Use gh-action-publish for releases"),
    ("Support setup-xpu/teardown-xpu", "Support setup-xpu and teardown-xpu"),
    ("Bump acme/checkout from d6e91a2266cdb9d6 to 22103cc46bda19c2 in the actions group",
     "Bump checkout in the actions group"),
    # A shared library is said by its name; ".so files" as what they are.
    ("Exclude libfoo.so from the wheel", "Exclude libfoo from the wheel"),
    ("Exclude libfoo.so.13 from the wheel", "Exclude libfoo from the wheel"),
    ("Do not load .so files for old torch", "Do not load shared library files for old torch"),
    # A method after its own article or adjective takes no second "the".
    ("Remove unnecessary .to() inside model forward",
     "Remove unnecessary to method inside model forward"),
    # A method called is said as one, never as a noun ("an item issue"); "calls" says it.
    ("Fix `.zorb()` issue in wib", "Fix the zorb method issue in wib"),
    ("Move wib .zorb() to blorp", "Move wib zorb method to blorp"),
    ("Avoid .zorb() calls in wib", "Avoid zorb calls in wib"),
    # A placeholder in angle brackets is no comparison: never "Name is below email".
    ("Credit a whole 'Name <email>' once", "Credit a whole Name email once"),
    ("Skip the loader when world < 2", "Skip the loader when world is below 2"),
    # Shorthand in a Title Case title keeps its case, so the title still reads as one.
    ("Config Loading No Deps", "Config Loading No Dependencies"),
    # "Re:Run X" runs it again; "Re: X" is a reply's prefix.
    ("[ROCm][CI]Re:Disable experimental workflows for ROCm.",
     "Re-disable experimental workflows for ROCm"),
    ("Re: fix the loader", "fix the loader"),
    # A series marker is no part of what the change does.
    ("[rl] PR2/N — AlphabetSort task; remove SumDigits", "AlphabetSort task; remove SumDigits"),
    ("[rl] PR 1/N - rollout logger", "rollout logger"),
    # An example quoted after a colon shows what the title says; it is not its object …
    ('Say a zorb\'s name ending a title as a flag: "the wib enabled flag" (#12)',
     "Say a zorb's name ending a title as a flag"),
    ('Write a short zorb in capitals in a title: "WIB", not "Wib"',
     "Write a short zorb in capitals in a title"),
    # … but a label's colon opens the title's object
    ('Docs: "quick zorb"', "quick zorb"),
])
def test_a_title_is_cleaned_as_a_person_reads_it(title, cleaned):
    assert clean_title(title) == cleaned


@pytest.mark.parametrize(("title", "name"), [
    # "back out X" undoes X, whatever X's own verb.
    ("back out Add triton as a dep", "backing out adding Triton as a dependency"),
    ("Backout Fix flaky loader test", "backing out fixing flaky loader test"),
    # A re-land lands the same thing again: its own verb, not "re-landing Enable X".
    ('Re-land "Enable bucketing pass in precompile path" (#3107)',
     "re-landing bucketing pass in precompile path"),
    ('Re-land "Add INT8 SDPA path for CPU"', "re-landing INT8 SDPA path for CPU"),
    ('Re-land "Fix flaky loader test"', "re-landing fixing flaky loader test"),
    # A size after the thing fixed: "a minor async TP issue", never "fixing async TP minor".
    ("async tp minor fix", "fixing a minor async TP issue"),
    ("docs minor fixes", "fixing minor docs issues"),
    # A verb-like first word before a finite verb is the subject: no order "inits includes".
    ("Init includes the first train step", "init includes the first train step"),
    # An irregular past opening a title is its verb; changes it made name the work.
    ("made some stylistic changes to apply_dp", "some stylistic changes to apply DP"),
    # … but not a made noun after a verb of the object: it makes the zorb use them
    ("Make the zorb use wib fixes", "making the zorb use wib fixes"),
    # Two verbs on one object are both said; a clause after "ensure" is not cut at its "is".
    ("Fix and re-enable the flaky loader tests", "fixing and re-enabling the flaky loader tests"),
    ("create and add timing decorator to generators",
     "creating and adding timing decorator to generators"),
    # ... in the past as in the present, and a phrasal verb of the two keeps its particle.
    ("Added and updated comments to explain the loader", "adding and updating comments to "
     "explain the loader"),
    ("Cleaned up and simplified the checkpoint loader",
     "cleaning up and simplifying the checkpoint loader"),
    ("Refactor and clean up the loader", "refactoring and cleaning up the loader"),
    # "Support to load X" is support for loading X, never "support for to load X".
    ("Support to load checkpoints from HF", "support for loading checkpoints from HF"),
    ("[Checkpoint] Add support to allow dtype conversion",
     "support for allowing dtype conversion"),
    ("[PP] Ensure loss is visible on console for users",
     "ensuring that loss is visible on console for users"),
    ("Make sure the cache is flushed on exit", "making sure the cache is flushed on exit"),
    # Terms the lexicon knows, split by slashes, are a list wherever they stand.
    ("construct NF4Tensor from bf16/fp16/fp32", "constructing NF4Tensor from BF16, FP16 and FP32"),
    ("Add cuda/rocm CI", "CUDA and ROCm CI"),
    ("Fix destory of the process group at exit", "fixing destroy of the process group at exit"),
    ("claen up widget interface", "cleaning up widget interface"),
    ("Add kernrel conifg for the dyanmic widget", "kernel config for the dynamic widget"),
    # A word the lexicon writes in capitals is written so in a title's plain words too.
    ("[cpu-offloading] Implement prefetching for cpu offloading pass",
     "prefetching for CPU offloading pass"),
    # "is" and "has" inside an identifier are no finite verbs.
    ("rename is_train to has_train in TrainerConfig",
     "renaming is-train to has-train in TrainerConfig"),
    # "stop X killing Y": the happening takes its "from".
    ("[c10d] stop heartbeat() killing the trainer", "stopping heartbeat from killing the trainer"),
    ("Stop the loader from killing workers", "stopping the loader from killing workers"),
    # ... never a noun in -ing ("a shared from opening" was heard), and never after "keep",
    # whose "keep the demo running" keeps it running
    ("Stop a shared opening of widget files", "stopping a shared opening of widget files"),
    ("Keep the widget demo running", "keeping the widget demo running"),
    ("Keep what list items say after a shared opening",
     "keeping what list items say after a shared opening"),
    # "chill" is a verb (of the quieten kind).
    ("[BE] Chill logs in loader", "chilling logs in loader"),
    # "add back X" is one verb; "add in-place X" is not "add in".
    ("add back the missing bias term", "adding back the missing bias term"),
    ("fix up nvfp4 roofline sweep script", "fixing up NVFP4 roofline sweep script"),
    # Verbs the lexicon learnt from titles that were said as orders ("eliminate test …").
    ("[moe training] eliminate test dependency on torchtitan",
     "eliminating test dependency on torchtitan"),
    ("rerun batch size 1 experiments", "rerunning batch size 1 experiments"),
    ("Say a constant in words", "saying a constant in words"),
    ("Join worker threads before exit", "joining worker threads before exit"),
    # "Workaround X" works around X (it was "bumping workaround CI failure … from Triton3.7
    # bump"), and so does "Workaround for X".
    ("[Bugfix] Workaround CI failure in flexattention compilation from Triton3.7 bump",
     "working around CI failure in flexattention compilation from Triton3.7 bump"),
    ("Workaround for the checkpoint loading bug", "working around the checkpoint loading bug"),
    ("Further optimize FSDP performance", "further optimizing FSDP performance"),
    # Two verbs opening the object are a list in it, not a second action ("stopping a
    # layer from parsing" was false).
    ("Fix start/stop layer parsing", "fixing start and stop layer parsing"),
    ("Add in-place ops for the loader", "in-place ops for the loader"),
])
def test_a_title_is_named_by_what_it_does(title, name):
    assert name_of(parse_title(title)) == name


def test_an_auxiliary_the_title_says_as_a_word_still_makes_it_a_statement():
    assert parse_title("Batch configs should have max off policy").lemma == ""
    assert parse_title("rename is_train to has_train").lemma == "rename"


@pytest.mark.parametrize(("text", "limit", "name"), [
    # A closing purpose clause within a few words of the limit is kept: it is the why.
    ("marking cache shapes as static to avoid a recompile", 6,
     "marking cache shapes as static to avoid a recompile"),
    # Too long a clause, or one after another clause, is cut as before.
    ("marking cache shapes as static to avoid a recompile in every rank of the job", 6,
     "marking cache shapes as static"),
    ("cleaning up cudagraph when training finishes to avoid nccl hang", 6,
     "cleaning up cudagraph"),
    ("marking shapes static to avoid a recompile when tracing", 6, "marking shapes static"),
    # A "to" before the purpose is a place ("cache rows to the host"); the last "to <verb>"
    # is the why.
    ("moving cache rows to the host to avoid a stall", 7,
     "moving cache rows to the host to avoid a stall"),
    # A statement's passive tail ends no name; "what the title said" keeps its verb.
    ("per-file status from the sources said", 6, "per-file status from the sources"),
    ("effects keep what the title said", 8, "effects keep what the title said"),
    # A comma between two modifiers of one noun is no clause break.
    ("on-device, vectorized gather indices kernel", 6, "on-device, vectorized gather indices kernel"),
    ("gather indices, refactor the kernel", 6, "gather indices"),
])
def test_an_effect_keeps_its_why_and_its_modifiers(text, limit, name):
    assert trim(text, limit, why=True) == name


def test_a_theme_name_is_cut_before_its_why():
    assert trim("marking cache shapes as static to avoid a recompile", 6) == \
        "marking cache shapes as static"


def test_one_shorthand_list_serves_titles_and_descriptions():
    from mergecast.writing.sentences import _rewritten

    assert shorthand_words()["impl"] == "implementation"
    assert _rewritten("The impl runs w/o a lock.") == "The implementation runs without a lock."
    assert said_in_full("the new fn") == "the new function"



def test_shorthand_keeps_a_quoted_word_and_a_hyphenated_name_and_opens_a_sentence():
    from mergecast.writing.sentences import _rewritten

    # the term a description quotes is the term, and "Quant-LLM" is a name
    assert _rewritten('The terms "args" and "widget" were mixed; args now go first.') == \
        'The terms "args" and "widget" were mixed; arguments now go first.'
    assert said_in_full("BF16 support for the Quant-LLM widget in model-ckpt-path") == \
        "BF16 support for the Quant-LLM widget in model-checkpoint-path"
    # capitals are a short form's: "LR" is "learning rate" unless a sentence opens on it
    assert _rewritten("LR warmup now follows the LR schedule.") == \
        "Learning rate warmup now follows the learning rate schedule."
    assert said_in_full("Add common code for UTs on the widget") == \
        "Add common code for unit tests on the widget"


def test_a_library_said_in_full_but_not_inside_a_name():
    assert said_in_full("Avoid linking the widget lib at build time") == \
        "Avoid linking the widget library at build time"
    assert said_in_full("Load the widget libs from libwidget and widget_lib") == \
        "Load the widget libraries from libwidget and widget_lib"


def test_a_common_slip_of_the_keys_is_said_as_meant():
    assert said_in_full("Let the user specify intial widget path") == \
        "Let the user specify initial widget path"
    assert said_in_full("Checkpiont teh loader after udpate") == \
        "Checkpoint the loader after update"
    assert parse_title("Fix reamde").obj == "the README"
    assert said_in_full("Remove per widget syncronize for mutliple gadgets") == \
        "Remove per widget synchronize for multiple gadgets"
    assert parse_title("Assing meta to new widget nodes").lemma == "assign"
    # ("PR 3355 goes further: it refines thr pytest command", after the series' own
    # "refines the pytest command": the slip hid the repeat)
    assert said_in_full("refine thr zorb command") == "refine the zorb command"
    # a slip is read first: "intial add of" is "initial add of", the first version
    assert said_in_full("Intial add of the widget") == "The first version of the widget"


def test_a_name_made_of_sizes_goes_and_its_aside_names_the_thing():
    assert clean_title("add a_1_128_w_128_128 (Widget) float8 scaling") == \
        "add Widget float8 scaling"
    assert clean_title("add bias handling for a_1_128_w_128_128 float8 scaling") == \
        "add bias handling for float8 scaling"
    # a name of words, or of numbers alone, is kept
    assert clean_title("add loader_moe_v2 kernel") == "add loader MoE v2 kernel"
    assert clean_title("fix the 2024_01_02 widget") == "fix the 2024_01_02 widget"


def test_a_spelled_name_after_a_takes_an():
    from mergecast.models import Ref
    from mergecast.writing.sentences import standalone

    assert clean_title("Widget sparsity as a AQT layout") == "Widget sparsity as an AQT layout"
    assert clean_title("Add a FSDP2 widget and a CUDA loader") == \
        "Add an FSDP2 widget and a CUDA loader"
    # a quoted "a AQT" is what was written, and stays so
    assert said_in_full('The terms "a AQT layout" and a AQT layout') == \
        'The terms "a AQT layout" and an AQT layout'
    # a name said as a word keeps its "a"
    assert clean_title("Add a NOOP widget and a README") == "Add a NOOP widget and a README"
    assert standalone("The loader now sits behind a HTTP endpoint, so the widget can reach "
                      "it.", Ref(pr=12)) == \
        "The loader now sits behind an HTTP endpoint, so the widget can reach it."


def test_a_code_span_against_the_word_before_it_is_a_word_of_its_own():
    assert parse_title("Flatten`loader` directory").obj == "loader directory"
    assert clean_title("Add a `widget_loader` test") == "Add a widget loader test"
    # a span after a span, or in double backticks, is left as written
    assert said_in_full("lower `widget_limit`/`loader_size`") == \
        "lower `widget_limit`/`loader_size`"
    assert said_in_full("via ``WidgetSpec``s and ``loader``") == \
        "via ``WidgetSpec``s and ``loader``"


@pytest.mark.parametrize(("title", "obj", "qualifier"), [
    ("Update README", "the README", ""),
    ("Update README.md", "the README", ""),
    ("Add widget loading to README", "widget loading to the README", ""),
    ("fix banner link in README.md", "banner link in the README", ""),
    ("Move the widget docs to README", "the widget docs", "to the README"),
    ("Update README and CHANGELOG", "the README and the CHANGELOG", ""),
    ("Update main README with widget workflows", "the main README with widget workflows", ""),
    # Already determined, naming another noun, or new: as written.
    ("Update their README", "their README", ""),
    ("Update our README", "the README", ""),  # (the narrator owns none of it)
    ("Fix README typos", "README typos", ""),
    ("Add README", "README", ""),
])
def test_a_repositorys_one_readme_is_the_readme(title: str, obj: str, qualifier: str) -> None:
    action = parse_title(title)
    assert (action.obj, action.qualifier) == (obj, qualifier)


@pytest.mark.parametrize(("title", "obj"), [
    # "updates rest of tests" was heard: the rest is a known part of a known whole
    ("update rest of widget tests", "the rest of the widget tests"),
    ("Refactor rest of its widget ops", "the rest of its widget ops"),
    ("Fix rest api", "rest API"),  # (no "of": a name)
])
def test_the_rest_of_a_thing_is_a_known_part_of_it(title: str, obj: str) -> None:
    assert parse_title(title).obj == obj


def test_an_acronym_written_small_is_cased_as_the_acronym():
    assert parse_title("Add test for lut based widget quantization").obj == \
        "test for LUT based widget quantization"


def test_a_titles_our_is_said_as_the_not_as_the_narrators():
    # "PR 12 switches to 2.5.1 for our 2.5 regression tests", read by the show's voice,
    # claims the project as the narrator's
    assert clean_title("Switch to 2.5.1 for our 2.5 widget tests") == \
        "Switch to 2.5.1 for the 2.5 widget tests"
    assert clean_title("Our loader now retries twice") == "The loader now retries twice"
    assert parse_title("Fix some issues with our support for gadgets").obj == \
        "some issues with the support for gadgets"
    # (an identifier keeps its words: "our_widget" is a name)
    assert "our" in clean_title("Fix the our_widget loader")


def test_a_misspelling_beside_its_right_spelling_is_what_the_title_is_about():
    # "pading instead of padding" is a typo fixed: righted, it would be said twice
    assert said_in_full("zorb padding instead of pading") == "zorb padding instead of pading"
    assert said_in_full("Fix pading in zorb") == "Fix padding in zorb"
    # … and a slip with its word far off, or one word written inside the other ("and/or")
    assert said_in_full("all pading in zorb wib code is the padding") == \
        "all padding in zorb wib code is the padding"
    assert said_in_full("zorb and/or wib") == "zorb or wib"
    # an abbreviation beside its word is still said in full
    assert said_in_full("Move fn next to the zorb function") == \
        "Move a function next to the zorb function"


def test_a_reference_inside_a_label_leaves_the_label_a_label():
    assert clean_title("Wib Fix (#1559): zorb instead of zrob") == "zorb instead of zrob"
    assert clean_title("Wib fix: zorb instead of zrob (#12)") == "zorb instead of zrob"
