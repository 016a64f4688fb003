"""The SQLite store: changes, ingest cursors, an HTTP cache and episodes.

WAL mode, schema versioned with `PRAGMA user_version` and forward migrations. Changes
are kept as `models.to_dict` JSON keyed by `Change.key`, with indexed activity times
for window queries. Writers batch with executemany inside one transaction; a change seen
again is merged with the stored one (`models.merging`).

Every SQLite failure becomes one StoreError that says what is wrong and what to do:
a full disk (free space, the store is fine) is told apart from a damaged file (move it
aside), a read-only one, and a store another process holds; a row that no longer
decodes is named with the statement that removes it.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import logging
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .errors import StoreError
from .models import (
    Change,
    Episode,
    Person,
    Window,
    from_dict,
    to_dict,
)
from .models.merging import merge_change
from .store_errors import guarded as _guarded
from .store_errors import store_failure

log = logging.getLogger("mergecast.store")
M = TypeVar("M")

BATCH = 2000
_TIMES = ("created_at", "updated_at", "merged_at", "closed_at", "landed_at")

MIGRATIONS: tuple[str, ...] = (
    # 1: the first schema.
    """
    CREATE TABLE changes (
        key TEXT PRIMARY KEY, repo TEXT NOT NULL, number INTEGER, sha TEXT,
        author TEXT NOT NULL, first_at INTEGER, last_at INTEGER,
        created_at INTEGER, updated_at INTEGER, merged_at INTEGER, closed_at INTEGER,
        landed_at INTEGER, data TEXT NOT NULL
    );
    CREATE INDEX changes_first ON changes(first_at);
    CREATE INDEX changes_last ON changes(last_at);
    CREATE INDEX changes_created ON changes(created_at);
    CREATE INDEX changes_updated ON changes(updated_at);
    CREATE INDEX changes_merged ON changes(merged_at);
    CREATE INDEX changes_closed ON changes(closed_at);
    CREATE INDEX changes_landed ON changes(landed_at);
    CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE http_cache (
        key TEXT PRIMARY KEY, etag TEXT, body BLOB NOT NULL, stored_at INTEGER NOT NULL
    );
    CREATE TABLE episodes (id TEXT PRIMARY KEY, published_at INTEGER NOT NULL, data TEXT NOT NULL);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
# A commit's clock can be wrong by years. Activity later than this after "now" is kept
# but never makes `--date latest` pick its day (a 2099 episode would top the feed).
FUTURE_SLACK = dt.timedelta(days=1)
@dataclass(frozen=True)
class CacheEntry:
    etag: str | None
    body: bytes
    stored_at: dt.datetime


def _us(t: dt.datetime | None) -> int | None:
    """Microseconds since the epoch: exact, sortable, and cheap to index."""
    if t is None:
        return None
    return int(t.timestamp()) * 1_000_000 + t.microsecond


