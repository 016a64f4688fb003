"""`write_script`: pick a writer by name and return a fact-checked Script.

`WRITERS` is the registry the config and the CLI offer; each writer's module (and the
HTTP client the LLM writer needs) loads only when that writer is chosen.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Protocol

from ..errors import InputError
from ..models import Digest, Script, WriterKind

if TYPE_CHECKING:
    import httpx

    from ..config import LLMConfig, WritingConfig


class Writer(Protocol):
    """A writer backend: digest in, Script out (already fact-checked)."""

    name: WriterKind

    def write(self, digest: Digest, *, show: str, day: dt.date, writing: WritingConfig,
              lexicon: Mapping[str, str], weekly: str | None = None) -> Script: ...


WriterFactory = Callable[["LLMConfig", "httpx.BaseTransport | None", Mapping[str, str]], Writer]


def _template(llm: LLMConfig, transport: httpx.BaseTransport | None,
              environ: Mapping[str, str]) -> Writer:
    from .template import TemplateWriter

    return TemplateWriter()


def _llm(llm: LLMConfig, transport: httpx.BaseTransport | None,
         environ: Mapping[str, str]) -> Writer:
    from .llm import LLMWriter

    return LLMWriter(llm, transport=transport, environ=environ)


# Keyed by the enum's values: the names mergecast.toml and --writer accept.
WRITERS: dict[str, WriterFactory] = {
    WriterKind.TEMPLATE.value: _template,
    WriterKind.LLM.value: _llm,
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
        from .template import week_monday

        week_monday(weekly)  # a bad week id fails here, before any writing
        writer = WriterKind.TEMPLATE
    backend = WRITERS[writer](llm, transport, environ)
    return backend.write(digest, show=show, day=day, writing=writing, lexicon=lexicon,
                         weekly=weekly)
