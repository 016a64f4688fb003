"""Quality sweep: build the digest and the template script for every day of a store.

Not a test and not a speed benchmark: it shows how the offline writer copes with real
history. Per day it prints changes, themes, spoken words, the title and any exception (a
fact-check failure with its full report); at the end, totals: days, failures, words per
sentence (mean and max), sentences over the limit, and the duration estimate against the
target; then the language figures of issue 16 (sweep_language.py) and the effect
fidelity figures (sweep_effects.py: lost words, cut objects).

Run:  .venv/bin/python benchmarks/sweep.py --db STORE.db [--since DAY --until DAY]
      [--every N] [--quiet] [--show-script DAY] [--language-json FILE] [--no-memory]
Days are written in order, each remembering the days before (cross-day memory), as a
show run daily would; --no-memory writes each day alone.
Compare two runs: .venv/bin/python benchmarks/sweep_language.py BEFORE.json AFTER.json
"""

from __future__ import annotations

import argparse
import datetime as dt
import re
import statistics
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mergecast import pipeline, targets
from mergecast.analysis.memory import link_earlier
from mergecast.analysis.scope import claim_markers
from mergecast.config import Config
from mergecast.dates import day_of, day_window
from mergecast.errors import FactCheckError, MergecastError
from mergecast.models import Audio, Digest, Episode, Script
from mergecast.store import Store
from mergecast.writing import write_script
from mergecast.writing.sizes import LINES

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sweep_effects  # noqa: E402  (effects that say what the title said)
import sweep_language  # noqa: E402  (issue 16's language figures, beside this file)

MAX_SENTENCE_WORDS = 30
MEMORY_DAYS = 8  # the memory looks back a week; older episodes change nothing
_TEXT_ONLY = Audio(duration_seconds=0.0, cues=(), chapters=())
# What a listener should never hear read aloud: code, links, markdown, paths.
_UNSPOKEN = re.compile(
    r"`|https?:|www\.|\*\*|\[[^\]]*\]\(|(?<![\w.])[\w.-]+/[\w./-]+|::|->|\(\)"
    r"|\b[a-z]\w*_\w+\b|\w\.(?:py|toml|ya?ml|md|json|cpp|sh)\b")


@dataclass
class DayResult:
    day: dt.date
    changes: int
    themes: int = 0
    words: int = 0
    title: str = ""
    error: str | None = None
    report: list[str] = field(default_factory=list)
    sentence_words: list[int] = field(default_factory=list)
    unspoken: list[str] = field(default_factory=list)  # sentences with code/paths/markup
    file_claims: list[str] = field(default_factory=list)  # scope sentences: a new/gone file
    script: Script | None = None
    digest: Digest | None = None
    language: sweep_language.EpisodeLanguage | None = None
    effects: sweep_effects.EpisodeEffects | None = None


@dataclass
class Totals:
    days: int = 0
    empty: int = 0
    failures: int = 0
    sentences: int = 0
    mean_words: float = 0.0
    max_words: int = 0
    over_limit: int = 0
    unspoken: int = 0
    mean_minutes: float = 0.0
    within_target: int = 0
    target_minutes: float = 0.0
    seconds: float = 0.0


def store_days(store: Store, cfg: Config) -> list[dt.date]:
    """Every episode day from the store's first activity to its last (empty days too)."""
    latest = store.latest_activity(dt.datetime.now(dt.UTC))
    if latest is None:
        return []
    first = min((t for c in store.changes_between(dt.datetime(1970, 1, 1, tzinfo=dt.UTC),
                                                  latest + dt.timedelta(seconds=1))
                 for t in c.times()), default=latest)
    start, end = day_of(first, cfg.show), day_of(latest, cfg.show)
    return [start + dt.timedelta(days=i) for i in range((end - start).days + 1)]


def sweep_day(cfg: Config, store: Store, day: dt.date,
              earlier: Sequence[Episode] = ()) -> DayResult:
    """One day's digest and template script, with any failure captured (never raised).
    `earlier`: the episodes of the days before, as a daily show would have published
    them, for cross-day memory ("Work on X continues from yesterday")."""
    window = day_window(day, cfg.show)
    digest = link_earlier(pipeline.digest_for(cfg, store, window), earlier)
    result = DayResult(day=day, changes=digest.counts.changes, themes=len(digest.themes),
                       digest=digest)
    if digest.counts.changes == 0:
        return result
    try:
        script = write_script(digest, show=pipeline.show_name_for(cfg, digest.changes),
                              day=day, writing=cfg.writing, lexicon=cfg.lexicon, llm=cfg.llm,
                              writer="template")
    except FactCheckError as exc:
        result.error = f"FactCheckError: {exc}"
        result.report = list(exc.problems)
        return result
    except (MergecastError, Exception) as exc:  # a sweep reports every failure, whatever it is
        result.error = f"{type(exc).__name__}: {exc}"
        return result
    result.script = script
    result.language = sweep_language.measure(script, digest)
    result.effects = sweep_effects.measure(script, digest)
    result.words = script.words
    result.title = script.title
    for section in script.sections:
        for s in section.sentences:
            result.sentence_words.append(len(s.text.split()))
            if _UNSPOKEN.search(s.text):
                result.unspoken.append(s.text)
            if LINES.search(s.text) and any(k in s.text.lower() for k in claim_markers().values()):
                result.file_claims.append(s.text)
    return result


