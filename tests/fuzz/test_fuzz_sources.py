"""Fuzz the source parsers: commit messages, trailers, logins, the gh JSON importer."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fuzz_settings import HOSTILE_TEXT, examples
from hypothesis import given
from hypothesis import strategies as st

from mergecast.errors import GhJsonError
from mergecast.models import Trailer
from mergecast.sources._clean import clean_line, clean_login, clean_text
from mergecast.sources.gh_json import load_gh_json
from mergecast.sources.git import iter_records, parse_numstat
from mergecast.sources.messages import (
    format_trailers,
    parse_message,
    parse_revert,
    parse_trailers,
    person_from_ident,
    pr_number,
)

pytestmark = pytest.mark.fuzz

UNWANTED = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064"
    "\u2066-\u2069\ufeff\ud800-\udfff\ufffe\uffff]"
)
LOGIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,38}(\[bot\])?")


@given(HOSTILE_TEXT)
def test_clean_text_leaves_no_hidden_characters_and_is_idempotent(text: str) -> None:
    out = clean_text(text)
    assert not UNWANTED.search(out)
    assert clean_text(out) == out
    line = clean_line(text)
    assert "\n" not in line and "\t" not in line and line == line.strip()


@given(st.one_of(st.none(), HOSTILE_TEXT))
def test_clean_login_is_a_github_login_or_none(login: str | None) -> None:
    out = clean_login(login)
    assert out is None or LOGIN.fullmatch(out), out
    assert clean_login(out) == out  # real logins pass unchanged


@given(st.from_regex(LOGIN, fullmatch=True))
def test_real_logins_pass_unchanged(login: str) -> None:
    assert clean_login(login) == login


@given(HOSTILE_TEXT)
def test_parse_message_never_crashes_on_any_text(message: str) -> None:
    msg = parse_message(message, "o/r")
    assert "\n" not in msg.title
    assert msg.number is None or 0 <= msg.number < 10**9
    for trailer in msg.trailers:
        assert trailer.key and "\n" not in trailer.value
    parse_revert(msg.title, msg.body)
    for person in msg.co_authors:
        assert person.login is None or LOGIN.fullmatch(person.login)


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=60)
       .map(lambda s: " ".join(s.split())).filter(lambda s: s and not s.endswith(")")),
       st.integers(1, 999_999_999))
def test_squash_subject_number_is_found(subject: str, number: int) -> None:
    assert pr_number(f"{subject} (#{number})") == number


KEY = st.from_regex(r"[A-Z][a-z]{1,8}(-[a-z]{1,6}){0,2}", fullmatch=True)
VALUE = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=0x2FFF,
                                       blacklist_categories=("Cs", "Zs", "Zl", "Zp")),
                min_size=1, max_size=30).filter(lambda v: v == v.strip())


@given(st.lists(st.builds(Trailer, KEY, VALUE), min_size=1, max_size=6), HOSTILE_TEXT)
def test_trailers_round_trip_through_format(trailers: list[Trailer], prose: str) -> None:
    prose = prose.replace(":", "").strip() or "Body"
    body = f"{prose}\n\n{format_trailers(trailers)}"
    assert parse_trailers(body)[-len(trailers):] == tuple(trailers)


@given(HOSTILE_TEXT)
def test_person_from_ident_never_crashes(ident: str) -> None:
    person = person_from_ident(ident)
    assert person.login is None or LOGIN.fullmatch(person.login)


@given(st.binary(max_size=400))
def test_git_record_stream_never_crashes(data: bytes) -> None:
    import io

    for rec in iter_records(io.BytesIO(data), chunk=7):
        try:
            parse_numstat(rec[9:])
        except ValueError:
            pass  # git never prints such numstat; the reader may refuse it


# ------------------------------------------------------------------ gh JSON importer

TIME = st.one_of(st.none(), st.just("2026-08-11T09:00:00Z"), HOSTILE_TEXT, st.integers())
ANY = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), HOSTILE_TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=5), inner, max_size=3)),
    max_leaves=6,
)
RECORD = st.fixed_dictionaries(
    {"number": st.one_of(st.integers(1, 10**7), ANY)},
    optional={
        "title": st.one_of(HOSTILE_TEXT, ANY),
        "body": st.one_of(HOSTILE_TEXT, ANY),
        "author": st.one_of(st.fixed_dictionaries({"login": st.one_of(HOSTILE_TEXT, ANY)}), ANY),
        "createdAt": TIME, "updatedAt": TIME, "mergedAt": TIME, "closedAt": TIME,
        "state": st.one_of(st.sampled_from(["OPEN", "MERGED", "CLOSED", "merged"]), ANY),
        "url": st.one_of(st.just("https://github.com/o/r/pull/1"), HOSTILE_TEXT),
        "labels": st.one_of(st.lists(st.fixed_dictionaries({"name": HOSTILE_TEXT}), max_size=3),
                            ANY),
        "files": st.one_of(st.lists(st.fixed_dictionaries(
            {"path": HOSTILE_TEXT, "additions": st.integers(0, 10**6)}), max_size=3), ANY),
        "additions": st.one_of(st.integers(0, 10**6), ANY), "isDraft": ANY,
    },
)


def _check_one_line_error(exc: GhJsonError, path: Path) -> None:
    text = str(exc)
    assert text.startswith(str(path)) and "\n" not in text.rstrip("\n"), text


@examples(0.3)
@given(st.lists(RECORD, max_size=4), st.sampled_from(["array", "lines"]))
def test_gh_json_records_import_or_fail_with_one_line(
    tmp_path_factory: pytest.TempPathFactory, records: list[dict], shape: str
) -> None:
    path = tmp_path_factory.getbasetemp() / "fuzz-gh.json"
    if shape == "array":
        path.write_text(json.dumps(records), encoding="utf-8")
    else:
        path.write_text("\n".join(json.dumps(r) for r in records) or "[]", encoding="utf-8")
    try:
        changes = load_gh_json(path, repo="o/r")
    except GhJsonError as exc:
        _check_one_line_error(exc, path)
        return
    assert len(changes) == len(records)
    for change in changes:
        for text in (change.title, change.body, *change.labels):
            assert not UNWANTED.search(text)
        assert "\n" not in change.title
        assert change.author.login is None or LOGIN.fullmatch(change.author.login)


@examples(0.3)
@given(st.binary(max_size=300))
def test_gh_json_arbitrary_bytes_never_crash(
    tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    path = tmp_path_factory.getbasetemp() / "fuzz-bytes.json"
    path.write_bytes(data)
    try:
        load_gh_json(path, repo="o/r")
    except GhJsonError as exc:
        _check_one_line_error(exc, path)
