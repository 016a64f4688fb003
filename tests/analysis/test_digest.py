import dataclasses
import datetime as dt
import json

from analysis_builders import REPO, SAMPLE, at, commit, ghstack, pr, sample, sample_window, window
from click.testing import CliRunner

from mergecast.analysis import build_digest, digest_json, format_digest
from mergecast.cli import main
from mergecast.config import AreasConfig
from mergecast.models import Change, Person, State


def test_joined_commit_and_pr_count_once_and_out_of_window_changes_drop():
    joined = pr(7, "[cache] Faster reads", shas=("e" * 40,), landed_at=at(10, 15))
    stale = pr(8, "Old", day=2)
    d = build_digest([joined, stale], window(10), areas=AreasConfig())
    assert [c.number for c in d.changes] == [7]
    assert (d.counts.changes, d.counts.prs, d.counts.commits) == (1, 1, 1)
    assert d.themes[0].prs == (7,) and d.themes[0].commits == ()
    assert d.area_of == {f"{REPO}#7": "cache"}


def test_first_timers_are_not_reported_without_earlier_authors():
    d = build_digest([pr(1, "x")], window(10), areas=AreasConfig())
    assert d.first_time_contributors == ()


def test_digest_json_shape_and_determinism():
    changes = [pr(n, f"[cache] Part {n}", body=ghstack(n, 1, 2, 3, 4)) for n in (1, 2)]
    changes.append(commit("f" * 40, "Tidy loader"))
    first = digest_json(build_digest(changes, window(10), areas=AreasConfig()))
    again = digest_json(build_digest(list(reversed(changes)), window(10), areas=AreasConfig()))
    assert json.dumps(first, sort_keys=True) == json.dumps(again, sort_keys=True)
    assert set(first) == {"window", "counts", "themes", "duplicates", "reverts", "relands",
                          "chains", "areas", "first_time_contributors", "changes"}
    assert first["changes"][0] == {"number": 1, "sha": None, "handle": "alice", "how": "author",
                                   "recorded": "alice", "group": stack_headline(first)}
    stack_theme = first["themes"][0]
    assert stack_theme["kind"] == "stack" and stack_theme["prs"] == [1, 2]
    assert stack_theme["stack"] == {"tool": "ghstack", "declared_size": 4, "in_window": 2,
                                    "first": 1, "last": 2, "declared": [1, 2, 3, 4]}
    assert first["counts"] == {"changes": 3, "prs": 2, "commits": 1, "authors": 2}
    assert {"name": "cache", "prs": [1, 2], "commits": []} in first["areas"]


def stack_headline(data: dict) -> str:
    return data["themes"][0]["headline"]


def test_format_digest_lists_themes_and_stack_span():
    changes = [pr(n, f"[cache] Part {n}", body=ghstack(n, 1, 2, 3)) for n in (1, 3)]
    text = format_digest(build_digest(changes, window(10), areas=AreasConfig()))
    assert "ghstack stack: PRs 1 through 3, 2 in window of 3 declared" in text
    assert "why: 2 PRs" in text


def test_real_sample_day_four():
    changes = sample()
    w = sample_window(4)
    today = [c for c in changes if c.active_in(w)]
    history = [c for c in changes if c.created_at and c.created_at < w.since]
    d = build_digest(today, w, areas=AreasConfig(), history=history,
                     earlier_authors={c.author.handle for c in history})
    top = d.themes[0]
    assert top.kind == "stack" and top.authors == ("tushar00jain",)
    assert top.prs == (192105, 192110, 192115) and top.stack is not None
    assert top.stack.declared_size == 15
    release = next(t for t in d.themes if t.prs == (192102,))
    assert release.rank == len(d.themes)  # a release-dates doc update ranks last
    # A PR export of a few days cannot tell who is new: nobody is claimed.
    assert d.first_time_contributors == ()


def _store_with(tmp_path, changes: list[Change]):
    from mergecast.store import Store

    db = tmp_path / "db.sqlite"
    with Store(db) as store:
        store.upsert_changes(changes)
    return db


def test_cli_digest_json_is_byte_identical_and_text_view(tmp_path):
    changes = [pr(n, f"[cache] Part {n}", body=ghstack(n, 1, 2, 3)) for n in (1, 2)]
    # the store's history reaches 130 days back, so it can tell alice is new
    changes.append(Change(repo=REPO, title="Seen before", number=9, author=Person(login="old"),
                          created_at=at(1) - dt.timedelta(days=120), state=State.OPEN))
    db = _store_with(tmp_path, changes)
    runner = CliRunner()
    args = ["--db", str(db), "digest", "--since", "2026-03-10", "--until", "2026-03-11"]
    one = runner.invoke(main, [*args, "--json"])
    two = runner.invoke(main, [*args, "--json"])
    assert one.exit_code == 0, one.output
    assert one.output == two.output
    data = json.loads(one.output)
    assert data["themes"][0]["stack"]["declared_size"] == 3
    assert data["first_time_contributors"] == ["alice"]
    text = runner.invoke(main, args)
    assert text.exit_code == 0 and "Themes" in text.output and "PRs #1, #2" in text.output


