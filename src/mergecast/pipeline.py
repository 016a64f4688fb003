"""The pipeline, top to bottom: collect → analyse → write → speak → publish.

Each stage function takes the loaded Config and the Store and returns models; the CLI
calls exactly one of them per command, and `run` calls them all in order.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import datetime as dt
import hashlib
import json
import os
import shutil
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from . import __version__, dates, locking
from . import config as config_mod
from .analysis import build_digest, digest_json, path_rules_from_repo
from .analysis.memory import link_earlier
from .config import AreaRule, Config
from .errors import EmptyWindowError, InputError
from .models import (
    Audio,
    Change,
    Digest,
    Episode,
    EpisodeKind,
    Script,
    ThemeRef,
    Window,
    from_dict,
    to_dict,
)
from .publish import PublishReport, publish_site
from .store import Store
from .voice import render_audio
from .voice.render import FILES, write_atomic
from .writing import write_script


def load_config(path: Path | None, db: Path | None = None) -> Config:
    """Load mergecast.toml once; --db overrides [store] path."""
    cfg = config_mod.load(path)
    if db is not None:
        cfg = dataclasses.replace(cfg, store=config_mod.StoreConfig(path=db))
    return cfg


def show_name_for(cfg: Config, changes: Iterable[Change]) -> str:
    """[show] name, else the name of the repository the changes come from."""
    if cfg.show.name:
        return cfg.show.name
    repos = collections.Counter(c.repo for c in changes if c.repo)
    if repos:
        return repos.most_common(1)[0][0].rstrip("/").split("/")[-1]
    return cfg.show_name


def media_dir(cfg: Config, episode_id: str) -> Path:
    """Where an episode's rendered media lives before publishing (beside the store)."""
    return cfg.store.path.parent / "media" / episode_id


# ---- stage: collect (ingest)


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
    since: dt.datetime | None = None, until: dt.datetime | None = None,
    gh_json: Path | None = None, repo_name: str | None = None, github: str | None = None,
    window: Window | None = None, offline: bool = False,
) -> IngestReport:
    """Read one source into the store in one transaction (all of it, or nothing)."""
    chosen = [x for x in (repo, gh_json, github) if x is not None]
    if len(chosen) > 1:
        raise InputError("expected one of --repo, --gh-json or --github, got several; pick one")
    if github is not None:
        from .sources.github import ingest_github

        if window is None:
            raise InputError("expected --date DAY, or both --since WHEN and --until WHEN")
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
    cfg: Config, store: Store, path: Path, ref: str | None, since: dt.datetime | None,
    until: dt.datetime | None, repo_name: str | None,
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


def _counted(changes: Iterable[Change], report: IngestReport) -> Iterator[Change]:
    for change in changes:
        report.read += 1
        yield change


def changes(cfg: Config, store: Store, window: Window) -> list[Change]:
    """The normalised changes active in the window, oldest activity first."""
    return store.changes_in(window)


def change_json(change: Change) -> dict[str, object]:
    """The documented `mergecast changes --json` object for one change."""
    data = to_dict(change)
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


HISTORY_DAYS = 14  # duplicates and revert/reland originals are looked for this far back
_CODEOWNERS = (".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS")  # GitHub's search order


def _read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None  # absent or unreadable: the repository simply has no such rules


def repo_path_rules(cfg: Config) -> list[AreaRule]:
    """Path rules from the configured repository's labeler.yml and CODEOWNERS, if any."""
    repo = cfg.source.repo or cfg.root
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
    return path_rules_from_repo(labeler, owners)


def digest_for(cfg: Config, store: Store, window: Window) -> Digest:
    """The window's digest from the store: its changes, 14 days of history, newcomers."""
    history = store.changes_between(window.since - dt.timedelta(days=HISTORY_DAYS), window.since)
    return build_digest(
        store.changes_in(window),
        window,
        areas=cfg.areas,
        history=history,
        earlier_authors=store.earlier_authors(window.since),
        path_rules=repo_path_rules(cfg),
    )


# ---- stage: write (script)


def script_for(
    cfg: Config, store: Store, window: Window, *, day: dt.date, writer: str | None = None,
    allow_empty: bool = False,
) -> Script:
    """DAY's fact-checked script from the window's digest (writer: [writing] writer)."""
    writing = cfg.writing
    if allow_empty and not writing.allow_empty:
        writing = dataclasses.replace(writing, allow_empty=True)
    digest = digest_for(cfg, store, window)
    return write_script(
        digest, show=show_name_for(cfg, digest.changes), day=day, writing=writing,
        lexicon=cfg.lexicon, llm=cfg.llm, writer=writer or writing.writer,
    )

# ---- stage: speak (voice)


def speak(
    cfg: Config,
    store: Store,
    window: Window,
    *,
    day: dt.date,
    voice: str | None = None,
    out: Path | None = None,
) -> Audio:
    """Render DAY's episode media into media_dir (and copy it to OUT/episodes/<id>/)."""
    script = script_for(cfg, store, window, day=day)
    episode_id = day.isoformat()
    media = media_dir(cfg, episode_id)
    links = _pr_links(store.changes_in(window))
    audio = render_audio(script, media, cfg.voice, backend=voice, links=links)
    if out is not None:
        made = {name: (media / name).read_bytes() for name in FILES if (media / name).is_file()}
        gone = tuple(name for name in FILES if name not in made)
        write_atomic(out / "episodes" / episode_id, made, remove=gone)
    return audio


