import datetime as dt
import sqlite3

import pytest

from mergecast.errors import StoreError
from mergecast.models import (
    Audio,
    Change,
    Episode,
    FileChange,
    Person,
    Revert,
    Script,
    State,
    Trailer,
    Window,
)
from mergecast.store import SCHEMA_VERSION, Store, merge_change

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
        assert s.latest_activity() == T(24, 13)
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
