"""Publishing: the episode site, the podcast feeds, episode media, and a preview server.

A light face: each name loads its module (templates, image drawing) on first use. The
preview server's function is `publish.serve.serve`: the attribute `serve` is its module.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .serve import make_server
    from .site import Publisher, PublishReport, publish_site

_HOME = {"make_server": "serve", "Publisher": "site", "PublishReport": "site",
         "publish_site": "site"}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)


__all__ = ["PublishReport", "Publisher", "make_server", "publish_site"]
