"""Theme names are concepts (issue 14 item 5): shared tags and words through the lexicon,
qualified by area; never a trailing function word, a vendor prefix or a clipped verb."""

from __future__ import annotations

import pytest

from mergecast.analysis.headlines import UNNAMED, headline, single_headline
from mergecast.analysis.language import clean_title, is_tail_word, parse_title
from mergecast.analysis.naming import grab_bag, is_activity


@pytest.mark.parametrize(("titles", "areas", "name"), [
    # a shared tag through the lexicon, plus the word the titles share
    (["[aot_utils] Add cache kernels", "[aot_utils] Add warm kernels",
      "[aot_utils] Use the kernels in training"], ("compile",), "ahead-of-time utils kernels"),
    # a shared adjective goes before the tag: never "Widget configurable"
    (["[Widget] Add configurable Gadget with cog support",
      "[Widget] Add configurable Sprocket that inherits from Widget"], ("models",),
     "configurable Widget"),
    (["[Widget] Add configurable Gadget with cog support",
      "[Widget] Add configurable Sprocket that inherits from Widget"], ("Widget",),
     "configurable Widget"),
    # two acronyms in one tag stay short
    (["[moe_ep] Add token dispatch kernels", "[moe_ep] Add combine kernels",
      "[moe_ep] Use the kernels in the router"], ("models",), "MoE EP kernels"),
    # a reland reworded is named by its title, not by the words the two share
    (["Fixing aliasing behavior for slice in the tiled layout",
      "[reland] Fixing aliasing behavior for slice in the int4 layout"], ("quantization",),
     "fixing aliasing behavior for slice"),
    # a word alone is qualified by the area and told with the kind of work most titles do
    (["Rewrite reductions for strided inputs", "Rewrite reductions for batched inputs"],
     ("mps",), "MPS reductions clean-up"),
    (["Rework reductions for strided inputs", "Add reductions for batched inputs"],
     ("mps",), "MPS reductions"),
    # a vendor's product-line prefix names nothing; the area and the shared word do
    (["Qualcomm AI Engine Direct - Fix quantizer for conv",
      "Qualcomm AI Engine Direct - Fix quantizer for linear"], ("qualcomm",),
     "Qualcomm quantizer fixes"),
    # the word every title shares goes where a title says it, before the area or tag:
    # "Intel XPU", never "XPU Intel"
    (["[xpu] Widget quantization on Intel XPU", "[xpu][test] Skip the loader test for Intel"],
     ("xpu",), "Intel XPU"),
    (["[xpu] Widget quantization on Intel XPU", "[xpu][test] Skip the loader test for Intel"],
     ("quantization",), "Intel XPU"),
    # titles that share only their kind of work
    (["Fix the RL loss scaling", "Fix RL weight loading", "Fix generator shutdown"], ("rl",),
     "RL fixes"),
    # "Quantization new features" reads wrong: the area names the features
    (["Add int4 weight packing", "Add a codebook flow", "Introduce observer presets"],
     ("quantization",), "Quantization features"),
    (["docs: update the quick start", "docs: fix typos in the guide",
      "Update README for float8"], ("docs",), "documentation updates"),
    # a topic prefix the titles share is their concept
    (["config migration: smoothquant", "add assertion error about config migration",
      "migrate prototype awq to configs"], ("prototype",), "config migration"),
    # a noun one title writes plural and one singular is the name's, never a lone "token"
    (["[zorb training] cuda kernel for unpadding token groups",
      "[zorb training] clean up torch reference impl for token group padding"],
     ("prototype",), "zorb training token groups"),
    (["[zorb training] cuda kernel for unpadding token groups",
      "[zorb training] clean up torch reference impl for token group padding"],
     ("Zorb training",), "Zorb training token groups"),
    # … and is said as they write its plural: "wib indices", never "wib indice" + "s"
    (["[zorb training] cuda kernel for gathering wib indices",
      "[zorb training] clean up torch reference impl for wib index padding"],
     ("prototype",), "zorb training wib indices"),
    # a shared "never" names nothing: never "never in Writing"
    (["Never say a zorb that points into the code", "Never call a wib the blorp",
      "Never read a snorkel as a flobber"], ("Writing",), "no longer saying a zorb"),
    # … unless the area says it: never "zorb workflows in Workflows"
    (["Add nightly zorb workflow", "Add push trigger for binary zorb workflows"],
     ("Workflows",), "zorb Workflows"),
])
def test_cluster_and_stack_names_are_concepts(titles, areas, name):
    assert headline(titles, areas=areas) == name


