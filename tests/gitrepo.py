"""Build real git repositories for tests, fast, with git fast-import."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED = REPO_ROOT.parent / "shared"
GIT_ENV = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


@dataclass
class Commit:
    message: str | bytes
    when: dt.datetime = dt.datetime(2026, 7, 24, 12, 0, tzinfo=dt.UTC)
    files: dict[str, bytes | None] = field(default_factory=dict)  # None deletes the path
    author: tuple[str, str] = ("Ada Lovelace", "ada@example.com")
    committer: tuple[str, str] | None = None


def _stamp(t: dt.datetime) -> bytes:
    return b"%d +0000" % int(t.timestamp())


def _data(payload: bytes) -> bytes:
    return b"data %d\n%s\n" % (len(payload), payload)


def build_repo(
    path: Path, commits: Sequence[Commit], *, branch: str = "main", origin: str | None = None
) -> Path:
    """A repository at `path` whose `branch` holds `commits`, oldest first."""
    subprocess.run(["git", "init", "-q", "-b", branch, str(path)], check=True, env=GIT_ENV)
    append_commits(path, commits, branch=branch, on_top=False)
    if origin:
        subprocess.run(["git", "-C", str(path), "remote", "add", "origin", origin], check=True,
                       env=GIT_ENV)
    return path


def append_commits(
    path: Path, commits: Sequence[Commit], *, branch: str = "main", on_top: bool = True
) -> Path:
    """Add `commits` on top of `branch`, or (on_top=False) as its whole history."""
    stream = bytearray()
    for n, c in enumerate(commits, 1):
        who = c.author
        com = c.committer or who
        message = c.message if isinstance(c.message, bytes) else c.message.encode()
        stream += b"commit refs/heads/%s\nmark :%d\n" % (branch.encode(), n)
        stream += b"author %s <%s> %s\n" % (who[0].encode(), who[1].encode(), _stamp(c.when))
        stream += b"committer %s <%s> %s\n" % (com[0].encode(), com[1].encode(), _stamp(c.when))
        stream += _data(message)
        if n > 1:
            stream += b"from :%d\n" % (n - 1)
        elif on_top:
            stream += b"from refs/heads/%s^0\n" % branch.encode()
        for name, content in c.files.items():
            if content is None:
                stream += b"D %s\n" % name.encode()
            else:
                stream += b"M 100644 inline %s\n%s" % (name.encode(), _data(content))
        stream += b"\n"
    if commits:
        subprocess.run(["git", "-C", str(path), "fast-import", "--quiet"], input=bytes(stream),
                       check=True, env=GIT_ENV)
        subprocess.run(["git", "-C", str(path), "checkout", "-q", "-f", branch], check=True,
                       env=GIT_ENV)
    return path


def day(n: int, hour: int = 12) -> dt.datetime:
    """A moment on day n of July 2026 (before 13:00 UTC it belongs to that day's episode)."""
    return dt.datetime(2026, 7, n, hour, 0, tzinfo=dt.UTC)
