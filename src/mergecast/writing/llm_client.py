"""The LLM transport: one chat request with a small JSON schema, a token budget and a
deadline, sent in whichever structured-output dialect the server honours.

Servers disagree on how to be told a schema. The dialects are tried in DIALECTS order; a
4xx/5xx whose body names the schema, `response_format` or the grammar (llama-cpp-python
answers 500), a 400/422, or an answer that is not bare JSON moves a server to the next
dialect. What worked is remembered per server (base_url + model) for the life of the
process; it is not written to disk, because negotiating costs at most a few instant
rejections once per run, while a stored answer would go stale when the server is
upgraded or swapped. Fields a server rejects by name (llama.cpp's sampling knobs on a
hosted API, `max_tokens` where `max_completion_tokens` is wanted) are dropped the same way.

Every answer, error body and exception message passes through the secret scrubber
(redact.Secrets) first, so a server that echoes the request's Authorization header cannot
leak a key. An episode's requests share one wall-clock budget ([llm] max_seconds); once
it is spent, `chat` raises LLMBudgetError without sending anything; so it does when the
request could pass the episode's token budget ([llm] max_episode_tokens: its prompt,
estimated, plus its completion budget, on top of what was used and what requests in
flight may still use).

A server that fails once (refuses the connection, answers a 5xx or a server-wide refusal
such as 401 or 429 to every form of the request, sends something that is not a chat
completion, or goes silent past the timeout) is not asked again in the episode: `chat`
raises LLMUnavailableError, carrying the first failure, without sending. A timeout counts
only when the server answered nothing else while that request waited: with requests in
parallel, a server that finishes other requests meanwhile is slow, not down, and only
that slot is given up. A 400, 413 or 422 after every form is about that request (a
prompt over the context size), so it too costs only its slot.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import httpx

from ..config import LLMConfig
from ..errors import LLMBudgetError, LLMError, LLMUnavailableError
from ..redact import PROCESS, Secrets, remember
from .llm_request import DIALECTS, Dialect, Reply, Request, Totals
from .llm_schema import (
    gbnf,
    parse_answer,
    schema_problem,
    strict_object,
    tell_schema,
)

# Words in an error body that mean "your structured-output request is the problem".
_STRUCTURED_WORDS = ("response_format", "json_schema", "schema", "grammar", "format",
                     "json_object", "structured")
# Optional request fields, in groups a server accepts or rejects together.
_OPTIONAL = {
    "temperature": ("temperature",),
    "penalties": ("frequency_penalty", "presence_penalty"),
    "llama": ("repeat_penalty", "dry_multiplier", "dry_allowed_length"),
}
MAX_BYTES = 2_000_000  # an answer larger than this is not a chat completion we asked for
_MAX_STEPS = 1 + len(DIALECTS) + len(_OPTIONAL) + 1


@dataclasses.dataclass
class _Server:
    """What one server (base_url + model) has shown it accepts."""

    dialect: int = 0  # index into the client's dialects
    dropped: set[str] = dataclasses.field(default_factory=set)  # _OPTIONAL groups
    token_field: str = "max_tokens"


_MEMORY: dict[tuple[str, str], _Server] = {}
_MEMORY_LOCK = threading.Lock()


def forget_servers() -> None:
    """Forget what every server accepted, so the next request negotiates afresh."""
    with _MEMORY_LOCK:
        _MEMORY.clear()


class LLMClient:
    """Chat requests to one OpenAI-compatible (or Ollama) server for one episode."""

    def __init__(self, llm: LLMConfig, *, transport: httpx.BaseTransport | None = None,
                 environ: Mapping[str, str] = os.environ, redactor: Secrets | None = None,
                 memory: dict[tuple[str, str], _Server] | None = None,
                 dialects: Sequence[Dialect] = DIALECTS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.llm = llm
        self.base = llm.base_url.rstrip("/")
        key = environ.get(llm.api_key_env, "") if llm.api_key_env else ""
        remember(key)  # GitHub and TTS answers are scrubbed of it too from now on
        given = redactor or Secrets.from_environ(environ, [llm.api_key_env])
        self.redact = Secrets((*PROCESS.secrets, *given.secrets, key))
        headers = {"Content-Type": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        self._http = httpx.Client(headers=headers, transport=transport)
        self.dialects = tuple(dialects)
        memory = _MEMORY if memory is None else memory
        with _MEMORY_LOCK:
            self._server = memory.setdefault((self.base, llm.model), _Server())
        self.clock = clock
        self.deadline = clock() + llm.max_seconds
        self._slots = threading.BoundedSemaphore(llm.parallel)
        self._lock = threading.Lock()
        self._totals = Totals()
        self._reserved = 0  # tokens requests in flight may still use
        self.where = f"LLM server {self.base}"
        self._answers = 0  # HTTP answers received: proof the server is alive
        self.down = ""  # the failure after which the server is no longer asked

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    @property
    def totals(self) -> Totals:
        return self._totals

    @property
    def dialect(self) -> Dialect:
        """The dialect the next request will use."""
        return self.dialects[min(self._server.dialect, len(self.dialects) - 1)]

    def budget_left(self) -> float:
        return max(0.0, self.deadline - self.clock())

    def chat(self, request: Request) -> Reply:
        """Send `request`; raises LLMBudgetError once a budget is spent,
        LLMUnavailableError once the server has failed, LLMError for a request that
        timed out while the server answered others."""
        if self.down:
            raise LLMUnavailableError(self.down)
        need = _estimate(_prompt_text({"messages": request.messages})) + min(
            request.max_tokens, self.llm.max_tokens)
        with self._lock:
            t = self._totals
            used = t.prompt_tokens + t.completion_tokens + self._reserved
            if used + need > self.llm.max_episode_tokens:
                raise LLMBudgetError(
                    f"the LLM token budget of {self.llm.max_episode_tokens:,} for this episode "
                    f"would be passed (about {need:,} more tokens on top of {used:,}; "
                    f"{t.describe()}); raise [llm] max_episode_tokens in mergecast.toml")
            self._reserved += need
        try:
            return self._chat(request)
        finally:
            with self._lock:
                self._reserved -= need

    def _chat(self, request: Request) -> Reply:
        with self._slots:
            for _step in range(_MAX_STEPS):
                left = self.budget_left()
                if left <= 0:
                    raise LLMBudgetError(
                        f"the LLM time budget of {self.llm.max_seconds:g}s for this episode is "
                        f"spent ({self._totals.describe()}); raise [llm] max_seconds in "
                        "mergecast.toml or use a faster model")
                dialect, dropped, token_field = (self.dialect, set(self._server.dropped),
                                                 self._server.token_field)
                url, body = self._body(request, dialect, dropped, token_field)
                limit = min(self.llm.timeout, request.timeout or math.inf)
                status, text, seconds = self._post(url, body, min(limit, left),
                                                   cut_by_budget=left < limit)
                if status < 400:
                    return self._reply(request, dialect, text, seconds)
                if not self._adapt(status, text, dialect, dropped, token_field):
                    raise self._refused(status, self._refusal(status, text))
            raise self._refused(status, f"{self.where} rejected every form of the request; "
                                f"last answer {self._refusal(status, text)}")

    def _refused(self, status: int, why: str) -> LLMError:
        """An error status after every form of the request: the server is down or refuses
        everyone (5xx, a key or model it does not take, rate limits); a 400, 413 or 422 is
        about this request only (a prompt over the context size), so only its slot is
        given up."""
        return self._failed(why) if status >= 500 or status in _SERVER_WIDE else LLMError(why)

    def _failed(self, why: str) -> LLMUnavailableError:
        """The server is down: this and every later request of the episode fail with the
        first reason."""
        with self._lock:
            self.down = self.down or why
        return LLMUnavailableError(why)

    # ---- one HTTP exchange

    def _body(self, request: Request, dialect: Dialect, dropped: set[str],
              token_field: str) -> tuple[str, dict[str, Any]]:
        messages = [dict(m) for m in request.messages]
        if dialect in (Dialect.JSON_OBJECT, Dialect.PLAIN):
            tell_schema(messages, request.schema)
        tokens = min(request.max_tokens, self.llm.max_tokens)
        rep = request.repetition
        knobs: dict[str, Any] = {"temperature": request.temperature,
                                 "frequency_penalty": rep.frequency_penalty,
                                 "presence_penalty": rep.presence_penalty,
                                 "repeat_penalty": rep.repeat_penalty,
                                 "dry_multiplier": rep.dry_multiplier,
                                 "dry_allowed_length": rep.dry_allowed_length}
        for group in dropped:
            for name in _OPTIONAL[group]:
                knobs.pop(name, None)
        if dialect is Dialect.OLLAMA:
            knobs.pop("dry_multiplier", None)
            knobs.pop("dry_allowed_length", None)
            root = self.base.removesuffix("/v1")
            return f"{root}/api/chat", {
                "model": self.llm.model, "messages": messages, "stream": False,
                "format": dict(request.schema),
                "options": {"num_predict": tokens, **knobs}}
        body: dict[str, Any] = {"model": self.llm.model, "messages": messages,
                                token_field: tokens, "stream": False, **knobs}
        if dialect is Dialect.JSON_SCHEMA:
            body["response_format"] = {"type": "json_schema", "json_schema": {
                "name": request.name, "strict": True, "schema": dict(request.schema)}}
        elif dialect is Dialect.LLAMA_SCHEMA:
            body["json_schema"] = dict(request.schema)
        elif dialect is Dialect.LLAMA_GRAMMAR:
            body["grammar"] = gbnf(request.schema)
        elif dialect is Dialect.JSON_OBJECT:
            body["response_format"] = {"type": "json_object", "schema": dict(request.schema)}
        return f"{self.base}/chat/completions", body

    def _post(self, url: str, body: dict[str, Any], timeout: float,
              cut_by_budget: bool) -> tuple[int, str, float]:
        """Status, body text and seconds. Read in chunks so that a server dripping bytes is
        cut off at the deadline too, not only one that goes silent."""
        started = self.clock()
        stop = started + timeout
        with self._lock:
            answers = self._answers
        why = " (the episode's [llm] max_seconds budget ran out)" if cut_by_budget else ""
        chunks: list[bytes] = []
        try:
            with self._http.stream("POST", url, json=body, timeout=httpx.Timeout(
                    timeout, connect=min(10.0, timeout))) as resp:
                size = 0
                for chunk in resp.iter_bytes():
                    chunks.append(chunk)
                    size += len(chunk)
                    if size > MAX_BYTES:
                        raise self._failed(f"{self.where} sent more than {MAX_BYTES:,} bytes; "
                                       "check [llm] base_url points at a chat server")
                    if self.clock() > stop:
                        raise httpx.ReadTimeout("deadline")
                status = resp.status_code
        except httpx.TimeoutException as exc:
            # the server had the prompt, and most likely read it: count it, estimated
            self._count(self.clock() - started, prompt=_estimate(_prompt_text(body)),
                        estimated=True)
            said = f"{self.where} timed out after {round(timeout, 1):g}s{why}"
            if cut_by_budget:
                raise LLMBudgetError(said) from exc
            with self._lock:
                busy = self._answers != answers  # it answered others while this one waited
            raise (LLMError(said) if busy else self._failed(said)) from exc
        except httpx.HTTPError as exc:
            self._count(self.clock() - started)
            raise self._failed(self.redact(f"{self.where} is unreachable: {exc}; start it or "
                                           "fix [llm] base_url")) from exc
        with self._lock:
            self._answers += 1
        seconds = self.clock() - started
        self._count(seconds)
        return status, self.redact(b"".join(chunks).decode("utf-8", "replace")), seconds

    def _count(self, seconds: float, prompt: int = 0, completion: int = 0,
               estimated: bool = False, request: int = 1) -> None:
        with self._lock:
            t = self._totals
            self._totals = Totals(t.requests + request, t.prompt_tokens + prompt,
                                  t.completion_tokens + completion, t.seconds + seconds,
                                  t.estimated or estimated)

    # ---- reading the answer

    def _reply(self, request: Request, dialect: Dialect, text: str, seconds: float) -> Reply:
        try:
            data = json.loads(text)
            if dialect is Dialect.OLLAMA:
                content, finish = data["message"]["content"], data.get("done_reason", "")
                usage = {"prompt_tokens": data.get("prompt_eval_count"),
                         "completion_tokens": data.get("eval_count")}
            else:
                choice = data["choices"][0]
                content, finish = choice["message"]["content"], choice.get("finish_reason")
                usage = data.get("usage") or {}
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise self._failed(f"{self.where} sent a reply that is not a chat completion; "
                               "check [llm] base_url") from exc
        # Scrubbed again once decoded: a \u-escaped key is only whole after decoding.
        content, finish = self.redact(str(content or "")), str(finish or "")
        said_prompt, said_completion = usage.get("prompt_tokens"), usage.get("completion_tokens")
        estimated = not (isinstance(said_prompt, int) and isinstance(said_completion, int))
        prompt = said_prompt if isinstance(said_prompt, int) else _estimate(
            _prompt_text({"messages": request.messages}))
        completion = said_completion if isinstance(said_completion, int) else _estimate(content)
        self._count(0.0, prompt, completion, estimated, request=0)
        strict = strict_object(content)
        if strict is None and dialect is not Dialect.PLAIN and finish != "length":
            self._advance(dialect)  # the server took the schema and ignored it
        data_out, problem = strict, ""
        if data_out is None:
            try:
                data_out = parse_answer(content)
            except json.JSONDecodeError as exc:
                problem = (f"the answer is not valid JSON: {exc.msg} at character {exc.pos} "
                           "of the object")
            except ValueError as exc:
                problem = str(exc)
                if finish == "length":
                    budget = min(request.max_tokens, self.llm.max_tokens)
                    problem = (f"the answer stopped at its {budget}-token budget "
                               "before its JSON was complete; answer more briefly")
        if data_out is not None:
            data_out = self.redact.scrub_json(data_out)  # the answer's own \u escapes, too
            problem = schema_problem(data_out, request.schema)
        return Reply(content, data_out, problem, dialect, finish, prompt, completion, seconds)

    # ---- negotiation

    def _adapt(self, status: int, text: str, dialect: Dialect, dropped: set[str],
               token_field: str) -> bool:
        """Change what is sent after a refusal; False when nothing is left to change."""
        if status in (401, 403, 408, 429):
            return False
        said = text.lower()
        with _MEMORY_LOCK:
            server = self._server
            if server.dropped != dropped or server.token_field != token_field \
                    or self.dialect is not dialect:
                return True  # another request already adapted: try again as things are now
            for group, names in _OPTIONAL.items():
                if group not in dropped and any(n in said for n in names):
                    server.dropped.add(group)
                    return True
            if token_field == "max_tokens" and "max_completion_tokens" in said:
                server.token_field = "max_completion_tokens"
                return True
        if dialect is Dialect.OLLAMA and status in (404, 405):
            return self._advance(dialect)
        if dialect is not Dialect.PLAIN and status != 404 and (
                status in (400, 422) or any(w in said for w in _STRUCTURED_WORDS)):
            return self._advance(dialect)
        return False

    def _advance(self, dialect: Dialect) -> bool:
        with _MEMORY_LOCK:
            if self.dialect is dialect and self._server.dialect < len(self.dialects) - 1:
                self._server.dialect += 1
            return self.dialect is not dialect

    def _refusal(self, status: int, text: str) -> str:
        detail = " ".join(text.split())[:300]
        fix = {401: f"set ${self.llm.api_key_env} to a valid key",
               403: f"set ${self.llm.api_key_env} to a key allowed to use this model",
               404: "check [llm] base_url and model",
               429: "the server is rate-limiting; try later or raise its limits"}.get(
                   status, "check the server's log")
        return f"{self.where} answered HTTP {status}{': ' + detail if detail else ''}; {fix}"


_SERVER_WIDE = frozenset({401, 402, 403, 404, 405, 407, 408, 429})


def _estimate(text: str) -> int:
    """Tokens in `text` when the server does not say: about four characters each."""
    return max(1, math.ceil(len(text) / 4))


def _prompt_text(body: Mapping[str, Any]) -> str:
    return " ".join(str(m.get("content", "")) for m in body.get("messages", ()))
