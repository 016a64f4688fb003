"""The LLM transport against the fake server on 127.0.0.1: dialects, budgets, secrets."""

from __future__ import annotations

import dataclasses
import math
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from llm_fake_server import (
    WRONG_JSON,
    FakeLLMServer,
    Response,
    Seen,
    dripping,
    echo_headers,
    half_schema,
    ignoring_schema,
    in_turn,
    rejecting,
    says,
    schema_answer,
    slow,
    truncated,
)

from mergecast.config import LLMConfig
from mergecast.errors import LLMBudgetError, LLMError
from mergecast.writing.llm_client import Dialect, LLMClient, Request

KEY = "sk-proj-abcdefghijklmnopqrstuvwxyzABCDEF"  # no digits: no pattern would catch it
SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["sentence", "cites"],
    "properties": {"sentence": {"type": "string"},
                   "cites": {"type": "array", "items": {"type": "integer"}}},
}


def ask(max_tokens: int = 64, timeout: float | None = None) -> Request:
    return Request(({"role": "system", "content": "You explain code changes."},
                    {"role": "user", "content": "Explain PR 101."}),
                   SCHEMA, max_tokens=max_tokens, timeout=timeout, name="theme")


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as srv:
        yield srv


def client(server: FakeLLMServer, memory: dict[Any, Any] | None = None,
           **llm: Any) -> LLMClient:
    cfg = LLMConfig(base_url=server.base_url, model="m", api_key_env="MC_KEY", timeout=5.0)
    return LLMClient(dataclasses.replace(cfg, **llm), environ={"MC_KEY": KEY},
                     memory={} if memory is None else memory)


def test_one_request_carries_schema_budget_and_repetition_controls(server):
    server.behaviour = schema_answer("Kernels now compile ahead of time.")
    with client(server) as c:
        reply = c.chat(ask(max_tokens=48))
    assert reply.data == {"sentence": "Kernels now compile ahead of time.", "cites": [1]}
    assert reply.problem == "" and reply.dialect is Dialect.JSON_SCHEMA
    (seen,) = server.seen
    assert seen.path == "/v1/chat/completions"
    assert seen.headers["Authorization"] == f"Bearer {KEY}"
    assert seen.body["response_format"] == {"type": "json_schema", "json_schema": {
        "name": "theme", "strict": True, "schema": SCHEMA}}
    assert seen.body["max_tokens"] == 48 and seen.body["stream"] is False
    assert {k: seen.body[k] for k in ("frequency_penalty", "repeat_penalty",
                                      "dry_multiplier")} == {"frequency_penalty": 0.3,
                                                             "repeat_penalty": 1.1,
                                                             "dry_multiplier": 0.8}
    assert (c.totals.requests, c.totals.prompt_tokens, c.totals.completion_tokens) == (1, 50, 9)
    assert c.totals.describe().startswith("1 LLM request, 50 prompt and 9 completion tokens, ")


def test_a_500_naming_response_format_moves_to_the_next_dialect_and_is_remembered(server):
    server.behaviour = rejecting("response_format")  # llama-cpp-python's answer
    memory: dict[Any, Any] = {}
    with client(server, memory) as c:
        reply = c.chat(ask())
    assert reply.problem == "" and reply.dialect is Dialect.LLAMA_SCHEMA
    assert [("response_format" in s.body, "json_schema" in s.body) for s in server.seen] == [
        (True, False), (False, True)]
    with client(server, memory) as again:  # a later writer in the same process
        assert again.chat(ask()).dialect is Dialect.LLAMA_SCHEMA
    assert len(server.seen) == 3


def test_a_server_refusing_every_schema_form_is_asked_plainly_with_the_schema_in_words(server):
    server.behaviour = rejecting("response_format", "json_schema", "grammar", "format",
                                 status=422, then=says('Here: ```json\n{"sentence": "Faster '
                                                       'builds.", "cites": [101]}\n```'))
    with client(server) as c:
        reply = c.chat(ask())
    assert reply.dialect is Dialect.PLAIN and reply.problem == ""
    assert reply.data == {"sentence": "Faster builds.", "cites": [101]}
    assert [s.path.rsplit("/", 1)[-1] for s in server.seen] == [
        "completions", "completions", "completions", "completions", "chat", "completions"]
    assert "grammar" in server.seen[2].body and server.seen[4].body["format"] == SCHEMA
    system = server.seen[-1].body["messages"][0]["content"]
    assert system.startswith("You explain code changes.\n\nAnswer with one JSON object only")
    assert '"required":["sentence","cites"]' in system


