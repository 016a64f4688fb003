import datetime as dt
import subprocess
from pathlib import Path

import pytest

from gitrepo import GIT_ENV, SHARED, Commit, day
from mergecast.errors import GitError
from mergecast.models import FileChange, FileStatus, State, Window
from mergecast.sources.git import (
    GitSource,
    detect_github_slug,
    open_repo,
    parse_numstat,
    parse_remote_url,
)

ADDED, MODIFIED, DELETED, RENAMED = (FileStatus.ADDED, FileStatus.MODIFIED, FileStatus.DELETED,
                                     FileStatus.RENAMED)


def read(path: Path, **kw):
    src = GitSource(path, slug=kw.pop("slug", "o/r"), **kw)
    return list(src.read()), src


def test_reads_commits_newest_first_with_numstat(make_repo):
    repo = make_repo([
        Commit("Add a (#1)", day(20), {"a.txt": b"1\n2\n", "bin.dat": b"\0\1"}),
        Commit("Trim a\n\nbody text\n\nSigned-off-by: Ada <ada@example.com>", day(21),
               {"a.txt": b"1\n", "bin.dat": None}),
    ])
    changes, src = read(repo)
    assert [c.title for c in changes] == ["Trim a", "Add a"]
    newest, oldest = changes
    assert oldest.number == 1 and oldest.url == "https://github.com/o/r/pull/1"
    assert oldest.files == (FileChange("a.txt", 2, 0, ADDED), FileChange("bin.dat", None, None, ADDED))
    assert newest.files == (FileChange("a.txt", 0, 1, MODIFIED),
                            FileChange("bin.dat", None, None, DELETED))
    assert newest.number is None and newest.url.startswith("https://github.com/o/r/commit/")
    assert newest.body.startswith("body text")
    assert newest.trailer_values("Signed-off-by") == ("Ada <ada@example.com>",)
    assert newest.state is State.LANDED and newest.landed_at == day(21)
    assert newest.author.name == "Ada Lovelace" and newest.additions == 0
    assert src.warnings == []


def test_each_file_says_whether_it_was_added_deleted_renamed_or_changed(make_repo):
    loader = b"".join(b"def load_%d(path):\n    return path\n" % n for n in range(20))
    repo = make_repo([
        Commit("Start", day(20), {"flux/loader.py": loader, "old.py": b"x\n", "keep.py": b"1\n"}),
        Commit("Move the loader, drop old.py, add compare", day(21), {
            "flux/loader.py": None, "data/flux_loader.py": loader, "old.py": None,
            "keep.py": b"1\n2\n", "scripts/loss_compare.py": b"a\nb\nc\n"}),
    ])
    newest, oldest = read(repo)[0]
    assert {f.status for f in oldest.files} == {ADDED}
    assert sorted(newest.files, key=lambda f: f.path) == [
        FileChange("data/flux_loader.py", 0, 0, RENAMED, previous_path="flux/loader.py"),
        FileChange("keep.py", 1, 0, MODIFIED),
        FileChange("old.py", 0, 1, DELETED),
        FileChange("scripts/loss_compare.py", 3, 0, ADDED),
    ]
    assert newest.additions == 4 and newest.deletions == 1  # a rename moves no lines


def test_an_unknown_status_letter_or_a_cut_record_is_unknown_not_an_error():
    tokens = [b"\n:100644 100644 abc def X", b"odd.py", b"2\t1\todd.py", b"1\t0\tlost.py",
              b"0\t0\t", b"cut.py"]
    assert parse_numstat(tokens) == (
        FileChange("odd.py", 2, 1, FileStatus.UNKNOWN), FileChange("lost.py", 1, 0))


def test_landing_time_is_the_committer_time_and_windows_use_it(make_repo):
    repo = make_repo([Commit("one", day(20)), Commit("two", day(22)), Commit("three", day(24))])
    src = GitSource(repo, slug="r")
    got = list(src.read(since=day(21), until=day(24)))
    assert [c.title for c in got] == ["two"]
    assert [c.title for c in src.fetch(Window(day(22), day(25)))] == ["three", "two"]


def test_incremental_read_after_a_commit(make_repo):
    repo = make_repo([Commit("one", day(20)), Commit("two", day(21)), Commit("three", day(22))])
    first, src = read(repo)
    after = first[1].sha  # "two"
    again = list(GitSource(repo, slug="o/r").read(after=after))
    assert [c.title for c in again] == ["three"]


def test_non_utf8_messages_are_decoded_with_replacement(make_repo):
    repo = make_repo([Commit(b"Caf\xe9 au lait (#5)\n\nby Jos\xe9", day(20), {"f": b"x\n"})])
    (c,), _ = read(repo)
    assert c.title == "Caf\ufffd au lait" and c.number == 5
    assert "\ufffd" in c.body


