"""Many episodes at once: `backfill` (one per active day) and `weekly` recaps.

Digests and scripts are cheap and depend on earlier days (cross-day memory), so they are
made in date order in this process; narration is the slow part, so it runs in worker
processes. Episodes are then stored and published once, in date order.
"""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import datetime as dt
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from . import dates, locking, pipeline
from .analysis.memory import link_earlier
from .config import Config
from .errors import EmptyWindowError, InputError
from .models import Audio, Digest, Episode, Script, Window
from .store import Store
from .writing import write_script

Progress = Callable[[str, int, int], None]  # (day, done, total)


@dataclasses.dataclass(frozen=True)
class BackfillReport:
    made: tuple[str, ...]
    skipped: tuple[str, ...]  # already done with the same input
    quiet: tuple[str, ...]  # no activity


@dataclasses.dataclass(frozen=True)
class _Job:
    episode_id: str
    window: Window
    digest: Digest
    script: Script
    key: str


def backfill(
    cfg: Config,
    *,
    start: dt.date,
    end: dt.date,
    jobs: int = 1,
    out: Path | None = None,
    voice: str | None = None,
    allow_empty: bool = False,
    on_progress: Progress = lambda day, done, total: None,
    sources: Mapping[str, Any] | None = None,
) -> BackfillReport:
    """One episode per active day; `sources` are run's --repo/--gh-json/--github flags."""
    check_range(start, end)
    out = out or cfg.publish.out
    days = [start + dt.timedelta(days=i) for i in range((end - start).days + 1)]
    with locking.exclusive([cfg.store.path, out]), pipeline.open_store(cfg) as store:
        pipeline.collect_configured(
            cfg, store, since=dates.day_window(start, cfg.show).since.isoformat(),
            until=dates.day_window(end, cfg.show).until.isoformat(),
            **(sources or {}))
        quiet_ok = allow_empty or cfg.writing.allow_empty
        todo, skipped, quiet = _plan(cfg, store, days, voice, quiet_ok)
        total = len(todo)
        on_progress("", 0, total)
        made: list[Episode] = []
        with cf.ProcessPoolExecutor(max_workers=max(1, jobs)) if jobs > 1 else _Inline() as pool:
            futures = {
                pool.submit(_speak, cfg, job.episode_id, job.key, job.script, voice,
                            pipeline.links_for(job.script, job.digest)): job
                for job in todo
            }
            for n, future in enumerate(cf.as_completed(futures), 1):
                job = futures[future]
                audio = future.result()
                made.append(pipeline.make_episode(
                    cfg, job.episode_id, "daily", job.window, job.digest, job.script, audio,
                    job.key))
                on_progress(job.episode_id, n, total)
        with store.transaction():
            for episode in sorted(made, key=lambda e: e.id):
                store.save_episode(episode)
        if made:
            pipeline.publish(cfg, store, out)
    return BackfillReport(tuple(sorted(e.id for e in made)), tuple(skipped), tuple(quiet))


def check_range(start: dt.date, end: dt.date) -> None:
    if end < start:
        raise InputError(f"expected --to on or after --from, got {start} .. {end}")


def _plan(
    cfg: Config, store: Store, days: list[dt.date], voice: str | None, allow_empty: bool
) -> tuple[list[_Job], list[str], list[str]]:
    todo: list[_Job] = []
    skipped: list[str] = []
    quiet: list[str] = []
    earlier = [e for e in store.episodes() if e.id < days[0].isoformat()]
    for day in days:
        episode_id = day.isoformat()
        window = dates.day_window(day, cfg.show)
        digest = link_earlier(pipeline.digest_for(cfg, store, window), earlier)
        if digest.counts.changes == 0 and not allow_empty:
            quiet.append(episode_id)
            continue
        key = pipeline.source_hash(cfg, digest, None, voice)
        previous = store.episode(episode_id)
        if previous is not None and pipeline.reusable(cfg, previous, key):
            skipped.append(episode_id)
            earlier.append(previous)
            continue
        script = write_script(
            digest, show=pipeline.show_name_for(cfg, digest.changes), day=day,
            writing=cfg.writing, lexicon=cfg.lexicon, llm=cfg.llm, writer=cfg.writing.writer,
        )
        todo.append(_Job(episode_id, window, digest, script, key))
        # Later days remember this one even before its audio exists.
        earlier.append(pipeline.make_episode(
            cfg, episode_id, "daily", window, digest, script, Audio(0.0, (), ()), key))
    return todo, skipped, quiet


def _speak(
    cfg: Config, episode_id: str, key: str, script: Script, voice: str | None,
    links: dict[int, str],
) -> Audio:
    return pipeline.speak_cached(cfg, episode_id, key, script, voice, links)


class _Inline:
    """A one-worker stand-in for a process pool: runs each job as it is submitted."""

    def __enter__(self) -> _Inline:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def submit(self, fn: Callable[..., Audio], *args: object) -> cf.Future[Audio]:
        future: cf.Future[Audio] = cf.Future()
        try:
            future.set_result(fn(*args))
        except BaseException as exc:  # the caller sees it through .result(), like a pool
            future.set_exception(exc)
        return future


def weekly(
    cfg: Config, *, week: str | None = None, out: Path | None = None, voice: str | None = None,
    now: dt.datetime | None = None,
) -> Episode:
    """A recap of one ISO week's dailies, published like any episode (id YYYY-Www)."""
    out = out or cfg.publish.out
    year, number = dates.parse_week(week) if week else _last_week(cfg, now)
    days = dates.week_days(year, number)
    window = Window(dates.day_window(days[0], cfg.show).since,
                    dates.day_window(days[-1], cfg.show).until)
    episode_id = f"{year}-W{number:02d}"
    with locking.exclusive([cfg.store.path, out]), pipeline.open_store(cfg) as store:
        dailies = [e for e in store.episodes()
                   if e.kind == "daily" and e.id in {d.isoformat() for d in days}]
        digest = pipeline.digest_for(cfg, store, window)
        if digest.counts.changes == 0:
            raise EmptyWindowError(f"no activity in {episode_id}; no weekly recap made")
        key = pipeline.source_hash(cfg, digest, "weekly", voice)
        previous = store.episode(episode_id)
        related = tuple(sorted(e.id for e in dailies))
        if previous is not None and pipeline.reusable(cfg, previous, key) \
                and previous.related == related:
            episode = previous
        else:
            script = write_script(
                digest, show=pipeline.show_name_for(cfg, digest.changes), day=days[-1],
                lexicon=cfg.lexicon, llm=cfg.llm,
                writing=dataclasses.replace(cfg.writing, minutes=max(3.5, cfg.writing.minutes),
                                            max_themes=max(4, cfg.writing.max_themes)),
                writer="template", weekly=episode_id,
            )
            links = pipeline.links_for(script, digest)
            audio = pipeline.speak_cached(cfg, episode_id, key, script, voice, links)
            episode = pipeline.make_episode(
                cfg, episode_id, "weekly", window, digest, script, audio, key, related)
        store.save_episode(episode)
        pipeline.publish(cfg, store, out)
    return episode


def _last_week(cfg: Config, now: dt.datetime | None) -> tuple[int, int]:
    today = dates.day_of(now or dt.datetime.now(dt.UTC), cfg.show)
    year, number, _ = (today - dt.timedelta(days=7)).isocalendar()
    return year, number
