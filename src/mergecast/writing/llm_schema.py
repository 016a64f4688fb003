"""The small JSON schemas of LLM requests: check an answer, parse it tolerantly, and say
the schema in the two forms a server without `response_format` understands (a llama.cpp
GBNF grammar, or words in the prompt).

Only the subset mergecast's slot schemas use is supported: objects (every property in
`required`, in declared order), arrays, strings, integers, numbers, booleans and `enum`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

Schema = Mapping[str, Any]


def parse_answer(content: str) -> dict[str, Any]:
    """The JSON object in an answer, tolerating code fences and chatter around it."""
    text = re.sub(r"^\s*```(?:json)?|```\s*$", "", content.strip())
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        raise ValueError("the answer holds no JSON object")
    data = json.loads(text[start:end + 1])
    if not isinstance(data, dict):
        raise ValueError("the answer is not a JSON object")
    return data


def strict_object(content: str) -> dict[str, Any] | None:
    """The answer as one JSON object and nothing else, or None (what a schema-bound server
    sends; anything looser means the server did not apply the schema)."""
    try:
        data = json.loads(content)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def schema_problem(value: Any, schema: Schema, where: str = "the answer") -> str:
    """The first way `value` breaks `schema`, in words for a retry prompt; "" when it fits."""
    if "enum" in schema and value not in schema["enum"]:
        return f"{where} must be one of {json.dumps(schema['enum'])}, got {json.dumps(value)}"
    kind = schema.get("type")
    if kind == "object":
        if not isinstance(value, dict):
            return f"{where} must be a JSON object"
        props: Mapping[str, Schema] = schema.get("properties", {})
        for key in schema.get("required", ()):
            if key not in value:
                return f'{where} lacks the key "{key}"'
        if schema.get("additionalProperties") is False:
            extra = sorted(set(value) - set(props))
            if extra:
                return f'{where} has the unexpected key "{extra[0]}"'
        children = [(value[k], sub, f'"{k}"') for k, sub in props.items() if k in value]
    elif kind == "array":
        if not isinstance(value, list):
            return f"{where} must be a JSON array"
        low, high = schema.get("minItems", 0), schema.get("maxItems")
        if len(value) < low or (high is not None and len(value) > high):
            wanted = f"at least {low}" if high is None else f"{low} to {high}"
            return f"{where} must have {wanted} items, got {len(value)}"
        item: Schema = schema.get("items") or {}
        children = [(element, item, f"{where}[{i}]") for i, element in enumerate(value)]
    else:
        return _scalar_problem(value, schema, where)
    return next((p for v, sub, w in children if (p := schema_problem(v, sub, w))), "")


def _scalar_problem(value: Any, schema: Schema, where: str) -> str:
    kind = schema.get("type")
    if kind == "string":
        if not isinstance(value, str):
            return f"{where} must be a string"
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            return f"{where} must be at most {schema['maxLength']} characters, got {len(value)}"
        return ""
    checks = {"integer": (int,), "number": (int, float), "boolean": (bool,)}
    if kind in checks and (not isinstance(value, checks[kind])
                           or (kind != "boolean" and isinstance(value, bool))):
        return f"{where} must be a{'n' if kind == 'integer' else ''} {kind}"
    return ""


def tell_schema(messages: list[dict[str, str]], schema: Schema) -> None:
    """Put the schema in words into the system message, for servers that cannot be told it
    any other way."""
    line = ("Answer with one JSON object only, no other text, matching this JSON schema: "
            + json.dumps(schema, separators=(",", ":")))
    if messages and messages[0].get("role") == "system":
        messages[0]["content"] = f"{messages[0]['content']}\n\n{line}"
    else:
        messages.insert(0, {"role": "system", "content": line})


_PRIMITIVES = r'''ws ::= [ \n]?
char ::= [^"\\\x7F\x00-\x1F] | "\\" ["\\/bfnrt]
string ::= "\"" char* "\"" ws
integer ::= "-"? ( "0" | [1-9] [0-9]* ) ws
number ::= "-"? ( "0" | [1-9] [0-9]* ) ( "." [0-9]+ )? ws
boolean ::= ( "true" | "false" ) ws
value ::= ( jsonobject | jsonarray | string | number | "true" | "false" | "null" ) ws
jsonobject ::= "{" ws ( string ":" ws value ( "," ws string ":" ws value )* )? "}" ws
jsonarray ::= "[" ws ( value ( "," ws value )* )? "]" ws'''


def _literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def gbnf(schema: Schema) -> str:
    """A llama.cpp GBNF grammar that only lets the model write JSON in `schema`'s shape
    (any JSON value where the schema uses something outside the subset)."""
    rules: dict[str, str] = {}

    def rule(sub: Schema, name: str) -> str:
        if "enum" in sub:
            body = " | ".join(_literal(json.dumps(v)) for v in sub["enum"])
            rules[name] = f"( {body} ) ws"
            return name
        kind = sub.get("type")
        if kind == "object":
            props: Mapping[str, Schema] = sub.get("properties", {})
            parts = [f'{_literal(json.dumps(key))} ws ":" ws '
                     + rule(prop, f"{name}-{re.sub(r'[^A-Za-z0-9]', '', key) or 'k'}")
                     for key, prop in props.items()]
            rules[name] = '"{" ws ' + ' "," ws '.join(parts) + (' ' if parts else '') + '"}" ws'
            return name
        if kind == "array":
            item = rule(sub.get("items", {"type": "string"}), f"{name}-item")
            rules[name] = f'"[" ws ( {item} ( "," ws {item} )* )? "]" ws'
            return name
        if kind == "string" and "maxLength" in sub:  # {m,n}: llama.cpp since mid-2024
            rules[name] = f'"\\"" char{{0,{int(sub["maxLength"])}}} "\\"" ws'
            return name
        if kind in ("string", "integer", "number", "boolean"):
            return str(kind)
        return "value"  # any JSON: the schema check after the answer still applies

    rules["root"] = rule(schema, "answer")
    return "\n".join(f"{k} ::= {v}" for k, v in rules.items()) + "\n" + _PRIMITIVES
