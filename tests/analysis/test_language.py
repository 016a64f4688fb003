"""The one language module: titles as actions, identifiers as spoken words, inflection.

Golden cases from real torchtitan/torchao titles and general engineering phrasing; none
from the held-out pytorch days.
"""

from __future__ import annotations

import pytest

from mergecast.analysis.headlines import headline
from mergecast.analysis.language import (
    base_verb,
    clean_title,
    gerund,
    has_verb,
    kind_of,
    lower_first,
    name_of,
    parse_title,
    sentence_case,
    shorten,
    speak_identifier,
    speakable,
    split_prefix,
    third_person,
    title_case,
    trim,
)


@pytest.mark.parametrize(("title", "verb", "lemma", "obj", "qualifier"), [
    ("Migrate min and max to Metal (#12)", "move", "migrate", "min and max", "to Metal"),
    ("[inductor] Use planned tiles for dilated windows", "change", "use",
     "planned tiles for dilated windows", ""),
    ("Add support for MXFP8 all gather", "add", "add", "support for MXFP8 all gather", ""),
    ("support AMP for DDP / single-device training", "support", "support",
     "for AMP for DDP and single-device training", ""),
    ("[spmd_types] qwen3 enablement", "enable", "enable", "Qwen3", ""),
    ("Derive zorb.cited from the last wib made", "change", "derive",
     "zorb cited from the last wib made", ""),
    # a thing named in capitals keeps them; a first word's capital alone is lowered
    ("[spmd_types] Cobalt Lantern enablement", "enable", "enable", "Cobalt Lantern", ""),
    ("Sharded loader support", "support", "support", "for sharded loader", ""),
    ("Speed up tokenizing of long lines", "speed", "speed up", "tokenizing of long lines", ""),
    ("Split the loader off", "refactor", "split off", "the loader", ""),
    ("Renamed foo to bar", "rename", "rename", "foo", "to bar"),
    # (an opening adverb is kept apart: `adverb`, said before the verb)
    ("Temporarily disable the flaky test", "remove", "disable", "the flaky test", ""),
    ("Qualcomm AI Engine Direct - Fix the quantizer for conv", "fix", "fix",
     "the quantizer for conv", ""),
    ("fix: validation loss accumulation rescaling", "fix", "fix",
     "validation loss accumulation rescaling", ""),
    ("docs: update the quick start", "document", "update", "the quick start", ""),
    ("Minor fixes to the loader", "fix", "fix", "the loader", ""),
    ("Fix model max sequence length and check the batcher", "fix", "fix",
     "model max sequence length", ""),
    ("Redefine lr scheduler behavior", "change", "redefine", "learning rate scheduler behavior", ""),
    ("int4 sparse marlin tensor", "", "", "int4 sparse marlin tensor", ""),
    # A participle that is an adjective, a title that states: no verb.
    ("scaled bias rowwise linear", "", "", "scaled bias rowwise linear", ""),
    ("batch invariant configs should have max off policy = 0", "", "",
     "batch invariant configs should have max off policy 0", ""),
    # An area prefix before a verb with no object of its own is the object.
    ("float8: enable on ROCm gfx942+", "enable", "enable", "float8 on ROCm gfx942+", ""),
    # What comes before a noun title's noun is part of the claim.
    ("CUDAGraph support for SimpleFSDP and TP", "add", "add",
     "CUDAGraph support for SimpleFSDP and TP", ""),
    ("weight tying fix for qwen3", "fix", "fix", "weight tying for Qwen3", ""),
    # How big, how many or how lasting a fix is, is not what it fixes; a capital only
    # because the title opens on it is no name.
    ("Tiny fix for an import in Llama generator script", "fix", "fix",
     "an import in Llama generator script", ""),
    ("Two small fixes in inference example", "fix", "fix", "inference example", ""),
    ("Temporary fix for QAT quantizer", "fix", "fix", "QAT quantizer", ""),
    ("Checkpoint fixes for torch compile", "fix", "fix", "checkpoint for torch compile", ""),
    # A capital inside a title: the lexicon's way of writing the word, or plain for a
    # participle the title also writes plain; a class name stays.
    ("Fix Readme", "fix", "fix", "the README", ""),
    # a second order cut off leaves no comma behind
    ("Read a widget name as one word, and keep the loader's capitals", "change", "read",
     "a widget name as one word", ""),
    # dropping a version's support drops support for that version
    ("drop PyTorch <2.11 support", "remove", "drop", "support for PyTorch before 2.11", ""),
    ("Remove MSLK FP8 tensorwise support", "remove", "remove", "MSLK FP8 tensorwise support",
     ""),
    # "Enable to X" enables no one: it makes X possible.
    ("Enable to specify the file name", "enable", "make", "it possible to specify the file name",
     ""),
    ("Enable Fused qkv by default and enable fused gate_up", "enable", "enable",
     "fused QKV by default", ""),
    ("Move Linear and ScaledBiasRowwiseLinear into common linear", "move", "move",
     "Linear and ScaledBiasRowwiseLinear into common linear", ""),
    # An auxiliary inside a "why …" clause leaves the title's verb a verb.
    ("[BE][doc] explain why float8 needs to be distributed aware", "document", "explain",
     "why float8 needs to be distributed aware", ""),
    ("Mask loss at document boundaries", "change", "mask", "loss at document boundaries", ""),
    # A noun title's noun says the verb; a named noun stays in what is said.
    ("README typos", "fix", "fix", "README typos", ""),
    ("Minor fix checkpoint doc", "fix", "fix", "checkpoint doc", ""),
    # … but "bug fix and test updates" lists two things done: no "fixes and test updates".
    ("[widget] bug fix and test updates related to the new loader param", "", "",
     "bug fix and test updates related to the new loader parameter", ""),
    ("Small fixes to docs", "fix", "fix", "docs", ""),
    # A fix named by nothing but its size fixes an issue of that size, not "minor".
    ("minor fix", "fix", "fix", "a minor issue", ""),
    ("A few fixes", "fix", "fix", "a few issues", ""),
    ("Misc fixes", "fix", "fix", "various issues", ""),
    ("int4 fixes and improvements", "", "", "int4 fixes and improvements", ""),
    ("fixes to hqq in normal int4 class", "fix", "fix", "HQQ in normal int4 class", ""),
    # An arrow with no verb switches one thing to another.
    ("[mxfp8 moe training] _permute_bf16 -> permute_and_pad", "move", "switch",
     "permute BF16", "to permute and pad"),
    ("Adam -> AdamW for the LLaMA recipe", "move", "switch", "Adam",
     "to AdamW for the LLaMA recipe"),
    # A title naming a problem fixes it; a tag can say the kind of work; "Faster X" speeds
    # X up; a verb written last still acts on what comes before it.
    ("Wrong token count in validation", "fix", "fix", "wrong token count in validation", ""),
    ("[hotfix] malformed docstring", "fix", "fix", "malformed docstring", ""),
    # … so does one saying a thing is wrong; a fault named alone may be one a change adds
    ("Widget gather on the wrong dimension", "fix", "fix", "widget gather on the wrong "
     "dimension", ""),
    ("Crash on invalid widget", "", "", "crash on invalid widget", ""),
    ("Faster doc mask for flex flash", "speed", "speed up", "doc mask for flex flash", ""),
    ("[CI] XPU binary build enable", "enable", "enable", "XPU binary build", ""),
    # … but a noun ending a phrase a preposition opens is that phrase's: the title names a
    # thing, no support, test or improvement it adds ("Mixture of experts support": "of" is
    # inside the name).
    ("Zorb recorder for backends without native support", "", "",
     "zorb recorder for backends without native support", ""),
    ("Wib framework with blorp support", "", "", "wib framework with blorp support", ""),
    ("Practices for zorb converging tests", "", "", "practices for zorb converging tests", ""),
    ("QOL improvements to zorb benchmark", "change", "improve", "zorb benchmark", ""),
    ("Mixture of zorbs support", "support", "support", "for mixture of zorbs", ""),
    ("The to method fixes", "fix", "fix", "the to method", ""),
    # A verb the lexicon knows however rare ("enroll X in Y tests" was "touching on enroll X")
    ("enroll zorb in wib integration tests", "change", "enroll", "zorb in wib integration tests",
     ""),
    ("Docs update", "change", "update", "docs", ""),
    # A noun title's verb comes from its own noun, not the first noun in it; a size word
    # before it is not the object.
    ("minor README updates", "change", "update", "the README", ""),
    ("Updates to the loader", "change", "update", "the loader", ""),
    # A branch name as the title is said as its words.
    ("fix-ci", "fix", "fix", "CI", ""),
    # A leading "default" says when; a known misspelling is said as meant.
    ("default disable heavy memory profiling", "remove", "disable", "heavy memory profiling",
     "by default"),
    ("seperate training termination from training loop", "refactor", "separate",
     "training termination from training loop", ""),
    ("Depreciate the widget experiment", "remove", "deprecate", "the widget experiment", ""),
    ("Fix for weights-only load", "fix", "fix", "weights-only load", ""),
    # An improvement is told by its own verb, and by what it is for when it says so.
    ("SAM2 AMG cli and other QoL improvements", "change", "improve",
     "SAM2 AMG CLI and other QoL", ""),
    ("perf improvements for float8", "speed", "speed up", "float8", ""),
    ("Some improvement to make autoquant work with Mixtral", "change", "make",
     "autoquant work with Mixtral", ""),
    ("Add superblock to sparse/prototype", "add", "add", "superblock to sparse prototype", ""),
    # Tests or benchmarks named with what they are: what is added, whole.
    ("Additional regression tests for cpu-only", "add", "add",
     "additional regression tests for CPU-only", ""),
    ("Initial commit of float8nocompile prototype", "", "",
     "the first version of float8nocompile prototype", ""),
    ("Swap in faster uint6 bitpacking function", "change", "swap in",
     "faster uint6 bitpacking function", ""),
    ("work around Triton store miscompile", "change", "work around", "Triton store miscompile",
     ""),
    # A clause verb's clause is told with its "that", never cut to its subject ("checks
    # widget scale"): what is checked is that the widget scale is idempotent.
    ("Check widget_scale is idempotent", "fix", "check", "that widget scale is idempotent", ""),
    ("Validate loader sizes are positive", "fix", "validate",
     "that loader sizes are positive", ""),
    ("Check if the loader is ready", "fix", "check", "if the loader is ready", ""),
    ("Check the loader sizes", "fix", "check", "the loader sizes", ""),
    # An order before a colon is the action when a gerund after it is a subject ("Loading
    # … is off" says what was wrong); a gerund with no verb after it is the action.
    ("Fix loader docs: Loading a widget list from a file is off", "fix", "fix",
     "loader docs: Loading a widget list from a file is off", ""),
    ("Update docs: adding a section on widgets", "add", "add", "a section on widgets", ""),
    # Verbs a title opens on, never told as a thing dealt with ("works on flip X").
    ("Leave out the widget rows with a hole", "change", "leave out", "the widget rows with a hole",
     ""),
    ("flip widget scaling setting to eager", "change", "flip",
     "widget scaling setting to eager", ""),
    ("Auto-fix lint violations in the loader", "fix", "auto-fix", "lint violations in the loader",
     ""),
    ("Spell short widget names by their letters", "change", "spell",
     "short widget names by their letters", ""),
    ("Open no widget sentence on a bare count", "change", "open",
     "no widget sentence on a bare count", ""),
    # A model's parts by their short names are said in full, never inside an identifier;
    # a call with a number names its placement by it ("Shard(0)": "Shard 0").
    ("Fold widget dim for grad clipping", "change", "fold",
     "widget dimension for gradient clipping", ""),
    ("Check widget seq len against max len in the LR scheduler", "fix", "check",
     "widget sequence length against max length in the learning rate scheduler", ""),
    ("Remove the unused widget arg from the quant func", "remove", "remove",
     "the unused widget argument from the quantization function", ""),
    ("Port 2 widget UT files to the loader", "move", "port",
     "2 widget unit test files to the loader", ""),
    ("Use clip_grad_widget for the loader", "change", "use", "clip grad widget for the loader",
     ""),
    ("Support sharding of widget Shard(0) and loader Shard(1)", "support", "support",
     "for sharding of widget Shard 0 and loader Shard 1", ""),
    # a chain of words and hyphens is words however long, never an unsayable token
    ("Add loader-widget-perf-hillclimb skill", "add", "add",
     "loader-widget-performance-hillclimb skill", ""),
    # … and a gerund before "fixes" is what is fixed, no verb of its own
    ("Logging fixes in the widget loader", "fix", "fix", "logging in the widget loader", ""),
    # a count opens the size of a fix: never "trivial Two issues"; fixes of a fault fix
    # several of them, never "a bug"
    ("Two trivial fixes", "fix", "fix", "two trivial issues", ""),
    ("Three fixes", "fix", "fix", "three issues", ""),
    ("One minor fix", "fix", "fix", "one minor issue", ""),
    ("Widget bug fixes", "fix", "fix", "widget bugs", ""),
    # "New X" adds a new X, one word or more: never "deals with new README", "tests new"
    ("New README", "add", "add", "new README", ""),
    ("new benchmark", "add", "add", "new benchmark", ""),
    ("cpu: lock widget registration tables", "change", "lock", "widget registration tables",
     ""),
    # a clean-up named last cleans up what comes before it, its size no part of it: never
    # "touches on widget small clean" or "refactors widget small"
    ("Widget small clean up", "refactor", "clean up", "widget", ""),
    ("Widget small cleanup", "refactor", "clean up", "widget", ""),
    # "Have X do Y" makes X do Y: never "works on agents run …", "the loader retry"
    ("Have the widget loader retry twice", "change", "make", "the widget loader retry twice",
     ""),
    # "torch.compile X" compiles X: never "deals with torch compile each widget"
    ("torch.compile each WidgetBlock instead of the whole model", "change", "compile",
     "each WidgetBlock instead of the whole model", ""),
    ("torch.compile support for widgets", "add", "add", "torch compile support for widgets", ""),
    # a reference's possessive goes with it: never "port's gadget changes"
    ("Port #42's gadget changes to sprocket.py", "move", "port", "gadget changes",
     "to the sprocket module"),
    # names written anew but said the same are renamed, said once: never "modifying zorb
    # dtype to zorb dtype"; a name that differs keeps its "to"
    ("modify _zorb_dtype and _wib_scales to zorb_dtype and wib_scales for MX tensor",
     "rename", "rename", "zorb dtype and wib scales for MX tensor", ""),
    ("Update zorb to zorb_v2", "change", "update", "zorb to zorb v2", ""),
    # a clause that lost its subject is not said: never "… since are now a tensor input"
    ("[Zorb] Switch to save for backward since are now a tensor input", "move", "switch",
     "to save for backward", ""),
    ("Fix CI after do_zorb refactor", "fix", "fix", "CI after do zorb refactor", ""),
    # things made to work together: never "adds zorb bucketing and prefetching compose"
    ("[wib] Zorb bucketing and prefetching compose with SAC", "change", "make",
     "zorb bucketing and prefetching compose with SAC", ""),
])
def test_titles_read_as_actions(title, verb, lemma, obj, qualifier):
    a = parse_title(title)
    assert (a.verb, a.lemma, a.obj, a.qualifier) == (verb, lemma, obj, qualifier)


