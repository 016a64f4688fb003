"""Ingest throughput against raw `git log`, measured in one process.

Builds a repository of >= 50,000 commits (the real histories in ../shared/data/git replayed
several times, dates shifted; synthetic commits when that folder is absent), then prints
commits/s of:
  raw     `git log` with mergecast's format and file arguments (FILE_ARGS), output
          read and discarded
  parser  the same stream parsed into Change models (GitSource.read)
  ingest  a full `mergecast ingest` into a fresh SQLite store
and a second, incremental ingest of the unchanged history.

Usage: .venv/bin/python benchmarks/ingest.py [--commits 50000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT / "src"))

from mergecast import collect  # noqa: E402
from mergecast import config as config_mod  # noqa: E402
from mergecast.sources import IngestReport  # noqa: E402
from mergecast.sources.git import FILE_ARGS, LOG_ARGS, GitSource  # noqa: E402
from mergecast.store import Store  # noqa: E402


def build(out: Path, want: int, work: Path) -> int:
    files = sorted((SHARED / "data" / "git").glob("*.commits.jsonl"))
    if files:
        return _replay(out, want, work, files)
    return _synthetic(out, want)


def _replay(out: Path, want: int, work: Path, files: list[Path]) -> int:
    base = [json.loads(line) for f in files for line in f.open(encoding="utf-8") if line.strip()]
    base.sort(key=lambda c: c["committer_date"], reverse=True)
    first = dt.datetime.fromisoformat(base[-1]["committer_date"])
    span = dt.datetime.fromisoformat(base[0]["committer_date"]) - first + dt.timedelta(days=1)
    copies = -(-want // len(base))
    jsonl = work / "replay.jsonl"  # a temp file outside the project, removed afterwards
    with jsonl.open("w", encoding="utf-8") as fh:
        for k in reversed(range(copies)):  # newest copy first, as git log prints
            for c in base:
                c2 = dict(c)
                for key in ("author_date", "committer_date"):
                    t = dt.datetime.fromisoformat(c[key]) - span * (copies - 1 - k)
                    c2[key] = t.isoformat()
                fh.write(json.dumps(c2) + "\n")
    subprocess.run([sys.executable, str(SHARED / "tools" / "replay-git"), str(jsonl), str(out)],
                   check=True, stdout=subprocess.DEVNULL)
    return copies * len(base)


def _synthetic(out: Path, want: int) -> int:
    subprocess.run(["git", "init", "-q", "-b", "main", str(out)], check=True)
    fi = subprocess.Popen(["git", "-C", str(out), "fast-import", "--quiet"], stdin=subprocess.PIPE)
    assert fi.stdin is not None
    t0 = 1_700_000_000
    for n in range(1, want + 1):
        msg = (f"[area{n % 17}] Change number {n} (#{n})\n\nSome body text.\n\n"
               f"Pull Request resolved: https://github.com/o/r/pull/{n}\n").encode()
        body = b"line %d\n" % n
        fi.stdin.write(b"commit refs/heads/main\nmark :%d\n" % n)
        fi.stdin.write(b"committer Dev <dev@example.com> %d +0000\n" % (t0 + 60 * n))
        fi.stdin.write(b"data %d\n%s\n" % (len(msg), msg))
        if n > 1:
            fi.stdin.write(b"from :%d\n" % (n - 1))
        fi.stdin.write(b"M 100644 inline src/f%d.py\ndata %d\n%s\n\n" % (n % 300, len(body), body))
    fi.stdin.close()
    fi.wait()
    subprocess.run(["git", "-C", str(out), "checkout", "-q", "main"], check=True)
    return want


def raw_git_log(repo: Path) -> tuple[float, int]:
    t = time.perf_counter()
    proc = subprocess.Popen(
        ["git", "-C", str(repo), *LOG_ARGS, *FILE_ARGS, "--first-parent", "refs/heads/main"],
        stdout=subprocess.PIPE,
    )
    assert proc.stdout is not None
    size = 0
    while data := proc.stdout.read1(1 << 20):
        size += len(data)
    proc.wait()
    return time.perf_counter() - t, size


def parse(repo: Path) -> tuple[float, int]:
    t = time.perf_counter()
    n = sum(1 for _ in GitSource(repo, slug="o/r").read())
    return time.perf_counter() - t, n


def full_ingest(repo: Path, db: Path) -> tuple[float, IngestReport]:
    cfg = config_mod.Config(root=repo, store=config_mod.StoreConfig(path=db))
    t = time.perf_counter()
    with Store(db) as store:
        report = collect.ingest(store, collect.git_source(cfg, repo, None, "o/r"), None)
    return time.perf_counter() - t, report


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commits", type=int, default=50_000)
    ap.add_argument("--keep", type=Path, help="build (or reuse) the repository here")
    a = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="mergecast-bench-"))
    try:
        repo = a.keep or work / "repo"
        t = time.perf_counter()
        if not (repo / ".git").is_dir():
            build(repo, a.commits, work)
        count = int(subprocess.run(["git", "-C", str(repo), "rev-list", "--count", "HEAD"],
                                   capture_output=True, text=True, check=True).stdout)
        print(f"repository: {count} commits ({time.perf_counter() - t:.1f} s to build/check)")
        raw_git_log(repo)  # warm the page cache so the first measurement is not penalised
        t_raw, size = raw_git_log(repo)
        t_parse, parsed = parse(repo)
        t_full, report = full_ingest(repo, work / "bench.db")
        t_inc, again = full_ingest(repo, work / "bench.db")
        assert parsed == count == report.read and again.read == 0, (parsed, count, report)
        print(f"raw git log --numstat : {count / t_raw:9.0f} commits/s  ({t_raw:.2f} s, "
              f"{size / 1e6:.0f} MB)")
        print(f"parser (GitSource)    : {count / t_parse:9.0f} commits/s  ({t_parse:.2f} s)  "
              f"ratio {t_raw / t_parse:.2f}x  (target >= 0.95x)")
        print(f"full ingest (SQLite)  : {count / t_full:9.0f} commits/s  ({t_full:.2f} s)  "
              f"ratio {t_raw / t_full:.2f}x  (target >= 0.7x)")
        print(f"incremental re-ingest : {t_inc * 1000:9.1f} ms for an unchanged history "
              f"({again.read} commits read)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