@pytest.mark.parametrize(("title", "areas", "name"), [
    (["Add reductions"], ("mps",), "MPS reductions"),
    # a name of its own needs no area; a folder named in the plural follows the name
    (["Add AOPerModuleConfig"], ("quantization",), "AOPerModuleConfig"),
    # nor one that says its area again in another form: never "Sparse sparsity"
    (["Add sparsity"], ("sparse",), "sparsity"),
    (["[models] optimizer"], ("models",), "optimizer in Models"),
    (["Shorten nccl comm timeout and enable flight recorder dumping",
      "Separate timeout during init and training"], ("parallelisms",), "timeout in Parallelisms"),
    # A code name with a digit keeps its case ("First theme: A2av token" read as a name).
    (["Add features"], ("a2av",), "a2av features"),
    # ... and two verbs parallel titles share name one thing: "token dispatch and combine"
    (["[a2av] Add token dispatch", "[a2av] Add token combine"], ("a2av",),
     "token dispatch and combine"),
    (["Add features"], ("float8",), "float8 features"),
    # ... and an area of two words ending in a plural follows it as words: never "Train
    # configs llama".
    (["add llama 70B toml", "add llama 13B configs"], ("train configs",), "Llama train configs"),
    (["[spmd_types] Kimi enablement", "[spmd_types] Qwen enablement"], ("spmd types",),
     "SPMD types enablement"),
    # a name that names nothing ("fixing a bug") says at least where; a generic place
    # ("docs") adds nothing
    (["Fix a bug"], ("ep",), "fixing a bug in EP"),
    (["some misc changes"], ("loader",), "some misc changes in Loader"),
    (["Fix a minor issue"], ("docs",), "fixing a minor issue"),
    # a test folder is no place the work is about: "Unit tests features" says nothing
    (["Support different tokenizers", "Add an option to filter shapes by name",
      "Fix the tokenizer README id"], ("unit tests",), "support for different tokenizers"),
    (["Support different tokenizers", "Add an option to filter shapes by name",
      "Fix the tokenizer README id"], ("Loader",), "Loader features"),
])
def test_a_one_word_name_takes_its_area_as_a_reader_would(title, areas, name):
    assert headline(title, areas=areas) == name


@pytest.mark.parametrize(("title", "name"), [
    # what a "make" title makes X is its point: kept when the name is cut
    ("[moe training] make compile vs triton for dim0 cast configurable",
     "making compile versus Triton configurable"),
    ("Make float8 optional", "making float8 optional"),
    # ... also when what it is measured against comes after it
    ("Make the quant prepare and convert steps compatible with quantizers in torch",
     "making the quantization prepare compatible"),
    ("Make SmoothQuant more General", "making SmoothQuant more general"),  # said once
    # a cut name never ends on an adjective whose noun was cut off
    ("make the default dtype of the grouped gemm scales float32", "making the default dtype"),
    # an added thing whose name opens on a verb-like word, with a place it goes to, is
    # said as the adding it is ("the benchmark numbers to dashboard" read as a thing)
    ("Add benchmark numbers to dashboard", "adding benchmark numbers to dashboard"),
    ("Add sequence parallelism to llama", "adding sequence parallelism to Llama"),
    ("Integrate DeepEP to torchtitan", "integrating DeepEP to torchtitan"),
    ("Add DeepSeek-v3 model into torchtitan", "adding DeepSeek-v3 model into torchtitan"),
    # what the cut loses is the condition, not the place: still said as the adding
    ("Add color to console output if local logging, auto avoid color logging on slurm",
     "adding color to console output"),
    ("Enable to save checkpoints async", "optionally saving checkpoints async"),
    # a second order of the same verb adds its object to the first's ("adding sparsity,
    # add wanda sparsifier to ao" was a theme's name)
    ("Add widgets, add gadget sparsifier to cog", "adding widgets and gadget sparsifier to cog"),
    # what a setting is set to is the point: a cut never leaves "setting X" for "setting X
    # to False", nor "setting X False"
    ("Set drop_widget_sprocket_groups=False for debug configs",
     "setting drop widget sprocket groups to False"),
    # a statement too long to be a name is named by its subject, never cut after its verb
    ("The loader now keeps every shard it reads in the cache", "the loader"),
    ("Stacks are named by their own parts", "stacks are named by their own parts"),
    ("Add option to skip the loader", "option to skip the loader"),  # "to" opens a verb
    ("Add reduce_range to avoid overflow in int8 tensor", "the reduce range to avoid overflow"),
    # "Fail when X" raises an error when X ("Fail When Using Tracer …" was an order as a
    # title); when it is raised is the point of the name
    ("Fail when using a zorb made without a wib", "raising an error when using a zorb made "
     "without a wib"),
    ("Error out if the zorb is missing", "raising an error if the zorb is missing"),
])
def test_a_cut_name_keeps_what_it_is_about(title, name):
    assert single_headline(title) == name


