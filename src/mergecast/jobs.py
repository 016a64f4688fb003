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
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from . import collect, config_docs, dates, pipeline, targets, voice
from . import config as config_mod
from .collect import Flags
from .config import CONFIG_NAME, Config
from .errors import EmptyWindowError, InputError
from .models import Audio, Change, Digest, Episode, EpisodeKind, Script, Window
from .pipeline import Choices, Draft, Step
from .publish import media
from .publish.content import Urls
from .sources import IngestReport
from .sources.git import detect_github_slug, toplevel
from .store import Store
from .watch import SILENT, Watch, timed

if TYPE_CHECKING:
    from .publish import PublishReport

@dataclasses.dataclass(frozen=True)
class InitDone:
    """What `init` wrote, and the .gitignore lines the checkout still lacks."""

    path: Path
    slug: str | None  # the GitHub repository of the `origin` remote, if any
    ignore: tuple[str, ...]  # lines for `ignore_file`: the store folder and the site
    ignore_file: Path


def init(folder: Path, *, force: bool) -> InitDone:
    """Write a commented mergecast.toml for the checkout `folder` is in."""
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
    cfg = config_mod.load(target)
    ignore_file = root / ".gitignore"
    return InitDone(target, slug, _missing_ignores(ignore_file, root, [
        cfg.store.path.parent, cfg.publish.out]), ignore_file)


def _missing_ignores(ignore_file: Path, root: Path, folders: list[Path]) -> tuple[str, ...]:
    """The lines (anchored at the checkout's top) that ignore `folders`, less those the
    file already has. The store's folder holds the store, the media and the locks."""
    try:
        have = {line.strip().strip("/") for line in
                ignore_file.read_text(encoding="utf-8").splitlines()}
    except OSError:
        have = set()
    lines = []
    for folder in folders:
        try:
            rel = folder.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            continue  # outside the checkout: git never sees it
        if rel != "." and rel not in have:
            lines.append(f"/{rel}/")
    return tuple(dict.fromkeys(lines))


def add_to_gitignore(done: InitDone) -> None:
    """Append `done.ignore` to the checkout's .gitignore (written whole, atomically)."""
    umask = os.umask(0)
    os.umask(umask)
    mode = 0o666 & ~umask  # a new file's mode, as any editor would make it
    try:
        old = done.ignore_file.read_text(encoding="utf-8")
        mode = done.ignore_file.stat().st_mode & 0o777
    except FileNotFoundError:
        old = ""
    except OSError as exc:
        raise InputError(f"cannot read {done.ignore_file}: {exc.strerror}; add the lines by "
                         "hand") from exc
    head = old if not old or old.endswith("\n") else old + "\n"
    body = head + "# mergecast: the store, media and locks; the generated site\n"
    media.write_atomic(done.ignore_file.parent,
                       {done.ignore_file.name: (body + "\n".join(done.ignore) + "\n").encode()},
                       what=".gitignore")
    os.chmod(done.ignore_file, mode)  # the temp file it was renamed from was private


def ingest(cfg: Config, flags: Flags, *, date: str | None, since: str | None,
           until: str | None) -> IngestReport:
    window = collect.window_for_ingest(cfg.show, date, since, until,
                                       required=flags.github is not None)
    with pipeline.session(cfg) as store:
        return collect.ingest(store, collect.chosen(cfg, flags, store), window)


def changes(cfg: Config, *, date: str | None, since: str | None,
            until: str | None) -> tuple[Window, list[Change]]:
    """The stored changes active in the window, oldest activity first, with their links."""
    window = dates.window_for(cfg.show, date, since, until)
    with pipeline.session(cfg, write=False) as store:
        return window, pipeline.link_patterns(cfg).with_urls(store.changes_in(window))


def _draft(cfg: Config, date: str | None, since: str | None, until: str | None, upto: Step,
           choices: Choices = pipeline.AS_CONFIGURED) -> Draft:
    """The recipe up to a step that writes nothing, so no lock is taken."""
    target = targets.target_for(cfg, date, since, until)
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
          voice: str | None, out: Path | None, watch: Watch = SILENT) -> tuple[str, Audio, Path]:
    """Narrate the window's script into its media folder (and copy it to OUT/episodes/<id>/);
    (episode id, audio, where the files are). Nothing is stored and no page is rendered."""
    target = targets.target_for(cfg, date, since, until)
    if out is not None:
        media.check_preview(out, cfg.publish.out)
    with pipeline.session(cfg, out=out) as store:
        draft = pipeline.make(cfg, store, target, upto=Step.AUDIO, choices=Choices(voice=voice),
                              watch=watch)
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
    sources: tuple[IngestReport, ...] = ()
    warnings: tuple[str, ...] = ()  # every warning the run printed, one line each


