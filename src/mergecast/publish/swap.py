"""Build a new site beside OUT and swap it in, so OUT is always a whole, valid site.

The new tree is built in OUT.parent/.OUT.tmp-XXXX and exchanged with OUT in one
renameat2(RENAME_EXCHANGE) call: at every instant OUT is either the old site or the
new one. Where the kernel or filesystem cannot exchange, two renames are used and a
crash between them is repaired at the next publish (the old site is renamed back).

Each staging folder has a lock file beside it, held with flock for the folder's whole
life: the kernel drops it when the process dies, so a later run can tell a crashed
build's leftovers (remove them) from a concurrent build (leave it alone).

OUT given as a symbolic link is resolved once: the new tree is built beside the link's
target and swapped with it, so the link keeps pointing at the live site. A site we
could not delete after the swap (a read-only folder in it) is refused before anything
is built, and any OS error while building (a full disk) is one PublishError that says
the published site is unchanged.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import glob
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from ..errors import InputError, PublishError

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths; False when the platform cannot (then fall back)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    rc = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if rc == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _detached(args: list[str]) -> bool:
    try:
        subprocess.Popen(  # noqa: S603 - fixed interpreter and script, paths as plain args
            args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, close_fds=True, start_new_session=True,
        )
    except OSError:
        return False
    return True


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _flush(root: Path, written: Sequence[str]) -> None:
    """fsync a few files one by one; for a big build, one syncfs() of the filesystem
    (thousands of fsyncs cost seconds and stall the journal for everything after)."""
    if len(written) <= 256:
        for path in written:
            fd = os.open(path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        return
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.syncfs(fd) == 0:
                return
        except (OSError, AttributeError):
            pass
        os.sync()
    finally:
        os.close(fd)


def _unlocked(lock: Path) -> bool:
    """True when nobody holds `lock` (its builder died or finished)."""
    try:
        fd = os.open(lock, os.O_RDWR)
    except FileNotFoundError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)
    return True


def recover(out: Path) -> None:
    """Undo a crash of an earlier publish: restore a half-swapped OUT, drop stale trees."""
    parent = out.parent
    if not parent.is_dir():
        return
    name = glob.escape(out.name)  # a folder named "*" or "site[1]" matches only itself
    olds = sorted(parent.glob(f".{name}.old-*"))
    if not out.exists() and olds:
        # The fallback swap died between its two renames: the old site is whole; restore it.
        os.rename(olds[-1], out)
        olds = olds[:-1]
    for old in olds:
        shutil.rmtree(old, ignore_errors=True)
    for tmp in parent.glob(f".{name}.tmp-*"):
        if tmp.suffix == ".lock" or not tmp.is_dir():
            continue
        lock = tmp.with_name(tmp.name + ".lock")
        if _unlocked(lock):
            shutil.rmtree(tmp, ignore_errors=True)
            lock.unlink(missing_ok=True)
    for lock in parent.glob(f".{name}.tmp-*.lock"):
        if not lock.with_suffix("").exists() and _unlocked(lock):
            lock.unlink(missing_ok=True)


# Deleting the previous tree (thousands of unlinks of hard-linked files) can take longer
# than building the new one; the new site is live already, so a detached process does it.
_REMOVE = "import os, shutil, sys; shutil.rmtree(sys.argv[1], True); os.unlink(sys.argv[2])"


def site_folder(out: Path) -> Path:
    """The folder a publish to `out` swaps: `out` itself, or the target of a link to it."""
    real = Path(os.path.realpath(out))
    if real.parent == real:
        raise InputError(
            f"cannot publish to {out}: it is the root folder, and a site is built beside its "
            "folder and swapped in; pass --out with a folder such as ./site"
        )
    return real


def _read_only_folder(out: Path) -> Path | None:
    """A folder in OUT we could not empty (so the old tree would outlive the swap)."""
    if not out.is_dir():
        return None
    for folder, _, _ in os.walk(out, onerror=lambda exc: None):
        if not os.access(folder, os.W_OK | os.X_OK):
            return Path(folder)
    return None


_FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


def publish_failure(out: Path, exc: OSError, swapped: bool) -> PublishError:
    """One line for an OS error while publishing to `out`."""
    where = f" ({exc.filename})" if exc.filename else ""
    state = ("the new site is live" if swapped else "the published site is unchanged")
    if exc.errno in _FULL:
        return PublishError(f"cannot publish to {out}: the disk is full; free some space and "
                            f"run again ({state})")
    return PublishError(f"cannot publish to {out}: {exc.strerror or exc}{where}; check that "
                        f"it and its folder are writable, or pass another --out ({state})")


class Staging:
    """A fresh folder beside OUT; `commit()` swaps it in, leaving the context cleans up.

    background=True hands the old tree to a detached `python -c` that deletes it; if that
    process dies, the next publish's `recover` finishes the job.
    """

    def __init__(self, out: Path, *, background: bool = False) -> None:
        self.out = site_folder(out)
        self.background = background
        self.committed = False
        self._fd = -1
        self.lock = Path()
        self.path = Path()

    def __enter__(self) -> Staging:
        parent = self.out.parent
        try:
            parent.mkdir(parents=True, exist_ok=True)
            recover(self.out)
            # The lock exists before the folder, so a concurrent `recover` never sees an
            # unlocked staging folder that is still being built.
            fd, name = tempfile.mkstemp(prefix=f".{self.out.name}.tmp-", suffix=".lock", dir=parent)
        except OSError as exc:
            if exc.errno in _FULL:
                raise publish_failure(self.out, exc, swapped=False) from exc
            raise PublishError(
                f"cannot prepare the output folder {self.out}: {exc.strerror}; "
                "check that its parent folder exists and is writable"
            ) from exc
        stuck = _read_only_folder(self.out)
        if stuck is not None:
            os.close(fd)
            os.unlink(name)
            raise PublishError(
                f"cannot replace {self.out}: {stuck} is read-only, so the old site could not "
                f"be removed after the swap; make it writable (chmod -R u+w {self.out}) or "
                "pass another --out (the published site is unchanged)"
            )
        fcntl.flock(fd, fcntl.LOCK_EX)
        self._fd = fd
        self.lock = Path(name)
        self.path = self.lock.with_suffix("")
        self.path.mkdir()
        return self

    def commit(self, written: Sequence[str] | None = ()) -> None:
        """Make the staged tree OUT; the previous site (if any) ends up at self.path.

        `written`: the files this build wrote (hard-linked ones are already on disk),
        flushed first so a power cut cannot leave an empty file in the new site;
        None skips flushing (benchmarks, throwaway sites).
        """
        if written is not None:
            _flush(self.path, written)
        if not self.out.exists():
            os.rename(self.path, self.out)
        elif not _exchange(self.path, self.out):
            old = self.out.with_name(f".{self.out.name}.old-{self.path.name.rsplit('-', 1)[-1]}")
            os.rename(self.out, old)
            os.rename(self.path, self.out)
            os.rename(old, self.path)
        _fsync_dir(self.out.parent)
        self.committed = True

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if not (self.committed and self.background and self._spawn_remover()):
            shutil.rmtree(self.path, ignore_errors=True)
            self.lock.unlink(missing_ok=True)
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        if isinstance(exc, OSError):
            raise publish_failure(self.out, exc, self.committed) from exc

    def _spawn_remover(self) -> bool:
        return _detached([sys.executable, "-c", _REMOVE, str(self.path), str(self.lock)])
