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


def test_sample_path_is_outside_the_project():
    assert "shared" in SAMPLE.parts