def test_an_opening_adverb_is_kept_for_before_the_verb_and_by_default_for_after():
    a = parse_title("Temporarily disable the flaky test")
    assert (a.adverb, a.qualifier, name_of(a)) == (
        "temporarily", "", "temporarily disabling the flaky test")
    a = parse_title("Default disable heavy profiling")
    assert (a.adverb, a.qualifier) == ("", "by default")


def test_negation_and_names():
    a = parse_title("Do Not Count MoE Tokens During warmup")
    assert a.negated and a.lemma == "count"
    assert name_of(a) == "no longer counting MoE tokens during warmup"
    # "Never" before an order's verb (known, or before an article) is an order not to.
    a = parse_title("Never name a theme after its unit")
    assert (a.negated, a.lemma, name_of(a)) == (True, "name", "no longer naming a theme after its unit")
    assert not parse_title("Never again").negated
    # "Don't" before a name that opens on its verb ("use_cache") keeps its "not": never
    # "works on use-cache", the opposite of what the change does
    a = parse_title("Don't use_cache for zorb_eval by default")
    assert (a.negated, a.lemma, name_of(a)) == (
        True, "use", "no longer using cache for zorb eval by default")
    assert name_of(parse_title("Add float8 training")) == "float8 training"
    assert name_of(parse_title("Fix NaN in sdpa")) == "fixing NaN in SDPA"
    assert name_of(parse_title("Support int8 weights")) == "support for int8 weights"


