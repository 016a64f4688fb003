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


def _mounts() -> set[str]:
    with open("/proc/self/mountinfo", encoding="utf-8") as fh:
        return {line.split()[4].replace("\\040", " ") for line in fh}


@contextlib.contextmanager
def _mounted() -> Iterator[None]:
    """Unmount whatever was mounted in the block, wherever it is now: a folder renamed
    (swapped) while mounted takes its mount along, so its first path would miss it."""
    before = _mounts()
    try:
        yield
    finally:
        for point in sorted(_mounts() - before, key=len, reverse=True):
            _umount(Path(point))


@contextlib.contextmanager
def small_disk(folder: Path, size_kb: int = 512) -> Iterator[Path]:
    """`folder` on a fresh tmpfs of `size_kb` kB (skips when mounting is not allowed)."""
    folder.mkdir(parents=True, exist_ok=True)
    with _mounted():
        if os.geteuid() != 0 or not _mount("-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs",
                                           str(folder)):
            pytest.skip("needs the right to mount a tmpfs (run the suite as root)")
        yield folder


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
        with _mounted():
            if not (_mount("--bind", str(path), str(path))
                    and _mount("-o", "remount,bind,ro", str(path))):
                pytest.skip("needs the right to bind-mount (run the suite as root)")
            yield path
        return
    mode = path.stat().st_mode
    path.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    try:
        yield path
    finally:
        path.chmod(mode)
