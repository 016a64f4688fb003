"""Real episode durations on a sample of active days: the sweep's duration figures are
estimates (spoken words at a fixed pace); this renders the audio and measures it.

For every Nth active day of a store (four or more changes, the sweep's definition) it
writes the template script, narrates it with the configured voice (piper by default) and
reads the rendered duration. Prints per day: changes, spoken words, the estimate at
sweep_language.SPOKEN_WPM, the real duration, and the pace; then the share of the sample
inside 2:00-3:30 by the real duration and by the estimate, and the pace over the sample.

Run:  .venv/bin/python benchmarks/listen_sample.py --db STORE.db --config SHOW.toml
      [--every N] [--limit K] [--keep DIR]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from mergecast import pipeline
from mergecast.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sweep  # noqa: E402  (beside this file)
import sweep_language  # noqa: E402

LOW, HIGH = sweep_language.LOW_SECONDS, sweep_language.HIGH_SECONDS


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--config", type=Path, default=None)
    ap.add_argument("--every", type=int, default=10, help="take every Nth active day")
    ap.add_argument("--limit", type=int, default=12, help="render at most this many days")
    ap.add_argument("--keep", type=Path, default=None, help="keep the media here")
    args = ap.parse_args(argv)
    cfg = pipeline.load_config(args.config, args.db)
    with Store(args.db) as store:
        active = [r for r in sweep.sweep(cfg, store, sweep.store_days(store, cfg))
                  if r.script is not None and r.language is not None
                  and r.changes >= sweep_language.ACTIVE_CHANGES and not r.language.focused]
    sample = active[:: max(1, args.every)][: args.limit]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = args.keep or Path(tmp)
        for r in sample:
            assert r.script is not None and r.language is not None
            audio = pipeline.render_media(r.script, out / r.day.isoformat(), cfg.voice)
            real = audio.duration_seconds
            rows.append((r, real))
            print(f"{r.day}  changes {r.changes:3}  words {r.script.words:4}  "
                  f"estimate {r.language.seconds:6.1f} s  real {real:6.1f} s  "
                  f"pace {60 * r.script.words / real:5.1f} words/min", flush=True)
    if not rows:
        print("no active days")
        return 0
    n = len(rows)
    real_in = sum(1 for _, s in rows if LOW <= s <= HIGH)
    est_in = sum(1 for r, _ in rows if r.language and LOW <= r.language.seconds <= HIGH)
    words = sum(r.script.words for r, _ in rows if r.script)
    seconds = sum(s for _, s in rows)
    median = statistics.median(60 * r.script.words / s for r, s in rows if r.script)
    print(f"\n{n} active days rendered: in 2:00-3:30 by real duration {real_in}/{n} "
          f"({real_in / n:.0%}), by the estimate {est_in}/{n} ({est_in / n:.0%}); "
          f"pace {60 * words / seconds:.1f} spoken words a minute "
          f"(median {median:.1f}); "
          f"the sweep assumes {sweep_language.SPOKEN_WPM}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
