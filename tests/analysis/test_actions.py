"""A title's actions: a second verb opening a coordinated clause is a second action
("Deduplicate X and add tests for them"), never a split inside an object ("min and max",
"add X and Y"); a pronoun object is the first action's object or the action is dropped.

Titles are real torchtitan/torchao titles or general engineering phrasing; none from the
held-out pytorch days.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mergecast.analysis.language import parse_actions, parse_title


def said(title: str) -> list[tuple[str, str, str]]:
    return [(a.lemma, a.obj, a.qualifier) for a in parse_actions(title)]


@pytest.mark.parametrize(("title", "actions"), [
    ("Deduplicate experiment configs and add tests for them",
     [("deduplicate", "experiment configs", ""), ("add", "tests for experiment configs", "")]),
    ("Add DPRequestRouter and use it in generator",
     [("add", "DPRequestRouter", ""), ("use", "DPRequestRouter in generator", "")]),
    ("use warmup steps for lr scheduler, ban steps == -1",
     [("use", "warmup steps for learning rate scheduler", ""), ("ban", "steps -1", "")]),
    # A participle capitalised in one action is plain when another writes it plain.
    ("Enable Fused qkv by default and enable fused gate_up in RL",
     [("enable", "fused QKV by default", ""), ("enable", "fused gate up in RL", "")]),
    # "Lint fixes …" fixes the lint: no linting of "fixes"
    ("Lint fixes for the kernel folder", [("fix", "lint for the kernel folder", "")]),
    ("Lint fixes test/sparsity", [("fix", "lint in test and sparsity", "")]),
    ("Take the config out of the checkpointer",
     [("take", "the config out of the checkpointer", "")]),
    # "re-baseline" is a verb, as "re-enable" is: never "deals with re-baseline …"
    ("Re-baseline eager hashes and re-enable the tests",
     [("re-baseline", "eager hashes", ""), ("re-enable", "the tests", "")]),
    ("Make float8 optional and add MX support",
     [("make", "float8 optional", ""), ("add", "MX support", "")]),
    ("Add meta_init, enable it as default init process",
     [("add", "meta init", ""), ("enable", "meta init as default init process", "")]),
    ("Shorten nccl comm timeout and enable flight recorder dumping",
     [("shorten", "NCCL comm timeout", ""), ("enable", "flight recorder dumping", "")]),
    ("Fix the loader; then add a retry", [("fix", "the loader", ""), ("add", "a retry", "")]),
    # After a semicolon, a clause no known verb opens is not told as a bent action.
    ("Fix the CI for nightly; quarantine upstream-blocked H100 tests",
     [("fix", "the CI for nightly", "")]),
    ("Add the router + add router tests", [("add", "the router", ""), ("add", "router tests", "")]),
    # A "+" between two things joins them: said "and", never cut off with what follows.
    ("fix bug with float8 + inference_mode", [("fix", "bug with float8 and inference mode", "")]),
    ("hook up hf + moe + nvfp4 script", [("hook up", "HF, MoE and NVFP4 script", "")]),
    ("add benchmarks for rowwise + tensorwise scaling",
     [("add", "benchmarks for rowwise and tensorwise scaling", "")]),
    ("Enable {conv3d} + bn fusion", [("enable", "bn fusion", "")]),
    ("Adds a cache and fixes the eviction order",  # the title's own verb form
     [("add", "a cache", ""), ("fix", "the eviction order", "")]),
    ("Add a cache, then test this path",  # "this" before a noun is a determiner
     [("add", "a cache", ""), ("test", "the path", "")]),
    # … but "that" after a word and before a verb opens a clause
    ("Add a cache; drop only one that loads a widget",
     [("add", "a cache", ""), ("drop", "only one that loads a widget", "")]),
    # "hear X as Y": the "as Y" is what is heard, kept whole
    ("Hear the widget as a loader", [("hear", "the widget as a loader", "")]),
    # An adverb before the first verb leaves the second action its own.
    ("Optionally enable the cache + clean up setup.py flags",
     [("enable", "the cache", ""), ("clean up", "setup flags", "")]),
    # A later verb written in the past before its object's determiner is an action too,
    # but a participle before a bare noun is part of the object.
    ("Add a size field and added some logs", [("add", "a size field", ""), ("add", "some logs", "")]),
    ("Handle tensors and compiled graphs", [("handle", "tensors and compiled graphs", "")]),
    # … and a sure verb's base form after a comma in a log of past ones
    ("Skipped some widget tests, added checks, install the loader",
     [("skip", "some widget tests", ""), ("add", "checks", ""), ("install", "the loader", "")]),
    ("Fixed the loader, update for widgets", [("fix", "the loader, update for widgets", "")]),
    # A name written as code that opens on a verb's word is a name, not the verb.
    ("`get_widget_sprockets` matches the loader",
     [("", "get widget sprockets matches the loader", "")]),
    # What "Fix" fixes may be a fault said as a statement: still a fix.
    ("Fix sprocket loader cannot read widgets",
     [("fix", "sprocket loader cannot read widgets", "")]),
    ("fix the widget is not loaded", [("fix", "the widget is not loaded", "")]),
    # "both X and Y" is one object, whatever word Y opens on; "both" counting a plural is not
    ("Stream the widget logs to both console and log files",
     [("stream", "the widget logs to both console and log files", "")]),
    ("Run both widgets and check the loader",
     [("run", "both widgets", ""), ("check", "the loader", "")]),
    ("Conduct widget check only once", [("conduct", "widget check only once", "")]),
    # A prefix of words names what an objectless order is done to ("fix on B200")
    ("widget loader test: fix on sprockets",
     [("fix", "widget loader test on sprockets", "")]),
    # "Allow for X" allows X: never "enables for X"
    ("Allow for widgets to be in the new sprocket dtype",
     [("allow", "widgets to be in the new sprocket dtype", "")]),
    # Never a split inside an object.
    ("Migrate min and max to Metal", [("migrate", "min and max", "to Metal")]),
    ("Add float8 and MX", [("add", "float8 and MX", "")]),
    ("Add A, B and C", [("add", "A, B and C", "")]),
    ("Add the loader and tests for it", [("add", "the loader and tests for it", "")]),
    # A pronoun whose referent is not clear drops its action, never says "it".
    ("Add the loader and the saver, and test it", [("add", "the loader and the saver", "")]),
    ("Add the loader and use its cache", [("add", "the loader", "")]),
    # "compile-related" names no thing to update: the title is a name, no action on one.
    ("Some compile-related updates", [("", "compile-related updates", "")]),
    ("Minor README updates", [("update", "the README", "")]),
    # An opening that says an action without its verb.
    ("Better error message for the shard loader",
     [("improve", "the error message for the shard loader", "")]),
    ("Error if the restart step is missing", [("raise", "error if the restart step is missing",
                                               "")]),
    # An opening adjective that qualifies the verb after it: "temp disable X".
    ("temp Disable flaky shard test to restore CI", [("disable", "flaky shard test to restore CI",
                                                      "")]),
    ("lazy import the reader for older PyTorch", [("import", "the reader for older PyTorch", "")]),
    # "preface" is a second order, not a type the first one changes to ("from int to size t
    # and preface vars")
    ('Change widget types from int to size_t and preface vars with "loader_"',
     [("change", "widget types from int to size t", ""), ("preface", "vars with loader", "")]),
])
def test_a_titles_actions(title: str, actions: list[tuple[str, str, str]]) -> None:
    assert said(title) == actions


def test_an_opening_adjective_on_a_verb_is_its_adverb() -> None:
    assert parse_actions("temp Disable flaky shard test")[0].adverb == "temporarily"
    assert parse_actions("lazy import the reader")[0].adverb == "lazily"
    # "By default disable X" disables X by default.
    (found,) = parse_actions("By default disable heavy shard profiling")
    assert (found.lemma, found.obj, found.qualifier) == (
        "disable", "heavy shard profiling", "by default")


def test_the_first_action_of_a_one_action_title_is_parse_titles() -> None:
    for title in ("Migrate min and max to Metal", "fix: a leak in the loader",
                  "CUDAGraph support for SimpleFSDP"):
        assert parse_actions(title) == (parse_title(title),)


_VERB = st.sampled_from(["add", "fix", "remove", "use", "test", "enable", "deduplicate"])


def _object(nouns: str) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(nouns.split()), min_size=1, max_size=3,
                    unique=True).map(" ".join)
_PRONOUN = st.sampled_from(["it", "them", "this", "these", "its", "their"])


@given(_VERB, _object("loader cache min"), _object("max router configs"), _VERB,
       st.one_of(_object("tests hooks path"), _PRONOUN),
       st.sampled_from([" and ", ", ", "; ", " + ", ", then "]))
def test_no_action_has_an_empty_or_pronoun_object_and_lists_stay_whole(
        verb: str, a: str, b: str, verb2: str, obj2: str, joiner: str) -> None:
    listed = f"{a} and {b}"
    actions = parse_actions(f"{verb} {listed}{joiner}{verb2} {obj2}")
    for action in actions:
        ws = action.obj.lower().split()
        assert ws, actions
        assert not set(ws) & {"it", "them", "its", "their", "this", "these"}, actions
    # "verb A and B": the list is the first action's object, whole.
    assert actions[0].obj.startswith(listed), actions


@pytest.mark.parametrize(("title", "expected"), [
    # a name opening on a verb-like word is on the object's list, no second order
    ("Remove LinearActivationWeightObservedTensor and insert_observers_",
     [("remove", "LinearActivationWeightObservedTensor and insert observers", "")]),
    ("Fix slicing and get_plain() in GemLite",
     [("fix", "slicing and get plain in GemLite", "")]),
    ("Remove `check_cpu_version` and `check_xpu_version` helpers",
     [("remove", "check CPU version and check XPU version helpers", "")]),
    # an in-place op's name is a verb with a trailing underscore
    ("Prevent folding of mutable input to copy_ and put_ operators",
     [("prevent", "folding of mutable input to copy and put operators", "")]),
    # two verbs written with a slash name one list of functions, no second order
    ("Make widget prepare/convert functions compatible with loaders",
     [("make", "widget prepare and convert functions compatible with loaders", "")]),
    # a verb written as a word is an order still, after a slash too
    ("Add a cache and evict old entries", [("add", "a cache", ""), ("evict", "old entries", "")]),
    ("Fix the loader/add a test", [("fix", "the loader", ""), ("add", "a test", "")]),
])
def test_a_name_that_opens_on_a_verb_is_no_second_action(title, expected):
    assert said(title) == expected