def test_cli_digest_needs_a_window(tmp_path):
    result = CliRunner().invoke(main, ["--db", str(tmp_path / "x.db"), "digest"])
    assert result.exit_code == 2
    assert "expected --date DAY, or both --since WHEN and --until WHEN" in result.output


def test_digest_for_reads_repo_labeler_rules(tmp_path):
    import dataclasses

    from mergecast import pipeline
    from mergecast.config import Config, SourceConfig, StoreConfig
    from mergecast.store import Store

    repo = tmp_path / "repo"
    (repo / ".github").mkdir(parents=True)
    (repo / ".github" / "labeler.yml").write_text("'module: storage':\n- src/store/**\n")
    (repo / "CODEOWNERS").write_text("/src/net/ @acme/networking\n")
    from analysis_builders import files

    db = _store_with(tmp_path, [pr(1, "Faster writes", files=files("src/store/a.py")),
                                pr(2, "Retry sockets", files=files("src/net/b.py"))])
    cfg = Config(source=SourceConfig(repo=repo), store=StoreConfig(path=db))
    with Store(db) as store:
        d = pipeline.digest_for(cfg, store, window(10))
    assert d.area_of == {f"{REPO}#1": "storage", f"{REPO}#2": "networking"}
    off = dataclasses.replace(cfg, areas=AreasConfig(labeler=False, codeowners=False))
    with Store(db) as store:
        d = pipeline.digest_for(off, store, window(10))
    assert d.area_of == {f"{REPO}#1": "store", f"{REPO}#2": "net"}


def test_digest_for_says_no_area_named_like_the_show(tmp_path):
    import dataclasses

    from analysis_builders import files

    from mergecast import pipeline
    from mergecast.config import Config, ShowConfig, StoreConfig
    from mergecast.store import Store

    db = _store_with(tmp_path, [pr(1, "[gizmo] Faster writes", files=files("gizmo/store/a.py"))])
    cfg = Config(show=ShowConfig(name="Gizmo"), store=StoreConfig(path=db))
    with Store(db) as store:
        assert pipeline.digest_for(cfg, store, window(10)).area_of == {f"{REPO}#1": "store"}
        unnamed = dataclasses.replace(cfg, show=ShowConfig())
        assert pipeline.digest_for(unnamed, store, window(10)).area_of == {f"{REPO}#1": "gizmo"}


def test_sample_path_is_outside_the_project():
    assert "shared" in SAMPLE.parts


# --------------------------------------------------------------------------- first-timers

def _history(make_repo):
    """A real repository: Ada's work over 200 days, then Ada (renamed) and Cy on day 300."""
    from gitrepo import Commit

    start = dt.datetime(2026, 1, 1, 12, tzinfo=dt.UTC)
    old = [Commit(f"Widget change {i} (#{i})", start + dt.timedelta(days=20 * i),
                  {f"w/{i}.py": b"x\n"}, author=("Ada Lovelace", "ada@acme.dev"))
           for i in range(1, 11)]
    today = start + dt.timedelta(days=300, hours=-4)  # 08:00, inside that day's window
    new = [Commit("Cache widgets (#50)", today, {"w/c.py": b"x\n"},
                  author=("ada-l", "4242+ada-l@users.noreply.github.com")),
           Commit("Tidy gadgets (#51)", today + dt.timedelta(hours=1), {"g/t.py": b"x\n"},
                  author=("Cy Young", "cy@else.org")),
           Commit("Cache more widgets (#52)", today + dt.timedelta(hours=2), {"w/d.py": b"x\n"},
                  author=("Ada Lovelace", "4242+ada-l@users.noreply.github.com"))]
    return make_repo(old + new), today


def _digest_after_ingest(tmp_path, repo, today, *extra):
    from mergecast import dates, pipeline
    from mergecast.config import Config, StoreConfig
    from mergecast.store import Store

    db = tmp_path / f"{repo.name}.db"
    result = CliRunner().invoke(main, ["--db", str(db), "ingest", "--repo", str(repo), *extra])
    assert result.exit_code == 0, result.output
    cfg = Config(store=StoreConfig(path=db))
    with Store(db) as store:
        return pipeline.digest_for(cfg, store, dates.day_window(today.date(), cfg.show))


