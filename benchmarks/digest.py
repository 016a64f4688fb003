"""Digest speed on synthetic days of 100, 1,000 and 10,000 changes.

Prints seconds per size, the growth factor per 10x, and peak memory of the largest day
(tracemalloc). Targets: 1,000 changes <= 0.5 s; 10x the changes <= 15x the time.
Run: .venv/bin/python benchmarks/digest.py
"""

from __future__ import annotations

import datetime as dt
import random
import time
import tracemalloc

from mergecast.analysis import build_digest
from mergecast.config import AreasConfig
from mergecast.models import Change, FileChange, Person, State, Window

AREAS = ["dynamo", "inductor", "c10d", "mps", "autograd", "fx", "export", "cuda", "quantization",
         "onnx", "profiler", "jit", "nn", "optim", "sparse", "vulkan", "xpu", "rocm", "docs", "ci"]
WORDS = ("kernel reduction graph guard tensor stride cache layout compile trace backend split "
         "group collective timeout abort heartbeat allocator stream capture shape symbolic dtype "
         "fusion epilogue template autotune benchmark memory lifetime refcount dispatcher "
         "operator schema serialization checkpoint gradient hook module buffer parameter").split()
IDENTS = ["ProcessGroupNCCL", "TORCH_NCCL_ASYNC_ERROR_HANDLING", "torch._dynamo.config",
          "cudaStreamSynchronize", "aot_autograd", "FakeTensorMode", "make_fx", "SymInt"]
DAY = dt.datetime(2026, 3, 10, tzinfo=dt.UTC)
_SYL = ["ka", "ro", "mi", "te", "su", "na", "lo", "vi", "de", "pa", "zu", "ge", "ri", "mo"]


def _vocabulary(rng: random.Random, size: int = 4000) -> tuple[list[str], list[float]]:
    """Real words first, then made-up ones, with Zipf weights like real prose."""
    words = list(WORDS)
    seen = set(words)
    while len(words) < size:
        w = "".join(rng.choice(_SYL) for _ in range(rng.randrange(2, 5)))
        if w not in seen:
            seen.add(w)
            words.append(w)
    rng.shuffle(words)
    cum: list[float] = []
    total = 0.0
    for rank in range(len(words)):
        total += 1.0 / (rank + 1)
        cum.append(total)
    return words, cum


def _sentence(rng: random.Random, n: int, vocab: tuple[list[str], list[float]]) -> str:
    words = rng.choices(vocab[0], cum_weights=vocab[1], k=n)
    if rng.random() < 0.5:
        words.insert(rng.randrange(len(words)), rng.choice(IDENTS))
    return " ".join(words).capitalize() + "."


def synthetic_day(n: int, seed: int = 7) -> list[Change]:
    rng = random.Random(seed)
    vocab = _vocabulary(rng)
    changes: list[Change] = []
    number = 100_000
    while len(changes) < n:
        area = rng.choice(AREAS)
        author = f"dev{rng.randrange(max(10, n // 8))}"
        size = rng.choice([1] * 8 + [2, 3, 5, 8])
        members = list(range(number, number + size))
        number += size + rng.randrange(1, 20)
        for k in members:
            body = ""
            if size > 1:
                body = "Stack from [ghstack](https://github.com/ezyang/ghstack/tree/0.12.0) " \
                       "(oldest at bottom):\n" + "\n".join(
                           f"* __->__ #{m}" if m == k else f"* #{m}" for m in reversed(members))
                body += "\n\n"
            body += "\n\n".join(_sentence(rng, rng.randrange(12, 40), vocab)
                                for _ in range(rng.randrange(2, 8)))
            body += "\n\nTest Plan:\npython test/test_x.py\n\ncc @someone @other"
            paths = tuple(
                FileChange(f"torch/{area}/{rng.choice(WORDS)}_{rng.randrange(50)}.py",
                           rng.randrange(1, 300), rng.randrange(0, 50))
                for _ in range(rng.randrange(1, 6)))
            title = f"[{area}] {_sentence(rng, rng.randrange(4, 9), vocab)}"
            changes.append(Change(
                repo="acme/big", number=k, title=title,
                body=body, author=Person(login=author), state=State.MERGED,
                created_at=DAY + dt.timedelta(seconds=rng.randrange(86_400)),
                files=paths))
    return changes[:n]


def run(n: int) -> float:
    changes = synthetic_day(n)
    window = Window(DAY, DAY + dt.timedelta(days=1))
    best = float("inf")
    for _ in range(3 if n <= 1000 else 1):
        start = time.perf_counter()
        build_digest(changes, window, areas=AreasConfig())
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    times: dict[int, float] = {}
    for n in (100, 1_000, 10_000):
        times[n] = run(n)
        growth = f"  growth x{times[n] / times[n // 10]:.1f}" if n // 10 in times else ""
        print(f"{n:>6} changes: {times[n]:.3f} s{growth}")
    changes = synthetic_day(10_000)
    window = Window(DAY, DAY + dt.timedelta(days=1))
    tracemalloc.start()
    build_digest(changes, window, areas=AreasConfig())
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"peak memory (10,000 changes): {peak / 2**20:.1f} MiB")
    ok = times[1_000] <= 0.5 and times[10_000] <= 15 * times[1_000]
    print(f"targets (1,000 <= 0.5 s; 10x <= 15x time): {'met' if ok else 'MISSED'}")


if __name__ == "__main__":
    main()