@pytest.mark.parametrize(("token", "said"), [
    ("torch._native", "torch native"),
    ("quantized_moe_ffn", "quantized MoE FFN"),
    ("compute_slice", "compute slice"),
    ("torch.distributed.checkpoint.state_dict_saver", "checkpoint state dict saver"),
    # A constant or an environment variable is said in words, not shouted one at a time;
    # a part with a digit keeps its capitals.
    ("TORCH_NCCL_ASYNC_ERROR_HANDLING", "torch NCCL async error handling"),
    ("PYTORCH_CUDA_ALLOC_CONF", "PyTorch CUDA alloc conf"),
    ("FP8_E4M3", "FP8 E4M3"),
    # A model's point version typed with an underscore; not a pair of digits ("2:4").
    ("qwen3_5", "Qwen3.5"),
    ("qwen3_vl", "Qwen3 VL"),
    ("CPU_CAPABILITY_AVX10_2", "CPU capability AVX10.2"),  # a shouted name keeps its version
    ("int4_2_4", "int4 2 4"),
    ("sm_90", "sm 90"),
    # A name ending on "from", "to", "for" or "as" is one compound, not a verb and its
    # preposition ("using split from for eager new group"); "multiple of" reads right.
    ("split_from", "split-from"),
    ("type_as", "type-as"),
    ("multiple_of", "multiple of"),
    # A name opening on a preposition is one compound too, not a place or a source.
    ("in_grad_placements", "in-grad-placements"),
    ("from_int4_tensor", "from-int4-tensor"),
    # "self." is the object the code runs in, not a word of the name.
    ("self.gate_bias", "gate bias"),
    # A part that runs words together in lowerCamelCase is those words; a coined name
    # ("intNwo") and a CamelCase class name stay one word.
    ("test_act_xbit_weightAppleMac", "test act xbit weight Apple Mac"),
    ("naive_intNwo", "naive intNwo"),
    ("Float8Linear_forward", "Float8Linear forward"),
    # A flag's name opening on a verb is one compound, never a verb of the sentence ("makes
    # is forward default to True"); a part said as two words is hyphenated with the rest.
    ("is_forward", "is-forward"), ("has_bias", "has-bias"),
    ("is_cudagraph_compatible", "is-CUDA-graph-compatible"),
    ("widgets.is_ready", "widgets is-ready"), ("self.use_cache", "use-cache"),
    # Two parts that are one known name written apart: the name ("deep_ep" is DeepEP).
    ("deep_ep", "DeepEP"), ("mx_fp4", "MXFP4"),
])
def test_identifiers_are_said_as_words(token, said):
    assert speak_identifier(token) == said