@pytest.mark.parametrize(("status", "error", "fix"), [
    (500, '{"error": "boom"}', "check the server's log"),  # not about the schema: no retry
    (404, '{"error": "model \'m\' not found"}', "check [llm] base_url and model"),
])
def test_other_refusals_fail_at_once_naming_the_fix(server, status, error, fix):
    server.behaviour = says(error, status=status)
    with client(server) as c, pytest.raises(LLMError) as err:
        c.chat(ask())
    assert str(err.value) == f"LLM server {server.base_url} answered HTTP {status}: {error}; {fix}"
    assert len(server.seen) == 1


def test_rejected_sampling_fields_are_dropped_once_and_for_all(server):
    server.behaviour = rejecting("repeat_penalty", status=400)  # a hosted API
    with client(server) as c:
        assert c.chat(ask()).dialect is Dialect.JSON_SCHEMA
        c.chat(ask())
    first, second, third = (s.body for s in server.seen)
    assert "repeat_penalty" in first and "response_format" in second
    assert not {"repeat_penalty", "dry_multiplier"} & (set(second) | set(third))
    assert second["frequency_penalty"] == 0.3


def test_max_completion_tokens_replaces_max_tokens_when_the_server_asks(server):
    server.behaviour = in_turn(says("Unsupported parameter: 'max_tokens'; use "
                                    "'max_completion_tokens' instead.", status=400),
                               schema_answer())
    with client(server) as c:
        c.chat(ask(max_tokens=40))
    assert server.seen[1].body["max_completion_tokens"] == 40
    assert "max_tokens" not in server.seen[1].body


def test_an_ignored_schema_is_noticed_and_the_next_request_tries_the_next_dialect(server):
    server.behaviour = ignoring_schema("Faster builds, that is all.")
    with client(server) as c:
        reply = c.chat(ask())
        assert (reply.data, reply.problem) == (None, "the answer holds no JSON object")
        assert c.dialect is Dialect.LLAMA_SCHEMA
        c.chat(ask())
    assert "json_schema" in server.seen[1].body


def test_a_half_followed_schema_gives_the_reason_and_a_ready_retry(server):
    server.behaviour = half_schema()
    with client(server) as c:
        reply = c.chat(ask())
        assert reply.problem == 'the answer lacks the key "sentence"'
        server.behaviour = schema_answer("Right this time.")
        second = c.chat(ask().retry(reply))
    assert second.problem == "" and c.dialect is Dialect.JSON_SCHEMA
    messages = server.seen[1].body["messages"]
    assert messages[-2] == {"role": "assistant", "content": reply.text}
    assert messages[-1]["content"] == ('Your answer failed validation: the answer lacks the key '
                                       '"sentence". Answer again with one JSON object only.')


def test_wrong_json_is_reported_in_words(server):
    server.behaviour = says(WRONG_JSON)
    with client(server) as c:
        reply = c.chat(ask())
    assert reply.data is None
    assert reply.problem == ("the answer is not valid JSON: Expecting property name enclosed "
                             "in double quotes at character 1 of the object")


def test_the_token_budget_cut_is_reported_and_keeps_the_dialect(server):
    server.behaviour = truncated(schema_answer("one two three four five six seven eight"))
    with client(server) as c:
        reply = c.chat(ask(max_tokens=3))
        assert c.dialect is Dialect.JSON_SCHEMA
    assert reply.finish_reason == "length" and reply.data is None
    assert reply.problem == ("the answer stopped at its 3-token budget before its JSON was "
                             "complete; answer more briefly")


def test_a_silent_server_times_out_at_the_request_deadline(server):
    server.behaviour = slow(3.0, schema_answer())
    started = time.monotonic()
    with client(server) as c, pytest.raises(LLMError) as err:
        c.chat(ask(timeout=0.3))
    assert str(err.value) == f"LLM server {server.base_url} timed out after 0.3s"
    assert time.monotonic() - started < 2.5
    assert (c.totals.requests, c.totals.prompt_tokens, c.totals.estimated) == (1, 11, True)


def test_a_dripping_server_is_cut_off_at_the_deadline_too(server):
    server.behaviour = dripping(0.02, schema_answer("x" * 400))  # about 10 s in all
    started = time.monotonic()
    with client(server) as c, pytest.raises(LLMError, match=r"timed out after 0.5s$"):
        c.chat(ask(timeout=0.5))
    assert time.monotonic() - started < 3.0


