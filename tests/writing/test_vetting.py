"""The checks every sentence a model writes must pass (writing/vetting.py)."""

from __future__ import annotations

import pytest
from writing_builders import DAY, rich_digest

from mergecast.writing import Facts
from mergecast.writing.vetting import (
    Vetter,
    clean,
    finite_verb,
    shares_word,
    split_sentences,
    unsupported_claims,
)

SOURCE = ("Add Vulkan shaders for windowed reductions. Reductions on Android GPUs fell back to a "
          "slow generic path for windowed inputs.")


def vetter(source: str = SOURCE) -> Vetter:
    return Vetter(Facts.from_digest(rich_digest(), day=DAY), source, (584097,))


@pytest.mark.parametrize(("said", "claim"), [
    ("The change fixes a critical remote code execution hole.", "security impact"),
    ("PR 101 fixes a critical hole; upgrade now.", "security impact"),
    ("The kernels must be adopted urgently.", "urgency"),
    ("Users should switch to the new reductions.", "a call to action"),
    ("Upgrade today to get the new kernels.", "a call to action"),
    ("The new path is faster than the old one.", "a comparison"),
    ("Strided reductions now beat the generic path.", "a comparison"),
    ("The change fixed everything in reductions.", "a sweeping claim"),
])
def test_claims_the_input_does_not_state_are_found(said, claim):
    (found,) = unsupported_claims(said, SOURCE)[:1]
    assert found.startswith(f"claims {claim} (")
    assert found.endswith(") that the PR text does not state")


def test_a_claim_the_input_states_is_not_a_problem():
    assert unsupported_claims("The change is faster for windowed inputs.",
                              SOURCE + " The new kernels are faster.") == []
    assert unsupported_claims("The change closes a security hole.",
                              "Fixes a security hole in the loader.") == []


def test_words_inside_other_words_are_not_claims():
    assert unsupported_claims("The change adds a harmless insecurities-free attacker-proof "
                              "rattack path.", SOURCE) != []  # "attacker" is a word of its own
    assert unsupported_claims("The signal today is kernel work for secure boot.", "") != []
    assert unsupported_claims("The dosage and cvesta names stay.", "") == []


def test_a_sentence_must_name_something_the_pr_text_names():
    v = vetter()
    assert v.topic("The change adds Vulkan shaders for windowed reductions.") == []
    assert v.topic("The new feature was added to a project.") == [
        '"The new feature was added to a project." names nothing the PR text names; say what '
        "changed, in its words"]
    assert v.topic("The new version of JavaScript breaks older browsers on Vulkan.") == [
        '"The new version of JavaScript breaks older browsers on Vulkan." talks about '
        '"version", "JavaScript", "breaks", which the PR text does not mention']


@pytest.mark.parametrize(("said", "problem"), [
    ("We added Vulkan shaders for windowed reductions.", 'speaks as the author ("We")'),
    ("PR 584099 adds Vulkan shaders.", 'has the number "584099"'),
    ("Vulkan shaders by marisol31 speed reductions up.", 'names "marisol31"'),
    ("Vulkan shaders.", "has 2 words"),
    ("Adds `torch.ops.vulkan` shaders for reductions.", "has code in it"),
    ("The <untrusted-pr-text> says Vulkan shaders were added.", "repeats the data markers"),
])
def test_prose_problems_are_said_in_words_a_retry_can_carry(said, problem):
    (found,) = vetter().sentence(clean(said))[:1]
    assert problem in found


def test_model_text_is_cleaned_like_any_untrusted_text():
    assert clean("<b>Adds</b> **Vulkan** shaders\x1b]0;x\x07 [docs](http://x.y) see "
                 "https://e.com/a") == "Adds Vulkan shaders docs see"
    assert clean("<img src=x onerror=alert(1)>Tile planning") == "Tile planning"


def test_a_last_sentence_without_its_full_stop_gets_one():
    assert split_sentences("Adds Vulkan shaders. They cover windowed inputs") == [
        "Adds Vulkan shaders.", "They cover windowed inputs."]


def test_a_title_shares_a_word_with_a_theme():
    assert shares_word("Tile Planning Lands", ["convolution tile planning"])
    assert not shares_word("A Plain Day", ["convolution tile planning", "Vulkan reductions"])


@pytest.mark.parametrize(("said", "word"), [
    ("It will help them improve their performance on windowed reductions.", "It"),
    ("This makes windowed reductions on Android GPUs fast.", "This"),
    ("They cover windowed reductions on Android GPUs.", "They"),
    ("These kernels replace the slow generic path.", "These"),
    ("Now it uses Vulkan shaders for windowed reductions.", "it"),
    ("The change makes them use Vulkan shaders.", "them"),
])
def test_a_sentence_leaning_on_an_earlier_one_is_refused(said, word):
    assert vetter().sentence(said) == [
        f'"{said}" leans on "{word}", which the listener cannot place; name what it is in '
        "the same sentence"]


def test_a_pronoun_with_its_noun_in_the_same_sentence_stands_alone():
    assert vetter().sentence("Strided reductions fell back to a generic path, so they were "
                             "slow on Android GPUs.") == []


@pytest.mark.parametrize("said", [
    "The change closes the gap for windowed reductions.",  # a verb the lexicon lacks
    "The flag lets windowed reductions use Vulkan shaders.",
    "The cache keeps Vulkan shaders for windowed reductions.",
    "Jobs that hang now fail with a clear error.",  # a plural subject, "now", a base form
    "Users get Vulkan shaders for windowed reductions.",
    "Strided reductions from Android GPUs take the fast path.",
    "The generic path quietly stalled on windowed inputs.",  # -ed after a noun phrase
    "The Vulkan backend skips the slow generic path.",
])
def test_plain_prose_with_any_finite_verb_is_a_sentence(said):
    assert finite_verb(said.split())
    assert vetter().prose(said) == []


@pytest.mark.parametrize("said", [
    "Vulkan shaders for windowed reductions.",
    "The new reductions for windowed inputs on Android GPUs.",
    "Faster windowed reductions everywhere on Android GPUs.",
    "The supported list of windowed reductions.",
    "Fixes for the slow generic path.",
    "Changes to support windowed reductions.",
    "Reductions on Android GPUs with fewer copies.",
])
def test_a_fragment_without_a_finite_verb_is_refused(said):
    assert vetter().prose(said) == [f'"{said}" has no verb; write a complete sentence']
