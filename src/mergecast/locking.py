"""One run at a time per store and output folder.

An advisory `flock` on a lock file beside each resource: the kernel drops it when the
process dies, so a killed run never leaves a stale lock behind. A lock file we may not
write is opened read-only (flock works on any open file); one we cannot create is one
line naming it and the folder to make writable.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path

from .errors import InputError, LockError


def _open(lock: Path) -> int:
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        return os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        if lock.exists():
            with contextlib.suppress(OSError):
                return os.open(lock, os.O_RDONLY)
        raise LockError(
            f"cannot create the lock file {lock} ({exc.strerror}); make {lock.parent} "
            "writable, or pass another --out or --db"
        ) from exc


def own_folder(path: Path) -> Path:
    """`path`, absolute; InputError for the root folder, which cannot hold mergecast's files
    (nor have a lock beside it)."""
    path = Path(os.path.abspath(path))
    if not path.name:
        raise InputError(
            f"cannot use {path} for mergecast's files: it is the root folder, and "
            "a lock, a store or a site needs a folder of its own; pass --out or --db "
            "with a path such as ./site"
        )
    return path


@contextlib.contextmanager
def exclusive(paths: list[Path], *, wait: float = 30.0, poll: float = 0.1) -> Iterator[None]:
    """Hold a lock for each path (as `<path>.lock`), waiting at most `wait` seconds in all."""
    deadline = time.monotonic() + wait
    fds: list[int] = []
    try:
        for path in paths:
            path = own_folder(path)
            lock = path.with_name(path.name + ".lock")
            fd = _open(lock)
            fds.append(fd)
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise LockError(
                            f"another mergecast run holds {lock}; waited {wait:g} s. "
                            "Let it finish, or stop it, then run again"
                        ) from None
                    time.sleep(poll)
        yield
    finally:
        for fd in reversed(fds):
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