def test_reverts_relands_bots_and_co_authors(make_repo):
    repo = make_repo([
        Commit("[reland] Faster thing (#10)", day(20)),
        Commit('Revert "Faster thing (#10)" (#11)\n\nThis reverts commit '
               "0123456789abcdef0123456789abcdef01234567.\n\nCo-authored-by: Bo <bo@x.org>",
               day(21)),
        Commit("Bump deps (#12)", day(22),
               author=("dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com")),
    ])
    bump, revert, reland = read(repo)[0]
    assert reland.reland and not reland.revert
    assert revert.revert is not None and revert.revert.pr == 10 and revert.number == 11
    assert revert.revert.sha == "0123456789abcdef0123456789abcdef01234567"
    assert revert.co_authors[0].name == "Bo"
    assert bump.bot and bump.author.login == "dependabot[bot]"


def test_a_directory_s_last_first_name_is_said_first_last(make_repo):
    # "Also today, Loader, Ada landed PR 3" sounds like two people.
    repo = make_repo([
        Commit("Add the widget (#3)\n\nCo-authored-by: Cache, Bo <bo@x.org>", day(20),
               author=("Loader, Ada", "ada@example.com")),
        Commit("Add the pool (#4)", day(21), author=("Acme, Inc", "acme@example.com")),
    ])
    pool, widget = read(repo)[0]
    assert (widget.author.name, widget.co_authors[0].name) == ("Ada Loader", "Bo Cache")
    assert pool.author.name == "Acme, Inc"  # a company's name is no "Last, First"


def test_configured_bots(make_repo):
    repo = make_repo([Commit("sync", day(20), author=("Sync Robot", "sync-robot@example.com"))])
    (c,), _ = read(repo, bots=["sync-robot"])
    assert c.bot


def test_first_parent_by_default(make_repo, tmp_path):
    repo = make_repo([Commit("base", day(20), {"f": b"1\n"})])
    run = lambda *a: subprocess.run(["git", "-C", str(repo), *a], check=True, env=GIT_ENV,  # noqa: E731
                                    capture_output=True)
    ident = ["-c", "user.name=T", "-c", "user.email=t@x"]
    run("checkout", "-q", "-b", "topic")
    (repo / "g").write_text("side\n")
    run("add", "g")
    run(*ident, "commit", "-q", "-m", "side commit")
    run("checkout", "-q", "main")
    run(*ident, "merge", "-q", "--no-ff", "-m", "Merge pull request #3 from o/topic", "topic")
    titles = [c.title for c in read(repo)[0]]
    assert titles == ["Merge pull request #3 from o/topic", "base"]
    assert read(repo)[0][0].number == 3
    assert "side commit" in [c.title for c in read(repo, first_parent=False)[0]]


def test_ref_is_configurable_and_default_branch_survives_a_branch_named_HEAD(make_repo):
    repo = make_repo([Commit("one", day(20)), Commit("two", day(21))])
    subprocess.run(["git", "-C", str(repo), "branch", "old", "HEAD~1"], check=True, env=GIT_ENV)
    subprocess.run(["git", "-C", str(repo), "update-ref", "refs/heads/HEAD", "HEAD~1"],
                   check=True, env=GIT_ENV)
    info = open_repo(repo)
    assert info.ref == "refs/heads/main"
    assert [c.title for c in read(repo)[0]] == ["two", "one"]
    assert [c.title for c in read(repo, ref="old")[0]] == ["one"]


def test_errors(make_repo, tmp_path, monkeypatch):
    (tmp_path / "plain").mkdir()
    with pytest.raises(GitError, match=r"plain is not a git repository; pass --repo"):
        open_repo(tmp_path / "plain")
    with pytest.raises(GitError, match=r"missing does not exist"):
        open_repo(tmp_path / "missing")
    empty = make_repo([])
    with pytest.raises(GitError, match=r"has no commits yet"):
        open_repo(empty)
    repo = make_repo([Commit("one", day(20))])
    with pytest.raises(GitError, match=r"ref 'nope' not found in .*; pass --ref"):
        open_repo(repo, "nope")
    with pytest.raises(GitError, match=r"^ref '--output=x' is not a valid git ref .*; pass --ref"):
        open_repo(repo, "--output=x")
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    with pytest.raises(GitError, match=r"^git not found on PATH; install git"):
        open_repo(repo)


def test_shallow_clone_warns_and_continues(make_repo, tmp_path):
    repo = make_repo([Commit("one", day(20), {"f": b"1\n"}), Commit("two", day(21), {"f": b"2\n"})])
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(clone)],
                   check=True, env=GIT_ENV)
    changes, src = read(clone)
    assert [c.title for c in changes] == ["two"]
    assert len(src.warnings) == 1 and "shallow clone" in src.warnings[0]


