"""What this installation of mergecast is, as one hash of its code and data files.

An episode's source hash holds it beside the package version: a checkout updated without a
version bump (an editable install after `git pull`, as `make demo` makes) would otherwise
reuse audio and a transcript written by the older code for a window whose inputs did not
change."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

_KINDS = (".py", ".toml", ".json", ".html", ".css", ".txt", ".xml", ".js")


def tree_id(root: Path) -> str:
    """A hash of every code and data file under `root` (paths and bytes; compiled caches
    and anything else left out)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in _KINDS
                       and "__pycache__" not in p.parts):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


@functools.cache
def code_id() -> str:
    """This package's `tree_id`, read once a process."""
    return tree_id(Path(__file__).parent)
