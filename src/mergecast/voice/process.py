"""mergecast's side of the voice worker (`voice.worker`): starts it, sends requests, reads
answers. This module imports nothing of piper's or mutagen's: their GPL code runs only in
the worker's own process, behind the plain JSON-and-bytes protocol the worker documents
(docs/licensing.md says why).

One worker per mergecast process is shared by every voice and tag request, so a loaded
voice model is loaded once; a worker process in a pool gets its own. The worker ends when
mergecast does (it reads end-of-input).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping, Sequence
from typing import IO, Any

from ..errors import VoiceError
from ..models import Chapter, Script

_FIX = "reinstall mergecast's voice dependencies (piper-tts), or pick --voice espeak-ng or none"


class Worker:
    """One `python -m mergecast.voice.worker` process and its pipes."""

    def __init__(self, command: Sequence[str] | None = None) -> None:
        self._err: IO[bytes] = tempfile.TemporaryFile()  # a file, so it never fills and blocks
        self._lock = threading.Lock()
        argv = [sys.executable, "-m", "mergecast.voice.worker"]
        if command is not None:  # tests start a stand-in
            argv = [*command]
        try:
            self._proc = subprocess.Popen(  # noqa: S603 - our own interpreter, fixed argv
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._err)
        except OSError as exc:
            raise VoiceError(f"cannot start the voice worker ({exc.strerror}); {_FIX}") from exc

    def request(self, header: Mapping[str, Any], payload: bytes = b"") -> tuple[dict[str, Any],
                                                                               bytes]:
        """Send one request; its answer and the answer's payload. VoiceError when the
        worker says it failed, or has gone."""
        stdin, stdout = self._proc.stdin, self._proc.stdout
        assert stdin is not None and stdout is not None
        with self._lock:
            try:
                stdin.write(json.dumps({**header, "bytes": len(payload)}).encode() + b"\n")
                stdin.write(payload)
                stdin.flush()
                line = stdout.readline()
                reply = json.loads(line) if line else None
                data = stdout.read(int(reply.get("bytes", 0) or 0)) if reply else b""
            except (OSError, ValueError):
                reply = None
        if not isinstance(reply, dict):
            raise VoiceError(f"the voice worker stopped ({self._why()}); {_FIX}")
        if not reply.get("ok"):
            raise VoiceError(f"the voice worker could not {header.get('op')}: "
                             f"{reply.get('error')}")
        return reply, data

    def _why(self) -> str:
        try:  # its output ended: it is exiting, so its status comes within moments
            code: int | None = self._proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        self._err.seek(0)
        lines = self._err.read()[-2000:].decode("utf-8", "replace").strip().splitlines()
        said = lines[-1] if lines else "no message"
        return f"exit status {code}: {said}" if code is not None else said

    def close(self) -> None:
        """End the worker: end of input, then a short wait, then a kill."""
        with contextlib.suppress(OSError):
            if self._proc.stdin is not None:
                self._proc.stdin.close()
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        if self._proc.stdout is not None:
            self._proc.stdout.close()
        self._err.close()

    @property
    def alive(self) -> bool:
        return self._proc.poll() is None


_SHARED: dict[int, Worker] = {}  # by process id: a forked pool worker starts its own


def shared() -> Worker:
    """This process's worker, started on first use (and again if it died)."""
    pid = os.getpid()
    worker = _SHARED.get(pid)
    if worker is None or not worker.alive:
        worker = _SHARED[pid] = Worker()
    return worker


@atexit.register
def _close_shared() -> None:
    worker = _SHARED.pop(os.getpid(), None)
    if worker is not None:
        worker.close()


def tagged(mp3: bytes, script: Script, chapters: Sequence[Chapter], duration: float, *,
           show: str | None = None, cover_jpeg: bytes | None = None,
           page_url: str | None = None) -> bytes:
    """`mp3` with its ID3v2 tag (title, show, date, summary, chapters; the publisher's
    show name, cover art and page when given), written by the worker's tagger."""
    extra = {k: v for k, v in (("show", show), ("page_url", page_url)) if v is not None}
    cover = cover_jpeg or b""
    _, data = shared().request({
        "op": "tag", "title": script.title, "show": script.show,
        "date": script.date.isoformat(), "summary": script.summary, "duration": duration,
        "chapters": [{"start": c.start, "title": c.title, "url": c.url} for c in chapters],
        "extra": extra, "cover": len(cover) if cover_jpeg is not None else None,
    }, mp3 + cover)
    return data
