"""The work behind each command, one function a command; the CLI only prints the result.

Episodes are made by the one recipe (`pipeline.make`); sources are read by `collect`.
Every command that writes opens the store through `pipeline.session`, which takes the
locks. Backfill writes its scripts in date order in this process (each day remembers
the earlier ones) and narrates them in worker processes, the slow part.
"""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import datetime as dt
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from . import collect, config_docs, dates, pipeline
from .collect import Flags
from .config import CONFIG_NAME, Config
from .errors import EmptyWindowError, InputError
from .models import Audio, Change, Digest, Episode, Script, Window
from .pipeline import Choices, Draft, StageHook, Step
from .publish import media
from .publish.content import Urls
from .sources import IngestReport
from .sources.git import detect_github_slug, toplevel
from .store import Store

if TYPE_CHECKING:
    from .publish import PublishReport

Progress = Callable[[str, int, int], None]  # (day, done, total)


def init(folder: Path, *, force: bool) -> tuple[Path, str | None]:
    """Write a commented mergecast.toml for the checkout `folder` is in; (path, its slug)."""
    target = folder / CONFIG_NAME
    if target.exists() and not force:
        raise InputError(f"{target} already exists; pass --force to overwrite it")
    top = toplevel(folder)
    slug = detect_github_slug(top) if top is not None else None
    root = top or folder
    name = slug.split("/")[-1] if slug else root.name
    text = config_docs.init_text(name=name, title=f"{name} daily",
                                 repo=os.path.relpath(root, folder), github=slug)
    media.write_atomic(folder, {CONFIG_NAME: text.encode()}, what=CONFIG_NAME)
    return target, slug


def ingest(cfg: Config, flags: Flags, *, date: str | None, since: str | None,
           until: str | None) -> IngestReport:
    window = collect.window_for_ingest(cfg.show, date, since, until,
                                       required=flags.github is not None)
    with pipeline.session(cfg) as store:
        return collect.ingest(store, collect.chosen(cfg, flags, store), window)


def changes(cfg: Config, *, date: str | None, since: str | None,
            until: str | None) -> tuple[Window, list[Change]]:
    """The stored changes active in the window, oldest activity first."""
    window = dates.window_for(cfg.show, date, since, until)
    with pipeline.session(cfg, write=False) as store:
        return window, store.changes_in(window)


def _draft(cfg: Config, date: str | None, since: str | None, until: str | None, upto: Step,
           choices: Choices = pipeline.AS_CONFIGURED) -> Draft:
    """The recipe up to a step that writes nothing, so no lock is taken."""
    target = pipeline.target_for(cfg, date, since, until)
    with pipeline.session(cfg, write=False) as store:
        return pipeline.make(cfg, store, target, upto=upto, choices=choices)


def digest(cfg: Config, *, date: str | None, since: str | None, until: str | None) -> Digest:
    """The window's digest, remembering the episodes before it as `run` does."""
    return _draft(cfg, date, since, until, Step.DIGEST).digest


def script(cfg: Config, *, date: str | None, since: str | None, until: str | None,
           choices: Choices) -> Script:
    """Exactly the script `run` would speak for the window (nothing is stored)."""
    draft = _draft(cfg, date, since, until, Step.SCRIPT, choices)
    assert draft.script is not None
    return draft.script


def speak(cfg: Config, *, date: str | None, since: str | None, until: str | None,
          voice: str | None, out: Path | None) -> tuple[str, Audio, Path]:
    """Narrate the window's script into its media folder (and copy it to OUT/episodes/<id>/);
    (episode id, audio, where the files are). Nothing is stored and no page is rendered."""
    target = pipeline.target_for(cfg, date, since, until)
    if out is not None:
        media.check_preview(out, cfg.publish.out)
    with pipeline.session(cfg, out=out) as store:
        draft = pipeline.make(cfg, store, target, upto=Step.AUDIO, choices=Choices(voice=voice))
        assert draft.audio is not None
        folder = pipeline.media_for(cfg, target.id, draft.key)
        if out is not None:
            folder = media.copy_media(folder, out, target.id)
    return target.id, draft.audio, folder


def publish(cfg: Config, out: Path | None) -> PublishReport:
    out = out or cfg.publish.out
    with pipeline.session(cfg, out=out) as store:
        return pipeline.publish(cfg, store, out)


@dataclasses.dataclass(frozen=True)
class RunReport:
    episode: Episode
    page: Path
    url: str
    reused: bool  # nothing changed since the last run of this window: nothing was redone