def test_the_episode_budget_stops_further_requests(server):
    now = [100.0]
    cfg = LLMConfig(base_url=server.base_url, model="m", max_seconds=30, timeout=120)
    with LLMClient(cfg, environ={}, memory={}, clock=lambda: now[0]) as c:
        c.chat(ask())
        now[0] += 29.5
        server.behaviour = slow(3.0, schema_answer())
        with pytest.raises(LLMError, match=r"timed out after 0.5s \(the episode's \[llm\] "
                                           r"max_seconds budget ran out\)$"):
            c.chat(ask())  # the request's timeout is what is left of the budget
        now[0] += 1
        with pytest.raises(LLMBudgetError) as err:
            c.chat(ask())
    assert len(server.seen) == 2
    assert str(err.value) == (
        "the LLM time budget of 30s for this episode is spent (2 LLM requests, about 61 prompt and "
        f"9 completion tokens, {c.totals.seconds:.1f} s); raise [llm] max_seconds in "
        "mergecast.toml or use a faster model")


def test_parallel_caps_the_requests_in_flight(server):
    inflight, peak, lock = [0], [0], threading.Lock()

    def counting(seen: Seen) -> Response:
        with lock:
            inflight[0] += 1
            peak[0] = max(peak[0], inflight[0])
        time.sleep(0.15)
        with lock:
            inflight[0] -= 1
        return schema_answer()(seen)

    server.behaviour = counting
    for parallel, expected in ((1, 1), (3, 3)):
        peak[0] = 0
        with client(server, parallel=parallel) as c:
            threads = [threading.Thread(target=c.chat, args=(ask(),)) for _ in range(3)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        assert peak[0] == expected


@pytest.mark.parametrize("status", [200, 401, 500])
def test_an_echoed_key_never_leaves_the_client(server, status):
    server.behaviour = echo_headers(status)
    with client(server) as c:
        try:
            found = c.chat(ask()).text
        except LLMError as exc:
            found = str(exc)
    assert server.seen[0].headers["Authorization"] == f"Bearer {KEY}"
    assert "Authorization: Bearer ***" in found
    assert KEY[:8] not in found and KEY[-8:] not in found


def test_a_partial_key_and_other_held_secrets_are_scrubbed(server):
    token = "ghp_" + "Q" * 8 + "tokenvalue0123456789"
    server.behaviour = says(f"The key starts {KEY[3:15]}; the token is {token[2:30]}.")
    cfg = LLMConfig(base_url=server.base_url, model="m", api_key_env="MC_KEY")
    with LLMClient(cfg, environ={"MC_KEY": KEY, "GITHUB_TOKEN": token}, memory={}) as c:
        assert c.chat(ask()).text == "The key starts ***; the token is ***."


def test_an_endless_answer_is_refused(server):
    server.behaviour = says("word " * 450_000, raw=True)
    with client(server) as c, pytest.raises(LLMError) as err:
        c.chat(ask())
    assert str(err.value) == (f"LLM server {server.base_url} sent more than 2,000,000 bytes; "
                              "check [llm] base_url points at a chat server")


def test_without_usage_the_tokens_are_estimated(server):
    server.behaviour = lambda seen: dataclasses.replace(schema_answer("abcd " * 10)(seen),
                                                        usage=False)
    with client(server) as c:
        reply = c.chat(ask())
    assert reply.completion_tokens == math.ceil(len(reply.text) / 4) == 20
    assert c.totals.estimated and c.totals.describe().startswith("1 LLM request, about ")


def test_ollama_native_chat_gets_format_and_options(server):
    server.behaviour = schema_answer("Ollama answered.")
    cfg = LLMConfig(base_url=server.base_url, model="m", max_tokens=30)  # caps the 64 asked
    with LLMClient(cfg, environ={}, memory={}, dialects=[Dialect.OLLAMA]) as c:
        reply = c.chat(ask(max_tokens=64))
    (seen,) = server.seen
    assert seen.path == "/api/chat" and seen.body["format"] == SCHEMA
    assert seen.body["options"] == {"num_predict": 30, "temperature": 0.0,
                                    "frequency_penalty": 0.3, "presence_penalty": 0.0,
                                    "repeat_penalty": 1.1}
    assert reply.data == {"sentence": "Ollama answered.", "cites": [1]}
    assert (reply.prompt_tokens, reply.completion_tokens) == (50, 5)


def test_a_reply_that_is_not_a_chat_completion(server):
    server.behaviour = says("<html>It works!</html>", raw=True)
    with client(server) as c, pytest.raises(LLMError) as err:
        c.chat(ask())
    assert str(err.value) == (f"LLM server {server.base_url} sent a reply that is not a chat "
                              "completion; check [llm] base_url")