@pytest.mark.parametrize(("title", "name"), [
    ("Do Not Count MoE Tokens During", "no longer counting MoE tokens"),
    ("Split the loader off", "splitting off the loader"),
    ("Add run_llama_train.sh options", "the run Llama train script options"),
    ("Qualcomm AI Engine Direct - Fix the quantizer for conv", "fixing the quantizer for conv"),
    ("merge upstream changes", "merging upstream changes"),
    # a name opening on a verb is said as the doing, never as an order
    ("Separately control the cache size", "separately controlling the cache size"),
    # a plain word before an article is its verb, known to the lexicon or not
    ("Group the loader helpers into a package", "grouping the loader helpers into a package"),
    ("Solve the flaky upload issue", "solving the flaky upload issue"),
    ("Llama the loader", "Llama the loader"),  # (a name is no verb)
    # … and so are two before "and" and an article
    ("[rl] Checkpoint + resume the widget loop", "checkpointing and resuming the widget loop"),
    # a participle after its article waits for its noun, here a name opening on "in"
    ("Pass the computed `in_shard_sizes` without the cache too, so the loader keeps its order",
     "passing the computed in-shard-sizes without the cache too"),
    ("Always pre-split the batches", "always pre-splitting the batches"),
    # verbs the lexicon knows, inflected as spoken
    ("plot losses of the resumed run to the dashboard", "plotting losses of the resumed run"),
    ("Offload the dequantization step to the reader",
     "offloading the dequantization step to the reader"),
    # what a change allows is the point, worth two words more
    ("Allow fake upload queues to simulate any region",
     "allowing fake upload queues to simulate any region"),
    ("[net] Allow the retry planner to pick a backoff from a table",
     "allowing the retry planner to pick a backoff"),
    # an addition with a place to go is the adding, whole when it takes one word more ...
    ("Add lazy snapshot capture to the core loop", "adding lazy snapshot capture to the core loop"),
    # (a verb-like word before a place is the place's: "to benchmark module" is no purpose)
    ("Add widget/gadget to benchmark module", "adding widget and gadget to benchmark module"),
    # ... never an arrow's "to": the tutorial is about the migration, nothing goes anywhere
    ("Add queue -> stream migration walkthrough tutorial",
     "queue to stream migration walkthrough tutorial"),
    # cut from the words it bounds, the adverb goes too ("only … when the loader is idle")
    ("Only convert the cached int4 weights to the tiled layout when the loader is idle",
     "converting the cached int4 weights"),
    # Two verbs joined are one object, not a second action cut off: "save and load".
    ("Adding tests for save/load support", "tests for save and load support"),
    ("A" * 80, "assorted changes"),
])
def test_single_names_are_complete_phrases(title, name):
    assert single_headline(title) == name
    assert not is_tail_word(name.split()[-1])


@pytest.mark.parametrize(("titles", "name"), [
    # a list of things is named by its first two; the effects still tell every item
    (["[env] - TaskEnv, Episode types, Scorer, Formatter"], "TaskEnv and episode types"),
    (["Add FastNorm (fused kernel), Add SlowNorm, Enable config selectable Norm Type"],
     "FastNorm and SlowNorm"),
    # a run of numbers is a range
    (["Add 3, 4, 5, 6 bit packing ops"], "3 to 6 bit packing ops"),
    # a rename whose sides read the same says what is renamed, not the target
    (["Renaming `pack` to `pack_`"], "renaming pack"),
    (["Rename cache_size to cachesize in the loader"], "renaming cache size in the loader"),
    (["Rename MeshDimName to MeshAxisName"], "renaming MeshDimName to MeshAxisName"),
])
def test_lists_and_self_renames_are_no_names(titles, name):
    assert headline(titles, areas=("Env",)) == name


