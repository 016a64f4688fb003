"""Analysis policy is data: the files under analysis/data/, parsed once each."""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from importlib import resources
from typing import Any


@functools.cache
def policy(name: str) -> Mapping[str, Any]:
    """data/NAME.toml of the analysis package (areas, duplicates, people)."""
    text = resources.files("mergecast.analysis").joinpath(f"data/{name}.toml").read_text(
        encoding="utf-8")
    return tomllib.loads(text)
