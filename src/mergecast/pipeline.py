"""The pipeline, top to bottom: collect → analyse → write → speak → publish.

Each stage function takes the loaded Config and the Store and returns models; the CLI
calls exactly one of them per command.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from . import config as config_mod
from .config import Config


def load_config(path: Path | None, db: Path | None = None) -> Config:
    """Load mergecast.toml once; --db overrides [store] path."""
    cfg = config_mod.load(path)
    if db is not None:
        cfg = dataclasses.replace(cfg, store=config_mod.StoreConfig(path=db))
    return cfg


def media_dir(cfg: Config, episode_id: str) -> Path:
    """Where an episode's rendered media lives before publishing (beside the store)."""
    return cfg.store.path.parent / "media" / episode_id


# ---- stage: collect (ingest)

import datetime as _cdt  # noqa: E402  (kept in this stage's region; see GUIDE team rules)
from collections.abc import Iterable as _CIterable  # noqa: E402
from collections.abc import Iterator as _CIterator  # noqa: E402

from .errors import InputError as _InputError  # noqa: E402
from .models import Change as _Change  # noqa: E402
from .models import Window as _Window  # noqa: E402
from .models import to_dict as _to_dict  # noqa: E402
from .store import Store  # noqa: E402


@dataclasses.dataclass
class IngestReport:
    """What one ingest did: changes read from the source, and rows added or changed."""

    source: str  # git | gh-json | github
    repo: str
    read: int = 0
    new: int = 0
    updated: int = 0
    warnings: list[str] = dataclasses.field(default_factory=list)


def open_store(cfg: Config) -> Store:
    return Store(cfg.store.path)


def ingest(
    cfg: Config, store: Store, *, repo: Path | None = None, ref: str | None = None,
    since: _cdt.datetime | None = None, until: _cdt.datetime | None = None,
    gh_json: Path | None = None, repo_name: str | None = None, github: str | None = None,
    window: _Window | None = None, offline: bool = False,
) -> IngestReport:
    """Read one source into the store in one transaction (all of it, or nothing)."""
    chosen = [x for x in (repo, gh_json, github) if x is not None]
    if len(chosen) > 1:
        raise _InputError("expected one of --repo, --gh-json or --github, got several; pick one")
    if github is not None:
        from .sources.github import ingest_github

        if window is None:
            raise _InputError("expected --date DAY, or both --since WHEN and --until WHEN")
        report = IngestReport("github", github)
        ingest_github(cfg, store, github, window, offline, report=report)
        return report
    if gh_json is None and repo is None:
        if cfg.source.repo is None and cfg.source.gh_json is not None:
            gh_json = cfg.source.gh_json
        else:
            repo = cfg.source.repo or cfg.root
    if gh_json is not None:
        from .sources.gh_json import load_gh_json

        changes = load_gh_json(gh_json, repo_name)
        report = IngestReport("gh-json", repo_name or (changes[0].repo if changes else ""))
        report.read = len(changes)
        report.new, report.updated = store.merge_changes(changes)
        return report
    assert repo is not None
    return _ingest_git(cfg, store, repo, ref, since, until, repo_name)


def _ingest_git(
    cfg: Config, store: Store, path: Path, ref: str | None, since: _cdt.datetime | None,
    until: _cdt.datetime | None, repo_name: str | None,
) -> IngestReport:
    from .sources.git import GitSource, detect_github_slug, is_commit

    configured = cfg.source.repo or cfg.root
    slug = repo_name
    if not slug and cfg.source.github and path.resolve() == configured.resolve():
        slug = cfg.source.github
    if not slug and path.is_dir():
        slug = detect_github_slug(path)
    slug = slug or path.resolve().name
    source = GitSource(
        path, slug=slug, ref=ref or cfg.source.ref or None,
        first_parent=cfg.source.first_parent, bots=cfg.source.bots,
    )
    info = source.info
    report = IngestReport("git", slug)
    cursor_key = f"git:{slug}:{info.ref}:{'first-parent' if source.first_parent else 'all'}"
    after = store.get_state(cursor_key)
    if after is not None and after != info.tip and not is_commit(path, after):
        after = None  # history was rewritten past the cursor: read it all again
    with store.transaction():
        if after != info.tip:
            read = _counted(source.read(after=after, since=since, until=until), report)
            report.new, report.updated = store.merge_changes(read)
        # The cursor means "everything reachable from here is stored": only a full read says so.
        if since is None and until is None:
            store.set_state(cursor_key, info.tip)
    report.warnings.extend(source.warnings)
    return report


def _counted(changes: _CIterable[_Change], report: IngestReport) -> _CIterator[_Change]:
    for change in changes:
        report.read += 1
        yield change


def changes(cfg: Config, store: Store, window: _Window) -> list[_Change]:
    """The normalised changes active in the window, oldest activity first."""
    return store.changes_in(window)