def run(cfg: Config, *, date: str | None = None, since: str | None = None,
        until: str | None = None, out: Path | None = None,
        flags: Flags = collect.AS_CONFIGURED, choices: Choices = pipeline.AS_CONFIGURED,
        on_stage: StageHook = pipeline.quiet) -> RunReport:
    """ingest → digest → script → speak → publish, for one window, under one lock."""
    out = out or cfg.publish.out
    target = None if pipeline.wants_latest(date, since, until) else \
        pipeline.target_for(cfg, date, since, until)
    with pipeline.session(cfg, out=out) as store:
        with pipeline.timed(on_stage, "ingest") as note:
            # The GitHub API is asked for the window; for the latest day, the last whole one.
            yesterday = dates.day_of(dt.datetime.now(dt.UTC), cfg.show) - dt.timedelta(days=1)
            window = target.window if target else pipeline.daily(yesterday, cfg).window
            reports = collect.collect(store, collect.configured(cfg, flags, store), window)
            note("; ".join(r.line() for r in reports))
        draft = pipeline.make(cfg, store, target or pipeline.latest(cfg, store),
                              choices=choices, on_stage=on_stage)
        assert draft.episode is not None
        with pipeline.timed(on_stage, "publish") as note:
            store.save_episode(draft.episode)
            pipeline.publish(cfg, store, out)
            note(str(out))
    episode = draft.episode
    return RunReport(episode, out / "episodes" / episode.id / "index.html",
                     Urls.for_show(cfg.show).page(episode.id), draft.reused)


@dataclasses.dataclass(frozen=True)
class BackfillReport:
    made: tuple[str, ...]
    skipped: tuple[str, ...]  # already done with the same input
    quiet: tuple[str, ...]  # no activity


def check_range(start: dt.date, end: dt.date) -> None:
    if end < start:
        raise InputError(f"expected --to on or after --from, got {start} .. {end}")


def backfill(cfg: Config, *, start: dt.date, end: dt.date, jobs: int = 1,
             out: Path | None = None, choices: Choices = pipeline.AS_CONFIGURED,
             flags: Flags = collect.AS_CONFIGURED,
             on_progress: Progress = lambda day, done, total: None) -> BackfillReport:
    """One episode per active day; the sources are read first, as `run` reads them."""
    check_range(start, end)
    out = out or cfg.publish.out
    days = [start + dt.timedelta(days=i) for i in range((end - start).days + 1)]
    with pipeline.session(cfg, out=out) as store:
        window = Window(pipeline.daily(start, cfg).window.since,
                        pipeline.daily(end, cfg).window.until)
        collect.collect(store, collect.configured(cfg, flags, store), window)
        todo, skipped, quiet = _plan(cfg, store, days, choices)
        on_progress("", 0, len(todo))
        made: list[Episode] = []
        with cf.ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else _Inline() as pool:
            futures: dict[cf.Future[Audio], Draft] = {}
            for d in todo:
                assert d.script is not None
                futures[pool.submit(pipeline.render, cfg, d.target.id, d.key, d.script,
                                    choices.voice, pipeline.links_for(d))] = d
            for n, future in enumerate(cf.as_completed(futures), 1):
                draft = futures[future]
                made.append(pipeline.assemble(cfg, draft, future.result()))
                on_progress(draft.target.id, n, len(todo))
        with store.transaction():
            for episode in sorted(made, key=lambda e: e.id):
                store.save_episode(episode)
        if made:
            pipeline.publish(cfg, store, out)
    return BackfillReport(tuple(sorted(e.id for e in made)), tuple(skipped), tuple(quiet))


def _plan(cfg: Config, store: Store, days: list[dt.date], choices: Choices,
          ) -> tuple[list[Draft], list[str], list[str]]:
    """Each day's script, in date order: (to narrate, already done, quiet)."""
    todo: list[Draft] = []
    skipped: list[str] = []
    quiet: list[str] = []
    earlier = [e for e in store.episodes() if e.id < days[0].isoformat()]
    for day in days:
        try:
            draft = pipeline.make(cfg, store, pipeline.daily(day, cfg), upto=Step.SCRIPT,
                                  choices=choices, earlier=earlier)
        except EmptyWindowError:
            quiet.append(day.isoformat())
            continue
        if draft.reused:
            assert draft.episode is not None
            skipped.append(day.isoformat())
            earlier.append(draft.episode)
            continue
        todo.append(draft)
        # Later days remember this one even before its audio exists.
        earlier.append(pipeline.assemble(cfg, draft, Audio(0.0, (), ())))
    return todo, skipped, quiet


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


def weekly(cfg: Config, *, week: str | None = None, out: Path | None = None,
           voice: str | None = None, now: dt.datetime | None = None) -> Episode:
    """A recap of one ISO week's dailies, published like any episode (id YYYY-Www)."""
    out = out or cfg.publish.out
    target = pipeline.weekly(cfg, week, now)
    with pipeline.session(cfg, out=out) as store:
        draft = pipeline.make(cfg, store, target, choices=Choices(voice=voice))
        assert draft.episode is not None
        store.save_episode(draft.episode)
        pipeline.publish(cfg, store, out)
    return draft.episode
