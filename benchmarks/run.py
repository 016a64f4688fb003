"""A whole `mergecast run` on a busy day of about 150 changes, stage by stage.

The day is a `gh pr list --json` export of synthetic PRs (ghstack stacks, tagged titles,
prose bodies, files) plus a real git repository of landed commits for the same PRs. Prints
each stage's seconds, the total against the 30 s target, and the real-time factor
(audio seconds per wall second) of the whole run.
Run: .venv/bin/python benchmarks/run.py [--changes 150] [--voice piper]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mergecast import jobs, pipeline
from mergecast.watch import Watch

AREAS = ["dynamo", "inductor", "c10d", "MPS", "autograd", "export", "cuda", "quantization"]
VERBS = ["Fix", "Add", "Support", "Remove", "Speed up", "Handle", "Refactor", "Avoid"]
NOUNS = ["guard on dict keys", "stride of expanded views", "reduction kernel for wide rows",
         "timeout in the heartbeat", "cache key for the graph", "symbolic shape in split",
         "fusion of the epilogue", "abort on collective error", "layout of the output buffer",
         "autotune for small batches", "lifetime of captured streams", "dtype of the scale"]
PEOPLE = ["kovacs47", "b7r2n", "marisol31", "bkessler", "okunle", "priya00dev", "hzhang",
          "jtorres", "mlindqvist", "rokafor", "sbauer", "wu2291"]
DAY = dt.date(2026, 3, 12)


def _prs(n: int, rng: random.Random) -> list[dict[str, object]]:
    since = dt.datetime(2026, 3, 11, 13, tzinfo=dt.UTC)
    out: list[dict[str, object]] = []
    number = 180_000
    while len(out) < n:
        author = rng.choice(PEOPLE)
        area = rng.choice(AREAS)
        size = rng.choice([1, 1, 1, 1, 2, 3, 5]) if len(out) < n - 5 else 1
        members = list(range(number, number + size))
        for i, pr in enumerate(members):
            title = f"[{area}] {rng.choice(VERBS)} {rng.choice(NOUNS)}"
            if size > 1:
                title += f" ({i + 1}/{size})"
            stack = ""
            if size > 1:
                lines = "\n".join(("* __->__ " if m == pr else "* ") + f"#{m}"
                                  for m in reversed(members))
                stack = f"Stack from [ghstack](https://github.com/ezyang/ghstack) " \
                        f"(oldest at bottom):\n{lines}\n\n"
            body = stack + (f"The {rng.choice(NOUNS)} was wrong when the {rng.choice(NOUNS)} "
                            f"changed. This change makes {area} handle it the way eager does. "
                            "Test Plan: CI\n\ncc @someone")
            created = since + dt.timedelta(minutes=rng.randrange(0, 24 * 60))
            merged = rng.random() < 0.5
            out.append({
                "number": pr, "title": title, "author": {"login": author}, "body": body,
                "createdAt": created.isoformat().replace("+00:00", "Z"),
                "updatedAt": created.isoformat().replace("+00:00", "Z"),
                "mergedAt": created.isoformat().replace("+00:00", "Z") if merged else None,
                "state": "MERGED" if merged else "OPEN",
                "url": f"https://github.com/o/r/pull/{pr}",
                "labels": [{"name": f"module: {area.lower()}"}],
                "files": [{"path": f"torch/{area.lower()}/f{rng.randrange(40)}.py",
                           "additions": rng.randrange(1, 200), "deletions": rng.randrange(0, 80)}],
                "additions": 10, "deletions": 2, "isDraft": False,
                "baseRefName": "main", "headRefName": f"gh/{author}/{pr}/head",
            })
        number += size + rng.randrange(0, 4)
    return out[:n]


def _repo(path: Path, prs: list[dict[str, object]]) -> None:
    stream = bytearray()
    merged = [p for p in prs if p["mergedAt"]]
    for n, pr in enumerate(sorted(merged, key=lambda p: str(p["mergedAt"])), 1):
        when = int(dt.datetime.fromisoformat(str(pr["mergedAt"])).timestamp())
        msg = f"{pr['title']} (#{pr['number']})\n\nPull Request resolved: {pr['url']}\n".encode()
        stream += b"commit refs/heads/main\nmark :%d\n" % n
        stream += b"author Dev <dev@example.com> %d +0000\n" % when
        stream += b"committer Dev <dev@example.com> %d +0000\n" % when
        stream += b"data %d\n%s\n" % (len(msg), msg)
        if n > 1:
            stream += b"from :%d\n" % (n - 1)
        content = b"x\n" * n
        stream += b"M 100644 inline f%d.py\ndata %d\n%s\n\n" % (n % 50, len(content), content)
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    subprocess.run(["git", "-C", str(path), "fast-import", "--quiet"], input=bytes(stream),
                   check=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--changes", type=int, default=150)
    ap.add_argument("--voice", default="piper")
    a = ap.parse_args()
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        prs = _prs(a.changes, rng)
        (root / "prs.json").write_text(json.dumps(prs), encoding="utf-8")
        _repo(root / "repo", prs)
        (root / "mergecast.toml").write_text(
            '[show]\nname = "Bench"\n[source]\nrepo = "repo"\ngh_json = "prs.json"\n',
            encoding="utf-8")
        cfg = pipeline.load_config(root / "mergecast.toml")
        stages = _Stages()
        start = time.monotonic()
        report = jobs.run(cfg, date=DAY.isoformat(), flags=jobs.Flags(repo_name="o/r"),
                          choices=pipeline.Choices(voice=a.voice), watch=stages)
        total = time.monotonic() - start
    for name, seconds, detail in stages.ended:
        print(f"{name:<8} {seconds:7.2f} s  {detail}")
    audio = report.episode.audio.duration_seconds
    print(f"total    {total:7.2f} s  ({total / 30:.2f}x the 30 s target)")
    print(f"audio    {audio:7.1f} s  real-time factor of the whole run {audio / total:.1f}x")
    return 0


class _Stages(Watch):
    def __init__(self) -> None:
        self.ended: list[tuple[str, float, str]] = []

    def finished(self, stage: str, seconds: float, detail: str) -> None:
        self.ended.append((stage, seconds, detail))


if __name__ == "__main__":
    sys.exit(main())
