"""Writing: a digest becomes a grounded episode script (template or LLM writer).

A light face: each name loads its module on first use, so reading the writer registry
(for the config and the CLI) does not load the writers and their HTTP client. The
pronunciation normaliser is `writing.normalise.normalise`: the package attribute
`normalise` is its module.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .factcheck import Facts, fact_check
    from .fake import fake_llm
    from .llm import LLMWriter, WritingProgress, WritingWarning
    from .template import TemplateWriter
    from .writer import WRITERS, Writer, write_script

_HOME = {
    "Facts": "factcheck", "fact_check": "factcheck", "fake_llm": "fake", "LLMWriter": "llm",
    "WritingWarning": "llm", "WritingProgress": "llm", "TemplateWriter": "template",
    "WRITERS": "writer", "Writer": "writer", "write_script": "writer",
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)


__all__ = [
    "WRITERS",
    "Facts",
    "LLMWriter",
    "TemplateWriter",
    "Writer",
    "WritingProgress",
    "WritingWarning",
    "fact_check",
    "fake_llm",
    "write_script",
]
