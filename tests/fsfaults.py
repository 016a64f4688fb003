"""Real filesystem faults for tests: a full disk, a read-only file or folder.

A full disk is a small tmpfs mounted over a folder; a read-only file or folder is a
read-only bind mount of it on itself (root ignores permission bits, so chmod would test
nothing when the suite runs as root). Without the right to mount, the caller skips;
as an ordinary user `read_only` falls back to clearing the write bits, which then bite.
"""

from __future__ import annotations

import contextlib
import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


def _mount(*args: str) -> bool:
    done = subprocess.run(["mount", *args], capture_output=True, check=False)
    return done.returncode == 0


def _umount(path: Path) -> None:
    subprocess.run(["umount", "-l", str(path)], capture_output=True, check=False)


@contextlib.contextmanager
def small_disk(folder: Path, size_kb: int = 512) -> Iterator[Path]:
    """`folder` on a fresh tmpfs of `size_kb` kB (skips when mounting is not allowed)."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0 or not _mount("-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs",
                                       str(folder)):
        pytest.skip("needs the right to mount a tmpfs (run the suite as root)")
    try:
        yield folder
    finally:
        _umount(folder)


def fill(folder: Path, leave: int = 0) -> None:
    """Write filler into `folder` until at most `leave` bytes are free."""
    filler = folder / "filler"
    with open(filler, "ab") as fh:
        while os.statvfs(folder).f_bavail * os.statvfs(folder).f_frsize > leave:
            try:
                fh.write(b"\0" * 4096)
                fh.flush()
            except OSError:
                break


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[Path]:
    """`path` (a file or folder) read-only for this process until the block ends."""
    if os.geteuid() == 0:
        if not (_mount("--bind", str(path), str(path))
                and _mount("-o", "remount,bind,ro", str(path))):
            _umount(path)
            pytest.skip("needs the right to bind-mount (run the suite as root)")
        try:
            yield path
        finally:
            _umount(path)
        return
    mode = path.stat().st_mode
    path.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    try:
        yield path
    finally:
        path.chmod(mode)
