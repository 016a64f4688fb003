"""Analysis: pure functions from a window's changes to the day's Digest."""

from .areas import path_rules_from_repo
from .digest import build_digest
from .report import digest_json, format_digest
from .text import clean_body

__all__ = ["build_digest", "clean_body", "digest_json", "format_digest", "path_rules_from_repo"]
