"""Collect: build the sources the flags and mergecast.toml name, and read each into the store.

Sources only yield `Change`s; this is the one place that keeps their cursors, writes
what they yield (one transaction per source: all of it, or nothing) and fills in the
`IngestReport`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from . import dates
from .config import Config, ShowConfig
from .errors import GitHubError, InputError
from .models import Change, Window
from .sources import IngestReport, Source
from .sources.gh_json import GhJsonSource
from .sources.git import GitSource, detect_github_slug
from .store import Store

# The open ends of a git read given only --since or only --until (git takes both as bounds).
EARLIEST = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
LATEST = dt.datetime(9999, 12, 31, 23, 59, 59, tzinfo=dt.UTC)


@dataclass(frozen=True)
class Flags:
    """The source options of `ingest`, `run` and `backfill`; each overrides [source]."""

    repo: Path | None = None
    ref: str | None = None
    gh_json: Path | None = None
    github: str | None = None
    repo_name: str | None = None
    offline: bool = False
    strict: bool = False  # run, backfill: a source that fails stops the command


AS_CONFIGURED = Flags()  # no source options: [source] decides


def ingest(store: Store, source: Source, window: Window | None) -> IngestReport:
    """Read one source into the store in one transaction; `window` None: all that is new
    since its cursor, and only such a full read moves the cursor."""
    with contextlib.ExitStack() as stack:
        if isinstance(source, contextlib.AbstractContextManager):
            stack.enter_context(source)  # a connection, closed when the read is done
        cursor = source.cursor()
        after = store.get_state(cursor.key) if cursor is not None else None
        changes = source.fetch(window, after)  # a list is read whole here, before the store
        report = IngestReport(source.kind, source.repo)
        with store.transaction():
            report.new, report.updated = store.merge_changes(_counted(changes, report))
            # The cursor says "everything reachable from here is stored": only a full read can.
            if cursor is not None and window is None:
                store.set_state(cursor.key, cursor.position)
    report.warnings.extend(source.warnings)
    return report


def _counted(changes: Iterable[Change], report: IngestReport) -> Iterator[Change]:
    for change in changes:
        report.read += 1
        yield change


def window_for_ingest(show: ShowConfig, date: str | None, since: str | None,
                      until: str | None, *, required: bool) -> Window | None:
    """`ingest`'s window: --date, both ends, or (git only) either end alone; None for all."""
    if required or date is not None or (since is not None and until is not None):
        return dates.window_for(show, date, since, until)  # checked: --until after --since
    if since is None and until is None:
        return None
    return Window(dates.parse_when(since, show, "--since") if since else EARLIEST,
                  dates.parse_when(until, show, "--until") if until else LATEST)


def chosen(cfg: Config, flags: Flags, store: Store,
           environ: Mapping[str, str] = os.environ) -> Source:
    """`ingest`: the one source the flags name, else [source] gh_json when it is set and
    [source] repo is not, else the git checkout at [source] repo (or the config's folder)."""
    given = [x for x in (flags.repo, flags.gh_json, flags.github) if x is not None]
    if len(given) > 1:
        raise InputError("expected one of --repo, --gh-json or --github, got several; pick one")
    if flags.github is not None:
        return github_source(cfg, flags.github, store, offline=flags.offline, environ=environ)
    if flags.gh_json is not None or (flags.repo is None and cfg.source.repo is None
                                     and cfg.source.gh_json is not None):
        path = flags.gh_json or cfg.source.gh_json
        assert path is not None
        return GhJsonSource(path, flags.repo_name)
    return git_source(cfg, flags.repo or cfg.source.repo or cfg.root, flags.ref, flags.repo_name)


def configured(cfg: Config, flags: Flags, store: Store,
               environ: Mapping[str, str] = os.environ) -> list[Source]:
    """`run` and `backfill`: every source the flags or [source] name, added up; with none,
    the git checkout in the config's folder."""
    repo = flags.repo or cfg.source.repo
    gh_json = flags.gh_json or cfg.source.gh_json
    slug = flags.github or cfg.source.github
    if repo is None and gh_json is None and not slug:
        repo = cfg.root
    found: list[Source] = []
    if repo is not None:
        found.append(git_source(cfg, repo, None, flags.repo_name))
    if gh_json is not None:
        found.append(GhJsonSource(gh_json, flags.repo_name or cfg.source.github or None))
    if slug:
        found.append(github_source(cfg, slug, store, offline=flags.offline, environ=environ))
    return found


def collect(store: Store, sources: Iterable[Source], window: Window, *,
            strict: bool = False) -> list[IngestReport]:
    """Read every source in turn: a source with a cursor reads all that is new (and moves
    its cursor), the others read `window`.

    A GitHub failure (the API unreachable, the token refused, the budget spent, --offline
    without a cached answer) must not cost the day: that source is skipped, its report
    says why, and the episode is made from the others and the store. `strict` (--strict)
    lets the error stop the command instead. Local sources (git, a gh export) always stop
    it: their errors are the user's input to fix.
    """
    reports = []
    for source in sources:
        try:
            reports.append(ingest(store, source, None if source.cursor() is not None else window))
        except GitHubError as exc:
            if strict:
                raise
            reports.append(IngestReport(source.kind, source.repo, error=exc, skipped=(
                f"skipped the GitHub source {source.repo}: {exc}. The episode is made from "
                "the other sources and what is already stored (pass --strict to fail "
                "instead)")))
    return reports


def warnings_of(reports: Iterable[IngestReport]) -> list[str]:
    """Every warning of a collection, one line each: a skipped source's reason, or what a
    source noticed while reading."""
    return [w for r in reports for w in ([r.skipped] if r.skipped else r.warnings)]


def check_fallback(reports: Iterable[IngestReport], has_activity: bool) -> None:
    """A skipped source is only a warning when something else is there to make the
    episode from; with nothing, its own error stops the command."""
    for report in reports:
        if report.error is not None and not has_activity:
            raise report.error


def git_source(cfg: Config, path: Path, ref: str | None, repo_name: str | None) -> Source:
    """A checkout, named by --repo-name, else [source] github when it is the configured
    checkout, else its GitHub remote, else its folder's name."""
    configured_repo = cfg.source.repo or cfg.root
    slug = repo_name
    if not slug and cfg.source.github and path.resolve() == configured_repo.resolve():
        slug = cfg.source.github
    if not slug and path.is_dir():
        slug = detect_github_slug(path)
    return GitSource(
        path, slug=slug or path.resolve().name, ref=ref or cfg.source.ref or None,
        first_parent=cfg.source.first_parent, bots=cfg.source.bots,
    )


def github_source(cfg: Config, slug: str, store: Store, *, offline: bool,
           environ: Mapping[str, str]) -> Source:
    """The GitHub API for `slug`, answering from the store's HTTP cache when it can."""
    # Imported here: its HTTP client takes longer to load than the rest of the CLI.
    from .sources.github import GitHubSource, api_base, find_token

    base = api_base(cfg.github.api_url, environ)
    token, where = find_token(environ, base) if not offline else (None, "none")
    return GitHubSource(
        slug, token=token, token_source=where, api_url=base, cache=store, offline=offline,
        timeout=cfg.github.timeout, retries=cfg.github.retries,
    )