def _from_us(v: int) -> dt.datetime:
    try:
        moment = dt.datetime.fromtimestamp(v // 1_000_000, dt.UTC)
    except (OverflowError, OSError, ValueError):  # outside years 1..9999: a broken clock
        if v < 0:
            return dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
        return dt.datetime.max.replace(tzinfo=dt.UTC)
    return moment.replace(microsecond=v % 1_000_000)


class Store:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._depth = 0
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, isolation_level=None, timeout=30)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open store {path}: {exc}; check the path and its "
                             "permissions, or pass --db with another path") from exc
        try:
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"store {path} has schema version {version}, newer than this mergecast "
                    f"reads ({SCHEMA_VERSION}); upgrade mergecast, or pass --db with another path"
                )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate(version)
        except sqlite3.Error as exc:
            self._db.close()
            raise store_failure(path, exc, "open") from exc
        except StoreError:
            self._db.close()
            raise

    def _migrate(self, version: int) -> None:
        for target in range(version + 1, SCHEMA_VERSION + 1):
            with self.transaction():
                for statement in MIGRATIONS[target - 1].split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version = {target}")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """One BEGIN IMMEDIATE .. COMMIT; nested calls join the outer transaction."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise store_failure(self.path, exc, "write") from exc
        self._depth = 1
        try:
            yield
        except BaseException as exc:
            self._depth = 0
            with contextlib.suppress(sqlite3.Error):  # SQLite may have rolled back already
                self._db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise store_failure(self.path, exc, "write") from exc
            raise
        self._depth = 0
        try:
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise store_failure(self.path, exc, "write") from exc

    # ------------------------------------------------------------------ changes

    def _decoded(self, cls: type[M], text: str, table: str, key: str) -> M:
        """A stored row back as a model, or a StoreError naming the row and how to drop it."""
        try:
            return from_dict(cls, json.loads(text))
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
            column = "key" if table == "changes" else "id"
            quoted = key.replace("'", "''")
            again = "ingest its source again" if table == "changes" else "run that day again"
            raise StoreError(
                f"store {self.path} has a malformed row in {table} ({column} {key!r}: "
                f"{type(exc).__name__}); remove it with `sqlite3 {self.path} \"DELETE FROM "
                f"{table} WHERE {column} = '{quoted}'\"` and {again}"
            ) from exc

    @_guarded("write")
    def upsert_changes(self, changes: Iterable[Change]) -> int:
        """Insert or merge by `Change.key`; returns how many rows were added or changed."""
        new, updated = self.merge_changes(changes)
        return new + updated

    @_guarded("write")
    def merge_changes(self, changes: Iterable[Change]) -> tuple[int, int]:
        """Like `upsert_changes`, counting (new, updated) separately."""
        new = updated = 0
        with self.transaction():
            batch: dict[str, Change] = {}
            for change in changes:
                key = change.key
                prev = batch.get(key)
                batch[key] = change if prev is None else merge_change(prev, change)
                if len(batch) >= BATCH:
                    n, u = self._write(batch)
                    new, updated, batch = new + n, updated + u, {}
            if batch:
                n, u = self._write(batch)
                new, updated = new + n, updated + u
        return new, updated

    def _write(self, batch: dict[str, Change]) -> tuple[int, int]:
        keys = list(batch)
        stored: dict[str, str] = {}
        for i in range(0, len(keys), 500):
            part = keys[i : i + 500]
            marks = ",".join("?" * len(part))
            stored.update(self._db.execute(
                f"SELECT key, data FROM changes WHERE key IN ({marks})", part
            ).fetchall())
        rows = []
        new = updated = 0
        for key, change in batch.items():
            row = _row(change)
            old_json = stored.get(key)
            if old_json is None:
                new += 1
            elif old_json == row[-1]:
                continue  # the same input again: nothing to merge
            else:
                old = self._decoded(Change, old_json, "changes", key)
                merged = merge_change(old, change)
                if merged == old:
                    continue
                updated += 1
                row = _row(merged)
            rows.append(row)
        self._db.executemany(
            "INSERT OR REPLACE INTO changes (key, repo, number, sha, author, first_at, last_at, "
            "created_at, updated_at, merged_at, closed_at, landed_at, data) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            rows,
        )
        return new, updated

    def changes_in(self, window: Window) -> list[Change]:
        return self.changes_between(window.since, window.until)

    @_guarded("read")
    def changes_between(self, since: dt.datetime, until: dt.datetime) -> list[Change]:
        """Changes with any activity time in [since, until), oldest activity first."""
        lo, hi = _us(since), _us(until)
        where = " OR ".join(f"({c} >= ? AND {c} < ?)" for c in _TIMES)
        rows = self._db.execute(
            f"SELECT key, data FROM changes WHERE {where} ORDER BY last_at, key",
            (lo, hi) * len(_TIMES),
        ).fetchall()
        window = Window(since, until)
        found = (self._decoded(Change, data, "changes", key) for key, data in rows)
        return [c for c in found if c.active_in(window)]

    @_guarded("read")
    def earlier_people(self, before: dt.datetime) -> set[Person]:
        """Every author of a change first active before `before` (for first-timer claims)."""
        rows = self._db.execute(
            "SELECT DISTINCT json_extract(data, '$.author') FROM changes WHERE first_at < ?",
            (_us(before),),
        )
        return {from_dict(Person, json.loads(r[0])) for r in rows if r[0]}

    @_guarded("read")
    def earliest_activity(self) -> dt.datetime | None:
        """How far back the stored history reaches."""
        row = self._db.execute("SELECT MIN(first_at) FROM changes").fetchone()
        return _from_us(row[0]) if row and row[0] is not None else None

    @_guarded("read")
    def latest_activity(self, now: dt.datetime) -> dt.datetime | None:
        """The newest activity time no later than FUTURE_SLACK after `now`.

        Later times come from broken clocks (a commit dated 2099, or 9999): they stay in
        the store, a warning names them, and they never decide the latest day."""
        limit = _us(now + FUTURE_SLACK)
        newest: int | None = None
        for column in _TIMES:  # each column is indexed: five cheap lookups
            row = self._db.execute(
                f"SELECT MAX({column}) FROM changes WHERE {column} <= ?", (limit,)
            ).fetchone()
            if row[0] is not None and (newest is None or row[0] > newest):
                newest = row[0]
        later = self._db.execute(
            "SELECT COUNT(*), MAX(last_at) FROM changes WHERE last_at > ?", (limit,)
        ).fetchone()
        if later[0]:
            key = self._db.execute(
                "SELECT key FROM changes WHERE last_at = ? ORDER BY key LIMIT 1", (later[1],)
            ).fetchone()[0]
            when = _from_us(later[1]).date().isoformat()
            log.warning(
                "mergecast: warning: %d change(s) in %s are dated more than a day after now "
                "(latest: %s on %s), from a clock that was wrong; they are kept, but "
                "--date latest does not pick their day", later[0], self.path, key, when)
        return _from_us(newest) if newest is not None else None

    @_guarded("read")
    def count_changes(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM changes").fetchone()[0])

    # ------------------------------------------------------------------ state, cache

    @_guarded("read")
    def get_state(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM state WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    @_guarded("write")
    def set_state(self, key: str, value: str) -> None:
        with self.transaction():
            self._db.execute(
                "INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)", (key, value)
            )

    @_guarded("read")
    def cache_get(self, key: str) -> CacheEntry | None:
        row = self._db.execute(
            "SELECT etag, body, stored_at FROM http_cache WHERE key = ?", (key,)
        ).fetchone()
        return CacheEntry(row[0], bytes(row[1]), _from_us(row[2])) if row else None

    @_guarded("write")
    def cache_put(self, key: str, etag: str | None, body: bytes) -> None:
        now = _us(dt.datetime.now(dt.UTC))
        with self.transaction():
            self._db.execute(
                "INSERT OR REPLACE INTO http_cache (key, etag, body, stored_at) VALUES (?,?,?,?)",
                (key, etag, body, now),
            )

    # ------------------------------------------------------------------ episodes

    @_guarded("write")
    def save_episode(self, episode: Episode) -> None:
        with self.transaction():
            self._db.execute(
                "INSERT OR REPLACE INTO episodes (id, published_at, data) VALUES (?, ?, ?)",
                (episode.id, _us(episode.published_at), json.dumps(to_dict(episode))),
            )

    @_guarded("read")
    def episode(self, episode_id: str) -> Episode | None:
        row = self._db.execute("SELECT data FROM episodes WHERE id = ?", (episode_id,)).fetchone()
        return self._decoded(Episode, row[0], "episodes", episode_id) if row else None

    @_guarded("read")
    def episodes(self) -> list[Episode]:
        rows = self._db.execute("SELECT id, data FROM episodes ORDER BY published_at, id")
        return [self._decoded(Episode, data, "episodes", eid) for eid, data in rows]


def _row(c: Change) -> tuple[Any, ...]:
    times = [_us(getattr(c, name)) for name in _TIMES]
    present = [t for t in times if t is not None]
    return (
        c.key, c.repo, c.number, c.sha, c.author.handle,
        min(present) if present else None, max(present) if present else None,
        *times, json.dumps(to_dict(c), ensure_ascii=False, separators=(",", ":")),
    )
