"""Small JSON schemas: the checker's words for a retry, tolerant parsing, the GBNF grammar."""

from __future__ import annotations

from typing import Any

import pytest

from mergecast.writing.llm_schema import gbnf, parse_answer, schema_problem, tell_schema

SLOT: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["kind", "text", "cites"],
    "properties": {"kind": {"enum": ["theme", "signal"]},
                   "text": {"type": "string", "maxLength": 20},
                   "cites": {"type": "array", "items": {"type": "integer"}, "maxItems": 2},
                   "score": {"type": "number"}, "sure": {"type": "boolean"}},
}


@pytest.mark.parametrize(("value", "problem"), [
    ({"kind": "theme", "text": "Faster builds.", "cites": [101]}, ""),
    ({"kind": "theme", "text": "ok", "cites": [], "score": 2, "sure": False}, ""),
    (["theme"], "the answer must be a JSON object"),
    ({"kind": "theme", "text": "x"}, 'the answer lacks the key "cites"'),
    ({"kind": "theme", "text": "x", "cites": [], "why": 1},
     'the answer has the unexpected key "why"'),
    ({"kind": "area", "text": "x", "cites": []},
     '"kind" must be one of ["theme", "signal"], got "area"'),
    ({"kind": "theme", "text": 5, "cites": []}, '"text" must be a string'),
    ({"kind": "theme", "text": "x" * 21, "cites": []},
     '"text" must be at most 20 characters, got 21'),
    ({"kind": "theme", "text": "x", "cites": "101"}, '"cites" must be a JSON array'),
    ({"kind": "theme", "text": "x", "cites": [1, 2, 3]}, '"cites" must have 0 to 2 items, got 3'),
    ({"kind": "theme", "text": "x", "cites": [1, "2"]}, '"cites"[1] must be an integer'),
    ({"kind": "theme", "text": "x", "cites": [True]}, '"cites"[0] must be an integer'),
    ({"kind": "theme", "text": "x", "cites": [], "score": "high"}, '"score" must be a number'),
    ({"kind": "theme", "text": "x", "cites": [], "sure": 1}, '"sure" must be a boolean'),
])
def test_schema_problem_says_what_is_wrong(value, problem):
    assert schema_problem(value, SLOT) == problem


def test_parse_answer_tolerates_fences_and_chatter():
    assert parse_answer('Sure!\n```json\n{"text": "ok"}\n```') == {"text": "ok"}
    with pytest.raises(ValueError, match="^the answer holds no JSON object$"):
        parse_answer("No JSON here.")


def test_the_schema_in_words_joins_the_system_message_or_becomes_one():
    told = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]
    tell_schema(told, {"type": "object"})
    assert told[0]["content"] == ('Be brief.\n\nAnswer with one JSON object only, no other '
                                  'text, matching this JSON schema: {"type":"object"}')
    bare = [{"role": "user", "content": "Hi"}]
    tell_schema(bare, {"type": "object"})
    assert [m["role"] for m in bare] == ["system", "user"]


def test_the_grammar_follows_the_schema():
    grammar = gbnf({"type": "object", "properties": {
        "kind": {"enum": ["theme", "signal"]}, "text": {"type": "string"},
        "cites": {"type": "array", "items": {"type": "integer"}}}})
    assert grammar.splitlines()[:4] == [
        "answer-kind ::= ( \"\\\"theme\\\"\" | \"\\\"signal\\\"\" ) ws",
        "answer-cites ::= \"[\" ws ( integer ( \",\" ws integer )* )? \"]\" ws",
        "answer ::= \"{\" ws \"\\\"kind\\\"\" ws \":\" ws answer-kind \",\" ws \"\\\"text\\\"\" "
        "ws \":\" ws string \",\" ws \"\\\"cites\\\"\" ws \":\" ws answer-cites \"}\" ws",
        "root ::= answer",
    ]
    bounded = gbnf({"type": "object", "properties": {"s": {"type": "string", "maxLength": 90},
                                                     "any": {}}})
    assert 'answer-s ::= "\\"" char{0,90} "\\"" ws' in bounded.splitlines()
    assert 'answer ::= "{" ws "\\"s\\"" ws ":" ws answer-s "," ws "\\"any\\"" ws ":" ws value "}" ws' \
        in bounded.splitlines()
