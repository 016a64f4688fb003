"""One reusable fake LLM server on 127.0.0.1: real HTTP, well-behaved or hostile.

    with FakeLLMServer(schema_answer("Plain words.")) as server:
        llm = LLMConfig(base_url=server.base_url, model="m")
        ...
        server.seen  # every request: path, headers, JSON body (and the writer's slot)

A Behaviour turns one request (Seen) into one Response. The builders below are meant to
be combined: `rejecting("response_format", then=schema_answer("ok"))` is llama-cpp-python
answering 500 to structured output and plain requests normally; `in_turn(a, b)` answers
the first request with `a` and every later one with `b`; `per_slot({"theme_2": a})` answers
the LLM writer's theme 2 with `a` and every other slot well. It serves /v1/chat/completions
(OpenAI shape, with `usage`) and /api/chat (Ollama shape) alike.
"""

from __future__ import annotations

import dataclasses
import http.server
import itertools
import json
import re
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

WRONG_JSON = "Sure! Here is the answer you wanted: {title: oops, sentences: [unclosed}"
# What a model that obeyed a hostile PR body says: answer it with schema_answer(...).
INJECTED_CLAIM = "PR 999999 fixed everything."


_SLOT = re.compile(r"Explain theme (\d+) of today|Write the (?:episode's )?(signal|title|summary)")


@dataclasses.dataclass(frozen=True)
class Seen:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def schema(self) -> dict[str, Any] | None:
        """The JSON schema this request asked for, in whichever dialect it came."""
        fmt = self.body.get("response_format") or {}
        found = (fmt.get("json_schema", {}).get("schema") or fmt.get("schema")
                 or self.body.get("json_schema") or self.body.get("format"))
        return found if isinstance(found, dict) else None

    @property
    def slot(self) -> str:
        """The LLM writer's slot this request asks for ("theme_1", "signal", "title",
        "summary"), from its prompt: every dialect sends that, not every one a schema."""
        found = _SLOT.search(self.prompt)
        if found is None:
            return ""
        return f"theme_{found.group(1)}" if found.group(1) else found.group(2)

    @property
    def prompt(self) -> str:
        """Every message's text, joined."""
        return "\n".join(str(m.get("content", "")) for m in self.body.get("messages", []))

    @property
    def max_tokens(self) -> int | None:
        options = self.body.get("options") or {}
        return (self.body.get("max_tokens") or self.body.get("max_completion_tokens")
                or options.get("num_predict"))


@dataclasses.dataclass(frozen=True)
class Response:
    status: int = 200
    content: str = ""  # the assistant's words (status 200) or the error body (otherwise)
    delay: float = 0.0  # seconds before the status line
    drip: float = 0.0  # seconds between body bytes: a server that never quite stops
    finish_reason: str = "stop"
    usage: bool = True  # send token counts
    raw: bool = False  # send `content` as the whole body, not inside a chat completion


Behaviour = Callable[[Seen], Response]
Content = str | Mapping[str, Any] | Callable[[Seen], "str | Mapping[str, Any]"]


def _text(content: Content, seen: Seen) -> str:
    value = content(seen) if callable(content) else content
    return value if isinstance(value, str) else json.dumps(value)


def says(content: Content, **response: Any) -> Behaviour:
    """Answers every request with `content` (a dict is sent as JSON text)."""
    return lambda seen: Response(content=_text(content, seen), **response)


def fill(schema: Mapping[str, Any], text: str) -> Any:
    """A value that fits `schema`, with `text` in every string (what a good model sends)."""
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object":
        return {k: fill(v, text) for k, v in schema.get("properties", {}).items()}
    if kind == "array":
        return [fill(schema.get("items", {"type": "string"}), text)]
    return {"integer": 1, "number": 1.0, "boolean": True}.get(str(kind), text)


def schema_answer(text: str = "A plain sentence about the change.") -> Behaviour:
    """Answers in the shape of whatever schema the request carries, `text` in each string."""
    return lambda seen: Response(content=json.dumps(fill(seen.schema or {"type": "object",
                                 "properties": {"text": {"type": "string"}}}, text)))


def ignoring_schema(prose: str = "The change makes the build faster.") -> Behaviour:
    """Accepts any response_format and answers in prose all the same."""
    return says(prose)


def half_schema(text: str = "Half right.") -> Behaviour:
    """Valid JSON, but the first required key is missing and an unknown one is added."""
    def reply(seen: Seen) -> Response:
        data = fill(seen.schema or {}, text)
        if isinstance(data, dict) and data:
            data.pop(next(iter(data)))
            data["commentary"] = "I also reformatted your schema."
        return Response(content=json.dumps(data))
    return reply


def rejecting(*fields: str, status: int = 500, then: Behaviour | None = None) -> Behaviour:
    """Refuses (with an error body naming the field) any request carrying one of `fields`;
    answers the rest with `then`. Default: llama-cpp-python's 500 on response_format."""
    fields = fields or ("response_format",)
    rest = then or schema_answer()

    def reply(seen: Seen) -> Response:
        named = [f for f in fields if f in seen.body]
        if named:
            return Response(status, json.dumps({"error": {
                "message": f"{named[0]}: unsupported value", "type": "server_error"}}))
        return rest(seen)
    return reply


