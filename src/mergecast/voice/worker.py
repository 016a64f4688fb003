# SPDX-License-Identifier: GPL-3.0-or-later
"""The voice worker: the one process that runs GPL code (piper-tts with its espeak-ng,
and mutagen's ID3 writer), so mergecast itself stays MIT. See docs/licensing.md.

Run as `python -m mergecast.voice.worker`; mergecast starts it (`voice.process`) and
talks to it over stdin and stdout, one request at a time:

    request:  one line of JSON, then `bytes` bytes of payload (if it says so)
    reply:    one line of JSON, then `bytes` bytes of payload (if it says so)

    {"op": "hello"}                           -> {"ok": true, "protocol": 1}
    {"op": "load", "model": PATH, "threads": N}
                                              -> {"ok": true, "sample_rate": R,
                                                  "length_scale": X}
    {"op": "say", "model": PATH, "threads": N, "text": T, "length_scale": X,
     "noise_scale": X|null, "noise_w_scale": X|null}
                                              -> {"ok": true, "bytes": B} + float32 LE samples
    {"op": "tag", "bytes": B, "title": ..., "show": ..., "date": "YYYY-MM-DD",
     "summary": ..., "duration": S, "chapters": [{"start": S, "title": T, "url": U|null}],
     "extra": {"show": ..., "page_url": ...}, "cover": C|null}
      + the MP3 (and the last C bytes: a JPEG cover)
                                              -> {"ok": true, "bytes": B} + the tagged MP3
    anything that fails                       -> {"ok": false, "error": "what failed"}

Nothing but replies reaches stdout: the process's own fd 1 is pointed at stderr, so a
library that prints cannot break the stream. End of input ends the worker, so it never
outlives mergecast.
"""

from __future__ import annotations

import datetime as dt
import importlib
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

PROTOCOL = 1
Handler = Callable[[dict[str, Any], bytes], tuple[dict[str, Any], bytes]]


class Worker:
    """The worker's state: the piper voices it has loaded, by (model, threads)."""

    def __init__(self) -> None:
        self.voices: dict[tuple[str, int], Any] = {}

    def handle(self, request: dict[str, Any], payload: bytes) -> tuple[dict[str, Any], bytes]:
        ops: dict[str, Handler] = {"hello": self.hello, "load": self.load, "say": self.say,
                                   "tag": self.tag}
        op = ops.get(str(request.get("op")))
        if op is None:
            return {"ok": False, "error": f"unknown op {request.get('op')!r}"}, b""
        return op(request, payload)

    def hello(self, request: dict[str, Any], payload: bytes) -> tuple[dict[str, Any], bytes]:
        return {"ok": True, "protocol": PROTOCOL}, b""

    def _voice(self, request: dict[str, Any]) -> Any:
        key = (str(request["model"]), int(request.get("threads", 0)))
        if key not in self.voices:
            onnxruntime = importlib.import_module("onnxruntime")
            piper = importlib.import_module("piper")
            opts = onnxruntime.SessionOptions()
            # 0 lets onnxruntime use every core; measured fastest (benchmarks/voice.py).
            opts.intra_op_num_threads = key[1]
            opts.inter_op_num_threads = 1
            opts.log_severity_level = 3
            config = json.loads(Path(f"{key[0]}.json").read_text(encoding="utf-8"))
            session = onnxruntime.InferenceSession(key[0], sess_options=opts,
                                                   providers=["CPUExecutionProvider"])
            self.voices[key] = piper.PiperVoice(session=session,
                                                config=piper.PiperConfig.from_dict(config))
        return self.voices[key]

    def load(self, request: dict[str, Any], payload: bytes) -> tuple[dict[str, Any], bytes]:
        voice = self._voice(request)
        return {"ok": True, "sample_rate": int(voice.config.sample_rate),
                "length_scale": float(voice.config.length_scale)}, b""

    def say(self, request: dict[str, Any], payload: bytes) -> tuple[dict[str, Any], bytes]:
        import numpy as np

        piper = importlib.import_module("piper")
        syn = piper.SynthesisConfig(
            length_scale=request["length_scale"], noise_scale=request.get("noise_scale"),
            noise_w_scale=request.get("noise_w_scale"),
            normalize_audio=False,  # loudness is set once for the whole episode
        )
        chunks = [c.audio_float_array for c in self._voice(request).synthesize(
            str(request["text"]), syn)]
        samples = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.float32)
        data = samples.astype("<f4", copy=False).tobytes()
        return {"ok": True, "bytes": len(data)}, data

    def tag(self, request: dict[str, Any], payload: bytes) -> tuple[dict[str, Any], bytes]:
        from ..models import Chapter, Script, WriterKind
        from .tags import tagged

        script = Script(show=str(request["show"]), date=dt.date.fromisoformat(request["date"]),
                        title=str(request["title"]), summary=str(request["summary"]),
                        writer=WriterKind.TEMPLATE, sections=())
        chapters = [Chapter(float(c["start"]), str(c["title"]), c.get("url"))
                    for c in request["chapters"]]
        extra = request.get("extra") or {}
        cover = request.get("cover")
        art = None
        if cover is not None:  # the publisher's cover art rides after the MP3
            payload, art = payload[:len(payload) - int(cover)], payload[len(payload) - int(cover):]
        data = tagged(payload, script, chapters, float(request["duration"]),
                      show=extra.get("show"), page_url=extra.get("page_url"), cover_jpeg=art)
        return {"ok": True, "bytes": len(data)}, data


def serve(stdin: BinaryIO, stdout: BinaryIO) -> int:
    """Answer requests until stdin ends."""
    worker = Worker()
    while True:
        line = stdin.readline()
        if not line:
            return 0
        try:
            request = json.loads(line)
            payload = stdin.read(int(request.get("bytes", 0) or 0))
            reply, data = worker.handle(request, payload)
        except Exception as exc:  # every failure is an answer; the caller names it
            reply, data = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}, b""
        stdout.write(json.dumps(reply).encode() + b"\n" + data)
        stdout.flush()


def main() -> int:
    stdout = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # stray prints go to stderr
    try:
        return serve(sys.stdin.buffer, stdout)
    except BrokenPipeError:  # mergecast went away mid-answer
        return 0


if __name__ == "__main__":
    sys.exit(main())