def test_a_slash_after_a_preposition_is_a_place_not_a_list():
    assert clean_title("Split packing kernels out of widgetlib/kernel into callers") == \
        "Split packing kernels out of widgetlib kernel into callers"
    assert clean_title("Share state across trainer/generator/controller") == \
        "Share state across trainer, generator and controller"
    # In a code span it is a folder, said by its last part as any path is; never "removes
    # widget, prototype and blocksparse"
    assert clean_title("Remove `widget/prototype/blocksparse` (#12)") == "Remove blocksparse"
    assert clean_title("Remove `widgetlib/_loader`") == "Remove loader"


def test_names_with_numbers_either_side_of_a_slash_are_a_list():
    # a chip, model or op numbered is never a folder: "sm90" alone drops "sm89"
    assert clean_title("Run the widget suite on sm89/sm90") == \
        "Run the widget suite on sm89 and sm90"
    assert clean_title("Add loader benchmark for conv2d/conv3d") == \
        "Add loader benchmark for conv2d and conv3d"
    # the second of a pair written short says the first's stem again
    assert clean_title("Align widget layout for conv2d/3d") == \
        "Align widget layout for conv2d and conv3d"
    assert clean_title("Move widget to loaderlib/float8") == "Move widget to float8"



def test_a_name_ending_on_the_noun_after_it_says_the_noun_once():
    # "adds a remove detach pass graph pass"
    assert clean_title("[widget] Add remove_detach_pass graph pass") == \
        "Add remove detach graph pass"
    assert clean_title("Add fused_kernel Triton kernel") == "Add fused Triton kernel"
    # after a preposition the word is another thing: the workflow "unit test CPU" stays
    assert clean_title("Update unit_test_cpu with cpu nightly") == \
        "Update unit test CPU with cpu nightly"


def test_a_list_after_a_preposition_is_kept_whole():
    assert headline(["Add tracing spans across trainer/generator/controller"]) == \
        "tracing spans across trainer, generator and controller"


@pytest.mark.parametrize(("title", "name"), [
    # a title written as a sentence is named by its subject, not cut after its verb
    ("Merge feature: the LLM writer fills the plan's prose slots", "the LLM writer"),
    ("Merge b: issue 15 second pass — the source hash covers the whole digest", "the source hash"),
    # a plural noun before a preposition is no verb
    ("Add unit tests for the loader", "unit tests for the loader"),
    # "as" before "an" is no verb: the order is not a statement about "an operator"
    ("Treat a code span that opens on an operator as an expression", "treating a code span"),
    # a verb inside a clause a subordinator opens is that clause's ("one has"), not the
    # title's: the order keeps its name
    ("Join the loader's lists after a comma when one has an and of its own",
     "joining the loader's lists after a comma"),
])
def test_a_sentence_title_is_named_by_its_subject(title, name):
    assert single_headline(title) == name
    assert not name.endswith("'s")


@pytest.mark.parametrize(("title", "name"), [
    # A cut inside a "why" clause left it hanging on its verb.
    ("[BE][doc] explain why float8 needs to be distributed aware",
     "explaining why float8 needs to be distributed aware"),
    # An action with a clause in it is not a statement about the clause's subject.
    ("Explain why the loader needs a lock around the shared buffer",
     "explaining why the loader needs a lock"),
    # A one-word noun used as a verb is said as the phrasal verb it stands for.
    ("Cleanup cudagraph when training finishes to avoid nccl hang", "cleaning up CUDA graph"),
])
def test_a_name_keeps_its_clause_whole_and_its_verb_speakable(title, name):
    assert single_headline(title) == name


