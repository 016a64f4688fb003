"""SQLite failures of the store as one line each: what is wrong, and what to do.

A full disk (free some space; the store is fine) is told apart from a damaged file
(move it aside), a read-only one, a store another process holds and one that cannot be
opened. SQLite's I/O error on a nearly full disk is a full disk too: an append to the
WAL can fail with SQLITE_IOERR_WRITE rather than SQLITE_FULL.
"""

from __future__ import annotations

import contextlib
import functools
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

from .errors import StoreError

P = ParamSpec("P")
R = TypeVar("R")
_FULL_BELOW = 1 << 20  # bytes: an I/O error with less free space than this is a full disk
# SQLite primary result codes (sqlite3.h)
_PERM, _BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _AUTH, _NOTADB = (
    3, 5, 6, 8, 10, 11, 13, 14, 23, 26)


def _free(path: Path) -> int | None:
    for folder in (path.parent, *path.parents):
        with contextlib.suppress(OSError):
            return shutil.disk_usage(folder).free
    return None


def _size(n: int) -> str:
    for unit in ("bytes", "kB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:,} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1000  # type: ignore[assignment]
    return ""


def store_failure(path: Path, exc: sqlite3.Error, doing: str) -> StoreError:
    """One line for an SQLite error on `path`: what is wrong and what to do about it."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    free = _free(path)
    if primary == _FULL or (primary == _IOERR and free is not None and free < _FULL_BELOW):
        left = f" ({_size(free)} free)" if free is not None else ""
        return StoreError(
            f"cannot {doing} store {path}: its disk is full{left}; free some space and run "
            "again (the store itself is intact: do not move it aside)"
        )
    if primary == _CORRUPT:
        return StoreError(
            f"store {path} is damaged ({exc}); move it aside (`sqlite3 {path} .recover` can "
            "save its rows) and run again to start a new one, or pass --db with another path"
        )
    if primary == _NOTADB:
        return StoreError(f"{path} is not a mergecast store (not an SQLite database); "
                          "move it aside or pass --db with another path")
    if primary == _READONLY:
        return StoreError(
            f"cannot {doing} store {path}: it is read-only ({exc}); make the file and its "
            "folder writable for this user, or pass --db with another path"
        )
    if primary in (_BUSY, _LOCKED):
        return StoreError(f"cannot {doing} store {path}: another process holds it ({exc}); "
                          "let the other mergecast run finish, then run again")
    if primary in (_CANTOPEN, _PERM, _AUTH):
        return StoreError(f"cannot open store {path}: {exc}; check the path and the "
                          "permissions of the file and its folder, or pass --db with another path")
    if primary == _IOERR:
        return StoreError(f"cannot {doing} store {path}: disk I/O error ({exc}); check the disk "
                          "(`dmesg`), then run again")
    return StoreError(f"cannot {doing} store {path}: {exc}; check the file's permissions and "
                      "free disk space, or pass --db with another path")


def guarded(doing: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Turn any SQLite error inside a Store method into one StoreError (see above)."""

    def wrap(fn: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(fn)
        def inner(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return fn(*args, **kwargs)
            except sqlite3.Error as exc:
                path = getattr(args[0], "path")  # noqa: B009 - any object with a .path
                raise store_failure(path, exc, doing) from exc

        return inner

    return wrap