@pytest.mark.parametrize(("text", "said"), [
    ("The namespace is `torch._native` for quantized_moe_ffn.",
     "The namespace is torch native for quantized MoE FFN."),
    ("Timeout is set in .toml when needed.", "Timeout is set in TOML file when needed."),
    ("Bump qwen3.5 to v1.2, e.g. for tests.", "Bump qwen3.5 to v1.2, e.g. for tests."),
    # A test function is its test, with the article its words take, also at a full stop
    # and before its kind ("a test_x integration test": no "test … test").
    ("PR 12 adds a `test_overlap_rewrites` integration test.",
     "PR 12 adds an overlap rewrites integration test."),
    ("PR 12 adds a `test_overlap_rewrites`.", "PR 12 adds an overlap rewrites test."),
    # A source file is said with its kind, never its bare stem ("because widget reads …"),
    # with one article, and once before a word that says its kind already.
    ("Loading is slow because widget.py reads every shard.",
     "Loading is slow because the widget module reads every shard."),
    ("widget.py reads every shard.", "The widget module reads every shard."),
    ("People copy different widget.py files.", "People copy different widget files."),
    ("Users create different widget.py and copy them.",
     "Users create different widget modules and copy them."),
    ("This moves code from gadget.py into the widget.py module.",
     "This moves code from the gadget module into the widget module."),
    # (a file before a noun names a thing of its own: "the widget module config files" is
    # no better than its words)
    ("Update widget.py config files.", "Update widget config files."),
    ("It is superseded by gadget.py instead.", "It is superseded by the gadget module instead."),
    # an error message in a code span is no annotation ("args: WidgetArgs" is)
    ("Fixes `TypeError: cannot pickle widget object` on load.",
     "Fixes TypeError: cannot pickle widget object on load."),
])
def test_prose_keeps_its_words_and_speaks_identifiers(text, said):
    assert speakable(text) == said


@pytest.mark.parametrize("text", [
    "Set x = f(y) before the call.",  # an assignment
    "Pass --compile-mode=max to enable it.",  # a flag
    'Usage is now "python widget.py v2 / v3" for both.',  # a command line
    "Some modules used `args: WidgetArgs`, others `params: WidgetArgs`.",  # annotations
    "Run pip install gadget first.",
    "Positions 0..pad_len-1 are padded.",  # a range
    "Use Map<String, int> here.",  # generics
    "A" * 40 + " is the name.",  # no word anyone can say
    "Ignore the example checkpoint/ dir since it clobbers the status.",  # a folder
])
def test_code_left_in_a_sentence_drops_it_whole(text):
    assert speakable(text) is None


