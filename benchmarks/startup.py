"""Start-up: `mergecast --version` (and `--help`) against `python -c pass`, in the same run.

Each command runs as its own process, alternately (A B A B ...), so a machine that slows
down mid-run slows both; the figure is the ratio of the medians. The absolute times are
printed too: wall, and the process's own CPU time, which a busy shared machine does not
inflate; the target (0.4 s) is judged on the CPU time. No heavy library (numpy, scipy,
the HTTP client, the templates) may load before a command needs it.

    python benchmarks/startup.py [--runs 20]
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

TARGET = 0.4  # seconds for `mergecast --version`


def mergecast() -> list[str]:
    """The installed console script beside this interpreter, else `python -m mergecast`."""
    script = Path(sys.executable).with_name("mergecast")
    if script.is_file():
        return [str(script)]
    found = shutil.which("mergecast")
    return [found] if found else [sys.executable, "-m", "mergecast"]


def timed(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) for one run of `argv`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    a = ap.parse_args()
    base = [sys.executable, "-c", "pass"]
    commands = {"--version": [*mergecast(), "--version"], "--help": [*mergecast(), "--help"]}
    for argv in (base, *commands.values()):
        timed(argv)  # warm the page cache and the bytecode caches
    names = ["python -c pass", *(f"mergecast {k}" for k in commands)]
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    for _ in range(a.runs):
        runs["python -c pass"].append(timed(base))
        for name, argv in commands.items():
            runs[f"mergecast {name}"].append(timed(argv))
    wall = {n: statistics.median(w for w, _ in runs[n]) for n in names}
    cpu = {n: statistics.median(c for _, c in runs[n]) for n in names}
    print(f"medians of {a.runs} alternating runs; ratio = wall / wall of python -c pass")
    for name in names:
        print(f"{name:<20}: wall {wall[name] * 1000:7.1f} ms  cpu {cpu[name] * 1000:7.1f} ms  "
              f"ratio {wall[name] / wall[names[0]]:5.1f}x")
    ok = cpu["mergecast --version"] < TARGET
    print(f"target: mergecast --version under {TARGET:.1f} s of CPU: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