@pytest.mark.parametrize(("titles", "areas", "name"), [
    # a shared generic noun ("codec function") is led by the tag it belongs to, even the
    # area's, and is plural when the titles each add a different one
    (["[zstd stream] zstd frame_encode codec function",
      "[zstd stream] zstd frame_decode codec function",
      "[zstd stream] zstd dictionary codec function",
      "[zstd stream] add e2e test of the zstd pipeline"], ("zstd stream",),
     "zstd stream codec functions"),
    # a longer phrase already says which; one kernel told twice stays one
    (["[tiler] tile packer kernel for wide rows", "[tiler] auto-select width in tile packer kernel"],
     ("tiler",), "tile packer kernel"),
    (["[tiler] packer kernel for wide rows", "[tiler] auto-select width in packer kernel"],
     ("tiler",), "tiler packer kernel"),
    # a topic every title opens on is the concept, not the words two parts share
    (["[7/x] site update: improve the install page",
      "[8/x] site update: move loader README.md to site",
      "[9/x] site update: move codec README.md to site"], ("site",), "site update"),
    # a one-word topic is told with the kind of work, or names nothing alone
    (["parser: remove the legacy lexer", "parser: delete unused tokens"], ("core",),
     "parser clean-up"),
    # a kind tag is no name: the area (or the thing every title names) and that kind
    (["[cleanup][1/x] make cache_read only take keys", "[cleanup][2/x] split cache reads",
      "[cleanup][3/x] unify cache writes"], ("storage",), "Storage clean-up"),
    (["[Bugfix] Fix crash after QuickLoader change", "[Bugfix] Fix QuickLoader on old versions"],
     ("experiments",), "QuickLoader fixes"),
    # one thing every title names, told with the kind of work they do to it
    (["simplify FastLinear", "remove outdated FastLinear workarounds"], ("fast",),
     "FastLinear clean-up"),
    # a shared phrase keeps the word before it that the same titles share
    (["add fallback kernel and interface", "Add fallback kernel and interface for rhs"],
     ("kernels",), "fallback kernel and interface"),
    # a verb every title shares is no name beside the area it repeats
    (["Match fake_quantize numerics in the widget flow", "Fix observers after quantize op change"],
     ("quantization",), "Quantization fixes"),
    # one change told for each version is named by the furthest ("<" said "before")
    (["drop Widget<2.9 support", "drop Widget <2.10 support"], ("loader",),
     "dropping support for Widget before 2.10"),
    # dropping "Widget 2.7 support" is no clean-up of Widget
    (["drop Widget 2.7 and older support from the code", "drop Widget 2.8 support from the code"],
     ("core",), "dropping Widget 2.7 and older support"),
    (["Remove unused Widget helpers", "delete Widget shims"], ("core",), "Widget clean-up"),
    # an acronym whose spelling-out names the area needs no area before it ("Quantization
    # quantization-aware training" says it twice); elsewhere the area still qualifies it
    (["QAT configs", "Improve QAT int4 weight-only numerics"], ("quantization",), "QAT"),
    (["QAT configs", "Improve QAT int4 weight-only numerics"], ("sparsity",), "Sparsity QAT"),
    # "mxfp8 more readable" compares with the thing compared left out: it is what the
    # titles end on, in the topic they open on
    (["mxfp8: rename X to X_t", "mxfp8: more readable block var names",
      "mxfp8: more readable group var names", "mxfp8: more readable loop var names"],
     ("prototype",), "more readable var names in MXFP8"),
])
def test_names_say_which_thing_and_what_is_done(titles, areas, name):
    assert headline(titles, areas=areas) == name


def test_a_list_of_bit_widths_is_a_range():
    assert headline(["metal kernels: optimized 2-bit, 3-bit and 4-bit shaders"]) == \
        "optimizing 2-bit to 4-bit shaders"


@pytest.mark.parametrize(("title", "name"), [
    # A bare fault fixed is one fault, and the article costs the name none of its words.
    ("Fix bug when default dtype is BF16", "fixing a bug when default dtype is BF16"),
    ("Fix typo in float8 transpose axiswise dim",
     "fixing a typo in float8 transpose axiswise dimension"),
    ("Raise error for DP degree mismatch", "raising an error for DP degree mismatch"),
    ("Fix race condition in MXFP8 kernels", "fixing a race condition in MXFP8 kernels"),
    # A word after it that is no function word makes a compound: no article.
    ("Fix error message in float8 utils", "fixing error message in float8 utils"),
    ("fix regression tests on aarch64", "fixing regression tests on aarch64"),
    ("Fix bugs in the loader", "fixing bugs in the loader"),
])
def test_a_bare_fault_fixed_is_one_fault(title, name):
    assert single_headline(title) == name


