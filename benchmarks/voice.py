"""Voice stage speed: real-time factor (audio seconds per wall second) on a 400-word script.

Prints synthesis RTF, whole-stage RTF (synthesis + mastering + MP3 + tags + writes), the
item-7 comparison (onnxruntime intra-op threads 1 vs all cores vs a 2-process pool), and
the cost of the voice worker's process boundary (issue 18 item 11): the same sentences
through PiperBackend (the worker) and through piper loaded here, in-process, alternately,
as a ratio. Target: whole stage ≥ 15x on a 2-core machine.
Run: .venv/bin/python benchmarks/voice.py
"""

from __future__ import annotations

import concurrent.futures as cf
import datetime as dt
import multiprocessing
import os
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from mergecast.config import VoiceConfig
from mergecast.models import Script, Section, Sentence
from mergecast.pipeline import render_media
from mergecast.voice.narrate import narrate
from mergecast.voice.piper import PiperBackend, model_path

LINES = [
    "The signal today is a twelve-part stack from ezyang that reworks how Dynamo installs guards.",
    "It starts with PR one nine one zero four four and ends with PR one nine one zero five five.",
    "In plain words, compiled functions now check fewer conditions before they run again.",
    "Second, a three-part series from jansel moves Inductor's loop fusion onto a new scheduler.",
    "The change touches about four hundred lines and keeps the old path behind a flag.",
    "Third, the distributed team landed a fix for a hang in the nickel all-reduce path.",
    "That bug showed up only on machines with more than eight devices per node.",
    "On export, two contributors tidied the way dynamic shapes are named in error messages.",
    "On the C plus plus side, a small patch speeds up tensor printing for very large arrays.",
    "Two separate PRs both tackle the same issue with flaky timeouts in the CUDA test shards.",
    "Worth noting, a revert of yesterday's change to the autograd profiler landed this morning.",
    "The reason given was a failing nightly build, and a reland is already open for review.",
    "Meanwhile, five first-time contributors opened their first pull requests this week.",
    "Their changes range from documentation fixes to a new option for the data loader.",
    "That's the briefing for today; thanks for listening, and see you tomorrow.",
]


def script(words: int = 400) -> Script:
    sentences: list[Sentence] = []
    i = 0
    while sum(len(s.spoken.split()) for s in sentences) < words:
        line = LINES[i % len(LINES)]
        sentences.append(Sentence(line, line))
        i += 1
    sections = tuple(
        Section("theme", f"Part {k + 1}", tuple(sentences[k : k + 5]))
        for k in range(0, len(sentences), 5)
    )
    return Script("bench", dt.date(2026, 1, 1), "Benchmark", "A benchmark.", "template", sections)


def _serial(voice: PiperBackend, texts: list[str]) -> tuple[float, float]:
    start = time.perf_counter()
    samples = sum(voice.synthesize(t).size for t in texts)
    return samples / voice.sample_rate, time.perf_counter() - start


_WORKER: PiperBackend | None = None


def _init() -> None:
    global _WORKER
    _WORKER = PiperBackend(deterministic=True, threads=1)
    _WORKER.synthesize("Warm up.")


def _work(text: str) -> int:
    assert _WORKER is not None
    return int(_WORKER.synthesize(text).size)


def _pool(texts: list[str], rate: int) -> tuple[float, float]:
    ctx = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(2, mp_context=ctx, initializer=_init) as pool:
        list(pool.map(_work, ["Warm up."] * 2))  # model load is not synthesis time
        start = time.perf_counter()
        samples = sum(pool.map(_work, texts))
        return samples / rate, time.perf_counter() - start


class _InProcess:
    """The baseline: piper loaded in this process, as mergecast ran it before the worker.
    (A benchmark may import piper; mergecast's own modules may not.)"""

    def __init__(self) -> None:
        from piper import PiperVoice, SynthesisConfig

        self._voice = PiperVoice.load(model_path())
        self.sample_rate = int(self._voice.config.sample_rate)
        self._syn = SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0, normalize_audio=False)

    def synthesize(self, text: str) -> np.ndarray:
        chunks = [c.audio_float_array for c in self._voice.synthesize(text, self._syn)]
        return np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.float32)


def _boundary(worker: PiperBackend, texts: list[str], rounds: int = 3) -> None:
    """Worker vs in-process on the same sentences, A B A B ..., median wall per round."""
    local = _InProcess()
    local.synthesize("Warm up.")
    walls: dict[str, list[float]] = {"worker": [], "in-process": []}
    for _ in range(rounds):
        for label, v in (("worker", worker), ("in-process", local)):
            start = time.perf_counter()
            for text in texts:
                v.synthesize(text)
            walls[label].append(time.perf_counter() - start)
    w, b = (statistics.median(walls[k]) for k in ("worker", "in-process"))
    print(f"item 11, process boundary: worker {w:5.2f} s, in-process {b:5.2f} s per "
          f"{len(texts)} sentences -> worker/in-process {w / b:.3f}x")


def main() -> None:
    s = script()
    texts = [x.spoken for sec in s.sections for x in sec.sentences]
    print(f"script: {s.words} words, {len(texts)} sentences, {os.cpu_count()} cores")
    start = time.perf_counter()
    voice = PiperBackend(deterministic=True)
    print(f"model load: {time.perf_counter() - start:.2f} s")
    voice.synthesize("Warm up.")

    cfg = VoiceConfig(deterministic=True)
    start = time.perf_counter()
    n = narrate(s, voice, sentence_pause=cfg.sentence_pause, section_pause=cfg.section_pause)
    synth = time.perf_counter() - start
    speech = float(np.count_nonzero(n.samples) / n.sample_rate)
    rtf_synth = n.duration / synth
    print(f"synthesis:   {n.duration:6.1f} s audio in {synth:5.2f} s  -> RTF {rtf_synth:5.1f}x")
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        audio = render_media(s, Path(tmp), cfg, engine=voice)
        whole = time.perf_counter() - start
    rtf = audio.duration_seconds / whole
    print(
        f"whole stage: {audio.duration_seconds:6.1f} s audio in {whole:5.2f} s  -> RTF {rtf:5.1f}x"
        f"  (target 15x: {'met' if rtf >= 15 else 'NOT met'}; speech {speech:.0f} s)"
    )

    print("item 7, synthesis only (same sentences):")
    one = PiperBackend(deterministic=True, threads=1)
    one.synthesize("Warm up.")
    for label, v in (("intra-op 1 thread ", one), ("intra-op all cores", voice)):
        secs, wall = _serial(v, texts)
        print(f"  {label}: RTF {secs / wall:5.1f}x")
    secs, wall = _pool(texts, voice.sample_rate)
    print(f"  2 processes x 1 thread: RTF {secs / wall:5.1f}x")
    _boundary(voice, texts)


if __name__ == "__main__":
    main()
