"""Area names as a maintainer says them: one area however it is spelled, in its own casing.

Spellings fold to one key (lowercase, without spaces, underscores, hyphens, dots or
slashes), so `graph trainer`, `GraphTrainer` and `graph_trainer` are one area. It is
shown as `[areas] names` says, else as data/areas.toml says (MPS, CUDA, CMake, Cortex-M,
ROCm …), else in the spelling the day's changes used most (snake_case read as words).
Labels that say what kind of change it is (`bug`, `enhancement`, `triaged`) are no area.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Mapping

from .policy import policy

_SEPARATORS = re.compile(r"[\s_\-./]+")
_SNAKE_JOIN = re.compile(r"(?<=[A-Za-z0-9])_(?=[A-Za-z0-9])")


def fold(name: str) -> str:
    """The key every spelling of one area shares."""
    return _SEPARATORS.sub("", name.casefold())


@functools.cache
def _not_areas() -> frozenset[str]:
    return frozenset(fold(x) for x in policy("areas")["not_areas"]["labels"])


@functools.cache
def _casing() -> Mapping[str, str]:
    return {fold(k): v for k, v in policy("areas")["display"].items()}


def is_type_label(name: str) -> bool:
    """A label or tag that classifies a change (bug, enhancement, triaged), not a place."""
    return fold(name) in _not_areas()


def display_names(raw: Mapping[str, str], names: Mapping[str, str]) -> dict[str, str]:
    """key -> raw area name, to key -> the area's one display name."""
    configured = {fold(k): v for k, v in names.items()}
    spellings: dict[str, Counter[str]] = {}
    for area in raw.values():
        # An area is said aloud: "qwen3_5" reads as "qwen3 5", not "qwen three underscore".
        spellings.setdefault(fold(area), Counter())[_SNAKE_JOIN.sub(" ", area)] += 1
    chosen = {
        key: configured.get(key) or _casing().get(key)
        or min(counts, key=lambda s: (-counts[s], s.islower() is False, s))
        for key, counts in spellings.items()
    }
    return {k: chosen[fold(area)] for k, area in raw.items()}
