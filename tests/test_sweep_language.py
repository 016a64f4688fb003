"""The sweep's language detectors (benchmarks/sweep_language.py) on hand-made sentences:
a judge that cannot flag what it is meant to find would report 0 whatever the writer says."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


def _language() -> ModuleType:
    path = REPO_ROOT / "benchmarks" / "sweep_language.py"
    spec = importlib.util.spec_from_file_location("sweep_language", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["sweep_language"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("text", "raw"), [
    ("PR 12 renames compute_slice.", True),
    ("PR 12 moves torch._native kernels.", True),
    ("PR 12 edits loader.py.", True),
    ("PR 12 loads widgets through the quantize_ API.", True),
    ("PR 12 fixes the loader's __init__ path.", True),
    ("PR 12 loads widgets through the quantize API, e.g. for loaders.", False),
    ("PR 12 fixes the loader's init path.", False),
])
def test_a_raw_identifier_is_found_and_plain_words_are_not(text: str, raw: bool) -> None:
    assert bool(_language()._IDENTIFIER.search(text)) is raw


def test_an_effect_of_one_pr_said_of_all_the_prs_is_found() -> None:
    language = _language()

    class Said:
        def __init__(self, text: str, cites: tuple[int, ...]) -> None:
            self.text, self.cites = text, cites

    theme = [Said("First theme: widget loading.", (1, 2)),
             Said("ada landed two related PRs, 1 and 2.", (1, 2)),
             Said("On top of that, the PRs use the loader cache.", (2,)),
             Said("Together, the PRs touch 40 lines.", (1, 2)),
             Said("Beyond that, PR 2 renames the flag.", (2,))]
    assert language.some_said_of_all(theme) == ["On top of that, the PRs use the loader cache."]