@pytest.mark.parametrize(("title", "cleaned"), [
    ("🐛 Fix: Memory leak in the endpoint", "Memory leak in the endpoint"),
    ("add add fp8 conversion kernel", "add fp8 conversion kernel"),
    # a shape repeats a number: both stay ("blk_64_64"); a name that is mostly numbers
    # goes whole (test_title_readings.py)
    ("add blk_64_64_row_col widget scaling", "add blk 64 64 row col widget scaling"),
    # an identifier may open on a number ("2d_3d", "14B_varlen"); a number alone is none
    ("Align the 2d_2d API with the 2d_3d variant", "Align the 2d 2d API with the 2d 3d variant"),
    ("run 1_000 steps", "run 1_000 steps"),
    # a spaced slash pairs two things, which were said run together ("trainer generator")
    ("Skip widgets when rows_out / rows_in are odd", "Skip widgets when rows out and rows in are odd"),
    ("[rl] split the trainer / loader pools", "split the trainer and loader pools"),
    ("Speed up <speak><break time=\"3s\"/>the loader</speak> (#41)", "Speed up the loader"),
    ("A" * 80, ""),
    ("Use .to instead of get_original_weight", "Use the to method instead of get original weight"),
    # A CamelCase class name is a name however long; an 80-letter run is noise.
    ("Add Float8ActInt4WeightQATQuantizer", "Add Float8ActInt4WeightQATQuantizer"),
    # A dash between clauses stays a break, never runs them together.
    ("pass the placements without EP too — TP gradients lose their reduction",
     "pass the placements without EP too - TP gradients lose their reduction"),
    # A prefix that is an order is the action when no verb follows; before one, a label.
    ("Fix red CI: numa + H100 startup breaks", "Fix red CI: numa and H100 startup breaks"),
    ("Fix CI: synchronize parity test teardown", "synchronize parity test teardown"),
    # Shorthand said in full; "&" inside a word pair is "and", a name like AT&T stays.
    ("Add gemm tops&pct achievable mem bw", "Add gemm tops and percent achievable memory bandwidth"),
    ("show avg iter & data loading times", "show average iter and data loading times"),
    # "--" between words is a dash, not two symbols to read out.
    ("add performance -- infra metrics", "add performance - infra metrics"),
    ("Support AT&T modems", "Support AT&T modems"),
    # A markdown file is a document, not the thing it is about.
    ("Update fsdp.md", "Update fsdp doc"),
    ("Add docs/datasets.md", "Add datasets doc"),
    ("Update README.md", "Update README"),
    # A source file that is the whole object is said with its kind, never as a bare word.
    ("[BE][1/n] simplify train.py", "simplify the train module"),
    ("Update linear.h", "Update the linear header"),
    ("Fix test_fused_norm.py", "Fix the fused norm tests"),
    ("Fix typo in train.py", "Fix typo in the train module"),  # a place, said as one
    # An aside goes whole, even with an aside inside it: never "X to Y" read from it.
    ("Name the theme by its part ('the loader (v2)' -> 'loader')", "Name the theme by its part"),
    # A test function is named as its test, with "the" after a verb or a preposition.
    ("skip test_slice_loader for ROCm", "skip the slice loader test for ROCm"),
    ("Fix flaky failures in test_warm_cache", "Fix flaky failures in the warm cache test"),
    ("Fix internal test_warm_cache", "Fix internal warm cache test"),
    ("Fix the test_warm_cache failure", "Fix the warm cache test failure"),
    # A title opening on a flag's name that is an order says the order; a compound does not.
    ("[ci] disable-cuda-graphs for the loader PP tests", "disable cuda graphs for the loader PP tests"),
    ("Add-on loader for the cache", "Add-on loader for the cache"),
    ("state-of-the-art loader", "state-of-the-art loader"),
    # The test's own tooling is no test, and a title saying "test" already keeps the name.
    ("Make test_runner warn", "Make test runner warn"),
    ("Enable test_warm features test", "Enable test warm features test"),
    # A slash before a package's kind, or after the same folder twice, is a path: never
    # "widgetlib and dtypes".
    ("Remove deprecated widgetlib/dtypes package", "Remove deprecated widgetlib dtypes package"),
    ("Lint fixes widgetlib/profiler and widgetlib/testing",
     "Lint fixes widgetlib profiler and widgetlib testing"),
    ("Add cpu/gpu tests", "Add CPU and GPU tests"),
    # Names in capitals with a slash between them are a list, never a path's last part.
    ("Move H100/A100 widget jobs to the new runners",
     "Move H100 and A100 widget jobs to the new runners"),
    ("Enable the loader on MI300/MI350/MI355", "Enable the loader on MI300, MI350 and MI355"),
    ("Add WidgetQuant/SmoothWidget to the loader", "Add WidgetQuant and SmoothWidget to the loader"),
    # A lower-case part is a branch's or a folder's, no list of names.
    ("Fix/widget test precision", "widget test precision"),
    # A file after a preposition is said as what it is, never as a bare word ("out of
    # sentences into leaning").
    ("Move the widget rule out of sentences.py into leaning.py",
     "Move the widget rule out of the sentences module into the leaning module"),
    ("Fix a typo in test_loader.py", "Fix a typo in the loader tests"),
    ("Fix the launch in run_widget.sh", "Fix the launch in the run widget script"),
    ("Rename run_widget.py to run_all.py", "Rename the run widget module to the run all module"),
    ("Split widget.py into loader.py and saver.py",
     "Split the widget module into the loader module and the saver module"),
    ("Make test_runner.py warn on a full folder",
     "Make the test runner module warn on a full folder"),
    # A title cut mid-word by GitHub loses the cut word, never says "GB3" or "stac".
    ("Skip the widget check and add GB200/GB3… (#2451)", "Skip the widget check and add GB200"),
    ("Add a cache entry point and propagate stac… (#12)", "Add a cache entry point and propagate"),
    ("Delete the old widget functionality from float8 … (#1451)",
     "Delete the old widget functionality from float8"),
    # The web editor's branch ("ada-patch-1") names nothing a merge did.
    ("Merge pull request #18 from widget-org/ada-patch-1", ""),
    # Another try of an internal diff is told by what it does, never by the diff's id.
    ("Retry of D12345678 Move the loader to a new file", "Move the loader to a new file"),
    ("Reland D1234567: fix widget scale", "fix widget scale"),
    ("Retry the flaky loader test", "Retry the flaky loader test"),
])
def test_clean_title(title, cleaned):
    assert clean_title(title) == cleaned


def test_vendor_prefix_is_split_off_but_a_leading_verb_is_not():
    assert split_prefix("Qualcomm AI Engine Direct - Fix the quantizer") == (
        "Qualcomm AI Engine Direct", "Fix the quantizer")
    assert split_prefix("Fix crash - regression from yesterday") == (
        None, "Fix crash - regression from yesterday")


def test_inflection_and_verbs():
    assert [third_person(v) for v in ("fix", "apply", "speed up", "do", "add")] == [
        "fixes", "applies", "speeds up", "does", "adds"]
    assert [gerund(v) for v in ("make", "stop", "speed up", "tie", "add", "re-run",
                                    "pre-split", "flip")] == [
        "making", "stopping", "speeding up", "tying", "adding", "re-running", "pre-splitting",
        "flipping"]
    assert third_person("re-do") == "re-does"  # (the verb after "re-" is inflected)
    # a stressed last syllable doubles its consonant ("formating a composability doc" was
    # heard); an unstressed one does not
    assert [gerund(v) for v in ("format", "overlap", "debug", "reset", "edit", "target",
                                "limit")] == [
        "formatting", "overlapping", "debugging", "resetting", "editing", "targeting",
        "limiting"]
    assert (gerund("init"), third_person("init")) == ("initializing", "initializes")
    assert [base_verb(w) for w in ("Fixes", "added", "stopped", "concretize", "materialized",
                                   "redefine", "noise", "region")] == [
        "fix", "add", "stop", "concretize", "materialize", "redefine", None, None]
    assert has_verb("Reductions fell back to a slow path".split())
    assert not has_verb("Recurrent everywhere with fp32 recurrence".split())


