import datetime as dt
import json
import logging
import sqlite3
import subprocess

import pytest
from click.testing import CliRunner

from fsfaults import fill, read_only, small_disk
from mergecast.cli import main
from mergecast.errors import StoreError
from mergecast.models import (
    Audio,
    Change,
    Episode,
    FileChange,
    FileStatus,
    Person,
    Revert,
    Script,
    State,
    Trailer,
    Window,
)
from mergecast.models.merging import merge_change
from mergecast.store import SCHEMA_VERSION, Store
from mergecast.store_errors import store_failure

UTC = dt.UTC
T = lambda d, h=12: dt.datetime(2026, 7, d, h, tzinfo=UTC)  # noqa: E731


def commit(**kw):
    base = dict(repo="o/r", title="Fix it", number=7, shas=("abc",), state=State.LANDED,
                landed_at=T(24), author=Person(name="Ada", email="ada@x.org"),
                files=(FileChange("a.py", 3, 1),), additions=3, deletions=1, changed_files=1,
                trailers=(Trailer("Signed-off-by", "Ada"),), revert=Revert(pr=3))
    base.update(kw)
    return Change(**base)


def pr(**kw):
    base = dict(repo="o/r", title="Fix it properly", number=7, state=State.MERGED,
                created_at=T(20), updated_at=T(24, 13), merged_at=T(24),
                author=Person(login="ada"), labels=("module: mps",), url="https://x/pull/7",
                files=(FileChange("a.py"),), files_truncated=False)
    base.update(kw)
    return Change(**base)


def test_schema_wal_and_version(tmp_path):
    path = tmp_path / "deep" / "m.db"
    Store(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "m.db"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError) as err:
        Store(path)
    assert str(err.value) == (
        f"store {path} has schema version {SCHEMA_VERSION + 1}, newer than this mergecast "
        f"reads ({SCHEMA_VERSION}); upgrade mergecast, or pass --db with another path"
    )


def test_not_a_database(tmp_path):
    path = tmp_path / "m.db"
    path.write_bytes(b"this is not sqlite at all, just some text " * 100)
    with pytest.raises(StoreError) as err:
        Store(path)
    assert str(err.value) == (
        f"{path} is not a mergecast store (not an SQLite database); "
        "move it aside or pass --db with another path"
    )
    assert path.read_bytes().startswith(b"this is not sqlite")


def test_a_directory_is_unreadable(tmp_path):
    with pytest.raises(StoreError, match=r"^cannot open store .*; check the path"):
        Store(tmp_path)


def test_upsert_round_trips_and_is_idempotent(tmp_path):
    with Store(tmp_path / "m.db") as s:
        c = commit()
        assert s.merge_changes([c]) == (1, 0)
        assert s.merge_changes([c]) == (0, 0)
        assert s.changes_in(Window(T(24, 0), T(25, 0))) == [c]
        assert s.changes_in(Window(T(25, 0), T(26, 0))) == []


def test_a_pr_seen_in_git_and_an_export_becomes_one_change(tmp_path):
    with Store(tmp_path / "m.db") as s:
        s.upsert_changes([commit()])
        assert s.merge_changes([pr()]) == (0, 1)
        (joined,) = s.changes_between(T(1), T(31))
        assert joined.title == "Fix it properly" and joined.state is State.MERGED
        assert joined.labels == ("module: mps",) and joined.created_at == T(20)
        assert joined.landed_at == T(24) and joined.shas == ("abc",)
        assert joined.files == (FileChange("a.py", 3, 1),)  # git's per-file stats
        assert joined.author == Person(login="ada", name="Ada", email="ada@x.org")
        assert joined.trailers == (Trailer("Signed-off-by", "Ada"),)
        # Either order gives the same change, and re-ingesting either side changes nothing.
        assert merge_change(pr(), commit()) == joined
        assert s.merge_changes([commit(), pr()]) == (0, 0)


def test_newer_export_wins_and_older_does_not(tmp_path):
    with Store(tmp_path / "m.db") as s:
        s.upsert_changes([pr(state=State.OPEN, merged_at=None, updated_at=T(22), draft=True)])
        s.upsert_changes([pr()])
        assert s.changes_between(T(1), T(31))[0].state is State.MERGED
        assert not s.changes_between(T(1), T(31))[0].draft
        assert s.upsert_changes([pr(state=State.OPEN, merged_at=None, updated_at=T(22))]) == 0


