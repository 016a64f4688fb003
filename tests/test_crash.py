"""SIGKILL `mergecast run` at many points; nothing already published or stored may break.

The real CLI runs as a subprocess on a real git repository. Each kill waits for a live
sign that the run has reached a given point, then a seeded random delay inside that
stage's measured duration, then sends SIGKILL to the run's process group (on a busy
machine a kill can land late, after the stage: that kill is checked too, and the point is
tried again with a shorter delay):

- inside the ingest transaction: a `git log` child is streaming into an open BEGIN
  (fresh commits are appended first, so there is something to read);
- digest and script: the previous stage's timing line is on stderr;
- while rendering and writing audio (piper): the script line is printed, and once the
  media folder's temp files are seen;
- during the publish swap: the staging folder `.site.tmp-*` beside OUT exists.

After every kill: the database passes PRAGMA integrity_check and opens as a Store with
every earlier episode, OUT is a whole valid site (the old one or the new one, never a
mix), every feed enclosure exists with its stated length, and the next run completes.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

from gitrepo import Commit, append_commits
from mergecast.store import Store

BASE = "https://example.org/cast/"
STAGES = ("ingest", "digest", "script", "speak", "publish")
WORDS = "guard tensor kernel cache graph shape stride dtype device stream quant export".split()
AREAS = "dynamo inductor mps cuda distributed fx".split()
DAYS = ("2026-08-10", "2026-08-11")
ATTEMPTS = 4  # tries per kill point, each with a shorter delay

pytestmark = pytest.mark.slow


def _commits(rng: random.Random, day: int, count: int, first: int) -> list[Commit]:
    commits = []
    for i in range(count):
        words = " ".join(rng.sample(WORDS, 3))
        area = rng.choice(AREAS)
        commits.append(Commit(
            f"[{area}] {words} fix (#{first + i})\n\nThis changes {words}.",
            dt.datetime(2026, 8, day, 1 + i * 11 // count, i % 60, i % 60 // 2, tzinfo=dt.UTC),
            {f"torch/{area}/m{i % 7}.py": b"x\n" * (i % 5 + 1)},
            author=("Dev", f"{i % 40}+dev{i % 40}@users.noreply.github.com")))
    return commits


class Runner:
    def __init__(self, root: Path, repo: Path) -> None:
        self.root, self.repo = root, repo
        self.db, self.site = root / "state" / "x.db", root / "site"
        self.media = root / "state" / "media"
        self.log = root / "stderr.txt"
        (root / "mergecast.toml").write_text(
            f'[show]\nname = "Crash"\nbase_url = "{BASE}"\n', encoding="utf-8")

    def args(self, day: str, voice: str) -> list[str]:
        return [sys.executable, "-m", "mergecast.cli",
                "--config", str(self.root / "mergecast.toml"),
                "--db", str(self.db), "run", "--repo", str(self.repo), "--date", day,
                "--out", str(self.site), "--voice", voice]

    def complete(self, day: str, voice: str) -> dict[str, float]:
        """Run to the end; each stage's duration in seconds, as the run printed it."""
        done = subprocess.run(self.args(day, voice), capture_output=True, text=True,
                              cwd=self.root, timeout=600, check=False)
        assert done.returncode == 0, done.stderr
        return {m.group(1): float(m.group(2)) for m in re.finditer(
            r"^\s*(\w+)\s+([0-9.]+) s\b", done.stderr, re.M) if m.group(1) in STAGES}

    def printed(self) -> list[str]:
        """The stages the running process has finished (their timing lines are on stderr)."""
        text = self.log.read_text(errors="replace")  # a timing line, not a progress line
        return [s for s in STAGES if re.search(rf"^\s*{s}\s+[0-9.]+ s\b", text, re.M)]

    def killed(self, day: str, voice: str, reached: Callable[[int], bool],
               delay: float) -> str:
        """Start a run; once `reached(pid)`, wait `delay` s and SIGKILL it. The stage it was
        in when killed (the first one whose timing line it had not printed), or "ended"
        when it finished first (a sign seen too late on a busy machine)."""
        with self.log.open("w") as err:
            proc = subprocess.Popen(self.args(day, voice), stdout=subprocess.DEVNULL,
                                    stderr=err, cwd=self.root, start_new_session=True)
            deadline = time.monotonic() + 300
            while not reached(proc.pid):
                if proc.poll() is not None:
                    return "ended"
                assert time.monotonic() < deadline, "kill point never reached"
                time.sleep(0.002)
            time.sleep(delay)
            if proc.poll() is not None:
                return "ended"
            os.killpg(proc.pid, signal.SIGKILL)  # our own child's group only
            proc.wait(timeout=30)
        done = self.printed()
        return STAGES[len(done)] if len(done) < len(STAGES) else "after publish"

    # -- live signs

    def after(self, stage: str) -> Callable[[int], bool]:
        def sign(pid: int) -> bool:
            return stage in self.printed()

        sign.__name__ = f"after_{stage}"
        return sign

    @staticmethod
    def git_log_child(pid: int) -> bool:
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                cmd = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid and b"log" in cmd[:4]:
                return True
        return False

    def audio_temp(self, pid: int) -> bool:
        return any(p.name.endswith(".tmp") for p in self.media.rglob(".*"))

    def staging(self, pid: int) -> bool:
        return any(p.name.startswith(".site.tmp") and p.is_dir() for p in self.root.iterdir())