def _pr_links(changes: Iterable[Change]) -> dict[int, str]:
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


def publish(cfg: Config, store: Store, out: Path | None = None) -> PublishReport:
    """Render every stored episode into OUT (default [publish] out), atomically."""
    episodes = {e.id: e for e in store.episodes()}
    newest = max(episodes.values(), key=lambda e: e.published_at, default=None)
    name = cfg.show.name or (newest.script.show if newest else "") or cfg.show_name
    show = dataclasses.replace(cfg.show, name=name)
    return publish_site(
        list(episodes.values()),
        out if out is not None else cfg.publish.out,
        show,
        media=lambda episode_id: _media_of(cfg, episodes, episode_id),
        latest=cfg.publish.latest,
    )


def _media_of(cfg: Config, episodes: dict[str, Episode], episode_id: str) -> Path:
    episode = episodes.get(episode_id)
    if episode is not None and episode.source_hash:
        return media_for(cfg, episode)
    return media_dir(cfg, episode_id)


# ---- the daily job (run, backfill, weekly)


@dataclasses.dataclass(frozen=True)
class RunReport:
    episode: Episode | None
    page: Path | None
    url: str | None
    reused: bool  # nothing changed since the last run of this window: nothing was redone


StageHook = Callable[[str, float, str], None]


def run(
    cfg: Config,
    *,
    date: str | None = None,
    since: str | None = None,
    until: str | None = None,
    out: Path | None = None,
    repo: Path | None = None,
    gh_json: Path | None = None,
    github: str | None = None,
    repo_name: str | None = None,
    voice: str | None = None,
    writer: str | None = None,
    offline: bool = False,
    allow_empty: bool = False,
    on_stage: StageHook = lambda name, seconds, detail: None,
) -> RunReport:
    """ingest → digest → script → speak → publish, for one window, under one lock."""
    out = out or cfg.publish.out
    with locking.exclusive([cfg.store.path, out]), open_store(cfg) as store:
        timer = _Timer(on_stage)
        with timer("ingest") as note:
            note(collect_configured(cfg, store, date=date, since=since, until=until, repo=repo,
                                    gh_json=gh_json, github=github, repo_name=repo_name,
                                    offline=offline))
        window, day = _resolve_window(cfg, store, date, since, until)
        episode_id = day.isoformat()
        with timer("digest") as note:
            digest = link_earlier(digest_for(cfg, store, window), _earlier(store, episode_id))
            note(f"{digest.counts.changes} changes, {len(digest.themes)} themes")
        if digest.counts.changes == 0 and not (allow_empty or cfg.writing.allow_empty):
            raise EmptyWindowError(
                f"no activity between {window.since.isoformat()} and {window.until.isoformat()}; "
                "no episode made (pass --allow-empty to make one anyway)"
            )
        key = source_hash(cfg, digest, writer, voice)
        previous = store.episode(episode_id)
        if previous is not None and reusable(cfg, previous, key):
            for stage in ("script", "speak"):
                on_stage(stage, 0.0, "unchanged")
            episode, reused = previous, True
        else:
            with timer("script") as note:
                script = write_script(
                    digest, show=show_name_for(cfg, digest.changes), day=day, writing=cfg.writing,
                    lexicon=cfg.lexicon, llm=cfg.llm, writer=writer or cfg.writing.writer,
                )
                note(f"{script.words} words, writer {script.writer}")
            with timer("speak") as note:
                links = links_for(script, digest)
                audio = speak_cached(cfg, episode_id, key, script, voice, links)
                note(f"{audio.duration_seconds:.1f} s of audio ({audio.voice})")
            episode = make_episode(cfg, episode_id, "daily", window, digest, script, audio, key)
            reused = False
        with timer("publish") as note:
            store.save_episode(episode)
            publish(cfg, store, out)
            note(str(out))
    page = out / "episodes" / episode.id / "index.html"
    return RunReport(episode, page, _episode_url(cfg, episode.id), reused)


class _Timer:
    def __init__(self, hook: StageHook) -> None:
        self.hook = hook

    @contextlib.contextmanager
    def __call__(self, name: str) -> Iterator[Callable[[str], None]]:
        detail: list[str] = []
        start = time.monotonic()
        yield detail.append
        self.hook(name, time.monotonic() - start, " ".join(detail))