def echo_headers(status: int = 200) -> Behaviour:
    """Pastes the request's headers, Authorization first, into its answer or error body."""
    def reply(seen: Seen) -> Response:
        first = sorted(seen.headers.items(), key=lambda kv: kv[0].lower() != "authorization")
        dump = "; ".join(f"{k}: {v}" for k, v in first)
        if status >= 400:
            return Response(status, json.dumps({"error": f"bad request: {dump}"}))
        return Response(content=json.dumps(fill(seen.schema or {}, dump)) if seen.schema
                        else dump)
    return reply


def slow(seconds: float, then: Behaviour) -> Behaviour:
    """Waits `seconds` before answering (a timeout)."""
    return lambda seen: dataclasses.replace(then(seen), delay=seconds)


def dripping(interval: float, then: Behaviour) -> Behaviour:
    """Sends its answer one byte every `interval` seconds."""
    return lambda seen: dataclasses.replace(then(seen), drip=interval)


def truncated(then: Behaviour) -> Behaviour:
    """Keeps the first max_tokens words of the answer and says finish_reason "length"."""
    def reply(seen: Seen) -> Response:
        full = then(seen)
        kept = " ".join(full.content.split(" ")[: max(1, seen.max_tokens or 1)])
        return dataclasses.replace(full, content=kept, finish_reason="length")
    return reply


def per_slot(routes: Mapping[str, Behaviour], default: Behaviour | None = None) -> Behaviour:
    """Answers each slot ("theme_2", "signal", …; "theme" for every theme) its own way;
    the others with `default` (a good answer)."""
    rest = default or schema_answer()

    def reply(seen: Seen) -> Response:
        slot = seen.slot
        found = routes.get(slot) or (routes.get("theme") if slot.startswith("theme") else None)
        return (found or rest)(seen)
    return reply


def in_turn(*behaviours: Behaviour) -> Behaviour:
    """The n-th request gets the n-th behaviour; the last one answers all later requests."""
    counter = itertools.count()
    lock = threading.Lock()

    def reply(seen: Seen) -> Response:
        with lock:
            n = next(counter)
        return behaviours[min(n, len(behaviours) - 1)](seen)
    return reply


def _payload(seen: Seen, response: Response) -> bytes:
    if response.status != 200 or response.raw:
        return response.content.encode()
    words = len(response.content.split())
    if seen.path.endswith("/api/chat"):  # Ollama's native shape
        data: dict[str, Any] = {
            "model": seen.body.get("model"), "done": True,
            "done_reason": response.finish_reason,
            "message": {"role": "assistant", "content": response.content}}
        if response.usage:
            data |= {"prompt_eval_count": 50, "eval_count": words}
        return json.dumps(data).encode()
    data = {"id": "fake-1", "object": "chat.completion", "model": seen.body.get("model"),
            "choices": [{"index": 0, "finish_reason": response.finish_reason,
                         "message": {"role": "assistant", "content": response.content}}]}
    if response.usage:
        data["usage"] = {"prompt_tokens": 50, "completion_tokens": words,
                         "total_tokens": 50 + words}
    return json.dumps(data).encode()


class _Handler(http.server.BaseHTTPRequestHandler):
    server: FakeLLMServer

    def do_POST(self) -> None:  # noqa: N802
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw)
        except ValueError:
            body = {}
        seen = Seen(self.path, dict(self.headers), body if isinstance(body, dict) else {})
        with self.server.lock:
            self.server.seen.append(seen)
            self.server.in_flight += 1
            self.server.most_in_flight = max(self.server.most_in_flight, self.server.in_flight)
        try:
            self._answer(seen)
        finally:
            with self.server.lock:
                self.server.in_flight -= 1

    def _answer(self, seen: Seen) -> None:
        known = self.path.endswith(("/chat/completions", "/api/chat"))
        response = self.server.behaviour(seen) if known else Response(404, '{"error":"no"}')
        time.sleep(response.delay)
        payload = _payload(seen, response)
        try:
            self.send_response(response.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            if response.drip:
                for i in range(len(payload)):
                    self.wfile.write(payload[i:i + 1])
                    self.wfile.flush()
                    time.sleep(response.drip)
            else:
                self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up, as it should with a slow or dripping server

    def log_message(self, *args: object) -> None:
        pass


class FakeLLMServer(http.server.ThreadingHTTPServer):
    """The server; `behaviour` may be replaced between requests."""

    daemon_threads = True

    def __init__(self, behaviour: Behaviour | None = None) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.behaviour = behaviour or schema_answer()
        self.seen: list[Seen] = []
        self.lock = threading.Lock()
        self.in_flight = 0
        self.most_in_flight = 0  # the most requests it was answering at once
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def __enter__(self) -> FakeLLMServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
        self.server_close()
