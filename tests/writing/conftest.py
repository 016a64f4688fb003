"""Each test meets its LLM server for the first time: no dialect remembered from another."""

from __future__ import annotations

import pytest

from mergecast.writing.llm_client import forget_servers


@pytest.fixture(autouse=True)
def _fresh_llm_servers() -> None:
    forget_servers()
