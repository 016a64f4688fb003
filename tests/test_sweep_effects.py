"""The sweep's effect fidelity detectors (benchmarks/sweep_effects.py): lost words and cut
objects are found with the detector's own word lists, whatever the writer says."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture(scope="module")
def effects() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sweep_effects",
                                                  BENCHMARKS / "sweep_effects.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["sweep_effects"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_content_words_skip_tags_prefixes_verbs_and_generic_words(effects):
    assert effects.content_words("[BE][doc] add memory_profiler to README (#606)") == \
        ["memory", "profiler", "readme"]
    assert effects.content_words("CUDAGraph support for SimpleFSDP and TP") == \
        ["cudagraph", "simplefsdp", "tp"]
    assert effects.content_words("Merge pull request #45 from drisspg/add-copy_-dispatch") \
        == ["copy", "dispatch"]


def test_a_lost_word_is_found_and_a_rephrased_verb_is_not_one(effects):
    said = "Boyuan Feng landed PR 2050, adding support for SimpleFSDP and tensor-parallel (TP)."
    lost = [w for w in effects.content_words("CUDAGraph support for SimpleFSDP and TP")
            if effects.stem(w) not in {effects.stem(x) for x in effects.said_words(said)}]
    assert lost == ["cudagraph"]
    assert effects.stem("unified") == effects.stem("unifying")
    assert effects.stem("logging") == effects.stem("log")


@pytest.mark.parametrize(("title", "sentence", "reason"), [
    ("[BE][doc] explain why float8 needs to be distributed aware",
     "weifengpy landed PR 601, turning to explain why float8.", "'explain' said as 'to explain'"),
    ("bug fix: don't swallow OutOfMemoryError", "PR 1 turns to swallow OutOfMemoryError.",
     "lost its 'not'"),
    ("Extract checkpoint logic from core into experiments/ft/",
     "PR 2 extracts checkpoint logic from core into.", "stops on 'into'"),
    ("[BE][doc] explain why float8 needs to be distributed aware",
     "PR 601 explains why float8 needs to be distributed aware.", None),
    ("Enable checkpointing with DCP",
     "PR 3 enables checkpointing with distributed checkpoint (DCP).", None),
])
def test_cut_objects(effects, title, sentence, reason):
    assert effects.cut_reason(title, sentence) == reason
