"""What a command shows on the terminal while it works: the CLI's `Watch`.

On a terminal, a live line for the running stage whose bar moves with every sentence
spoken or day written, replaced by the stage's result line when the stage ends.
Elsewhere (cron, CI, a pipe) plain lines only: each stage's result, and for long stages
a line at each quarter of the way (every step when there are ten or fewer), so a log
shows where a slow run is without escape codes. Everything goes to stderr; stdout keeps
the command's result (or its JSON).

Verbosity: `--quiet` keeps only warnings and errors; `--verbose` adds mergecast's log
(GitHub requests and cache, retries). Warnings are always shown.
"""

from __future__ import annotations

import logging
import math
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TextIO

import click

from .publish.text import printable
from .redact import scrub
from .watch import Watch

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from .doctor import Check
    from .jobs import BackfillReport, RunReport
    from .publish import PublishReport
    from .sources import IngestReport

QUIET, NORMAL, VERBOSE = -1, 0, 1
_LOG_LEVEL = {QUIET: logging.ERROR, NORMAL: logging.WARNING, VERBOSE: logging.INFO}


class Console(Watch):
    """Stage lines, progress and warnings for one command."""

    def __init__(self, verbosity: int = NORMAL, *, tty: bool | None = None,
                 stream: TextIO | None = None) -> None:
        self.verbosity = verbosity
        self._stream = stream
        self.tty = self.stream.isatty() if tty is None else tty
        self._bar: Progress | None = None
        self._task: TaskID | None = None
        self._printed: tuple[int, int] | None = None  # the last plain progress line
        self._stage = ""

    @property
    def stream(self) -> TextIO:
        # Looked up when used: the test runner swaps sys.stderr per invocation.
        return self._stream or sys.stderr

    # ---- Watch

    def started(self, stage: str) -> None:
        self._stage = stage
        self._printed = None
        if self.tty and self.verbosity >= NORMAL:
            self._live().update(self._ensure_task(), stage=stage, total=None, completed=0,
                                what="")

    def finished(self, stage: str, seconds: float, detail: str) -> None:
        self._stop()
        if self.verbosity >= NORMAL:
            self.line(f"  {stage:<8} {seconds:7.2f} s  {printable(detail)}")

    def advanced(self, done: int, total: int, unit: str, note: str = "") -> None:
        if self.verbosity < NORMAL or total <= 0:
            return
        what = f"{unit}{f' ({note})' if note else ''}"
        if self.tty:
            # Drawn at once: a sentence takes a second or more, so each step is seen.
            self._live().update(self._ensure_task(), stage=self._stage, total=total,
                                completed=done, what=printable(what), refresh=True)
            return
        step = 1 if total <= 10 else math.ceil(total / 4)
        if (done % step == 0 or done == total) and self._printed != (done, total):
            self._printed = (done, total)
            self.line(f"  {self._stage:<8} {done}/{total} {printable(what)}")

    def warn(self, message: str, label: str = "warning") -> None:
        """A warning (always shown), or a progress line a module labels as its own
        ("mergecast: llm: …"), which --quiet drops."""
        if label != "warning" and self.verbosity < NORMAL:
            return
        self.line(printable(f"mergecast: {label}: {message}"))

    # ---- output

    def line(self, text: str) -> None:
        """One permanent line on stderr, above the live bar when there is one; scrubbed of
        every secret the process holds, whoever wrote the line."""
        text = scrub(text)
        if self._bar is not None:
            self._bar.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            click.echo(text, file=self.stream)

    def close(self) -> None:
        self._stop()

    def _live(self) -> Progress:
        if self._bar is None:
            from rich.console import Console as RichConsole
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                SpinnerColumn,
                TextColumn,
                TimeElapsedColumn,
            )

            self._bar = Progress(
                SpinnerColumn(), TextColumn("{task.fields[stage]:<8}"), BarColumn(),
                MofNCompleteColumn(), TextColumn("{task.fields[what]}"), TimeElapsedColumn(),
                console=RichConsole(file=self.stream, force_terminal=True), transient=True)
            self._bar.start()
        return self._bar

    def _ensure_task(self) -> TaskID:
        assert self._bar is not None
        if self._task is None:
            self._task = self._bar.add_task("", total=None, stage=self._stage, what="")
        return self._task

    def _stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
        self._bar = self._task = None


class _LogHandler(logging.Handler):
    """mergecast's log records as `mergecast: …` lines through the console."""

    def __init__(self, console: Console) -> None:
        super().__init__()
        self.console = console

    def emit(self, record: logging.LogRecord) -> None:
        kind = "warning: " if record.levelno >= logging.WARNING else ""
        try:
            self.console.line(printable(f"mergecast: {kind}{record.getMessage()}"))
        except Exception:  # a log line must never break the command
            self.handleError(record)


def attach_log(console: Console) -> Any:
    """Route the `mergecast` loggers to `console` at its verbosity; returns a function
    that detaches them again."""
    logger = logging.getLogger("mergecast")
    handler = _LogHandler(console)
    old_level, old_propagate = logger.level, logger.propagate
    logger.addHandler(handler)
    logger.setLevel(_LOG_LEVEL[console.verbosity])
    logger.propagate = False

    def detach() -> None:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
        logger.propagate = old_propagate

    return detach


# ---- the --json shapes (documented in docs/reference.md)


def _sources(reports: Iterable[IngestReport]) -> list[dict[str, Any]]:
    return [{"source": r.source, "repo": r.repo, "read": r.read, "new": r.new,
             "updated": r.updated, "skipped": r.skipped or None, "warnings": list(r.warnings)}
            for r in reports]


def run_json(report: RunReport) -> dict[str, Any]:
    """`run --json` and `weekly --json`."""
    episode = report.episode
    audio = episode.audio
    return {
        "status": "unchanged" if report.reused else "published",
        "id": episode.id,
        "kind": str(episode.kind),
        "title": episode.script.title,
        "summary": episode.script.summary,
        "page": str(report.page),
        "url": report.url,
        "writer": str(episode.script.writer),
        "voice": audio.voice,
        "audio": audio.audio_bytes is not None,
        "duration_seconds": round(audio.duration_seconds, 3),
        "duration_estimated": audio.audio_bytes is None,
        "sources": _sources(report.sources),
        "warnings": list(report.warnings),
    }


def backfill_json(report: BackfillReport) -> dict[str, Any]:
    return {"made": list(report.made), "skipped": list(report.skipped),
            "quiet": list(report.quiet), "sources": _sources(report.sources),
            "warnings": list(report.warnings)}


def publish_json(report: PublishReport) -> dict[str, Any]:
    return {"out": str(report.out), "url": report.url, "episodes": report.episodes,
            "rendered": list(report.rendered), "files_written": report.files_written,
            "files_linked": report.files_linked, "feeds": list(report.feeds),
            "seconds": round(report.seconds, 3), "warnings": list(report.warnings)}


def doctor_json(checks: Iterable[Check]) -> dict[str, Any]:
    listed = [{"name": c.name, "status": c.status, "detail": c.detail, "fix": c.fix or None,
               "required": c.required} for c in checks]
    return {"ok": not any(c["status"] == "FAIL" for c in listed), "checks": listed}