def test_two_verbs_named_as_one_thing_keep_both():
    # "save and load" is one thing the tests are for, not "tests for save" and a second verb
    assert single_headline("Add tests for checkpoint save and load") == \
        "tests for checkpoint save and load"
    assert single_headline("Run ruff format and lint") == "running ruff format and lint"


def test_a_title_giving_an_identifier_a_type_is_the_change_that_gives_it():
    # never "float None" under the label "global_valid_tokens:"
    assert single_headline("[core] batch_tokens: float | None (#12)") == \
        "making batch tokens float or None"
    assert single_headline("docs: fix typo | cleanup") != "making docs fix typo or cleanup"


def test_a_stack_whose_base_adds_tests_for_a_thing_is_named_by_that_thing():
    titles = ["[kit] Add integration tests for compiler toolkit experiments",
              "[kit] Fix llama kwargs", "[kit] Deduplicate code between two models"]
    assert headline(titles, areas=("kit",), stack=True) == "compiler toolkit experiments"
    # a test of a short thing names no stack: the next part does
    assert headline(["Add a test for torch compile", "Add window FIFO scheduling"],
                    stack=True) == "window FIFO scheduling"


def test_a_title_setting_a_default_makes_the_thing_default():
    assert single_headline("[trainer] Default FlexAttn max_autotune to False (#12)") == \
        "making FlexAttn max autotune default to False"
    assert single_headline("default to triton kernel for the cast") == \
        "making Triton kernel for the cast default"
    # "default" before a plain noun is an adjective, no order
    assert single_headline("Default inductor config settings") == \
        "default Inductor config settings"


def test_a_big_mixed_cluster_is_named_by_its_place_not_its_first_title():
    # Five changes sharing no words, kind or parts: "fixing the loader" would say all five
    # fix it.
    titles = ["Fix the loader for seeds", "Add a cache for metrics", "Rename the planner",
              "Remove the old flag", "Document the public API"]
    assert headline(titles, areas=("checkpoint",)) == "Checkpoint work"
    assert headline(titles, areas=("Experiments",)) == "the work in Experiments"
    # an area of two words ending in a plural leads: never "the work SPMD types"
    assert headline(titles, areas=("spmd types",)) == "SPMD types work"
    assert grab_bag("SPMD types work")
    # a place named by its doing is a place ("Logging"); a kind of work is no place
    assert headline(titles, areas=("logging",)) == "the work in Logging"
    assert grab_bag("the work in Logging")
    assert headline(titles, areas=("refactoring",)) != "Refactoring work"
    # four is few, unless the first title is a doing (see the next test)
    assert headline(["Metrics cache", *titles[1:4]], areas=("checkpoint",)) == "metrics cache"
    assert headline(titles, areas=("checkpoint",), stack=True) != "Checkpoint work"
    assert grab_bag("Checkpoint work") and grab_bag("the work in Experiments")
    assert not grab_bag("making metrics logging work for pipeline parallelism")


def test_a_small_mixed_cluster_is_named_by_its_place_when_its_first_title_is_a_doing():
    # "refactoring the planner" would say all three PRs refactor it
    titles = ["Refactor the planner into modules", "Add a cache for metrics",
              "Skip the flaky timer test"]
    assert headline(titles, areas=("loader",)) == "Loader work"
    # (a doing another title speaks of too names them: see "aligning the cache
    # implementation details" below)
    # a thing named is a topic, not what each PR does; two PRs are a pair, not a bag
    assert headline(["Widget planner", *titles[1:]], areas=("loader",)) == "widget planner"
    assert headline(titles[:2], areas=("loader",)) == "refactoring the planner into modules"
    # with no place to name, the first title it is
    assert headline(titles, areas=()) == "refactoring the planner into modules"


def test_a_series_is_named_like_a_cluster_not_by_its_first_part():
    # One author's PRs with nothing declaring an order: the first sets up nothing, so
    # "the seed loader fix" would name five PRs by one, or three.
    titles = ["Fix the loader for seeds", "Add a cache for metrics", "Rename the planner",
              "Remove the old flag", "Document the public API"]
    assert headline(titles, areas=("checkpoint",), stack=True, series=True) == \
        "Checkpoint work"
    tidy = ["Remove the loader flag", "Remove the old planner", "Delete dead cache code",
            "Drop the unused widget", "Add a retry knob"]
    assert headline(tidy, areas=("checkpoint",), stack=True, series=True) == \
        "Checkpoint clean-up"
    assert headline(titles[:3], areas=("checkpoint",), stack=True, series=True) == \
        "Checkpoint work"
    # A stack of any size leads with its base part, as does a series of two.
    assert headline(titles[:3], areas=("checkpoint",), stack=True) == "fixing the loader for seeds"
    assert headline(titles, areas=("checkpoint",), stack=True) != "Checkpoint work"
    assert headline(titles[:2], areas=("checkpoint",), stack=True, series=True) == \
        headline(titles[:2], areas=("checkpoint",), stack=True)


