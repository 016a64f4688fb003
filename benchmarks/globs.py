"""Path-rule globs (CODEOWNERS, labeler.yml): ordinary rules at regex speed, hostile in linear time.

Baseline in the same run: the backtracking regex translation mergecast used before
(one `re` per glob). Printed: the time to find the first matching rule for every file
of a day with a pytorch-like labeler.yml, new / baseline; then a hostile CODEOWNERS
line against deeper and deeper paths, which the baseline cannot finish (it is given
the shallowest one only, with a 5 s budget).

    .venv/bin/python benchmarks/globs.py
"""

from __future__ import annotations

import random
import re
import signal
import time

from mergecast.analysis.globs import glob_match

RULES = [f"torch/{d}/**" for d in ("_dynamo", "_inductor", "distributed", "fx", "export",
                                   "onnx", "csrc/jit", "nn", "optim", "cuda")] + [
    "aten/src/ATen/mps/**", "docs/**/*", "**/*.md", "test/inductor/**", "**/test_*.py",
    ".github/**", ".ci/*", "**/CMakeLists.txt", "benchmarks/**", "tools/**/*.py"]
DIRS = ["torch/_inductor/codegen", "torch/_dynamo", "aten/src/ATen/native/cuda", "test",
        "docs/source/notes", "torch/distributed/fsdp", "third_party/x", "tools/setup_helpers"]


def _old(pattern: str) -> re.Pattern[str]:
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] in "*?":
            out.append("[^/]*" if pattern[i] == "*" else "[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def _first_rule(match, paths: list[str]) -> float:  # noqa: ANN001 - either matcher
    start = time.perf_counter()
    for path in paths:
        for rule in RULES:
            if match(rule, path):
                break
    return time.perf_counter() - start


def main() -> None:
    rng = random.Random(3)
    paths = [f"{rng.choice(DIRS)}/f{i}{rng.choice(['.py', '.cpp', '.md', '.h'])}"
             for i in range(20_000)]
    compiled = {r: _old(r) for r in RULES}
    glob_match(RULES[0], paths[0])  # warm the pattern cache, as a digest would
    base = _first_rule(lambda r, p: compiled[r].match(p) is not None, paths)
    new = _first_rule(glob_match, paths)
    print(f"ordinary rules, {len(paths):,} files: baseline {base:.3f} s, new {new:.3f} s, "
          f"ratio {new / base:.2f}")
    hostiles = ["**/" * 40 + "x.py", "**/a/" * 40 + "x.py"]  # the second cannot be folded
    for hostile in hostiles:
        for depth in (100, 1_000, 10_000):
            path = "a/" * depth + "x.py"
            start = time.perf_counter()
            assert glob_match(hostile, path)
            print(f"{hostile[:12]}…, {depth:>6,} folders deep: "
                  f"{time.perf_counter() - start:.4f} s")

    def expired(*_: object) -> None:
        raise TimeoutError

    signal.signal(signal.SIGALRM, expired)
    for hostile in hostiles:
        signal.setitimer(signal.ITIMER_REAL, 5.0)
        start = time.perf_counter()
        try:
            _old(hostile).match("a/" * 25 + "y.py")
            print(f"baseline {hostile[:12]}…, 25 folders deep: "
                  f"{time.perf_counter() - start:.2f} s")
        except TimeoutError:
            print(f"baseline {hostile[:12]}…, 25 folders deep: still running after 5 s")


if __name__ == "__main__":
    main()
