"""`write_script`: pick a writer by name and return a fact-checked Script."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Mapping
from typing import Protocol

import httpx

from ..config import LLMConfig, WritingConfig
from ..errors import InputError
from ..models import Digest, Script
from .llm import LLMWriter
from .template import TemplateWriter


class Writer(Protocol):
    """A writer backend: digest in, Script out (already fact-checked)."""

    name: str

    def write(self, digest: Digest, *, show: str, day: dt.date, writing: WritingConfig,
              lexicon: Mapping[str, str]) -> Script: ...


WriterFactory = Callable[[LLMConfig, "httpx.BaseTransport | None", Mapping[str, str]], Writer]

WRITERS: dict[str, WriterFactory] = {
    "template": lambda llm, transport, environ: TemplateWriter(),
    "llm": lambda llm, transport, environ: LLMWriter(llm, transport=transport, environ=environ),
}


def write_script(digest: Digest, *, show: str, day: dt.date, writing: WritingConfig,
                 lexicon: Mapping[str, str], llm: LLMConfig, writer: str = "template",
                 transport: httpx.BaseTransport | None = None,
                 environ: Mapping[str, str] = os.environ) -> Script:
    """The episode script for `digest`. Raises EmptyWindowError for an empty window
    (unless writing.allow_empty) and FactCheckError if nothing grounded could be written."""
    if writer not in WRITERS:
        raise InputError(f"expected a writer, one of {', '.join(WRITERS)}, got {writer!r}")
    backend = WRITERS[writer](llm, transport, environ)
    return backend.write(digest, show=show, day=day, writing=writing, lexicon=lexicon)