def test_a_title_that_names_nothing_leaves_the_name_to_the_next_part():
    # "Simple rename changes" is every word generic: the next part names the work.
    titles = ["Simple rename changes", "Add window FIFO scheduling", "Fix flaky parity test"]
    assert headline(titles, areas=("RL",)) == "window FIFO scheduling"
    assert headline(titles, areas=("RL",), stack=True) == "window FIFO scheduling"
    # Words every codebase shares name no concept, however many titles share them.
    titles = ["Align the cache implementation details with the loader",
              "Make shard reader follow the implementation details of the cache",
              "Rename the prefetch knob"]
    assert headline(titles, areas=("Loader",)) == "aligning the cache implementation details"
    # A title with nothing left to say ("Update") leaves the name to the next one.
    assert headline(["Update", "Move the shard reader to the loader package"],
                    areas=("Loader",)) == \
        "moving the shard reader to the loader package"  # a move says where it goes
    # When no part names anything, the first part's name is still said, with its place.
    assert headline(["Minor fixes", "Small cleanups"], areas=("RL",)) == "fixing minor issues in RL"


def test_a_shared_participle_with_a_tag_is_no_name():
    # "[loader] Add fused as an option …" and "[loader] Fix fused reader tests" share
    # "fused", which names no thing: never "loader fused".
    name = headline(["[loader][io] Add fused as an option in the train config",
                     "[loader] Fix test runner fused optim tests"], areas=("Readers",))
    assert name != "loader fused" and not name.endswith(" fused"), name


def test_clean_ups_that_name_nothing_are_named_by_their_kind():
    # "Some more cleanups" cleans up nothing named: never "cleaning in Widgets"
    assert headline(["Some more cleanups"], areas=("Widgets",)) == "refactoring in Widgets"
    assert headline(["Widget small clean up"], areas=("Widgets",)) == "cleaning up widget"


def test_a_shared_ing_word_that_modifies_a_noun_is_no_name():
    # "contributing guidelines" and "contributing.md" share "contributing", which here says
    # which guidelines: never "contributing in Widgets"
    name = headline(["contributing guidelines for the widget folder",
                     "update main contributing.md"], areas=("Widgets",))
    assert "contributing" not in name, name


def test_an_adverb_before_an_ing_form_is_still_an_activity():
    # "temporarily disabling the flaky test" is an action, like "disabling the flaky test";
    # "temporary fixes" is a thing
    assert is_activity("temporarily disabling the flaky test")
    assert is_activity("disabling the flaky test")
    assert not is_activity("temporary fixes for the loader")
    assert not is_activity("temporarily")


def test_a_shared_phrase_takes_the_head_noun_most_of_its_titles_put_after_it():
    # "low precision" is how the attention is done; three of its four titles say which.
    titles = ["Add new API for low precision attention", "Benchmark the low precision attention",
              "Document the low precision attention API", "Fix low precision FP8 scales"]
    assert headline(titles, areas=("Prototype",)) == "low precision attention"
    # No head most of them share: the phrase alone.
    titles = ["Add new API for low precision attention", "Benchmark the low precision kernels",
              "Fix low precision FP8 scales"]
    assert headline(titles, areas=("Prototype",)) == "low precision"
    # A cluster where fewer titles than it takes to share a phrase say the head: two of the
    # three that say "low precision" go on with "attention", and that is the head.
    titles = ["Add new API for low precision FP8 attention", "Benchmark the low precision "
              "attention API", "Soften the guard for low precision attention", "Add a benchmark "
              "for one attention layer", "Add benchmark for a small model", "Remove a fusion "
              "option", "Add an FP8 attention path"]
    assert headline(titles, areas=("Prototype",)) == "low precision attention"
    # One title alone says nothing of a head.
    titles[1:3] = ["Benchmark the low precision API", "Soften the guard for low precision"]
    assert headline(titles, areas=("Prototype",)) == "low precision"


