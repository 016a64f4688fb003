"""Secrets are scrubbed by value: whole, and any run of 8 or more of their characters."""

from __future__ import annotations

from mergecast.redact import Redactor

KEY = "sk-abcdefghijklmnopqrstuvwxyz"  # letters only: no pattern tells it from a word
TOKEN = "ghp_0123456789ABCDEFGHIJ0123456789abcd"


def test_a_whole_secret_is_replaced_wherever_it_appears():
    scrub = Redactor([KEY])
    assert scrub(f"Authorization: Bearer {KEY}; again {KEY}.") == (
        "Authorization: Bearer ***; again ***.")


def test_any_run_of_eight_characters_of_a_secret_is_replaced():
    scrub = Redactor([KEY, TOKEN])
    assert scrub(f"cut: {KEY[:20]}… tail {TOKEN[-9:]} mid x{KEY[5:13]}y") == (
        "cut: ***… tail *** mid x***y")


def test_shorter_runs_and_ordinary_text_are_kept():
    scrub = Redactor([KEY])
    assert scrub(f"the alphabet abcdefg and {KEY[3:10]}") == f"the alphabet abcdefg and {KEY[3:10]}"


def test_two_secrets_side_by_side_become_one_mask():
    assert Redactor([KEY, TOKEN])(f"{KEY}{TOKEN}") == "***"


def test_tiny_values_are_not_treated_as_secrets():
    scrub = Redactor(["", "abc", "abcd"])
    assert scrub.secrets == ("abcd",)
    assert scrub("abc abcd abcde") == "abc *** ***e"


def test_from_environ_holds_the_known_tokens_and_the_named_keys():
    environ = {"GITHUB_TOKEN": TOKEN, "MY_LLM_KEY": KEY, "HOME": "/home/someone"}
    scrub = Redactor.from_environ(environ, ["MY_LLM_KEY"], values=["tts-key-value-1"])
    assert set(scrub.secrets) == {TOKEN, KEY, "tts-key-value-1"}
    assert scrub("/home/someone") == "/home/someone"
    assert not Redactor.from_environ({}, ["MY_LLM_KEY"])
