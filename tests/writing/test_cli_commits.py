"""`mergecast run` then `mergecast script` on a real git repository with no PR numbers."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner

from gitrepo import GIT_ENV, Commit, day
from mergecast.cli import main


def run(*args: object) -> object:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_commit_only_repository_makes_a_grounded_episode(
    tmp_path: Path, make_repo: Callable[..., Path]
) -> None:
    ivy, omar = ("Ivy Zhou", "ivy@example.com"), ("omar", "omar@example.com")
    repo = make_repo([
        Commit("Initial import", when=day(20), files={"README.md": b"hi\n"}, author=ivy),
        Commit("Cache: evict old entries\n\nThe cache kept every entry forever, so long "
               "sessions ran out of memory. The change evicts the least recently used "
               "entries once the cache is full.\n", when=day(24, 8),
               files={"src/cache/evict.py": b"x = 1\n" * 40}, author=ivy),
        Commit("Cache: add a size limit setting", when=day(24, 9),
               files={"src/cache/limit.py": b"y = 2\n" * 30}, author=ivy),
        Commit("Parser: speed up tokenizing of long lines", when=day(24, 10),
               files={"src/parser/tok.py": b"z = 3\n" * 20}, author=omar),
    ])
    cfg = tmp_path / "mergecast.toml"
    cfg.write_text('[show]\nname = "Widget"\n', encoding="utf-8")
    db, site = tmp_path / "m.db", tmp_path / "site"
    r = run("--config", cfg, "--db", db, "run", "--repo", repo, "--date", "2026-07-24",
            "--out", site, "--voice", "none")
    assert r.exit_code == 0, r.output
    assert (site / "episodes" / "2026-07-24" / "index.html").is_file()

    r = run("--config", cfg, "--db", db, "script", "--date", "2026-07-24", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    text = " ".join(s["text"] for s in data["sections"])
    spoken = " ".join(s["spoken"] for s in data["sections"])
    assert "commits" in text or "a single commit" in text
    assert "Ivy Zhou" in text and "omar" in text
    assert "evicts the least recently used entries" in text
    assert all(s["cites"] == [] for s in data["sections"])
    shas = subprocess.run(["git", "-C", str(repo), "rev-list", "HEAD"], capture_output=True,
                          text=True, check=True, env=GIT_ENV).stdout.split()
    assert len(shas) == 4
    for blob in (text, spoken, data["title"], data["summary"]):
        assert "src/" not in blob and "#" not in blob
        assert not any(s[:7] in blob for s in shas)