def test_kinds_of_work():
    assert kind_of(parse_title("Fix the cache")) == "correctness"
    assert kind_of(parse_title("Add tests for the cache")) == "infrastructure"
    assert kind_of(parse_title("Update README for float8")) == "documentation"
    assert kind_of(parse_title("Optimize the cast kernel")) == "performance"
    # a test function named as its test is still test work ("skip the slice loader test")
    assert kind_of(parse_title("Skip test_slice_loader on ROCm")) == "infrastructure"
    # so are tests named by their kind: "integration tests" are tests, not a capability
    assert kind_of(parse_title("Add integration tests for the planner")) == "infrastructure"
    assert kind_of(parse_title("Add unit test")) == "infrastructure"
    assert kind_of(parse_title("Add test harness for the planner")) == "infrastructure"
    # … and "the rest of" the tests are tests too
    assert kind_of(parse_title("update rest of tests")) == "infrastructure"
    assert kind_of(parse_title("Update the rest of the widget tests")) == "infrastructure"
    assert kind_of(parse_title("Update other widget tests")) == "infrastructure"
    # … and a docstring in some state is still a docstring: "restores deleted docstring on
    # the zorb kernel" was told as a fix, "goes further" after an AMD enablement
    assert kind_of(parse_title("restore deleted docstring on the zorb kernel")) == \
        "documentation"
    assert kind_of(parse_title("Fix missing README for wib")) == "documentation"
    assert kind_of(parse_title("Add")) == ""  # (no object: no head noun to read)
    assert kind_of(parse_title("Use the new API")) == "change"
    # a verb the lexicon knows is told as itself, never "touches on soften the guard"
    assert (parse_title("soften the version guard").lemma, kind_of(parse_title(
        "soften the version guard"))) == ("soften", "change")
    assert [parse_title(t).lemma for t in ("Weigh big clusters as a mix",
                                           "Know soften as a verb")] == ["weigh", "know"]
    assert kind_of(parse_title("memory planner")) == ""
    # memory named is no speed-up: metrics and snapshots are what their verb makes them
    assert kind_of(parse_title("Add memory metrics to the widget board")) == "capability"
    assert kind_of(parse_title("Reduce memory use of the widget")) == "performance"


def test_names_are_trimmed_and_cased():
    # A participle waits for its "by": a cut there goes before it ("a theme named" says
    # nothing of how it is named)
    assert trim("the problem of a theme named by its kind of work with its change", 7) == \
        "the problem of a theme"
    assert trim("the UintxTensor and UintxLayout classes needed by the packing utils", 7) == \
        "the UintxTensor and UintxLayout classes"
    # … and so does one cut from its "for" ("capture of DTensors in vLLM required")
    assert trim("support weak ref capture of zorbs in vLLM required for cudagraph", 9) == \
        "support weak ref capture of zorbs in vLLM"
    # A name with no break to cut at is one phrase, kept whole a word or two over: its end
    # is its point ("… utils import path", never "… utils import").
    assert trim("making betas and weight decay Adam hyperparameters configurable", 7) == \
        "making betas and weight decay Adam hyperparameters configurable"
    assert trim("the legacy torchtitan components checkpoint utils import path", 7) == \
        "the legacy torchtitan components checkpoint utils import path"
    assert trim("making betas and weight decay Adam hyperparameters configurable", 5) == \
        "making betas and weight decay"
    assert trim("the checkpoint path for the", 6) == "the checkpoint path"
    assert trim("gate overlap FSDP pass behind a config flag", 6) == "gate overlap FSDP pass"
    assert trim("subjects told as what they are", 10) == "subjects told as what they are"
    assert trim("subjects told as they", 10) == "subjects told"
    # a compound preposition cut from its "to" goes whole; an uncut one is the name's own
    assert trim("support for loader paths in addition to the hardcoded widget values", 8,
                why=True) == "support for loader paths"
    assert trim("the widget cache in addition", 8) == "the widget cache in addition"
    # a clause word after an article modifies a noun, and opens no clause to cut at
    assert trim("opening the which widgets of loaders in a row differently", 8) == \
        "opening the which widgets of loaders"
    # … and so does "the one" cut from what it is; an uncut one stays
    assert trim("move the widget cache to the one from the loader", 8) == \
        "move the widget cache"
    assert trim("move the widget cache to the one", 8) == "move the widget cache to the one"
    # a participle after its noun, cut from what it governs, goes with its phrase ("a
    # verbless title with a phrase ending"); a thing after "with" stays ("with padding")
    assert trim("a verbless title with a phrase ending on its first word", 8, lists=True,
                why=True) == "a verbless title"
    assert trim("the loader for widgets with padding on the left side of each row", 8,
                lists=True, why=True) == "the loader for widgets with padding"
    assert trim("the sparse widget GEMM with rowwise scaling for all the loaders", 8,
                lists=True, why=True) == "the sparse widget GEMM with rowwise scaling"
    assert shorten("one two three four of", 18) == "one two three four"
    assert shorten("A" * 80, 70) == ""
    # A cut that leaves "to <verb>" without what the verb acts on drops the purpose too;
    # an uncut name keeps its own ("to run" ends the title).
    assert shorten("IntxOpaqueTensor to replace PackedInt8DynamicActivationIntxWeightLayout "
                   "in AQT", 45) == "IntxOpaqueTensor"
    assert trim("an option to specify what to run", 9) == "an option to specify what to run"
    # A cut inside what follows a preposition drops the phrase whole: never "for routed".
    assert shorten("applying dim-1 FSDP sharding for routed experts", 45) == \
        "applying dim-1 FSDP sharding"
    # ... an "of" phrase too: a weekly title was "… Global Amax of Columnwise" (of "… of
    # columnwise RHT")
    assert shorten("Widget kernel for global amax of columnwise RHT", 45) == \
        "Widget kernel for global amax"
    # ... but not "to be" nor the inside of a "why" clause, which the cut keeps as it was.
    assert shorten("explaining why float8 needs to be distributed aware", 45) == \
        "explaining why float8 needs to be distributed"
    assert title_case("support for the MPS backend in-tree") == "Support for the MPS Backend In-Tree"
    # a name the lexicon writes in lower case stays so
    assert title_case("adding widget kernels to torchao") == "Adding Widget Kernels to torchao"
    assert title_case("converting the nn Module widgets") == "Converting the nn Module Widgets"
    assert title_case("fixing sdxl widgets") == "Fixing SDXL Widgets"
    # a short word of consonants is said letter by letter, and written so ("Support for
    # Bmm" was the title); a few are words, and "vs" is a small word
    assert title_case("support for bmm and the fused rms norm vs zero std in loss fn") == \
        "Support for BMM and the Fused RMS Norm vs Zero Std in Loss Fn"
    assert title_case("moving sam eval and vit widgets") == "Moving SAM Eval and ViT Widgets"
    assert title_case("switching to vllm v2 engine for rfc 2408") == \
        "Switching to vLLM v2 Engine for RFC 2408"
    assert title_case("gating overlap fsdp ag rs pass for deepseekv3") == \
        "Gating Overlap FSDP AG RS Pass for DeepSeek-V3"
    assert title_case("fixing the sac mm counter in ft with one pg") == \
        "Fixing the SAC MM Counter in FT with One PG"


