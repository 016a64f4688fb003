from __future__ import annotations

import pytest

from mergecast.writing.normalise import normalise
from mergecast.writing.numbers import digit_groups, number_words, ordinal_words, parse_count


@pytest.mark.parametrize(("text", "spoken"), [
    ("NCCL hangs", "nickel hangs"),
    ("NCCL2 is pinned", "nickel two is pinned"),
    # a name with capitals inside is said whole, not split at them ("LLa Ma", "QLo RA")
    ("LLaMA widgets and a QLoRA loader", "llama widgets and a Q lora loader"),
    ("MoE widgets on vLLM with RoPE", "M O E widgets on V L L M with rope"),
    ("ViT widgets", "V I T widgets"),
    # … and so is one that ends or opens a longer name
    ("iRoPE for ComplexRoPE and MoEConfig", "i rope for Complex rope and M O E Config"),
    ("a NaN loss", "a nan loss"),
    # shorthand left inside a name is said as developers say it
    ("the widget dtype and flex attn in the fwd loss bwd pass",
     "the widget D type and flex attention in the forward loss backward pass"),
    ("the cpp widget kernels", "the C plus plus widget kernels"),
    ("topk widget logprobs", "top K widget log probs"),
    ("uintx and intx widgets, uint4", "U int X and int X widgets, U int four"),
    ("CI is red", "C I is red"),
    ("published to PyPI", "published to pie P I"),
    ("CuTe layouts", "cute layouts"),
    ("eager vs. compiled", "eager versus compiled"),
    ("float -> half", "float to half"),
    ("save / load in HF format", "save and load in HF format"),  # a spaced slash pairs
    # after a name ending on a number or an aside too; between two numbers it is a ratio
    ("the SSE2 / AVX flags", "the SSE two and AVX flags"),
    ("wrapping (DDP) / the accelerator", "wrapping, DDP, and the accelerator"),
    ("a 3 / 4 split", "a 3 / 4 split"),
    ("kernels for N % 4 differs from 0", "kernels for N mod 4 differs from 0"),
    ("a 50% cut", "a 50 percent cut"),
    # a combination of names is said part by part; a "+" after a figure is "or more"
    ("the TP+EP+compile flavor", "the TP plus EP plus compile flavor"),
    ("rank 3+ only", "rank 3 or more only"),
    ("~3x faster", "about three times faster"),
    # before a word, "~" says nearly so: never "were about identical"
    ("widget norms were ~identical", "widget norms were nearly identical"),
    # a setting's value is said after its name, never a colon's pause
    ("sets widget segments:True for the loader", "sets widget segments True for the loader"),
    ("1.5x smaller", "one point five times smaller"),
    # a shape or block size is said with "by", never "one X thirty-two"
    ("the 1x32 widget and 128x128x64 tiles, 2x faster",
     "the one by thirty-two widget and one hundred twenty-eight by one hundred twenty-eight "
     "by sixty-four tiles, two times faster"),
    ("took PT3M15S", "took three minutes fifteen seconds"),
    ("waited PT1H", "waited one hour"),
    ("see https://github.com/acme/widget/pull/5 for more.", "see for more."),
    ("PR 584044 landed", "P R five eighty-four oh forty-four landed"),
    ("PR #587167", "P R five eighty-seven one sixty-seven"),
    ("from b7r2n", "from B seven R two N"),
    # digits led by a zero are read one by one ("zero jain" lost a zero)
    ("thanks widget00maker", "thanks widget zero zero maker"),
    # a name and its dotted version are said apart, the version as a decimal
    ("running Widget3.1-8B", "running Widget 3.1 eight B"),
    ("the loader v2.14 pin", "the loader V 2.14 pin"),
    ("kovacs47's stack", "kovacs forty-seven's stack"),
    # a name in capitals is said as the lexicon says it, or letter by letter when it has
    # no vowel to say it by, before its version number
    ("FSDP2 and MoE2", "F S D P two and M O E two"),
    ("an MXFP8 path on RTX4090", "an M X F P eight path on R T X four zero nine zero"),
    # a name written small that opens a camel-cased one is said as the lexicon says it
    ("one ncclCommSplit call", "one nickel Comm Split call"),
    ("on 2026-03-12", "on March 12th, 2026"),
    ("`scatter_bucket` is **fast**", "scatter bucket is fast"),
    ("March 12th, 2026", "March 12th, 2026"),
    # a name written again in a script the English voice cannot say is said once
    ("Wei Zhang(张伟) and Ana landed it", "Wei Zhang and Ana landed it"),
    ("Mina Park (박민아) wrote it", "Mina Park wrote it"),
    # an article fits the word as said: "an str" was said "an string"
    ("It adds an str method, a API and a uint8 cast. An str.",
     "It adds a string method, an A P I and a U int eight cast. A string."),
    ("Type A API", "Type A A P I"),  # a name, not an article
    # a DSL's name however it is written ("cutedsl" was said "kyoo-ted-sul")
    ("the cutedsl and FLYDSL kernels on AMDGPU", "the cute D S L and fly D S L kernels on "
     "A M D G P U"),
    ("torchao loads safetensors with tinygemm", "torch A O loads safe tensors with tiny gem"),
])
def test_default_lexicon_and_rules(text, spoken):
    assert normalise(text, {}) == spoken