def sweep(cfg: Config, store: Store, days: Iterable[dt.date], *,
          memory: bool = True) -> Iterator[DayResult]:
    """Each day in order; with `memory`, each remembers the text-only episodes of the days
    before it, as a show run daily (or backfilled) would."""
    earlier: list[Episode] = []
    for day in days:
        result = sweep_day(cfg, store, day, earlier if memory else ())
        if memory and result.script is not None and result.digest is not None:
            draft = pipeline.Draft(targets.daily(day, cfg), result.digest, script=result.script)
            earlier = [*earlier[-MEMORY_DAYS:], pipeline.assemble(cfg, draft, _TEXT_ONLY)]
        yield result


def totals(results: Sequence[DayResult], cfg: Config, seconds: float = 0.0) -> Totals:
    busy = [r for r in results if r.changes]
    written = [r for r in busy if r.error is None]
    lengths = [n for r in written for n in r.sentence_words]
    wpm = cfg.writing.words_per_minute
    minutes = [r.words / wpm for r in written]
    target = cfg.writing.minutes
    long_days = [r for r in written if r.changes > 3]  # short days make short episodes
    return Totals(
        days=len(busy), empty=len(results) - len(busy),
        failures=sum(1 for r in busy if r.error is not None),
        sentences=len(lengths),
        mean_words=statistics.fmean(lengths) if lengths else 0.0,
        max_words=max(lengths, default=0),
        over_limit=sum(1 for n in lengths if n > MAX_SENTENCE_WORDS),
        unspoken=sum(len(r.unspoken) for r in written),
        mean_minutes=statistics.fmean(minutes) if minutes else 0.0,
        within_target=sum(1 for r in long_days
                          if abs(r.words / wpm - target) <= 0.15 * target),
        target_minutes=target, seconds=seconds,
    )


def _line(r: DayResult) -> str:
    head = f"{r.day}  changes {r.changes:3d}  themes {r.themes:3d}  words {r.words:4d}"
    if r.error:
        return f"{head}  FAIL {r.error}"
    return f"{head}  {r.title}"


def _print_script(script: Script) -> None:
    print(f"\n=== {script.date}: {script.title}\n{script.summary}\n")
    for section in script.sections:
        print(f"[{section.kind}] {section.heading}\n{section.text}\n")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", type=Path, required=True, help="an ingested mergecast store")
    ap.add_argument("--config", type=Path, default=None)
    ap.add_argument("--since", type=dt.date.fromisoformat, default=None)
    ap.add_argument("--until", type=dt.date.fromisoformat, default=None)
    ap.add_argument("--every", type=int, default=1, help="sample every Nth day")
    ap.add_argument("--quiet", action="store_true", help="print only failures and totals")
    ap.add_argument("--show-script", type=dt.date.fromisoformat, action="append", default=[],
                    help="also print this day's full script (repeatable)")
    ap.add_argument("--busiest", type=int, default=0, help="print the N busiest days' scripts")
    ap.add_argument("--relations", action="store_true",
                    help="also print the relations report (benchmarks/sweep_relations.py)")
    ap.add_argument("--language-json", type=Path, default=None,
                    help="save the language figures here (compare runs with sweep_language.py)")
    ap.add_argument("--no-memory", action="store_true",
                    help="write each day as if no earlier episode existed (the figures "
                         "before cross-day memory was swept; with --every N the memory only "
                         "sees the sampled days)")
    args = ap.parse_args(argv)

    cfg = pipeline.load_config(args.config, args.db)
    with Store(args.db) as store:
        days = store_days(store, cfg)
        if args.since:
            days = [d for d in days if d >= args.since]
        if args.until:
            days = [d for d in days if d <= args.until]
        days = days[:: max(1, args.every)]
        started = time.perf_counter()
        results: list[DayResult] = []
        for r in sweep(cfg, store, days, memory=not args.no_memory):
            results.append(r)
            if r.changes and (not args.quiet or r.error):
                print(_line(r))
                for problem in r.report:
                    print(f"    - {problem}")
                for text in r.unspoken if not args.quiet else ():
                    print(f"    ! unspoken: {text}")
        elapsed = time.perf_counter() - started
        if args.relations:
            from sweep_relations import report

            print("\n" + report(results, store, cfg, args.db.stem))
    shown = {r.day: r for r in results}
    for day in args.show_script:
        if (r := shown.get(day)) and r.script:
            _print_script(r.script)
    for r in sorted(results, key=lambda r: -r.changes)[: args.busiest]:
        if r.script:
            _print_script(r.script)
    t = totals(results, cfg, elapsed)
    print(
        f"\ndays with changes {t.days} (empty {t.empty}), failures {t.failures}\n"
        f"sentences {t.sentences}: words/sentence mean {t.mean_words:.1f}, max {t.max_words}, "
        f"over {MAX_SENTENCE_WORDS}: {t.over_limit}; with code/paths/markup: {t.unspoken}\n"
        f"duration mean {t.mean_minutes:.2f} min vs target {t.target_minutes:.2f} min; "
        f"days with >3 changes within ±15 %: {t.within_target}\n"
        f"scope sentences saying a file is new, gone or renamed: "
        f"{sum(len(r.file_claims) for r in results)}\n"
        f"swept in {t.seconds:.1f} s ({1000 * t.seconds / max(1, len(results)):.1f} ms/day)"
    )
    lang = sweep_language.report(
        args.db.stem, [r.language for r in results if r.language is not None], t.days,
        t.failures)
    print(sweep_language.table(lang, examples=True))
    print(sweep_effects.table(sweep_effects.report(
        args.db.stem, [r.effects for r in results if r.effects is not None])))
    if args.language_json:
        sweep_language.save(lang, args.language_json)
    return 1 if t.failures else 0


if __name__ == "__main__":
    sys.exit(main())
