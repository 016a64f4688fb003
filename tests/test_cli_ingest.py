import json
import sqlite3
import subprocess
import tomllib

from click.testing import CliRunner

from gitrepo import GIT_ENV, Commit, day
from mergecast import config
from mergecast.cli import main


def run(*args, cwd=None):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def history():
    return [
        Commit("Add parser (#1)", day(23, 15), {"p.py": b"a\nb\n"}),
        Commit("Speed up parser (#2)\n\nPull Request resolved: https://github.com/o/r/pull/2",
               day(24, 9), {"p.py": b"a\nc\nd\n"}),
        Commit('Revert "Speed up parser (#2)"\n\nThis reverts commit '
               "0123456789abcdef0123456789abcdef01234567.", day(24, 11)),
        Commit("Later work (#4)", day(26, 9), {"q.py": b"x\n"}),
    ]


def test_ingest_then_changes_json(make_repo, tmp_path):
    repo = make_repo(history(), origin="https://github.com/o/r.git")
    db = tmp_path / "m.db"
    r = run("--db", db, "ingest", "--repo", repo)
    assert r.exit_code == 0, r.output
    assert r.stdout == "ingested 4 changes from o/r (4 new, 0 updated)\n"
    again = run("--db", db, "ingest", "--repo", repo)
    assert again.stdout == "ingested 0 changes from o/r (0 new, 0 updated)\n"
    out = run("--db", db, "changes", "--date", "2026-07-24", "--json")
    assert out.exit_code == 0
    rows = json.loads(out.stdout)
    assert [r["number"] for r in rows] == [1, 2, None]
    for key in ("number", "sha", "title", "author", "state", "created_at", "merged_at",
                "closed_at", "landed_at", "labels", "files", "trailers", "revert", "url"):
        assert key in rows[0]
    assert rows[1]["title"] == "Speed up parser" and rows[1]["author"] == "Ada Lovelace"
    assert rows[1]["files"] == [{"path": "p.py", "additions": 2, "deletions": 1,
                                 "status": "modified", "previous_path": None}]
    assert rows[2]["revert"]["sha"] == "0123456789abcdef0123456789abcdef01234567"
    human = run("--db", db, "changes", "--since", "2026-07-26", "--until", "2026-07-27")
    assert human.stdout.splitlines() == [
        "2026-07-26 09:00  #4         landed  Ada Lovelace     Later work  (+1 -0, 1 files)"
    ]


def test_incremental_ingest_reads_only_new_commits(make_repo, tmp_path):
    commits = history()
    repo = make_repo(commits[:2])
    db = tmp_path / "m.db"
    run("--db", db, "ingest", "--repo", repo)
    more = Commit("Third (#3)", day(25), {"z": b"1\n"})
    subprocess.run(["git", "-C", str(repo), "fast-import", "--quiet"], check=True, env=GIT_ENV,
                   input=b"commit refs/heads/main\ncommitter T <t@x> %d +0000\n"
                   b"data 10\nThird (#3)\nfrom refs/heads/main^0\n\n" % int(more.when.timestamp()))
    r = run("--db", db, "ingest", "--repo", repo)
    assert r.stdout == f"ingested 1 changes from {repo.name} (1 new, 0 updated)\n"


def test_windowed_ingest(make_repo, tmp_path):
    repo = make_repo(history())
    r = run("--db", tmp_path / "m.db", "ingest", "--repo", repo, "--since", "2026-07-24",
            "--until", "2026-07-25")
    assert r.stdout == f"ingested 2 changes from {repo.name} (2 new, 0 updated)\n"


def test_bad_inputs_exit_2_with_one_line(make_repo, tmp_path):
    plain = tmp_path / "plain"
    plain.mkdir()
    db = tmp_path / "m.db"
    r = run("--db", db, "ingest", "--repo", plain)
    assert r.exit_code == 2
    assert r.stderr == (
        f"mergecast: {plain} is not a git repository; pass --repo with a git checkout\n"
    )
    repo = make_repo(history())
    r = run("--db", db, "ingest", "--repo", repo, "--ref", "nope")
    assert r.exit_code == 2
    assert r.stderr == (f"mergecast: ref 'nope' not found in {repo}; pass --ref with an existing "
                        "branch, tag or commit\n")
    empty = make_repo([])
    r = run("--db", db, "ingest", "--repo", empty)
    assert r.exit_code == 2 and r.stderr == (
        f"mergecast: {empty} has no commits yet; commit something first or pass --repo with a "
        "repository that has history\n")
    r = run("--db", db, "ingest", "--repo", repo, "--since", "yesterday")
    assert r.exit_code == 2 and r.stderr == (
        "mergecast: expected an ISO date or datetime such as 2026-07-25 or 2026-07-25T13:00, "
        "got 'yesterday' for --since\n")
    r = run("--db", db, "ingest", "--repo", repo, "--repo-name", "nope")
    assert r.exit_code == 2 and r.stderr == (
        "mergecast: expected a GitHub repository as OWNER/NAME, got 'nope' for --repo-name\n")
    r = run("--db", db, "ingest", "--repo", repo, "--since", "2026-08-10", "--until", "2026-08-01")
    assert r.exit_code == 2 and r.stderr == (
        "mergecast: expected --until after --since, got 2026-08-10 .. 2026-08-01\n")
    count = sqlite3.connect(db).execute("SELECT COUNT(*) FROM changes").fetchone()
    assert count == (0,)