def test_lexicon_overrides_defaults_and_adds_words():
    assert normalise("NCCL on Triton", {"NCCL": "N C C L", "Triton": "try-ton"}) == (
        "N C C L on try-ton")
    assert normalise("NCCL", {"NCCL": ""}) == "NCCL"  # empty: keep as written


def test_lexicon_is_case_sensitive_and_whole_word():
    assert normalise("nan and NaN and NaNs", {}) == "nan and nan and nans"
    assert normalise("CIRCLE and CI", {}) == "CIRCLE and C I"


def test_number_helpers():
    assert number_words(11) == "eleven" and number_words(42) == "forty-two"
    assert number_words(191) == "one hundred ninety-one"
    assert ordinal_words(3) == "third" and ordinal_words(21) == "twenty-first"
    assert digit_groups("584044") == "five eighty-four oh forty-four"
    assert digit_groups("12300") == "twelve three hundred"
    assert parse_count("eleven") == 11 and parse_count("twenty-one") == 21
    assert parse_count("5") == 5 and parse_count("stack") is None


@pytest.mark.parametrize(("text", "spoken"), [
    ("The load took 20min, now 3min.", "The load took twenty minutes, now three minutes."),
    ("It waits 5s, then 1 min, then 20ms.",
     "It waits five seconds, then one minute, then twenty milliseconds."),
    ("Peak memory is 8.5 GB at 973 GB/s.",
     "Peak memory is eight point five gigabytes at nine hundred seventy-three gigabytes per "
     "second."),
    ("Saves 1,024 MB.", "Saves one thousand twenty-four megabytes."),
    # a unit of one letter, or one that is a word, counts only against its number
    ("It gives 2 us the 5 s widget in 3us.", "It gives 2 us the 5 s widget in three "
                                             "microseconds."),
])
def test_a_number_and_its_unit_are_said_in_words(text, spoken):
    assert normalise(text, {}) == spoken


def test_a_decimal_with_letters_after_it_is_said_apart():
    assert normalise("Add a widget 1.7B config.", {}) == "Add a widget 1.7 B config."
    assert normalise("Build with loader 13.4rc1.", {}) == "Build with loader 13.4 R C one."
    # a dotted version keeps its dots
    assert normalise("Pin to 2.5.0.dev20240709", {}) == "Pin to 2.5.0.dev20240709"


@pytest.mark.parametrize(("text", "spoken"), [
    ("Skip the widget for loader 2.7+.", "Skip the widget for loader 2.7 or later."),
    ("Widgets in LoaderComms + titan", "Widgets in Loader Comms plus titan"),
    ("A widget subclass +loader compile", "A widget subclass plus loader compile"),
    ("Check seq len%widget degree", "Check seq len mod widget degree"),
    ("top\u2011k widgets", "top-k widgets"),
])
def test_a_plus_a_percent_between_words_and_a_version_and_later_are_said(text, spoken):
    assert normalise(text, {}) == spoken


def test_a_small_word_with_no_vowel_is_spelled_unless_it_is_a_word():
    # "bmm", "nn" and "sgd" were read to the voice as if they were words
    assert normalise("It fixes the bmm op in nn Linear with sgd.", {}) == (
        "It fixes the B M M op in N N Linear with S G D.")
    # shorthand says its word; a real word, a handle's part or a path's part stays
    assert normalise("Every nth step, the loss fn logs a msg.", {}) == (
        "Every nth step, the loss function logs a message.")
    assert normalise("Thanks, howardzhang-cv.", {}) == "Thanks, howardzhang-cv."


def test_a_hyphen_beside_a_name_with_a_number_parts_two_things_said_apart():
    # "Qwen three-fourteen B" was heard as one word
    assert normalise("A Widget3-14B config and fp8-e4m3 types.", {}) == (
        "A Widget three fourteen B config and F P eight E four M three types.")
    # a range, a compound word and a name with no number keep their hyphen
    assert normalise("Wait 1-2 seconds for the one-shot GPT-OSS run.", {}) == (
        "Wait 1-2 seconds for the one-shot GPT-OSS run.")
    # and a name the voice cannot read as written is spelled from the lexicon
    assert normalise("CooR precompile", {}) == "C O O R precompile"