def collect_configured(
    cfg: Config, store: Store, *, date: str | None = None, since: str | None = None,
    until: str | None = None, repo: Path | None = None, gh_json: Path | None = None,
    github: str | None = None, repo_name: str | None = None, offline: bool = False,
) -> str:
    """Ingest every configured source (flags win over mergecast.toml)."""
    repo = repo or cfg.source.repo
    if repo is None and gh_json is None and github is None and not cfg.source.gh_json \
            and not cfg.source.github:
        repo = cfg.root
    done = []
    if repo is not None:
        done.append(ingest(cfg, store, repo=repo, repo_name=repo_name))
    if gh_json or cfg.source.gh_json:
        done.append(ingest(cfg, store, gh_json=gh_json or cfg.source.gh_json,
                           repo_name=repo_name or cfg.source.github or None))
    slug = github or cfg.source.github
    if slug:
        window = _github_window(cfg, date, since, until)
        done.append(ingest(cfg, store, github=slug, window=window, offline=offline))
    return "; ".join(
        f"{r.source} {r.repo}: {r.read} read, {r.new} new, {r.updated} updated" for r in done)


def _github_window(cfg: Config, date: str | None, since: str | None, until: str | None) -> Window:
    if date in (None, "latest") and not (since or until):
        now = dt.datetime.now(dt.UTC)
        day = dates.day_of(now, cfg.show) - dt.timedelta(days=1)
        return dates.day_window(day, cfg.show)
    return dates.window_for(cfg.show, date, since, until)


def _resolve_window(
    cfg: Config, store: Store, date: str | None, since: str | None, until: str | None
) -> tuple[Window, dt.date]:
    if date == "latest" or (date is None and since is None and until is None):
        newest = store.latest_activity(dt.datetime.now(dt.UTC))
        if newest is None:
            raise EmptyWindowError("the store holds no activity yet; nothing to make an episode of")
        day = dates.day_of(newest, cfg.show)
        return dates.day_window(day, cfg.show), day
    window = dates.window_for(cfg.show, date, since, until)
    day = dates.parse_day(date) if date else dates.covered_day(window, cfg.show)
    return window, day


def _earlier(store: Store, episode_id: str) -> list[Episode]:
    return [e for e in store.episodes() if e.id != episode_id]


def source_hash(cfg: Config, digest: Digest, writer: str | None, voice: str | None) -> str:
    """Everything an episode is made from; the same hash means nothing to redo."""
    payload = {
        "version": __version__,
        "digest": digest_json(digest),
        "show": show_name_for(cfg, digest.changes),
        "writing": to_dict(cfg.writing),
        "writer": writer or cfg.writing.writer,
        "lexicon": dict(cfg.lexicon),
        "voice": to_dict(dataclasses.replace(cfg.voice, backend=voice or cfg.voice.backend)),
    }
    blob = json.dumps(payload, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()


def media_for(cfg: Config, episode: Episode) -> Path:
    """An episode's media folder, one per source hash, so a new render never touches the old."""
    return media_dir(cfg, episode.id) / episode.source_hash[:16]


def reusable(cfg: Config, episode: Episode, key: str) -> bool:
    """The stored episode was made from exactly this input and its media is all there."""
    return episode.source_hash == key and media_ok(cfg, episode)


def media_ok(cfg: Config, episode: Episode) -> bool:
    folder = media_for(cfg, episode)
    if episode.audio.audio_bytes is None:
        return (folder / "transcript.vtt").is_file()
    mp3 = folder / "episode.mp3"
    return mp3.is_file() and mp3.stat().st_size == episode.audio.audio_bytes


def speak_cached(
    cfg: Config, episode_id: str, key: str, script: Script, voice: str | None,
    links: dict[int, str],
) -> Audio:
    """Render into a fresh folder and move it into place whole; reuse one already there."""
    final = media_dir(cfg, episode_id) / key[:16]
    meta = final / "audio.json"
    if meta.is_file():
        return from_dict(Audio, json.loads(meta.read_text(encoding="utf-8")))
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{key[:16]}.", dir=final.parent))
    try:
        audio = render_audio(script, tmp, cfg.voice, backend=voice, links=links)
        (tmp / "audio.json").write_text(json.dumps(to_dict(audio)), encoding="utf-8")
        os.rename(tmp, final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return audio


def links_for(script: Script, digest: Digest) -> dict[int, str]:
    """URLs of the PRs the script cites."""
    cited = {n for section in script.sections for n in section.cites}
    return {n: url for n, url in _pr_links(digest.changes).items() if n in cited}


def make_episode(
    cfg: Config, episode_id: str, kind: str, window: Window, digest: Digest, script: Script,
    audio: Audio, key: str, related: tuple[str, ...] = (),
) -> Episode:
    themes = tuple(ThemeRef(t.headline, t.authors, t.areas, t.prs) for t in digest.themes)
    cited = {n for s in script.sections for n in s.cites}
    areas = {a for t in digest.themes for a in t.areas}
    areas |= {a.name for a in digest.areas if cited & set(a.prs)}
    published = window.until if kind == "weekly" else dates.publish_moment(
        dt.date.fromisoformat(episode_id), cfg.show)
    return Episode(
        id=episode_id, kind=EpisodeKind(kind), window=window,
        published_at=published.astimezone(dt.UTC),
        script=script, audio=audio, themes=themes, areas=tuple(sorted(areas)),
        links=links_for(script, digest), related=related, source_hash=key,
    )


def _episode_url(cfg: Config, episode_id: str) -> str:
    return urllib.parse.urljoin(cfg.show.base_url.rstrip("/") + "/", f"episodes/{episode_id}/")