def test_a_doing_whose_object_is_a_doing_names_no_cluster():
    # "moving telling a widget apart" names nothing: the next title names the cluster.
    titles = ["Move telling a widget apart out of the loader module",
              "Add a cache to the scheduler", "Fix the retry budget in the uploader"]
    assert headline(titles) == "adding a cache to the scheduler"
    # (with a place to name, three doings that share nothing are its work)
    assert headline(titles, areas=("Writing",)) == "the work in Writing"
    # A gerund that is a thing ("moving tracing support …") is a name as any other.
    titles[0] = "Move tracing support out of the loader module"
    assert headline(titles) == "moving tracing support out of the loader module"


def test_a_quoted_message_is_no_part_of_the_titles_grammar():
    # The quoted error's "Cannot" read as the title's own auxiliary: no verb, and the
    # change was said "dealing with fix".
    title = '[widget] fix the "Cannot set loader_count for inference tensor" for transpose'
    action = parse_title(title)
    assert (action.lemma, action.obj) == (
        "fix", "the Cannot set loader count for inference tensor for transpose")
    # Its name, cut at that "Cannot", is "fixing" alone, which names nothing (a theme of
    # it is named by its place, "work on widget"), never "widget fixing".
    assert single_headline(title) == UNNAMED


def test_a_name_does_not_end_on_a_word_that_waits_for_its_preposition():
    # "related" and "according" wait for their "to": "fixing weight tying for the loader
    # according" (to the spec) was a name cut mid-phrase.
    assert single_headline("Fix weight tying for the loader according to the new widget "
                           "spec") == "fixing weight tying for the loader"
    assert single_headline("bug fix and test updates related to the new loader param") == \
        "bug fix and test updates"


def test_a_name_after_and_that_opens_on_a_verb_is_a_second_thing_not_an_order():
    # "splitting loads" of "Split loads and loads_from_cache": the pair is the point
    assert single_headline("Split loads and loads_from_cache") == \
        "splitting loads and loads from cache"
    assert parse_title("Fix slicing and get_plain in the widget").obj == \
        "slicing and get plain in the widget"
    assert parse_title("Fix slicing and get the plain widget").obj == "slicing"  # an order


def test_a_topic_numbered_in_parts_names_its_theme():
    titles = ["widget cleanup [1/x]: unbreak the loader tests",
              "widget cleanup [2/x]: refactor the planner"]
    assert headline(titles, areas=("Loader",)) == "widget cleanup"


def test_a_name_from_shared_words_is_written_as_the_lexicon_writes_them():
    # "First theme: widget mps ops" beside effects saying "widget MPS ops"
    assert headline(["[mps] Add cshim for widget mps ops",
                     "[mps] revamp widget mps ops build"]) == "widget MPS ops"
    assert headline(["Add fp8 gizmo store", "Speed up fp8 gizmo store"]) == "FP8 gizmo store"


@pytest.mark.parametrize(("title", "name"), [
    # where a port goes is its point: the object gives way, never the place
    ("[xpu][test] Port 2 test/snorkel_{fizz, buzz} UT files to intel XPU",
     "porting snorkel unit test files to Intel XPU"),
    # the shared start of a set of names ("test_") says nothing; its folder does
    ("[xpu][test] Port 2 test/zorble/test_{fizz, buzz} UT files to intel XPU",
     "porting zorble unit test files to Intel XPU"),
    # where from goes before where to; the thing is cut to its head, never after "and"
    ("Move wib definition for the custom frob kernel from C++ to Python",
     "moving wib definition from C++ to Python"),
    ("[CI] Migrate Flobber & Zarp H100 integration tests to OSDC (ARC)",
     "migrating H100 integration tests to OSDC"),
    ("[CI] Move H100/A100 blorp & tutorial jobs to OSDC (ARC)",
     "moving blorp and tutorial jobs to OSDC"),
    # a particle stays with its verb, and "to using X" is a way, not a place
    ("port over torch.ao.frobbing to protype folder",
     "porting over torch ao frobbing to prototype folder"),
    ("[kernels] move generate_frob_indices to using exact sizes per expert needed",
     "moving generate frob indices"),
])
def test_a_move_is_named_with_where_it_goes(title: str, name: str) -> None:
    assert single_headline(title) == name