def run(cfg: Config, *, date: str | None = None, since: str | None = None,
        until: str | None = None, out: Path | None = None,
        flags: Flags = collect.AS_CONFIGURED, choices: Choices = pipeline.AS_CONFIGURED,
        watch: Watch = SILENT) -> RunReport:
    """ingest → digest → script → speak → publish, for one window, under one lock."""
    out = out or cfg.publish.out
    target = None if targets.wants_latest(date, since, until) else \
        targets.target_for(cfg, date, since, until)
    said: list[str] = []
    with pipeline.session(cfg, out=out) as store:
        with timed(watch, "ingest") as note:
            # The GitHub API is asked for the window; for the latest day, the last whole one.
            yesterday = dates.day_of(dt.datetime.now(dt.UTC), cfg.show) - dt.timedelta(days=1)
            window = target.window if target else targets.daily(yesterday, cfg).window
            reports = collect.collect(store, collect.configured(cfg, flags, store), window,
                                      strict=flags.strict)
            collect.check_fallback(reports, bool(store.changes_in(target.window)) if target
                                   else store.latest_activity(dt.datetime.now(dt.UTC)) is not None)
            note("; ".join(r.line() for r in reports))
        _tell(watch, said, collect.warnings_of(reports))
        draft = pipeline.make(cfg, store, target or targets.latest(cfg, store),
                              choices=choices, watch=watch)
        return _published(cfg, store, draft, out, watch, said, reports)


def _published(cfg: Config, store: Store, draft: Draft, out: Path, watch: Watch,
               said: list[str], reports: Iterable[IngestReport] = ()) -> RunReport:
    """run's and weekly's end: store the episode, publish the site (and say what the
    publisher warns of: a local base_url, a feed without an e-mail), report both."""
    episode = draft.episode
    assert episode is not None
    with timed(watch, "publish") as note:
        store.save_episode(episode)
        published = pipeline.publish(cfg, store, out)
        note(str(out))
    _tell(watch, said, published.warnings)
    return RunReport(episode, out / "episodes" / episode.id / "index.html",
                     Urls.for_show(cfg.show).page(episode.id), draft.reused, tuple(reports),
                     tuple(said))


def _tell(watch: Watch, said: list[str], messages: Iterable[str]) -> None:
    for message in messages:
        watch.warn(message)
        said.append(message)


@dataclasses.dataclass(frozen=True)
class BackfillReport:
    made: tuple[str, ...]
    skipped: tuple[str, ...]  # already done with the same input
    quiet: tuple[str, ...]  # no activity
    sources: tuple[IngestReport, ...] = ()
    warnings: tuple[str, ...] = ()


def check_range(start: dt.date, end: dt.date) -> None:
    if end < start:
        raise InputError(f"expected --to on or after --from, got {start} .. {end}")


def backfill(cfg: Config, *, start: dt.date, end: dt.date, jobs: int = 1,
             out: Path | None = None, choices: Choices = pipeline.AS_CONFIGURED,
             flags: Flags = collect.AS_CONFIGURED, watch: Watch = SILENT) -> BackfillReport:
    """One episode per active day; the sources are read first, as `run` reads them."""
    check_range(start, end)
    out = out or cfg.publish.out
    days = [start + dt.timedelta(days=i) for i in range((end - start).days + 1)]
    said: list[str] = []
    with pipeline.session(cfg, out=out) as store:
        window = Window(targets.daily(start, cfg).window.since,
                        targets.daily(end, cfg).window.until)
        with timed(watch, "ingest") as note:
            reports = collect.collect(store, collect.configured(cfg, flags, store), window,
                                      strict=flags.strict)
            collect.check_fallback(reports, bool(store.changes_in(window)))
            note("; ".join(r.line() for r in reports))
        _tell(watch, said, collect.warnings_of(reports))
        with timed(watch, "script") as note:
            todo, skipped, quiet = _plan(cfg, store, days, choices, watch)
            note(f"{len(todo)} to narrate, {len(skipped)} already done, {len(quiet)} quiet")
        made: list[Episode] = []
        with timed(watch, "speak") as note:
            for draft, audio in _narrate(cfg, todo, choices, jobs, watch):
                made.append(pipeline.assemble(cfg, draft, audio))
            note(f"{len(made)} episode(s)")
        with store.transaction():
            for episode in sorted(made, key=lambda e: e.id):
                store.save_episode(episode)
        if made:
            with timed(watch, "publish") as note:
                published = pipeline.publish(cfg, store, out)
                note(str(out))
            _tell(watch, said, published.warnings)
    return BackfillReport(tuple(sorted(e.id for e in made)), tuple(skipped), tuple(quiet),
                          tuple(reports), tuple(said))


