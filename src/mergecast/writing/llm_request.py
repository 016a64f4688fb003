"""What one LLM request and its answer are: the structured-output dialects servers
speak, the repetition controls, the request, the reply, and an episode's totals. The
transport that sends them is llm_client.py."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from .llm_schema import Schema


class Dialect(StrEnum):
    JSON_SCHEMA = "json_schema"  # response_format json_schema: OpenAI, vLLM, llama.cpp, Ollama
    LLAMA_SCHEMA = "llama_json_schema"  # llama.cpp's own top-level "json_schema"
    LLAMA_GRAMMAR = "llama_grammar"  # llama.cpp's "grammar", GBNF made from the schema
    JSON_OBJECT = "json_object"  # response_format json_object (+ schema: llama-cpp-python)
    OLLAMA = "ollama_format"  # Ollama's native /api/chat with "format": schema
    PLAIN = "plain"  # nothing structured: the schema goes into the prompt


DIALECTS = tuple(Dialect)


@dataclasses.dataclass(frozen=True)
class Repetition:
    """Repetition controls; each server gets the ones it understands."""

    frequency_penalty: float = 0.3  # OpenAI-style, 0-2
    presence_penalty: float = 0.0
    repeat_penalty: float = 1.1  # llama.cpp and Ollama, 1 = off
    dry_multiplier: float = 0.8  # llama.cpp's DRY sampler, 0 = off
    dry_allowed_length: int = 2


@dataclasses.dataclass(frozen=True)
class Request:
    """One chat request. `max_tokens` is the caller's budget from the slot's expected length
    (capped by [llm] max_tokens); `timeout` (seconds) is this request's deadline (capped by
    [llm] timeout and what is left of the episode's budget). For OpenAI's strict mode the
    schema lists every property in `required` and sets additionalProperties to false."""

    messages: tuple[Mapping[str, str], ...]
    schema: Schema
    max_tokens: int
    timeout: float | None = None
    name: str = "answer"
    temperature: float = 0.0
    repetition: Repetition = Repetition()

    def retry(self, reply: Reply, reason: str = "") -> Request:
        """The same request again, with the rejected answer and why it was rejected."""
        why = reason or reply.problem or "it did not follow the rules"
        return dataclasses.replace(self, messages=(
            *self.messages, {"role": "assistant", "content": reply.text[:8000]},
            {"role": "user", "content": f"Your answer failed validation: {why}. "
                                        "Answer again with one JSON object only."}))


@dataclasses.dataclass(frozen=True)
class Reply:
    text: str  # the answer, secrets scrubbed
    data: dict[str, Any] | None  # the JSON object in it (tolerantly parsed), if any
    problem: str  # "" when data fits the schema, else why not, in words for a retry
    dialect: Dialect
    finish_reason: str  # "length" when the token budget cut it off
    prompt_tokens: int
    completion_tokens: int
    seconds: float


@dataclasses.dataclass(frozen=True)
class Totals:
    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    estimated: bool = False  # some token counts were estimated (the server sent no usage)

    def describe(self) -> str:
        about = "about " if self.estimated else ""
        plural = "" if self.requests == 1 else "s"
        return (f"{self.requests} LLM request{plural}, {about}{self.prompt_tokens:,} prompt and "
                f"{self.completion_tokens:,} completion tokens, {self.seconds:.1f} s")