def test_two_landings_of_one_pr_keep_the_later(tmp_path):
    with Store(tmp_path / "m.db") as s:
        later = commit(shas=("def",), landed_at=T(26), title="Fix it again")
        s.upsert_changes([later, commit()])  # newest first, as git log reads
        (c,) = s.changes_between(T(1), T(31))
        assert c.shas == ("abc", "def") and c.landed_at == T(26) and c.title == "Fix it again"


def test_transaction_rolls_back_everything(tmp_path):
    with Store(tmp_path / "m.db") as s:
        def boom():
            yield commit(number=1)
            yield commit(number=2)
            raise KeyboardInterrupt
        with pytest.raises(KeyboardInterrupt), s.transaction():
            s.set_state("cursor", "abc")
            s.upsert_changes(boom())
        assert s.count_changes() == 0 and s.get_state("cursor") is None


def test_authors_latest_state_and_cache(tmp_path):
    with Store(tmp_path / "m.db") as s:
        s.upsert_changes([commit(number=1, landed_at=T(10)),
                          pr(number=2, author=Person(login="bo"))])
        ada = Person(name="Ada", email="ada@x.org")
        assert s.earlier_people(T(15)) == {ada}
        assert s.earlier_people(T(21)) == {ada, Person(login="bo")}
        assert s.earliest_activity() == T(10)
        assert s.latest_activity(T(24, 13)) == T(24, 13)
        s.set_state("k", "v")
        s.set_state("k", "w")
        assert s.get_state("k") == "w" and s.get_state("x") is None
        assert s.cache_get("u") is None
        s.cache_put("u", '"etag"', b"\x00body")
        got = s.cache_get("u")
        assert got is not None and got.etag == '"etag"' and got.body == b"\x00body"
        assert got.stored_at.tzinfo is not None


def test_episodes(tmp_path):
    def ep(i, d):
        script = Script(show="s", date=dt.date(2026, 7, d), title=f"t{i}", summary="",
                        writer="template", sections=())
        return Episode(id=f"2026-07-{d:02d}", kind="daily", window=Window(T(d - 1, 13), T(d, 13)),
                       published_at=T(d, 13), script=script,
                       audio=Audio(duration_seconds=1.0, cues=(), chapters=()), links={7: "u"})
    with Store(tmp_path / "m.db") as s:
        s.save_episode(ep(1, 25))
        s.save_episode(ep(2, 24))
        s.save_episode(ep(3, 25))  # replaces by id
        assert [e.script.title for e in s.episodes()] == ["t2", "t3"]
        assert s.episode("2026-07-25") == ep(3, 25)
        assert s.episode("nope") is None


def test_a_pr_export_joined_onto_a_commit_keeps_its_author_association(tmp_path):
    with Store(tmp_path / "m.db") as s:
        s.merge_changes([commit(number=9)])
        s.merge_changes([pr(number=9, author_association="FIRST_TIME_CONTRIBUTOR")])
        [c] = s.changes_between(T(1), T(31))
        assert c.author_association == "FIRST_TIME_CONTRIBUTOR"
# ------------------------------------------------------------------ broken clocks, bad files

PR = {"number": 5, "title": "Fix the parser", "url": "https://github.com/o/r/pull/5",
      "createdAt": "2026-08-10T10:00:00Z", "state": "OPEN"}


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_latest_activity_ignores_broken_clocks_and_warns(tmp_path, caplog):
    now = T(25)
    with Store(tmp_path / "m.db") as s:
        s.upsert_changes([
            commit(number=1, landed_at=T(24)),
            commit(number=2, landed_at=dt.datetime(2099, 3, 1, tzinfo=UTC)),
            pr(number=3, created_at=T(20), updated_at=dt.datetime.max.replace(tzinfo=UTC)),
            commit(number=4, landed_at=now + dt.timedelta(hours=20)),  # within a day: kept
        ])
        with caplog.at_level(logging.WARNING, "mergecast.store"):
            assert s.latest_activity(now) == now + dt.timedelta(hours=20)
        assert s.count_changes() == 4  # kept
    assert caplog.messages == [
        f"mergecast: warning: 2 change(s) in {tmp_path / 'm.db'} are dated more than a day "
        "after now (latest: o/r#3 on 9999-12-31), from a clock that was wrong; they are kept, "
        "but --date latest does not pick their day"
    ]


def _git(repo, *args, when=None):
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin",
           "GIT_AUTHOR_NAME": "A", "GIT_AUTHOR_EMAIL": "a@x.org", "GIT_COMMITTER_NAME": "A",
           "GIT_COMMITTER_EMAIL": "a@x.org"}
    if when is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"@{when} +0000"
    subprocess.run(["git", "-C", str(repo), *args], check=True, env=env, capture_output=True)


