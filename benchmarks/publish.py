"""Publishing speed: a full rebuild of a 1,000-episode archive vs. adding one episode.

Target: the incremental publish takes at most 1 s and barely grows with the archive,
because unchanged files are hard-linked from the current site, not rendered again.
The baseline, run in the same process, is the floor for any whole-tree atomic swap:
hard-linking every file of the site into a fresh folder (`cp -al`). Times are until the
new site is live; the previous tree is then deleted by a detached process.

    .venv/bin/python benchmarks/publish.py [EPISODES]
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "publish"), str(ROOT / "src")]

from publish_fakes import IDENTITY, SHOW, make_episode, mp3_bytes, series  # noqa: E402

from mergecast.models import Episode  # noqa: E402
from mergecast.publish import publish_site  # noqa: E402


def _archive(count: int) -> list[Episode]:
    days = count * 7 // 8  # a weekly recap after every seven dailies
    episodes = series(days)
    while len(episodes) < count:
        days += 1
        episodes = series(days)
    return episodes[:count]


def _media(root: Path, episodes: list[Episode]) -> None:
    one = root / "one.mp3"
    root.mkdir(parents=True, exist_ok=True)
    one.write_bytes(mp3_bytes())
    for ep in episodes:
        (root / ep.id).mkdir(exist_ok=True)
        target = root / ep.id / "episode.mp3"
        if not target.exists():
            os.link(one, target)


def run(count: int, work: Path) -> tuple[float, float, float, int]:
    episodes = _archive(count)
    media_root = work / f"media-{count}"
    site = work / f"site-{count}"
    newest = make_episode(max(e.published_at for e in episodes).date() + dt.timedelta(days=1))
    _media(media_root, [*episodes, newest])

    def media(i: str) -> Path:
        return media_root / i

    t0 = time.perf_counter()
    publish_site(episodes, site, SHOW, identity=IDENTITY, media=media)
    full = time.perf_counter() - t0

    t0 = time.perf_counter()
    report = publish_site([*episodes, newest], site, SHOW, identity=IDENTITY, media=media)
    incremental = time.perf_counter() - t0

    t0 = time.perf_counter()
    shutil.copytree(site, work / f"linked-{count}", copy_function=os.link)
    baseline = time.perf_counter() - t0
    return full, incremental, baseline, len(report.rendered)


def main() -> None:
    sizes = [int(sys.argv[1])] if len(sys.argv) > 1 else [250, 1000]
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
        results = {n: run(n, Path(tmp)) for n in sizes}
    for n, (full, inc, base, rendered) in results.items():
        print(f"{n:5d} episodes: full rebuild {full:6.2f} s | add one episode {inc:5.3f} s "
              f"({rendered} pages rendered) | baseline hard-link copy of the site {base:5.3f} s")
        print(f"       incremental / full = {inc / full:5.3f}   incremental / baseline = "
              f"{inc / base:4.1f}x   target incremental <= 1 s: {'met' if inc <= 1 else 'MISSED'}")
    if len(results) > 1:
        (a, ra), (b, rb) = sorted(results.items())[:2]
        print(f"archive x{b / a:.0f} -> incremental time x{rb[1] / ra[1]:.2f}")


if __name__ == "__main__":
    main()
