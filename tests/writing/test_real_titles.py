"""Root causes found by benchmarks/sweep.py on real histories (torchtitan, torchao).

Each test is one cause: the vocabulary and the checks split text differently; a PR number
read as a count; a git author named "Last, First"; a required line with no fallback; code
read aloud from a title.
"""

from __future__ import annotations

import dataclasses
import re

import pytest
from writing_builders import DAY, LLM, WRITING, pr, rich_digest

from mergecast import models as m
from mergecast.analysis.language import clean_title, parse_title
from mergecast.writing import Facts, fact_check, write_script
from mergecast.writing.clauses import clauses

REAL_TITLES = [
    "[rl] Qwen3.5 Unified Path in RL (bitwise parity, cudagraph, TP+DP/EP)",
    "[sam2] SAM2.1 and example README",
    "Add MI300.2 GPU to Torchao CI",
    "BitNet b1.58 training",
    "Performance and accuracy eval of flux-1.schnell",
    "Run the H100- and B200-class jobs nightly",
    "remove fsspec from requirements.txt",
    "Fix llama_13b.toml -> llama2_13b.toml",
    "torch.compile the DTensor fp8 v2 path",
]


def digest_with(*changes: m.Change) -> m.Digest:
    return rich_digest(extra=changes)


def facts(d: m.Digest) -> Facts:
    return Facts.from_digest(d, day=DAY)


@pytest.mark.parametrize("title", REAL_TITLES)
def test_tokens_from_the_digests_own_titles_pass(title):
    f = facts(digest_with(pr(4000, title, "vkuzo")))
    said = clean_title(title)
    assert f.problems(f"Worth noting: PR 4000 covers {said}.") == []
    (effect,) = clauses([parse_title(title)])
    assert f.problems(f"PR 4000 {effect.third()}.") == []


def test_split_pieces_of_a_title_are_known_but_invented_names_still_fail():
    f = facts(digest_with(pr(4000, "qwen3.5 enablement for llama2_13b", "vkuzo")))
    for ok in ("qwen3.5 enablement", "qwen3 and llama2 13b", "llama2_13b configs"):
        assert f.problems(f"The signal today is {ok}.") == [], ok
    assert f.problems("The signal today is qwen4 enablement.") == \
        ["name 'qwen4' is not in the digest"]
    assert f.problems("The work comes from mallory42.")  # invented handle-shaped name


def test_a_pr_number_before_a_verb_is_not_a_count():
    f = facts(rich_digest())
    assert f.problems("PR 584200 reverts PR 584150.") == []
    assert f.problems("PR 584024 changes the guard on ChainMap.") == []
    # A real count in the same shape still has to be right.
    assert f.problems("There were 191 changes today.")
    assert any("count" in p for p in f.problems("Marisol31 landed two PRs, 584097."))


@pytest.mark.parametrize("name", ["Zhang, Liangang", "Swift.Sun", "Xia, Weiwen"])
def test_git_authors_named_last_comma_first_are_known(name):
    c = dataclasses.replace(pr(4001, "Int4PlainInt32Tensor", "x"), author=m.Person(name=name))
    f = facts(digest_with(c))
    assert f.problems(f"Int4PlainInt32Tensor from {name} leads the day.") == []
    assert f.problems("Int4PlainInt32Tensor from Zhangg leads the day.")


def test_a_headline_that_fails_the_check_falls_back_to_plain_words():
    d = rich_digest()
    poisoned = dataclasses.replace(d.themes[0], headline="fix feedback from PR 111 for qwen9")
    d = dataclasses.replace(d, themes=(poisoned, *d.themes[1:]))
    script = write_script(d, show="Widget", day=DAY, writing=WRITING, lexicon={}, llm=LLM)
    fact_check(script, d)  # write_script already did; it must not have raised
    text = " ".join([script.title, script.summary, script.transcript])
    assert not re.search(r"\b111\b", text) and "qwen9" not in text
    theme = next(s for s in script.sections if s.kind == "theme")
    assert theme.heading == "First theme: work on Inductor"


def test_titles_read_aloud_carry_no_code():
    cases = {
        "at::optional -> std::optional": "optional to optional",
        "Replacing device_info[key] with device_info.get()":
            "Replacing device info with device info get",
        "fixes test_validate.py again": "fixes the validate tests again",
        "naive_intNwo + eval": "naive intNwo and eval",
        "Remove calibration flow/": "Remove calibration flow",
        "auto-fix lint violations from fbcode//ao": "auto-fix lint violations from fbcode ao",
        "PYTHONHASHSEED needs to be in the range of [0,2**32 - 1]":
            "PYTHONHASHSEED needs to be in the range of",
    }
    for title, said in cases.items():
        assert clean_title(title) == said, title