def change_json(change: _Change) -> dict[str, object]:
    """The documented `mergecast changes --json` object for one change."""
    data = _to_dict(change)
    person = data.pop("author")
    return {
        "key": change.key,
        "number": change.number,
        "sha": change.sha,
        "title": change.title,
        "author": change.author.handle,
        "author_detail": person,
        **data,
    }


# ---- stage: analyse (digest)

from .analysis import build_digest as _build_digest  # noqa: E402
from .analysis import path_rules_from_repo as _path_rules_from_repo  # noqa: E402
from .config import AreaRule as _AreaRule  # noqa: E402
from .models import Digest as _Digest  # noqa: E402

HISTORY_DAYS = 14  # duplicates and revert/reland originals are looked for this far back
_CODEOWNERS = (".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS")  # GitHub's search order


def _read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None  # absent or unreadable: the repository simply has no such rules


def repo_path_rules(cfg: Config) -> list[_AreaRule]:
    """Path rules from the configured repository's labeler.yml and CODEOWNERS, if any."""
    repo = cfg.source.repo
    if repo is None:
        return []
    labeler = None
    if cfg.areas.labeler:
        for name in (".github/labeler.yml", ".github/labeler.yaml"):
            labeler = _read_text(repo / name)
            if labeler is not None:
                break
    owners = None
    if cfg.areas.codeowners:
        for name in _CODEOWNERS:
            owners = _read_text(repo / name)
            if owners is not None:
                break
    return _path_rules_from_repo(labeler, owners)


def digest_for(cfg: Config, store: Store, window: _Window) -> _Digest:
    """The window's digest from the store: its changes, 14 days of history, newcomers."""
    history = store.changes_between(window.since - _cdt.timedelta(days=HISTORY_DAYS), window.since)
    return _build_digest(
        store.changes_in(window),
        window,
        areas=cfg.areas,
        history=history,
        earlier_authors=store.earlier_authors(window.since),
        path_rules=repo_path_rules(cfg),
    )


# ---- stage: write (script)

import datetime as _wdt  # noqa: E402  (kept in this stage's region; see GUIDE team rules)

from .models import Script as _Script  # noqa: E402


def script_for(
    cfg: Config, store: Store, window: _Window, *, day: _wdt.date, writer: str | None = None,
    allow_empty: bool = False,
) -> _Script:
    """DAY's fact-checked script from the window's digest (writer: [writing] writer)."""
    from .writing import write_script

    writing = cfg.writing
    if allow_empty and not writing.allow_empty:
        writing = dataclasses.replace(writing, allow_empty=True)
    return write_script(
        digest_for(cfg, store, window), show=cfg.show_name, day=day, writing=writing,
        lexicon=cfg.lexicon, llm=cfg.llm, writer=writer or writing.writer,
    )

# ---- stage: speak (voice)

import datetime as _dt  # noqa: E402  (kept in this stage's region; see GUIDE team rules)
from collections.abc import Iterable as _Iterable  # noqa: E402
from typing import TYPE_CHECKING as _TYPE_CHECKING  # noqa: E402

if _TYPE_CHECKING:  # Store is imported by the collect stage above
    from .models import Audio, Change, Window


def speak(
    cfg: Config,
    store: Store,
    window: Window,
    *,
    day: _dt.date,
    voice: str | None = None,
    out: Path | None = None,
) -> Audio:
    """Render DAY's episode media into media_dir (and copy it to OUT/episodes/<id>/)."""
    from .voice import render_audio
    from .voice.render import FILES, write_atomic

    script = script_for(cfg, store, window, day=day)  # type: ignore[name-defined, unused-ignore]  # noqa: F821
    episode_id = day.isoformat()
    media = media_dir(cfg, episode_id)
    links = _pr_links(store.changes_in(window))
    audio = render_audio(script, media, cfg.voice, backend=voice, links=links)
    if out is not None:
        made = {name: (media / name).read_bytes() for name in FILES if (media / name).is_file()}
        gone = tuple(name for name in FILES if name not in made)
        write_atomic(out / "episodes" / episode_id, made, remove=gone)
    return audio


def _pr_links(changes: _Iterable[Change]) -> dict[int, str]:
    """PR number -> URL: the change's own URL, else its GitHub pull page when repo is a slug."""
    links: dict[int, str] = {}
    for c in changes:
        if c.number is None:
            continue
        if c.url:
            links[c.number] = c.url
        elif c.repo.count("/") == 1:
            links[c.number] = f"https://github.com/{c.repo}/pull/{c.number}"
    return links


# ---- stage: publish

from .publish import PublishReport  # noqa: E402


def publish(cfg: Config, store: Store, out: Path | None = None) -> PublishReport:
    """Render every stored episode into OUT (default [publish] out), atomically."""
    from .publish import publish_site

    show = cfg.show if cfg.show.name else dataclasses.replace(cfg.show, name=cfg.show_name)
    return publish_site(
        store.episodes(),
        out if out is not None else cfg.publish.out,
        show,
        media=lambda episode_id: media_dir(cfg, episode_id),
        latest=cfg.publish.latest,
    )


# ---- the daily job (run, backfill, weekly)
