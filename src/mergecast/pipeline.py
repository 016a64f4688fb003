"""The one recipe: a window's changes → digest (with cross-day memory) → script → audio → Episode.

Every command that shows or makes an episode calls `make` and stops where it needs to:
`digest` after the digest, `script` after the script, `speak` after the audio, `run` and
`weekly` at the Episode. `backfill` stops each day at the script, in date order (later
days remember earlier ones), then narrates them in parallel with `render` and finishes
them with `assemble`. So what `mergecast script` prints is what `run` would speak.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import datetime as dt
import enum
import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__, dates, locking, redact, voice
from . import config as config_mod
from . import publish as publishing
from .analysis import build_digest, path_rules_from_repo
from .analysis.ledger import ledger
from .analysis.memory import link_earlier
from .code_id import code_id
from .config import AreaRule, Config, VoiceConfig, WritingConfig
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
    WriterKind,
    to_dict,
)
from .publish import media
from .publish.content import Urls, credits_for
from .publish.identity import show_identity
from .sources import forge, repo_rules
from .store import Store
from .targets import Target
from .watch import SILENT, Watch, audio_line, timed
from .writing.writer import write_script

if TYPE_CHECKING:
    import httpx

    from .publish import PublishReport

HISTORY_DAYS = 14  # duplicates and revert/reland originals are looked for this far back


def load_config(path: Path | None, db: Path | None = None,
                environ: Mapping[str, str] = os.environ) -> Config:
    """Load mergecast.toml once; --db overrides [store] path. Every secret the config
    names (the LLM and TTS keys, the GitHub token) is scrubbed from then on: a client
    made early (GitHub) would otherwise pass on a key of one made later (the LLM's)."""
    cfg = config_mod.load(path)
    if db is not None:
        cfg = dataclasses.replace(cfg, store=config_mod.StoreConfig(path=db))
    keys = [cfg.llm.api_key_env, cfg.voice.openai.api_key_env]
    for secret in redact.Secrets.from_environ(environ, keys).secrets:
        redact.remember(secret)
    return cfg


@contextlib.contextmanager
def session(cfg: Config, *, out: Path | None = None, write: bool = True) -> Iterator[Store]:
    """The store for one command. A command that writes holds the store's lock (and the
    site folder's, given `out`) until it is done: the one place locks are taken."""
    locks = [cfg.store.path, *([site_lock(cfg, out)] if out is not None else [])] if write \
        else []
    if write:
        _check_store_outside(cfg.store.path, {out, cfg.publish.out} - {None})
    with locking.exclusive(locks), Store(cfg.store.path) as store:
        if write:  # what renders killed before us left in the media tree
            media.drop_stale_renders(media_root(cfg))
        yield store


def _check_store_outside(db: Path, sites: Iterable[Path | None]) -> None:
    """Each publish replaces the site folder whole: a store inside it would go with it."""
    real = Path(os.path.realpath(db))
    for site in sites:
        folder = Path(os.path.realpath(site)) if site is not None else None
        # The root folder is no site at all: the lock refuses it, with its own line.
        if folder is not None and folder.parent != folder and folder in real.parents:
            raise InputError(
                f"the store {db} is inside the site folder {site}, which each publish "
                "replaces whole, so the store and its media would be lost; pass --db (or set "
                "[store] path) outside it")


def site_lock(cfg: Config, out: Path) -> Path:
    """The lock of site folder `out`, kept with the store (`.mergecast/site-<hash>.lock`),
    not beside the site, so the project holds one folder to ignore. The hash names the
    folder's real path: two spellings of one folder share one lock."""
    real = os.path.realpath(locking.own_folder(out))
    digest = hashlib.sha256(real.encode()).hexdigest()[:12]
    return cfg.store.path.parent / f"{Path(real).name or 'site'}-{digest}"


# ---- the recipe


class Step(enum.IntEnum):
    """Where `make` stops."""

    DIGEST = 1
    SCRIPT = 2
    AUDIO = 3
    EPISODE = 4


@dataclasses.dataclass(frozen=True)
class Choices:
    """This run's overrides of mergecast.toml: --writer, --voice, --allow-empty."""

    writer: str | None = None
    voice: str | None = None
    allow_empty: bool = False


AS_CONFIGURED = Choices()  # no overrides


@dataclasses.dataclass(frozen=True)
class Draft:
    """An episode as far as `make` went. `reused`: the stored one was made from exactly
    this input and its media is all there, so nothing was redone."""

    target: Target
    digest: Digest
    key: str = ""  # source_hash: everything the episode is made from
    related: tuple[str, ...] = ()  # weekly: the daily episodes of its week
    script: Script | None = None
    audio: Audio | None = None
    episode: Episode | None = None
    reused: bool = False


def make(cfg: Config, store: Store, target: Target, *, upto: Step = Step.EPISODE,
         choices: Choices = AS_CONFIGURED, earlier: Sequence[Episode] | None = None,
         watch: Watch = SILENT) -> Draft:
    """Make `target`'s episode up to step `upto`. `earlier`: the episodes it may refer
    back to (default: every other stored episode)."""
    links = link_patterns(cfg)
    with timed(watch, "digest") as note:
        others = earlier if earlier is not None else [
            e for e in store.episodes() if e.id != target.id]
        digest = link_earlier(digest_for(cfg, store, target.window, links), others)
        note(f"{digest.counts.changes} changes, {len(digest.themes)} themes")
    draft = Draft(target, digest)
    if upto == Step.DIGEST:
        return draft
    writing = _writing(cfg, target, choices)
    _check_activity(target, digest, writing)
    draft = dataclasses.replace(
        draft, key=source_hash(cfg, target, digest, writing, choices, links),
        related=_related(store, target))
    previous = store.episode(target.id)
    if previous is not None and _reusable(cfg, previous, draft):
        for stage in ("script", "speak"):
            watch.finished(stage, 0.0, "unchanged")
        return dataclasses.replace(draft, script=previous.script, audio=previous.audio,
                                   episode=previous, reused=True)
    with timed(watch, "script") as note:
        script = write_script(
            digest, show=show_name_for(cfg, digest.changes), day=target.day, writing=writing,
            lexicon=cfg.lexicon, llm=cfg.llm, writer=_writer(cfg, target, choices),
            weekly=target.id if target.kind == EpisodeKind.WEEKLY else None,
        )
        note(f"{script.words} words, writer {script.writer}")
    draft = dataclasses.replace(draft, script=script)
    if upto == Step.SCRIPT:
        return draft
    with timed(watch, "speak") as note:
        audio = render(cfg, target.id, draft.key, script, choices.voice, links_for(draft),
                       progress=lambda done, total: watch.advanced(done, total, "sentences"))
        note(audio_line(audio))
    if upto == Step.AUDIO:
        return dataclasses.replace(draft, audio=audio)
    return dataclasses.replace(draft, audio=audio, episode=assemble(cfg, draft, audio))


def _writing(cfg: Config, target: Target, choices: Choices) -> WritingConfig:
    writing = cfg.writing
    if choices.allow_empty:
        writing = dataclasses.replace(writing, allow_empty=True)
    if target.kind == EpisodeKind.WEEKLY:  # a recap tells a whole week: longer, more themes
        writing = dataclasses.replace(writing, minutes=max(3.5, writing.minutes),
                                      max_themes=max(4, writing.max_themes))
    return writing


def _writer(cfg: Config, target: Target, choices: Choices) -> str:
    if target.kind == EpisodeKind.WEEKLY:
        return WriterKind.TEMPLATE  # recaps are written from templates, whatever is chosen
    return choices.writer or cfg.writing.writer


def _check_activity(target: Target, digest: Digest, writing: WritingConfig) -> None:
    if digest.counts.changes:
        return
    if target.kind == EpisodeKind.WEEKLY:
        raise EmptyWindowError(f"no activity in {target.id}; no weekly recap made")
    if not writing.allow_empty:
        window = target.window
        raise EmptyWindowError(
            f"no activity between {window.since.isoformat()} and {window.until.isoformat()}; "
            "no episode made (pass --allow-empty to make one anyway)"
        )


def _related(store: Store, target: Target) -> tuple[str, ...]:
    if target.kind != EpisodeKind.WEEKLY:
        return ()
    days = {(target.day - dt.timedelta(days=i)).isoformat() for i in range(7)}
    return tuple(sorted(e.id for e in store.episodes()
                        if e.kind == EpisodeKind.DAILY and e.id in days))


def _reusable(cfg: Config, episode: Episode, draft: Draft) -> bool:
    return (episode.source_hash == draft.key and episode.related == draft.related
            and media.complete(media_for(cfg, episode.id, episode.source_hash), episode.audio))


# ---- the steps


def show_name_for(cfg: Config, changes: Iterable[Change]) -> str:
    """[show] name, else the name of the repository the changes come from."""
    if cfg.show.name:
        return cfg.show.name
    repos = collections.Counter(c.repo for c in changes if c.repo)
    if repos:
        return repos.most_common(1)[0][0].rstrip("/").split("/")[-1]
    return cfg.show_name


def repo_path_rules(cfg: Config) -> list[AreaRule]:
    """Path rules from the configured repository's labeler.yml and CODEOWNERS, if any."""
    return path_rules_from_repo(*repo_rules.rule_files(
        cfg.source.repo or cfg.root, labeler=cfg.areas.labeler,
        codeowners=cfg.areas.codeowners))


def link_patterns(cfg: Config) -> forge.LinkPatterns:
    """How this repository's PRs and commits link to its forge ([source], else the
    configured checkout's `origin` remote)."""
    src = cfg.source
    return forge.link_patterns(forge=src.forge, web_url=src.web_url, pr_url=src.pr_url,
                               commit_url=src.commit_url, github=src.github,
                               origin=forge.origin_web(src.repo or cfg.root))


def digest_for(cfg: Config, store: Store, window: Window,
               links: forge.LinkPatterns | None = None) -> Digest:
    """The window's digest from the store: its changes (each with its link), 14 days of
    history, newcomers."""
    links = links or link_patterns(cfg)
    # (History carries its links too: a theme may cite what it follows.)
    history = links.with_urls(store.changes_between(
        window.since - dt.timedelta(days=HISTORY_DAYS), window.since))
    return build_digest(
        links.with_urls(store.changes_in(window)),
        window,
        areas=cfg.areas,
        history=history,
        earlier_authors=store.earlier_people(window.since),
        history_since=store.earliest_activity(),
        bots=cfg.source.bots,
        path_rules=repo_path_rules(cfg),
        show=cfg.show.name,
    )


def source_hash(cfg: Config, target: Target, digest: Digest, writing: WritingConfig,
                choices: Choices, links: forge.LinkPatterns, code: str | None = None) -> str:
    """Everything an episode is made from; the same hash means nothing to redo.

    The whole digest, not its `--json` face: the writer and the page read every field of
    the window's changes (a retitled, merged or re-labelled PR, a new body) and the memory
    of earlier episodes, none of which that face shows."""
    payload = {
        "links": [links.pr, links.commit],
        "version": __version__,
        "code": code or code_id(),  # (the same version may hold other wording rules)
        "kind": target.kind,
        "digest": to_dict(digest),
        "show": show_name_for(cfg, digest.changes),
        # allow_empty only matters for an empty digest, which the digest already says.
        "writing": to_dict(dataclasses.replace(writing, allow_empty=False)),
        "writer": (writer := _writer(cfg, target, choices)),
        # The server and model that write an LLM episode (not how long we wait for them).
        "llm": [cfg.llm.base_url, cfg.llm.model, cfg.llm.max_tokens]
        if writer == WriterKind.LLM else None,
        "lexicon": dict(cfg.lexicon),
        "voice": to_dict(dataclasses.replace(cfg.voice,
                                             backend=choices.voice or cfg.voice.backend)),
    }
    blob = json.dumps(payload, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()


def media_root(cfg: Config) -> Path:
    """The rendered media of every episode, beside the store."""
    return cfg.store.path.parent / "media"


def media_dir(cfg: Config, episode_id: str) -> Path:
    """Where an episode's rendered media lives before publishing (beside the store)."""
    return media_root(cfg) / episode_id


def media_for(cfg: Config, episode_id: str, key: str) -> Path:
    """The media folder of an episode made from input `key`: one per input, so a new
    render never touches the old one (an episode stored without a key keeps its media in
    the episode's own folder)."""
    folder = media_dir(cfg, episode_id)
    return folder / key[:16] if key else folder


def render(cfg: Config, episode_id: str, key: str, script: Script, voice_name: str | None,
           links: dict[int, str], *, progress: voice.Progress | None = None) -> Audio:
    """Speak `script` into its media folder (media_dir/<id>/<key16>/), built in a temp
    folder and moved into place whole; a folder already there is reused. `progress` hears
    of each sentence spoken."""
    final = media_for(cfg, episode_id, key)
    done = media.read_audio(final)
    if done is not None:
        return done
    with media.render_folder(final.parent, key) as tmp:
        audio = render_media(script, tmp, cfg.voice, backend=voice_name, links=links,
                             progress=progress)
        media.save_audio(tmp, audio)
        os.rename(tmp, final)
    return audio


def render_media(script: Script, folder: Path, voice_cfg: VoiceConfig, *,
                 backend: str | None = None, links: Mapping[int, str] | None = None,
                 transport: httpx.BaseTransport | None = None,
                 engine: voice.Voice | None = None,
                 progress: voice.Progress | None = None) -> Audio:
    """Narrate `script` (voice) and write its media files into `folder` (publish): nothing
    is written unless the narration succeeded."""
    speech = voice.speak(script, voice_cfg, backend=backend, links=links or {},
                         transport=transport, engine=engine, progress=progress)
    media.write_media(folder, script, speech.audio, speech.mp3)
    return speech.audio


def links_for(draft: Draft) -> dict[int, str]:
    """URLs of the PRs the draft's script cites (the digest's changes carry their links)."""
    assert draft.script is not None
    cited = {n for section in draft.script.sections for n in section.cites}
    found = {c.number: c.url for c in draft.digest.changes
             if c.number is not None and c.number in cited and c.url}
    for t in draft.digest.themes:  # what a theme follows is cited from the past week
        if (f := t.follows) and f.ref.pr in cited and f.url and f.ref.pr not in found:
            found[f.ref.pr] = f.url
    return found


def assemble(cfg: Config, draft: Draft, audio: Audio) -> Episode:
    """The Episode a draft's script and its audio make."""
    target, digest, script = draft.target, draft.digest, draft.script
    assert script is not None
    themes = tuple(ThemeRef(t.headline, t.authors, t.areas, t.prs) for t in digest.themes)
    cited = {n for s in script.sections for n in s.cites}
    areas = {a for t in digest.themes for a in t.areas}
    areas |= {a.name for a in digest.areas if cited & set(a.prs)}
    published = target.window.until if target.kind == EpisodeKind.WEEKLY else \
        dates.publish_moment(target.day, cfg.show)
    return Episode(
        id=target.id, kind=target.kind, window=target.window,
        published_at=published.astimezone(dt.UTC), script=script, audio=audio,
        themes=themes, areas=tuple(sorted(areas)), links=links_for(draft),
        related=draft.related, source_hash=draft.key,
        credits=credits_for(digest), ledger=ledger(digest, cited),
        duplicates=digest.duplicates, chains=digest.chains,
    )


def publish(cfg: Config, store: Store, out: Path) -> PublishReport:
    """Render every stored episode into OUT, atomically."""
    episodes = {e.id: e for e in store.episodes()}
    newest = max(episodes.values(), key=lambda e: e.published_at, default=None)
    name = cfg.show.name or (newest.script.show if newest else "") or cfg.show_name
    show = dataclasses.replace(cfg.show, name=name)
    return publishing.publish_site(
        list(episodes.values()), out, show,
        media=lambda episode_id: media_for(cfg, episode_id, episodes[episode_id].source_hash),
        identity=show_identity(store, show, Urls.for_show(show).feed, out, str(store.path)),
        latest=cfg.publish.latest,
    )
