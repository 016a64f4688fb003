import multiprocessing
import time

import pytest

from mergecast import locking
from mergecast.errors import LockError


def _hold(path, ready, release):
    with locking.exclusive([path]):
        ready.set()
        release.wait(10)


def test_second_holder_waits_then_gives_up_with_a_clear_message(tmp_path):
    db = tmp_path / "mergecast.db"
    ctx = multiprocessing.get_context("fork")
    ready, release = ctx.Event(), ctx.Event()
    holder = ctx.Process(target=_hold, args=(db, ready, release))
    holder.start()
    try:
        assert ready.wait(10)
        start = time.monotonic()
        with pytest.raises(LockError) as err, locking.exclusive([db], wait=0.3):
            pass
        assert time.monotonic() - start >= 0.3
        assert str(err.value) == (
            f"another mergecast run holds {db}.lock; waited 0.3 s. "
            "Let it finish, or stop it, then run again"
        )
    finally:
        release.set()
        holder.join(10)


def test_lock_is_released_when_the_holder_is_killed(tmp_path):
    db = tmp_path / "mergecast.db"
    ctx = multiprocessing.get_context("fork")
    ready, release = ctx.Event(), ctx.Event()
    holder = ctx.Process(target=_hold, args=(db, ready, release))
    holder.start()
    assert ready.wait(10)
    holder.kill()
    holder.join(10)
    with locking.exclusive([db], wait=1):
        pass


def test_reentry_after_release(tmp_path):
    paths = [tmp_path / "a.db", tmp_path / "site"]
    with locking.exclusive(paths):
        pass
    with locking.exclusive(paths, wait=0):
        pass
