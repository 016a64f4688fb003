"""The quality sweep (benchmarks/sweep.py) over real histories: no real day may fail.

Replays the shared torchtitan history into a real git repository, ingests it through the
CLI and writes every day's template script. Skips when ../shared is absent.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner

from mergecast import pipeline
from mergecast.cli import main
from mergecast.store import Store

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED = REPO_ROOT.parent / "shared"
REPLAY = SHARED / "tools" / "replay-git"
TORCHTITAN = SHARED / "data" / "git" / "pytorch-torchtitan.commits.jsonl"
GH_SAMPLE = SHARED / "data" / "github" / "pytorch-2026-08-window.json"
MAX_SENTENCE_WORDS = 30


def _sweep_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sweep", REPO_ROOT / "benchmarks" / "sweep.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["sweep"] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


def _ingest(db: Path, *args: str) -> None:
    result = CliRunner().invoke(main, ["--db", str(db), "ingest", *args])
    assert result.exit_code == 0, result.output


def _assert_clean(results: list, cfg: object) -> None:
    sweep = _sweep_module()
    failures = [f"{r.day}: {r.error}\n  " + "\n  ".join(r.report) for r in results if r.error]
    assert not failures, "\n".join(failures[:10])
    totals = sweep.totals(results, cfg)
    assert totals.days > 0
    assert totals.max_words <= MAX_SENTENCE_WORDS
    assert totals.mean_words <= 20
    # Dotted module names from PR text ("torch._dynamo.x") still slip through now and then.
    assert totals.unspoken <= totals.sentences // 500, [t for r in results for t in r.unspoken][:5]
    titles = [r.title for r in results if r.changes]
    assert all(t and len(t) <= 70 and t.count("(") == t.count(")") for t in titles)


@pytest.fixture(scope="module")
def torchtitan_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (REPLAY.is_file() and TORCHTITAN.is_file()):
        pytest.skip("shared torchtitan history not present")
    base = tmp_path_factory.mktemp("torchtitan")
    subprocess.run([sys.executable, str(REPLAY), str(TORCHTITAN), str(base / "tt")], check=True,
                   capture_output=True)
    db = base / "tt.db"
    _ingest(db, "--repo", str(base / "tt"))
    return db


def test_every_replayed_torchtitan_day_writes_a_grounded_script(torchtitan_db: Path) -> None:
    sweep = _sweep_module()
    cfg = pipeline.load_config(None, torchtitan_db)
    with Store(torchtitan_db) as store:
        days = sweep.store_days(store, cfg)
        assert len(days) > 900  # the history spans years: the sweep really ran over it
        results = list(sweep.sweep(cfg, store, days))
    assert sum(1 for r in results if r.changes) > 500
    _assert_clean(results, cfg)


def test_github_sample_days_write_grounded_scripts(tmp_path: Path) -> None:
    if not GH_SAMPLE.is_file():
        pytest.skip("shared GitHub sample not present")
    sweep = _sweep_module()
    db = tmp_path / "pt.db"
    _ingest(db, "--gh-json", str(GH_SAMPLE))
    cfg = pipeline.load_config(None, db)
    with Store(db) as store:
        results = list(sweep.sweep(cfg, store, sweep.store_days(store, cfg)))
    assert sum(1 for r in results if r.changes) >= 3
    _assert_clean(results, cfg)


def test_the_sweep_remembers_the_days_before_as_a_daily_show_would(tmp_path: Path) -> None:
    from gitrepo import Commit, build_repo, day

    docs = {"docs/guide.md": b"x"}
    commits = [Commit(f"[docs] Rewrite the install guide (#{n})", when=day(n), files=docs)
               for n in (10, 11)]
    repo = build_repo(tmp_path / "repo", commits)
    db = tmp_path / "m.db"
    _ingest(db, "--repo", str(repo))
    sweep = _sweep_module()
    cfg = pipeline.load_config(None, db)
    with Store(db) as store:
        days = [d for d in sweep.store_days(store, cfg) if d.day in (10, 11)]
        remembered = list(sweep.sweep(cfg, store, days))
        alone = list(sweep.sweep(cfg, store, days, memory=False))
    (theme,) = remembered[1].digest.themes
    assert theme.continues is not None and theme.continues.episode_id == str(days[0])
    assert all(t.continues is None for r in alone for t in r.digest.themes)
