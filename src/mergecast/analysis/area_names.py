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

from .language import case_word
from .policy import policy

_SEPARATORS = re.compile(r"[\s_\-./]+")
_SNAKE_JOIN = re.compile(r"(?<=[A-Za-z0-9])_(?=[A-Za-z0-9])")
# A number joined to a word that ends in a digit is its version ("qwen3_5" and "qwen3.5"
# are Qwen3.5, "kimi_k2_7" is Kimi K2.7) unless more digits follow ("qwen3_0_6b": a size,
# "llama3_1_8b": which of the two is not knowable), then it is read as words.
_VERSION = re.compile(r"(?<![A-Za-z0-9])([A-Za-z][A-Za-z0-9]*\d)[_.](\d+)(?=$|_[A-Za-z]|[^\w.])")


def spoken(area: str) -> str:
    """An area as it is said: "qwen3_5_deltanet" -> "Qwen3.5 deltanet" (a versioned name
    is a product's, cased as one up to its version), "graph_trainer" -> "graph trainer"."""
    if re.fullmatch(r"\d+[bm]", area):
        return area.upper()  # a model size: "405b" is said and written "405B"
    if area.isupper() and len(re.split(r"[_\s]+", area)) > 1:
        area = area.capitalize()  # "ISSUE_TEMPLATE" shouts a folder's name: "Issue template"
    m = _VERSION.search(area)
    if m:
        head = area[:m.start(2) - 1]
        cut = head.rfind(" ") + 1  # the versioned name: its words joined by "_"
        name = " ".join(w[:1].upper() + w[1:] for w in head[cut:].split("_"))
        # ("kimi k2_7" is Kimi K2.7 too: a word before the version, cased as the lexicon
        # writes it)
        before = " ".join(case_word(w) for w in head[:cut].split())
        area = (f"{before} " if before else "") + name + "." + area[m.start(2):]
    return _SNAKE_JOIN.sub(" ", area)


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
        spellings.setdefault(fold(area), Counter())[spoken(area)] += 1
    chosen = {
        key: configured.get(key) or _casing().get(key)
        or min(counts, key=lambda s: (-counts[s], s.islower() is False, s))
        for key, counts in spellings.items()
    }
    return {k: chosen[fold(area)] for k, area in raw.items()}