def test_missing_blobs_keep_every_commit_and_mark_only_those_unknown(make_repo):
    commits = [
        Commit(f"c{i} (#{i})", day(10 + i), {f"f{i}": f"v{i}\n".encode(), "common": b"%d\n" % i})
        for i in range(1, 7)
    ]
    repo = make_repo(commits)
    for rev in ("HEAD~2:f4", "HEAD~4:f2"):  # blobs of c4 and c2
        blob = subprocess.run(["git", "-C", str(repo), "rev-parse", rev], capture_output=True,
                              text=True, check=True).stdout.strip()
        (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    fail = subprocess.run(["git", "-C", str(repo), "log", "--numstat"], capture_output=True,
                          text=True)
    assert fail.returncode == 128 and "fatal: unable to read" in fail.stderr
    changes, src = read(repo)
    assert [c.number for c in changes] == [6, 5, 4, 3, 2, 1]
    unknown = [c.number for c in changes if c.files is None]
    assert unknown == [4, 2]
    assert changes[0].files == (FileChange("common", 1, 1, MODIFIED), FileChange("f6", 1, 0, ADDED))
    assert len(src.warnings) == 1 and "missing file contents" in src.warnings[0]


def test_github_slug_from_the_origin_remote(make_repo):
    assert parse_remote_url("https://github.com/pytorch/ao.git") == "pytorch/ao"
    assert parse_remote_url("https://github.com/pytorch/ao") == "pytorch/ao"
    assert parse_remote_url("git@github.com:pytorch/executorch.git") == "pytorch/executorch"
    assert parse_remote_url("ssh://git@github.com/o/r.git") == "o/r"
    assert parse_remote_url("https://gitlab.com/o/r.git") is None
    repo = make_repo([Commit("one", day(20))], origin="git@github.com:o/r.git")
    assert detect_github_slug(repo) == "o/r"
    assert detect_github_slug(make_repo([Commit("one", day(20))])) is None


@pytest.mark.skipif(not (SHARED / "data" / "git").is_dir(), reason="../shared/data/git absent")
def test_replayed_real_history(tmp_path):
    out = tmp_path / "ao"
    subprocess.run([str(SHARED / "tools" / "replay-git"),
                    str(SHARED / "data" / "git" / "pytorch-ao.commits.jsonl"), str(out)],
                   check=True, capture_output=True, env=GIT_ENV)
    changes, src = read(out, slug="pytorch/ao")
    assert len(changes) == 2737
    numbered = [c for c in changes if c.number is not None]
    assert len(numbered) > 0.9 * len(changes)
    assert sum(1 for c in changes if c.revert) > 30
    assert sum(1 for c in changes if c.reland) > 10
    assert any(c.trailer_values("Differential Revision") for c in changes)
    assert any(c.trailer_values("ghstack-source-id") for c in changes)
    assert any(c.bot for c in changes)
    assert all(c.landed_at.tzinfo is dt.UTC for c in changes)
    # Real squash merges whose body quotes another PR's trailer: the subject's number wins.
    assert src.warnings == [
        "13 commit(s) name another PR in a `Pull Request resolved:` line than in their subject "
        "(e.g. 1cef9663b8: subject #4669, body #4646); the subject's number, which GitHub "
        "writes, is used"
    ]


def test_fetch_reads_after_the_cursor_and_everything_when_history_was_rewritten(make_repo):
    repo = make_repo([Commit("one", day(20)), Commit("two", day(21)), Commit("three", day(22))])
    src = GitSource(repo, slug="o/r")
    cursor = src.cursor()
    assert cursor.key == "git:o/r:refs/heads/main:first-parent"
    assert [c.title for c in src.fetch(None, after=cursor.position)] == []
    two = next(c.sha for c in src.fetch(None) if c.title == "two")
    assert [c.title for c in src.fetch(None, after=two)] == ["three"]
    gone = "0" * 40  # a cursor history no longer holds: read it all again
    assert [c.title for c in src.fetch(None, after=gone)] == ["three", "two", "one"]


def test_a_body_line_cannot_move_a_commit_to_another_pr(make_repo):
    hostile = ("Fix the parser (#4242)\n\nLooks harmless.\n\n"
               "Pull Request resolved: https://github.com/o/r/pull/999999")
    repo = make_repo([Commit("Other (#7)", day(20)), Commit(hostile, day(21)),
                      Commit("Same (#8)\n\nPull Request resolved: https://github.com/o/r/pull/8",
                             day(22))])
    changes, src = read(repo)
    assert [c.number for c in changes] == [8, 4242, 7]
    assert changes[1].url == "https://github.com/o/r/pull/4242"
    sha = changes[1].sha
    assert src.warnings == [
        "1 commit(s) name another PR in a `Pull Request resolved:` line than in their subject "
        f"(e.g. {sha[:10]}: subject #4242, body #999999); the subject's number, which GitHub "
        "writes, is used"
    ]
