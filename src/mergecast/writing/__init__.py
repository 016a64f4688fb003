"""Writing: a digest becomes a grounded episode script (template or LLM writer)."""

from .factcheck import Facts, fact_check
from .fake import fake_llm
from .llm import LLMWriter, WritingWarning
from .normalise import normalise
from .template import TemplateWriter
from .writer import WRITERS, Writer, write_script

__all__ = [
    "WRITERS",
    "Facts",
    "LLMWriter",
    "TemplateWriter",
    "Writer",
    "WritingWarning",
    "fact_check",
    "fake_llm",
    "normalise",
    "write_script",
]
