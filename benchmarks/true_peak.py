"""True peak of published audio: the busiest days of a store, narrated by piper, mastered,
then encoded two ways in the same run: a plain LAME encode, and encode_mp3 (which measures
the decoded file and fixes it). Each file is decoded and measured in-process (libsndfile,
4x oversampling) and, when ffmpeg is installed, by ffmpeg's ebur128 filter as a check.

Not a test: narration takes a minute per episode. Run:
  .venv/bin/python benchmarks/true_peak.py --db COPY.db --show NAME [--days 4]
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from sweep import store_days, sweep_day  # noqa: E402

from mergecast import pipeline  # noqa: E402
from mergecast.store import Store  # noqa: E402
from mergecast.voice import audio, mp3  # noqa: E402
from mergecast.voice.narrate import narrate  # noqa: E402
from mergecast.voice.piper import PiperBackend  # noqa: E402


def ffmpeg_true_peak(data: bytes) -> float | None:
    if not shutil.which("ffmpeg"):
        return None
    with tempfile.NamedTemporaryFile(suffix=".mp3") as fh:
        fh.write(data)
        fh.flush()
        out = subprocess.run(["ffmpeg", "-hide_banner", "-nostats", "-i", fh.name, "-af",
                              "ebur128=peak=true", "-f", "null", "-"],
                             capture_output=True, text=True, check=True).stderr
    found = re.search(r"True peak:\s+Peak:\s+(-?[0-9.]+)", out[out.rfind("Summary:"):])
    return float(found.group(1)) if found else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--show", required=True, help="the show name the scripts say")
    ap.add_argument("--days", type=int, default=4)
    args = ap.parse_args()
    cfg = pipeline.load_config(None, args.db)
    cfg = dataclasses.replace(cfg, show=dataclasses.replace(cfg.show, name=args.show))
    with Store(args.db) as store:
        results = [sweep_day(cfg, store, d) for d in store_days(store, cfg)]
    busiest = sorted((r for r in results if r.script), key=lambda r: -r.changes)[: args.days]
    voice = PiperBackend(deterministic=True)
    over = {"plain": 0, "encode_mp3": 0}
    cost = {"plain": 0.0, "encode_mp3": 0.0}
    for r in busiest:
        assert r.script is not None
        narration = narrate(r.script, voice)
        pcm = audio.master(narration.samples, narration.sample_rate)
        line = [f"{r.day}  {pcm.size / audio.OUT_RATE:6.1f} s"]
        for name in ("plain", "encode_mp3"):
            start = time.perf_counter()
            data = (mp3.encode(audio.to_int16(pcm), audio.OUT_RATE, audio.BITRATE_KBPS)
                    if name == "plain" else audio.encode_mp3(pcm))
            cost[name] += time.perf_counter() - start
            decoded = mp3.decode(data)
            peak = audio.true_peak(decoded)
            over[name] += peak > audio.PEAK_DBTP
            check = ffmpeg_true_peak(data)
            line.append(f"{name} {peak:6.2f} dBTP (ffmpeg {check if check is not None else '-'})"
                        f" {audio.loudness(decoded, audio.OUT_RATE):6.2f} LUFS")
        print("  ".join(line), flush=True)
    n = len(busiest)
    print(f"above -1 dBTP: plain {over['plain']} of {n}, encode_mp3 {over['encode_mp3']} of {n}; "
          f"encode time encode_mp3 / plain = {cost['encode_mp3'] / cost['plain']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