def test_an_adjective_after_a_degree_word_loses_its_stray_capital():
    assert sentence_case("make SmoothQuant more General") == "make SmoothQuant more general"
    assert sentence_case("remove more GaLore bits") == "remove more GaLore bits"
    assert sentence_case("remove more Galore bits") == "remove more Galore bits"


def test_a_title_case_title_counts_its_hyphenated_words_and_keeps_model_names():
    # "Always Pre-Split Microbatches for PP" was read as names: "always pre-splitting
    # Microbatches"; a model family the lexicon spells keeps its capital once lowered.
    assert headline(["Always Pre-Split Widgets for PP"]) == "always pre-splitting widgets for PP"
    assert headline(["Qwen 3.5 Varlen Widget Attention"]) == "Qwen 3.5 varlen widget attention"
    assert sentence_case("add a Pre-Made loader") == "add a Pre-Made loader"  # one word


def test_a_title_case_title_counts_its_short_capitalised_words():
    # "Use" and "Fix" are as much Title Case as "Default": "… to Use Shards by Default"
    # was left as written, two capitals being too few among the long words
    assert sentence_case("Switch DeepSeekV3 to Use FlexAttention by Default") == \
        "switch DeepSeekV3 to use FlexAttention by default"
    assert sentence_case("Fix a Bug in MX Builds") == "fix a bug in MX builds"
    # an acronym is no Title Case word; one capital among plain words stays
    assert sentence_case("Add CI for the ROCm VLM Runner") == "Add CI for the ROCm VLM Runner"


@pytest.mark.parametrize(("text", "limit", "name"), [
    # A cut "by …" with a verb's bare form ("by properly tear" of "tear down for X") goes
    # whole; a "by" with its gerund or its noun stays.
    ("fix the CI timeout by properly tear down for the engine in v2", 9, "fix the CI timeout"),
    ("reduce peak memory by reusing buffers across all stages of the run", 8,
     "reduce peak memory by reusing buffers"),
    ("shard the optimizer state by rank across all stages of the run", 8,
     "shard the optimizer state by rank"),
    # "without changing" lost what it changes; "by warning" (a phrase after it) did not.
    ("users to extend the config without changing its core code", 7,
     "users to extend the config"),
    ("replace the raise by warning in the old loader path", 5, "replace the raise by warning"),
    # "by exposing" whose object was cut (here a name read as "is causal") goes too
    ("fix the attention by exposing is causal in the kernel", 8, "fix the attention"),
    # A cut inside a cause ends before it: never "… script due to deprecation".
    ("updating latency test script due to deprecation in the engine", 7,
     "updating latency test script"),
    # A cut inside a list of things ends before it; two modifiers of a noun are no list.
    ("an example with the loader, the planner and the cache in the docs", 7,
     "an example with the loader"),
    ("the on-device, parallelized kernel for the loader in the planner", 6,
     "the on-device, parallelized kernel"),
    # A question word's clause ends on its verb, its subject a noun: never "… where a value".
    ("a row with a hole where a value was", 12, "a row with a hole where a value was"),
    ("a row with a hole where the was", 12, "a row with a hole"),
    # "such that" opens one clause: never "store widget weights such"
    ("store widget weights such that we can transpose them before the gadget op", 6,
     "store widget weights"),
])
def test_a_cut_name_ends_where_a_listener_expects(text, limit, name):
    assert trim(text, limit) == name


def test_a_name_stops_before_an_auxiliary_unless_a_clause_owns_it():
    assert trim("batch invariant configs should have max off policy") == \
        "batch invariant configs"
    # A relative clause the auxiliary is in goes whole: never "a sentence whose point".
    assert trim("a sentence whose point was the place", 8) == "a sentence"
    assert trim("tensors contiguous when they are views", 8) == \
        "tensors contiguous when they are views"
    # "the way X is done" is a how clause: never "the way scale"
    assert trim("the way widget scale is calculated for loaders", 8) == \
        "the way widget scale is calculated for loaders"


@pytest.mark.parametrize(("title", "cleaned"), [
    ("1/x mx cleanup: remove pack_fp6", "remove pack fp6"),
    ("[2/3] Add the loader", "Add the loader"),
    ("(3/n) fix the loader", "fix the loader"),
    # ... at the end too ("deprecation part x" would be said)
    ("Loader folder deprecation part 2/x", "Loader folder deprecation"),
    ("Move the loader to core (3/n)", "Move the loader to core"),
    # ... or after the topic it numbers, whose colon then ends a prefix as ever
    ("widget cleanup [2/x]: refactor the planner", "refactor the planner"),
    ("Clean up the loaders 2/n", "Clean up the loaders"),
])
def test_a_series_part_number_and_its_series_name_are_not_the_action(title, cleaned):
    assert clean_title(title) == cleaned


