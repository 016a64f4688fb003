"""Secrets are scrubbed by value, whole and as any run of 8+ characters."""

from mergecast.redact import MASK, Secrets, remember, scrub, scrub_json

KEY = "sk-live-0123456789abcdefSECRET"


def test_whole_and_partial_runs_are_masked() -> None:
    s = Secrets([KEY, None, ""])
    assert s.scrub(f"a {KEY} b") == f"a {MASK} b"
    assert s.scrub(f"cut at 200: {KEY[:9]}") == f"cut at 200: {MASK}"
    assert s.scrub(f"{KEY[5:13]}|{KEY[-8:]}") == f"{MASK}|{MASK}"
    assert s.scrub(f"seven only: {KEY[:7]}") == f"seven only: {KEY[:7]}"
    assert s.scrub(KEY + KEY) == MASK


def test_short_secrets_are_masked_only_whole() -> None:
    assert Secrets(["abc"]).scrub("xabcx ab") == f"x{MASK}x ab"


def test_json_strings_and_keys_are_scrubbed() -> None:
    data = {"title": f"echo {KEY}", KEY: [1, {"body": KEY[3:20]}], "n": 5}
    assert Secrets([KEY]).scrub_json(data) == {"title": f"echo {MASK}", MASK: [1, {"body": MASK}],
                                                "n": 5}


def test_process_secrets_and_extra_ones() -> None:
    other = "tts-key-ZYXWVUTSRQ"
    assert scrub(f"x {KEY} y", KEY) == f"x {MASK} y"
    remember(other)  # a client made earlier in the process holds this one
    assert scrub(f"{other[2:12]} and {KEY}", KEY) == f"{MASK} and {MASK}"
    assert scrub_json([other]) == [MASK]


def test_json_escapes_cannot_hide_a_secret_from_the_fast_path() -> None:
    import json

    raw = json.dumps({"body": KEY}).replace("s", "\\u0073", 1)  # "\u0073k-live-…"
    assert KEY not in raw
    assert Secrets([KEY]).scrub_json(json.loads(raw), raw) == {"body": MASK}
    clean = json.dumps({"body": "nothing here"})
    value = json.loads(clean)
    assert Secrets([KEY]).scrub_json(value, clean) is value  # no walk needed
