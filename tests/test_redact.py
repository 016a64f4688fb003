"""Secrets are scrubbed by value: whole, and any run of 8 or more of their characters."""

from __future__ import annotations

import json

from mergecast.redact import MASK, Secrets, remember, scrub, scrub_json

KEY = "sk-abcdefghijklmnopqrstuvwxyz"  # letters only: no pattern tells it from a word
TOKEN = "ghp_0123456789ABCDEFGHIJ0123456789abcd"
LIVE = "sk-live-0123456789abcdefSECRET"


def test_a_whole_secret_is_replaced_wherever_it_appears():
    scrub = Secrets([KEY])
    assert scrub(f"Authorization: Bearer {KEY}; again {KEY}.") == (
        "Authorization: Bearer ***; again ***.")


def test_any_run_of_eight_characters_of_a_secret_is_replaced():
    scrub = Secrets([KEY, TOKEN])
    assert scrub(f"cut: {KEY[:20]}… tail {TOKEN[-9:]} mid x{KEY[5:13]}y") == (
        "cut: ***… tail *** mid x***y")


def test_whole_and_partial_runs_are_masked() -> None:
    s = Secrets([LIVE, None, ""])
    assert s.scrub(f"a {LIVE} b") == f"a {MASK} b"
    assert s.scrub(f"cut at 200: {LIVE[:9]}") == f"cut at 200: {MASK}"
    assert s.scrub(f"{LIVE[5:13]}|{LIVE[-8:]}") == f"{MASK}|{MASK}"
    assert s.scrub(f"seven only: {LIVE[:7]}") == f"seven only: {LIVE[:7]}"
    assert s.scrub(LIVE + LIVE) == MASK


def test_shorter_runs_and_ordinary_text_are_kept():
    scrub = Secrets([KEY])
    assert scrub(f"the alphabet abcdefg and {KEY[3:10]}") == f"the alphabet abcdefg and {KEY[3:10]}"


def test_two_secrets_side_by_side_become_one_mask():
    assert Secrets([KEY, TOKEN])(f"{KEY}{TOKEN}") == "***"


def test_tiny_values_are_not_treated_as_secrets():
    scrub = Secrets(["", "abc", "abcd"])
    assert scrub.secrets == ("abcd",)
    assert scrub("abc abcd abcde") == "abc *** ***e"


def test_short_secrets_are_masked_only_whole() -> None:
    assert Secrets(["abcde"]).scrub("xabcdex abcd") == f"x{MASK}x abcd"


def test_from_environ_holds_the_known_tokens_and_the_named_keys():
    environ = {"GITHUB_TOKEN": TOKEN, "MY_LLM_KEY": KEY, "HOME": "/home/someone"}
    scrub = Secrets.from_environ(environ, ["MY_LLM_KEY"], values=["tts-key-value-1"])
    assert set(scrub.secrets) == {TOKEN, KEY, "tts-key-value-1"}
    assert scrub("/home/someone") == "/home/someone"
    assert not Secrets.from_environ({}, ["MY_LLM_KEY"])


def test_json_strings_and_keys_are_scrubbed() -> None:
    data = {"title": f"echo {LIVE}", LIVE: [1, {"body": LIVE[3:20]}], "n": 5}
    assert Secrets([LIVE]).scrub_json(data) == {"title": f"echo {MASK}", MASK: [1, {"body": MASK}],
                                                 "n": 5}


def test_process_secrets_and_extra_ones() -> None:
    other = "tts-key-ZYXWVUTSRQ"
    assert scrub(f"x {LIVE} y", LIVE) == f"x {MASK} y"
    remember(other)  # a client made earlier in the process holds this one
    assert scrub(f"{other[2:12]} and {LIVE}", LIVE) == f"{MASK} and {MASK}"
    assert scrub_json([other]) == [MASK]


def test_json_escapes_cannot_hide_a_secret_from_the_fast_path() -> None:
    raw = json.dumps({"body": LIVE}).replace("s", "\\u0073", 1)  # "\u0073k-live-…"
    assert LIVE not in raw
    assert Secrets([LIVE]).scrub_json(json.loads(raw), raw) == {"body": MASK}
    clean = json.dumps({"body": "nothing here"})
    value = json.loads(clean)
    assert Secrets([LIVE]).scrub_json(value, clean) is value  # no walk needed
