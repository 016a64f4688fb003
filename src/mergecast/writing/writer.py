"""`write_script`: pick a writer by name and return a fact-checked Script."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Mapping
from typing import Protocol

import httpx

from ..config import LLMConfig, WritingConfig
from ..errors import InputError
from ..models import Digest, Script, WriterKind
from .llm import LLMWriter
from .template import TemplateWriter, week_monday


class Writer(Protocol):
    """A writer backend: digest in, Script out (already fact-checked)."""

    name: WriterKind

    def write(self, digest: Digest, *, show: str, day: dt.date, writing: WritingConfig,
              lexicon: Mapping[str, str], weekly: str | None = None) -> Script: ...


WriterFactory = Callable[[LLMConfig, "httpx.BaseTransport | None", Mapping[str, str]], Writer]

WRITERS: dict[str, WriterFactory] = {
    "template": lambda llm, transport, environ: TemplateWriter(),
    "llm": lambda llm, transport, environ: LLMWriter(llm, transport=transport, environ=environ),
}


def write_script(digest: Digest, *, show: str, day: dt.date, writing: WritingConfig,
                 lexicon: Mapping[str, str], llm: LLMConfig, writer: str = "template",
                 transport: httpx.BaseTransport | None = None,
                 environ: Mapping[str, str] = os.environ, weekly: str | None = None) -> Script:
    """The episode script for `digest`. Raises EmptyWindowError for an empty window
    (unless writing.allow_empty) and FactCheckError if nothing grounded could be written.

    `weekly` ("2026-W30") makes the weekly recap of that ISO week; recaps are always written
    by the template writer, whatever `writer` says."""
    if writer not in WRITERS:
        raise InputError(f"expected a writer, one of {', '.join(WRITERS)}, got {writer!r}")
    if weekly is not None:
        week_monday(weekly)  # a bad week id fails here, before any writing
        writer = "template"
    backend = WRITERS[writer](llm, transport, environ)
    return backend.write(digest, show=show, day=day, writing=writing, lexicon=lexicon,
                         weekly=weekly)