@pytest.mark.parametrize(("title", "cleaned"), [
    # An operator between names was dropped, leaving "init when FSDP n kv heads".
    ("Fix fused qkv load weights and init when FSDP > n_kv_heads",
     "Fix fused qkv load weights and init when FSDP exceeds n KV heads"),
    ("Skip the test if world_size<2", "Skip the test if world size is below 2"),
    # Before a version number it is a range of versions, not a comparison left half said.
    ("Skip `test_q_attention_block` for torch >= 2.11.0.dev",
     "Skip the q attention block test for torch 2.11.0.dev and later"),
    ("Guard the import for python<3.10", "Guard the import for python before 3.10"),
    # a pin names its version: never "pinning widgetlib equals 8.4.2"
    ("Pin widgetlib==8.4.2", "Pin widgetlib 8.4.2"),
    ("Skip the loader test for widgetlib != 2.5", "Skip the loader test for widgetlib other "
     "than 2.5"),
    ("Skip when rank == world_size", "Skip when rank equals world size"),
    # a value given to a name was heard bare ("when expert-parallel (EP) 1"); what a verb
    # sets is set to it
    ("Shard the widgets when ep=1", "Shard the widgets when ep equals 1"),
    ("Set drop_widget_groups=False for debug configs",
     "Set drop widget groups to False for debug configs"),
    # (only right after the verb: "Set X to requires_grad=False" is never "to … to False")
    ("Set the loader to requires_grad=False", "Set the loader to requires grad equals False"),
])
def test_a_comparison_in_a_title_is_said_in_words(title, cleaned):
    assert clean_title(title) == cleaned


@pytest.mark.parametrize(("title", "cleaned"), [
    # "+" between words joins things: one is "and", a run is a list
    ("enable the trainer + fp8 composability", "enable the trainer and fp8 composability"),
    ("Fix positions with CP + block_causal + flexattention",
     "Fix positions with CP, block causal and flexattention"),
    ("Fix the loader + add a cache", "Fix the loader and add a cache"),
    ("Support FSDP2+CPUOffload in C++", "Support FSDP2+CPUOffload in C++"),
])
def test_a_plus_between_words_is_said_as_and(title, cleaned):
    assert clean_title(title) == cleaned


def test_a_prefix_is_what_a_title_makes_more_robust():
    action = parse_title("float8 kernel test: make more robust")
    assert (action.lemma, action.obj) == ("make", "float8 kernel test more robust")


def test_a_move_to_a_name_that_reads_the_same_says_only_what_moves():
    # "moves Int4CPULayout to int4 CPU layout" said nothing true about where it went; a
    # file said as what it is does ("to the int4 CPU layout module").
    action = parse_title("Move Int4CPULayout to int4_cpu_layout")
    assert (action.lemma, action.obj, action.qualifier) == ("move", "Int4CPULayout", "")
    action = parse_title("Move Int4CPULayout to int4_cpu_layout.py")
    assert (action.lemma, action.obj, action.qualifier) == (
        "move", "Int4CPULayout", "to the int4 CPU layout module")


def test_a_merge_that_says_what_it_merges_is_told_by_that():
    # The demo told "the commits also merge h17: a title's second action …".
    assert clean_title("Merge h17 (round 5): add a scope slot") == "add a scope slot"
    assert clean_title("Merge branch 'main' into feature") == "Merge branch main into feature"


def test_lower_first_keeps_a_name_the_text_writes_with_its_capital():
    assert lower_first("The cache was keyed on the rank") == "the cache was keyed on the rank"
    assert lower_first("Hadamard on V alone sits between full Hadamard and none") == \
        "Hadamard on V alone sits between full Hadamard and none"
    # "A" is the article; any other capital letter is a name ("M*G" said "M G").
    assert lower_first("A cache per rank") == "a cache per rank"
    assert lower_first("M G Triton group GEMM") == "M G Triton group GEMM"
    # a name the lexicon spells with a capital keeps it, said once or not
    assert lower_first("Triton kernel to cast to MX") == "Triton kernel to cast to MX"
    assert lower_first("Vulkan reductions") == "Vulkan reductions"
    # in a description's sentence, a name of two capitalised words; a Title Case title's
    # first word is lowered all the same
    assert lower_first("Widget Glimmer supports only one loader", sentence=True) == \
        "Widget Glimmer supports only one loader"
    assert lower_first("Currently Widget ignores the loader", sentence=True) == \
        "currently Widget ignores the loader"
    assert lower_first("Miscellaneous Loader Refactors") == "miscellaneous Loader Refactors"


def test_a_name_whose_underscores_only_open_or_close_it_is_said_as_its_word():
    assert speakable("PR 12 loads widgets through the `quantize_` API.") == \
        "PR 12 loads widgets through the quantize API."
    assert speakable("The loader's __init__ reads the widget_cache_ path.") == \
        "The loader's init reads the widget cache path."


def test_a_code_span_opening_on_an_operator_is_an_expression_not_a_name():
    assert speakable("PR 12 eliminates `% seq_len` to keep positions continuous.") is None
    assert speakable("It uses a scale of `finfo.max / 1.0` for softmax.") is None
    assert speakable("The `model-hash` name stays for now.") == "The model-hash name stays for now."
    assert speakable("Only the `model_hash` / `grad_hash` moved.") == \
        "Only the model hash / grad hash moved."


def test_a_title_opening_on_bugfix_or_hotfix_is_a_fix():
    # ("PR 1801 works on bugfix clean release notes" said it as a thing)
    assert name_of(parse_title("bugfix clean_zorb_notes.py")) == "fixing clean zorb notes"
    assert name_of(parse_title("Hotfix for the zorb loader crash")) == \
        "fixing the zorb loader crash"


def test_a_branch_name_ending_on_a_noun_said_as_a_verb_is_that_verb():
    # "readme-updates" updates the README ("PR 874 deals with README-updates" did not)
    a = parse_title("zorb-updates")
    assert (a.lemma, a.obj) == ("update", "zorb")
    assert parse_title("readme-updates").obj == "the README"  # one README: the README
    assert parse_title("fine-tuning").lemma == ""