@pytest.mark.parametrize("when", [
    int(dt.datetime(2099, 3, 1, tzinfo=UTC).timestamp()),  # topped the feed before
    int(dt.datetime(9999, 12, 31, 22, tzinfo=UTC).timestamp()),  # OverflowError on every run
    9_999_999_999_999,  # year 318857: a ValueError at ingest
])
def test_cli_run_latest_never_picks_a_broken_clock_day(tmp_path, when):
    repo = tmp_path / "repo"
    _git(tmp_path, "init", "-q", "-b", "main", str(repo))
    good = int(dt.datetime(2026, 8, 10, 10, tzinfo=UTC).timestamp())
    _git(repo, "commit", "-q", "--allow-empty", "-m", "Fix the parser (#5)", when=good)
    _git(repo, "commit", "-q", "--allow-empty", "-m", "From the future (#6)", when=when)
    result = cli("--db", tmp_path / "m.db", "run", "--repo", repo, "--repo-name", "o/r",
                 "--voice", "none", "--out", tmp_path / "site")
    assert result.exit_code == 0, result.output
    assert "published: 2026-08-10 — " in result.stdout
    assert sorted(p.name for p in (tmp_path / "site" / "episodes").iterdir()) == ["2026-08-10"]


def test_a_full_disk_is_told_apart_from_damage(tmp_path):
    with small_disk(tmp_path / "disk") as disk:
        path = disk / "m.db"
        with Store(path) as s:
            s.merge_changes([commit()])
        fill(disk)
        with pytest.raises(StoreError) as opening:  # a new -shm: SQLITE_IOERR_SHMSIZE
            Store(path)
        (disk / "filler").unlink()
        with Store(path) as s:
            fill(disk)
            with pytest.raises(StoreError) as writing:  # SQLITE_FULL
                s.merge_changes([commit(number=n, title="t" * 2000) for n in range(8, 900)])
            (disk / "filler").unlink()
            assert s.count_changes() == 1  # nothing lost, nothing half-written
    for err, doing in ((opening, "open"), (writing, "write")):
        assert str(err.value) == (
            f"cannot {doing} store {path}: its disk is full (0 bytes free); free some space "
            "and run again (the store itself is intact: do not move it aside)"
        )


def test_an_io_error_with_space_left_is_not_called_a_full_disk(tmp_path):
    exc = sqlite3.OperationalError("disk I/O error")
    exc.sqlite_errorcode = 10 | (3 << 8)  # SQLITE_IOERR_WRITE, with plenty of space left
    assert str(store_failure(tmp_path / "m.db", exc, "write")) == (
        f"cannot write store {tmp_path / 'm.db'}: disk I/O error (disk I/O error); check the "
        "disk (`dmesg`), then run again"
    )


def test_cli_a_read_only_store_is_one_line(tmp_path):
    db = tmp_path / "m.db"
    (tmp_path / "prs.json").write_text(json.dumps([PR]))
    assert cli("--db", db, "ingest", "--gh-json", tmp_path / "prs.json").exit_code == 0
    (tmp_path / "more.json").write_text(json.dumps([{**PR, "number": 6}]))
    with read_only(db):
        result = cli("--db", db, "ingest", "--gh-json", tmp_path / "more.json")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"mergecast: cannot write store {db}: it is read-only (attempt to write a readonly "
        "database); make the file and its folder writable for this user, or pass --db with "
        "another path\n"
    )


def test_cli_one_damaged_page_is_named_and_the_fix_is_to_move_it_aside(tmp_path):
    db = tmp_path / "m.db"
    (tmp_path / "prs.json").write_text(json.dumps([PR]))
    assert cli("--db", db, "ingest", "--gh-json", tmp_path / "prs.json").exit_code == 0
    con = sqlite3.connect(db)
    root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'changes'").fetchone()[0]
    size = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    with open(db, "r+b") as fh:  # one page of the changes table overwritten
        fh.seek((root - 1) * size)
        fh.write(b"\xa5" * size)
    result = cli("--db", db, "changes", "--date", "2026-08-10")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"mergecast: store {db} is damaged (database disk image is malformed); move it aside "
        f"(`sqlite3 {db} .recover` can save its rows) and run again to start a new one, or "
        "pass --db with another path\n"
    )