def _plan(cfg: Config, store: Store, days: list[dt.date], choices: Choices, watch: Watch,
          ) -> tuple[list[Draft], list[str], list[str]]:
    """Each day's script, in date order: (to narrate, already done, quiet)."""
    todo: list[Draft] = []
    skipped: list[str] = []
    quiet: list[str] = []
    earlier = [e for e in store.episodes() if e.id < days[0].isoformat()]
    for n, day in enumerate(days, 1):
        try:
            draft = pipeline.make(cfg, store, targets.daily(day, cfg), upto=Step.SCRIPT,
                                  choices=choices, earlier=earlier)
        except EmptyWindowError:
            quiet.append(day.isoformat())
            watch.advanced(n, len(days), "days", f"{day} quiet")
            continue
        watch.advanced(n, len(days), "days", day.isoformat())
        if draft.reused:
            assert draft.episode is not None
            skipped.append(day.isoformat())
            earlier.append(draft.episode)
            continue
        todo.append(draft)
        # Later days remember this one even before its audio exists.
        earlier.append(pipeline.assemble(cfg, draft, Audio(0.0, (), ())))
    return todo, skipped, quiet


def _narrate(cfg: Config, todo: list[Draft], choices: Choices, jobs: int, watch: Watch,
             ) -> Iterator[tuple[Draft, Audio]]:
    """Each day's audio as it is done: here, one day after another (progress moves with
    every sentence), or in `jobs` worker processes (it moves as each day finishes)."""
    def render(d: Draft, progress: voice.Progress | None = None) -> Audio:
        assert d.script is not None
        return pipeline.render(cfg, d.target.id, d.key, d.script, choices.voice,
                               pipeline.links_for(d), progress=progress)

    if jobs == 1 or len(todo) < 2:
        for n, draft in enumerate(todo, 1):
            where = f"{draft.target.id}, day {n} of {len(todo)}"

            def said(done: int, total: int, where: str = where) -> None:
                watch.advanced(done, total, "sentences", where)

            yield draft, render(draft, said)
        return
    with cf.ProcessPoolExecutor(max_workers=min(jobs, len(todo))) as pool:
        futures = {}
        for d in todo:
            assert d.script is not None
            futures[pool.submit(pipeline.render, cfg, d.target.id, d.key, d.script,
                                choices.voice, pipeline.links_for(d))] = d
        for n, future in enumerate(cf.as_completed(futures), 1):
            draft = futures[future]
            yield draft, future.result()
            watch.advanced(n, len(todo), "days", draft.target.id)


def weekly(cfg: Config, *, week: str | None = None, out: Path | None = None,
           voice: str | None = None, now: dt.datetime | None = None,
           watch: Watch = SILENT) -> RunReport:
    """A recap of one ISO week's dailies, published like any episode (id YYYY-Www); with
    no week given, the newest week that has daily episodes and has ended."""
    out = out or cfg.publish.out
    if week is not None:
        dates.parse_week(week)  # checked before anything is locked
    said: list[str] = []
    with pipeline.session(cfg, out=out) as store:
        target = targets.weekly(cfg, week, now, dailies=[
            e.id for e in store.episodes() if e.kind == EpisodeKind.DAILY])
        draft = pipeline.make(cfg, store, target, choices=Choices(voice=voice), watch=watch)
        return _published(cfg, store, draft, out, watch, said)