def test_first_timers_need_history_that_reaches_back(make_repo, tmp_path):
    repo, today = _history(make_repo)
    d = _digest_after_ingest(tmp_path, repo, today)
    # Cy is new; Ada, under a new spelling, is not
    assert d.first_time_contributors == ("Cy Young",)


def test_a_shallow_clone_first_ingest_claims_nobody(make_repo, tmp_path):
    import subprocess

    from gitrepo import GIT_ENV

    repo, today = _history(make_repo)
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "3", f"file://{repo}", str(clone)],
                   check=True, env=GIT_ENV)
    d = _digest_after_ingest(tmp_path, clone, today)
    assert d.counts.changes == 3 and d.first_time_contributors == ()


def test_github_says_who_is_new_even_without_history(tmp_path):
    changes = [
        Change(repo=REPO, title="Speed up loader", number=1, author=Person(login="newbie"),
               created_at=at(10), state=State.OPEN, author_association="FIRST_TIME_CONTRIBUTOR"),
        Change(repo=REPO, title="Cache more", number=2, author=Person(login="member"),
               created_at=at(10), state=State.OPEN, author_association="MEMBER"),
        Change(repo=REPO, title="Typo", number=3, author=Person(login="nobody-knows"),
               created_at=at(10), state=State.OPEN),
    ]
    deep = at(10) - dt.timedelta(days=365)
    d = build_digest(changes, window(10), areas=AreasConfig(), earlier_authors=(),
                     history_since=deep)
    # GitHub's word wins both ways; history decides only for the one GitHub said nothing of
    assert d.first_time_contributors == ("newbie", "nobody-knows")
    shallow = build_digest(changes, window(10), areas=AreasConfig(), earlier_authors=())
    assert shallow.first_time_contributors == ("newbie",)


def test_digest_json_carries_evidence_credit_and_chains(tmp_path):
    title = "[cache] Keep widget cache entries across resize"
    changes = [
        pr(1, title, author="ana", state=State.OPEN, body="Fixes #77"),
        pr(2, "[cache] Retain entries on resize", author="ben", state=State.OPEN,
           body="Fixes #77"),
        pr(3, f'Revert "{title}"', author="pytorchbot",
           body="Reverted https://github.com/acme/widgets/pull/4 on behalf of "
                "https://github.com/cy due to flaky"),
        pr(4, "[cache] Evict by size", author="ana", day=9),
    ]
    db = _store_with(tmp_path, changes)
    out = CliRunner().invoke(main, ["--db", str(db), "digest", "--since", "2026-03-10",
                                    "--until", "2026-03-11", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["duplicates"] == [{"prs": [1, 2], "why": "both say they fix #77",
                                   "evidence": "issue", "shared": ["#77"]}]
    [chain] = data["chains"]
    assert chain["original"] == {"pr": 4, "sha": None} and chain["author"] == "ana"
    assert chain["title"] == "Evict by size"  # told as said: no tags
    assert chain["steps"] == [{"kind": "revert", "ref": {"pr": 3, "sha": None}, "by": "cy",
                               "reason": "flaky", "in_window": True}]
    credit = {c["number"]: c for c in data["changes"]}
    assert credit[3]["handle"] == "" and credit[3]["how"] == "bot"
    assert credit[1]["group"] and credit[1]["handle"] == "ana"


# ------------------------------------------------------------- one history, two names

def test_one_commit_stored_under_two_repo_names_is_told_once():
    sha = "a" * 40
    by_folder = dataclasses.replace(commit(sha, "Speed up loader (#7)"), repo="widgets",
                                    number=7)
    by_github = commit(sha, "Speed up loader (#7)", number=7)
    unnumbered = dataclasses.replace(commit("b" * 40, "Tidy planner"), repo="widgets")
    numbered = commit("b" * 40, "Tidy planner (#8)", number=8)
    d = build_digest([by_folder, by_github, unnumbered, numbered], window(10),
                     areas=AreasConfig())
    assert [c.key for c in d.changes] == [f"{REPO}#7", f"{REPO}#8"]
    assert d.counts.changes == 2


def test_ingesting_a_checkout_before_and_after_naming_it_counts_each_commit_once(
        make_repo, tmp_path):
    repo, today = _history(make_repo)
    _digest_after_ingest(tmp_path, repo, today)  # named by its folder
    d = _digest_after_ingest(tmp_path, repo, today, "--repo-name", "acme/widgets")
    assert d.counts.changes == 3
    assert sorted(c.key for c in d.changes) == [
        "acme/widgets#50", "acme/widgets#51", "acme/widgets#52"]
