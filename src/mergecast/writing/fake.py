"""An in-package fake OpenAI-compatible server, for tests and for trying the LLM writer.

`fake_llm(handler)` returns an httpx.MockTransport; pass it as `transport=` to
write_script. The handler gets the request's JSON body and returns the assistant's content
(a string, or a dict that is sent as JSON text); raise httpx errors to simulate failures.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import httpx

Answer = str | dict[str, Any]


def completion(content: str, model: str = "fake") -> dict[str, Any]:
    """A /v1/chat/completions response body carrying `content`."""
    return {"id": "fake-1", "object": "chat.completion", "model": model,
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}]}


def fake_llm(handler: Callable[[dict[str, Any]], Answer] | Sequence[Answer]) -> httpx.MockTransport:
    """A transport answering chat completions from `handler` (or canned answers in turn)."""
    canned = None if callable(handler) else list(handler)
    calls: list[dict[str, Any]] = []

    def respond(request: httpx.Request) -> httpx.Response:
        if not request.url.path.endswith("/chat/completions"):
            return httpx.Response(404, json={"error": "not found"})
        body = json.loads(request.content)
        calls.append(body)
        if canned is not None:
            answer = canned[min(len(calls), len(canned)) - 1]
        else:
            assert callable(handler)
            answer = handler(body)
        content = answer if isinstance(answer, str) else json.dumps(answer)
        return httpx.Response(200, json=completion(content, body.get("model", "fake")))

    transport = httpx.MockTransport(respond)
    transport.calls = calls  # type: ignore[attr-defined]
    return transport
