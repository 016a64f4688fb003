"""Start-up: `mergecast --version` (and `--help`) against `python -c pass`, in the same run.

Each command runs as its own process, alternately (A B A B ...), so a machine that slows
down mid-run slows both; the figure is the ratio of the medians. The absolute time is
printed too, against the target of 0.4 s: no heavy library (numpy, scipy, the HTTP client,
the templates) may load before a command needs it.

    python benchmarks/startup.py [--runs 20]
"""

from __future__ import annotations

import argparse
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


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    a = ap.parse_args()
    base = [sys.executable, "-c", "pass"]
    commands = {"--version": [*mergecast(), "--version"], "--help": [*mergecast(), "--help"]}
    for argv in (base, *commands.values()):
        timed(argv)  # warm the page cache and the bytecode caches
    times: dict[str, list[float]] = {"python -c pass": [], **{k: [] for k in commands}}
    for _ in range(a.runs):
        times["python -c pass"].append(timed(base))
        for name, argv in commands.items():
            times[name].append(timed(argv))
    median = {name: statistics.median(values) for name, values in times.items()}
    print(f"python -c pass        : {median['python -c pass'] * 1000:7.1f} ms (median of {a.runs})")
    for name in commands:
        ratio = median[name] / median["python -c pass"]
        print(f"mergecast {name:<12}: {median[name] * 1000:7.1f} ms  ratio {ratio:5.1f}x")
    ok = median["--version"] < TARGET
    print(f"target: mergecast --version under {TARGET:.1f} s: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