@pytest.mark.parametrize("command", ["changes", "digest", "script"])
def test_cli_a_row_with_a_value_of_the_wrong_type_is_named_not_a_bug(tmp_path, command):
    # a title stored as a number used to reach analysis: "failed unexpectedly … a bug"
    db = tmp_path / "m.db"
    (tmp_path / "prs.json").write_text(json.dumps([PR]))
    assert cli("--db", db, "ingest", "--gh-json", tmp_path / "prs.json").exit_code == 0
    con = sqlite3.connect(db)
    con.execute("UPDATE changes SET data = json_set(data, '$.title', 5)")
    con.commit()
    con.close()
    result = cli("--db", db, command, "--date", "2026-08-10")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"mergecast: store {db} has a malformed row in changes (key 'o/r#5': TypeError); "
        f"remove it with `sqlite3 {db} \"DELETE FROM changes WHERE key = 'o/r#5'\"` "
        "and ingest its source again\n"
    )


@pytest.mark.parametrize(("table", "column", "key", "data"), [
    ("changes", "key", "o/r#5", "not json"),
    ("changes", "key", "o/r#5", '{"repo": 5}'),
    ("episodes", "id", "2026-08-10", '{"id": 5}'),
])
def test_cli_a_malformed_row_is_named_with_its_fix(tmp_path, table, column, key, data):
    db, site = tmp_path / "m.db", tmp_path / "site"
    (tmp_path / "prs.json").write_text(json.dumps([PR]))
    args = ("--db", db, "run", "--gh-json", tmp_path / "prs.json", "--repo-name", "o/r",
            "--date", "2026-08-10", "--voice", "none", "--out", site)
    assert cli(*args).exit_code == 0
    con = sqlite3.connect(db)
    con.execute(f"UPDATE {table} SET data = ?", (data,))
    con.commit()
    con.close()
    result = cli(*args)
    assert result.exit_code == 1
    kind = {"not json": "JSONDecodeError", '{"repo": 5}': "TypeError"}.get(data, "TypeError")
    again = "ingest its source again" if table == "changes" else "run that day again"
    assert result.stderr.splitlines()[-1] == (
        f"mergecast: store {db} has a malformed row in {table} ({column} '{key}': {kind}); "
        f"remove it with `sqlite3 {db} \"DELETE FROM {table} WHERE {column} = '{key}'\"` "
        f"and {again}"
    )
    assert (site / "episodes" / "2026-08-10" / "index.html").is_file()  # nothing lost


ADDED_FILE = FileChange("new.py", 9, 0, FileStatus.ADDED)
MOVED_FILE = FileChange("b.py", 0, 0, FileStatus.RENAMED, previous_path="old/b.py")


def test_file_statuses_round_trip_and_an_old_row_without_them_loads(tmp_path):
    with Store(tmp_path / "m.db") as s:
        s.upsert_changes([commit(files=(ADDED_FILE, MOVED_FILE)), commit(number=8, shas=("d",))])
        db = sqlite3.connect(tmp_path / "m.db")
        # A row as an older mergecast wrote it: files without status or previous_path.
        old = json.loads(db.execute("SELECT data FROM changes WHERE number = 8").fetchone()[0])
        old["files"] = [{"path": "a.py", "additions": 3, "deletions": 1}]
        with db:
            db.execute("UPDATE changes SET data = ? WHERE number = 8", (json.dumps(old),))
        db.close()
        by_number = {c.number: c for c in s.changes_between(T(1), T(31))}
        assert by_number[7].files == (ADDED_FILE, MOVED_FILE)
        assert by_number[8].files == (FileChange("a.py", 3, 1, FileStatus.UNKNOWN),)


def test_a_re_ingest_that_learns_statuses_keeps_them_and_one_that_cannot_tell_loses_none(
        tmp_path):
    known = (FileChange("a.py", 3, 1, FileStatus.MODIFIED),)
    with Store(tmp_path / "m.db") as s:
        s.upsert_changes([commit()])  # stored before statuses existed: unknown
        assert s.merge_changes([commit(files=known)]) == (0, 1)
        (c,) = s.changes_between(T(1), T(31))
        assert c.files == known
        # A PR view whose files have no status (a gh export) keeps git's.
        s.merge_changes([pr(files=(FileChange("a.py", 3, 1),))])
        (c,) = s.changes_between(T(1), T(31))
        assert c.files == known
    older = pr(files=(ADDED_FILE,), updated_at=T(22))
    newer = pr(files=(FileChange("new.py", 9, 0),), updated_at=T(23))
    assert merge_change(older, newer).files == (ADDED_FILE,) == merge_change(newer, older).files
