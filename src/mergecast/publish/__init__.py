"""Publishing: the episode site, the podcast feeds, and a preview server."""

from __future__ import annotations

from .serve import make_server, serve
from .site import Publisher, PublishReport, publish_site

__all__ = ["PublishReport", "Publisher", "make_server", "publish_site", "serve"]