def _tree(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*"))
            if p.is_file()}


def _check_store(db: Path) -> None:
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        con.close()
    with Store(db) as store:
        for day in DAYS:
            assert store.episode(day) is not None, day


def _check_site(site: Path, before: dict[str, bytes]) -> None:
    now = _tree(site)
    if now == before:
        return  # the previous site, untouched
    assert set(before) <= set(now), "a published file went missing"
    feeds = [p for p in now if p.endswith("feed.xml")]
    assert "feed.xml" in feeds
    for feed in feeds:
        root = ET.fromstring(now[feed])
        for item in root.iter("item"):
            link = item.findtext("link") or ""
            assert link.startswith(BASE) and link[len(BASE):] + "index.html" in now, link
            for enc in item.iter("enclosure"):
                rel = enc.get("url", "")[len(BASE):]
                assert rel in now, rel
                assert len(now[rel]) == int(enc.get("length", "-1")), rel


def test_sigkill_at_every_stage_never_corrupts(tmp_path: Path, make_repo) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(20260811)
    repo = make_repo(_commits(rng, 10, 300, 1000) + _commits(rng, 11, 300, 2000),
                     origin="https://github.com/o/r.git")
    run = Runner(tmp_path, repo)
    run.complete(DAYS[0], "piper")  # the previous site, with audio
    fast = run.complete(DAYS[1], "none")
    slow = run.complete(DAYS[1], "piper")
    # (voice, what to wait for, the stage that sign is in, the delay's range after it)
    plan = [("none", run.git_log_child, "ingest", (0.0, 0.1)),
            ("none", run.git_log_child, "ingest", (0.0, 0.1)),
            ("none", run.git_log_child, "ingest", (0.0, 0.1)),
            ("none", run.after("ingest"), "digest", (0.0, fast["digest"] * 0.8)),
            ("none", run.after("digest"), "script", (0.0, fast["script"] * 0.8)),
            ("piper", run.after("script"), "speak", (0.0, slow["speak"] * 0.8)),
            ("piper", run.after("script"), "speak", (0.0, slow["speak"] * 0.8)),
            ("piper", run.after("script"), "speak", (0.0, slow["speak"] * 0.8)),
            ("piper", run.audio_temp, "speak", (0.0, 0.0)),
            ("none", run.after("speak"), "publish", (0.0, fast["publish"] * 0.5)),
            ("none", run.staging, "publish", (0.0, 0.0)),
            ("none", run.staging, "publish", (0.0, 0.01)),
            ("piper", run.staging, "publish", (0.0, 0.005))]
    number, seen = 5000, []
    for voice, sign, stage, (low, high) in plan:
        # On a busy machine a stage can end before the sign is noticed or the delay is
        # over: each such miss is still a kill (or a whole run) that must break nothing,
        # and the point is tried again, sooner, until it lands in its stage.
        for attempt in range(ATTEMPTS):
            if stage == "ingest":  # something new to read, so the transaction is open a while
                append_commits(repo, _commits(rng, 12, 5000, number))
                number += 5000
            if stage in ("script", "speak"):
                # the day must change, or the run reuses the script and audio it already has
                append_commits(repo, _commits(rng, 11, 1, number))
                number += 1
            before = _tree(run.site)
            delay = rng.uniform(low, high) / 4 ** attempt
            got = run.killed(DAYS[1], voice, sign, delay)
            seen.append(f"{voice}:{sign.__name__}+{delay:.3f}s={got}")
            _check_store(run.db)
            _check_site(run.site, before)
            run.complete(DAYS[1], "none")  # the next run completes
            _check_store(run.db)
            _check_site(run.site, {})  # a new site now, and a whole one
            if got == stage:
                break
        assert got == stage, seen
    print("kill points:", ", ".join(seen))
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".site.tmp")
                and not p.name.endswith(".lock")]