def test_no_git_on_path(make_repo, tmp_path, monkeypatch):
    repo = make_repo(history())
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    r = run("--db", tmp_path / "m.db", "ingest", "--repo", repo)
    assert r.exit_code == 2
    assert r.stderr == "mergecast: git not found on PATH; install git or add it to PATH\n"


def test_store_errors_exit_1(make_repo, tmp_path):
    repo = make_repo(history())
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"garbage " * 200)
    r = run("--db", bad, "ingest", "--repo", repo)
    assert r.exit_code == 1
    assert r.stderr == (f"mergecast: {bad} is not a mergecast store (not an SQLite database); "
                        "move it aside or pass --db with another path\n")
    newer = tmp_path / "newer.db"
    sqlite3.connect(newer).execute("PRAGMA user_version = 99")
    r = run("--db", newer, "changes", "--date", "2026-07-24")
    assert r.exit_code == 1 and "has schema version 99, newer than this mergecast" in r.stderr


def test_shallow_and_partial_clones_warn_and_ingest(make_repo, tmp_path):
    repo = make_repo(history())
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "2", f"file://{repo}", str(clone)],
                   check=True, env=GIT_ENV)
    r = run("--db", tmp_path / "m.db", "ingest", "--repo", clone)
    assert r.exit_code == 0
    assert r.stderr == (f"mergecast: warning: {clone} is a shallow clone; only the commits it "
                        "holds are read (run `git fetch --unshallow` there for the full history)\n")
    assert r.stdout.startswith("ingested 2 changes")
    blob = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD~3:p.py"],
                          capture_output=True, text=True, check=True).stdout.strip()
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    r = run("--db", tmp_path / "p.db", "ingest", "--repo", repo)
    assert r.exit_code == 0 and r.stdout.startswith("ingested 4 changes")
    assert r.stderr.count("mergecast: warning:") == 1 and "missing file contents" in r.stderr


def test_gh_json_ingest_joins_git(make_repo, tmp_path):
    repo = make_repo(history(), origin="git@github.com:o/r.git")
    db = tmp_path / "m.db"
    run("--db", db, "ingest", "--repo", repo)
    export = tmp_path / "prs.json"
    export.write_text(json.dumps([{
        "number": 2, "title": "Speed up the parser", "state": "MERGED",
        "url": "https://github.com/o/r/pull/2", "author": {"login": "ada"},
        "createdAt": "2026-07-23T10:00:00Z", "mergedAt": "2026-07-24T09:00:00Z",
        "updatedAt": "2026-07-24T09:00:00Z", "labels": [{"name": "perf"}],
    }]))
    r = run("--db", db, "ingest", "--gh-json", export)
    assert r.exit_code == 0, r.output
    assert r.stdout == "ingested 1 changes from o/r (0 new, 1 updated)\n"
    rows = json.loads(run("--db", db, "changes", "--date", "2026-07-24", "--json").stdout)
    (two,) = [x for x in rows if x["number"] == 2]
    assert two["title"] == "Speed up the parser" and two["labels"] == ["perf"]
    assert two["state"] == "merged" and two["landed_at"] and two["files"][0]["additions"] == 2
    assert run("--db", db, "ingest", "--gh-json", export).stdout.endswith("(0 new, 0 updated)\n")


def test_init_writes_a_loadable_config_and_refuses_to_overwrite(make_repo, monkeypatch):
    repo = make_repo(history(), origin="https://github.com/octo/widgets.git")
    monkeypatch.chdir(repo)
    r = run("init")
    assert r.exit_code == 0
    assert r.stdout.splitlines()[0] == f"wrote {repo / 'mergecast.toml'} for octo/widgets"
    cfg = config.load(repo / "mergecast.toml")
    assert cfg.source.github == "octo/widgets" and cfg.show.name == "widgets"
    assert cfg.source.repo is not None and cfg.source.repo.resolve() == repo.resolve()
    assert tomllib.loads((repo / "mergecast.toml").read_text())["show"]["title"] == "widgets daily"
    r = run("init")
    assert r.exit_code == 2
    assert r.stderr == (
        f"mergecast: {repo / 'mergecast.toml'} already exists; pass --force to overwrite it\n"
    )
    assert run("init", "--force").exit_code == 0
    # With the config in place, a bare ingest reads this repository under its GitHub slug.
    r = run("ingest")
    assert r.stdout == "ingested 4 changes from octo/widgets (4 new, 0 updated)\n"


def test_help_everywhere():
    for cmd in ("init", "ingest", "changes"):
        r = run(cmd, "--help")
        assert r.exit_code == 0 and "Usage:" in r.stdout


def test_init_into_an_unwritable_folder_is_one_line(tmp_path, monkeypatch):
    from fsfaults import read_only

    folder = tmp_path / "ro"
    folder.mkdir()
    monkeypatch.chdir(folder)
    with read_only(folder):
        r = run("init")
    assert (r.exit_code, r.stdout) == (1, "")
    assert r.stderr == (
        f"mergecast: cannot write mergecast.toml to {folder}: Read-only file system; check the "
        "folder is writable and the disk has space\n")
    assert list(folder.iterdir()) == []
