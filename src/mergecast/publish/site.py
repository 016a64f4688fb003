"""Publish the whole site: atomically (staging + swap) and incrementally (a manifest).

Every output file has a key: a hash of exactly what it shows (the episode, its nearby
list, the show settings, the templates). The manifest in OUT records each file's key;
a file whose key is unchanged is hard-linked from the current OUT instead of being
rendered again, so adding one episode to a 1,000-episode archive renders that page,
its eight neighbours, the feeds, the show page and the sitemap — nothing else.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import shutil
import stat
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..config import ShowConfig
from ..errors import PublishError
from ..models import Episode
from . import episode_mp3, feed, files, pages
from .content import (
    Urls,
    area_groups,
    nearby,
    neighbours_key,
    newest_first,
    show_description,
    show_title,
)
from .cover import cover_suffix, draw_cover
from .identity import FeedIdentity, is_local
from .paths import check_episode_id, safe_join
from .swap import Staging

MANIFEST = ".mergecast-manifest.json"
MANIFEST_VERSION = 1
Hook = Callable[[str], None]


@dataclass(frozen=True)
class PublishReport:
    out: Path
    episodes: int
    rendered: tuple[str, ...]  # episode ids whose page was rendered (not reused)
    files_written: int
    files_linked: int
    feeds: tuple[str, ...]  # feed paths relative to OUT
    seconds: float
    url: str = ""  # the main feed's URL
    warnings: tuple[str, ...] = ()  # one line each, for the CLI to print


def _hash(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


@dataclass
class _Build:
    """One publish in progress: the staging root, the old site and the new manifest."""

    root: Path
    old: Path
    old_keys: dict[str, str]
    keys: dict[str, str] = field(default_factory=dict)
    written: int = 0
    linked: int = 0
    fresh: list[str] = field(default_factory=list)  # files written (not linked) this build
    _made: set[str] = field(default_factory=set)

    def reuse(self, rel: str, key: str) -> int | None:
        """Hard-link rel from the current site when its key is unchanged; its size, or None."""
        self.keys[rel] = key
        if self.old_keys.get(rel) != key:
            return None
        src = os.path.join(self.old, rel)
        dst = os.path.join(self.root, rel)
        try:
            # lstat: a symlink planted in OUT must never be followed into the new site.
            st = os.lstat(src)
            if not stat.S_ISREG(st.st_mode):
                return None
            self._mkdir(os.path.dirname(dst))
            try:
                os.link(src, dst, follow_symlinks=False)
            except OSError:
                shutil.copy2(src, dst)
        except OSError:
            return None
        self.linked += 1
        return st.st_size

    def _mkdir(self, folder: str) -> None:
        if folder not in self._made:
            os.makedirs(folder, exist_ok=True)
            self._made.add(folder)

    def write(self, rel: str, data: bytes | str, key: str | None = None) -> Path:
        if key is not None:
            self.keys[rel] = key
        dst = os.path.join(self.root, rel)
        self._mkdir(os.path.dirname(dst))
        with open(dst, "xb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
        self.written += 1
        self.fresh.append(dst)
        return Path(dst)

    def copy(self, rel: str, src: Path, key: str) -> Path:
        self.keys[rel] = key
        dst = os.path.join(self.root, rel)
        self._mkdir(os.path.dirname(dst))
        shutil.copyfile(src, dst)
        self.written += 1
        self.fresh.append(dst)
        return Path(dst)


class Publisher:
    """Renders episodes into OUT. `hook(step)` is called at each step (tests crash there).

    durable: fsync what was written before the swap. background_cleanup: delete the
    previous tree in a detached process once the new site is live.
    """

    def __init__(
        self,
        show: ShowConfig,
        *,
        media: Callable[[str], Path],
        identity: FeedIdentity,
        latest: int = 20,
        hook: Hook | None = None,
        durable: bool = True,
        background_cleanup: bool = True,
    ) -> None:
        self.show = show
        self.media = media
        self.identity = identity
        self.latest = latest
        self.hook: Hook = hook or (lambda step: None)
        self.durable = durable
        self.background_cleanup = background_cleanup
        self.urls = Urls.for_show(show)

    def publish(self, episodes: Sequence[Episode], out: Path) -> PublishReport:
        started = time.perf_counter()
        out = Path(os.path.abspath(out))
        _check(episodes)
        old_keys = _read_manifest(out)
        self.hook("start")
        with Staging(out, background=self.background_cleanup) as stage:
            build = _Build(stage.path, out, old_keys)
            cover = self._cover(build)
            sizes, rendered = self._episodes(build, episodes, cover)
            feeds, areas = self._feeds(build, episodes, sizes, cover)
            self._index(build, episodes, areas, cover)
            build.write("sitemap.xml", feed.build_sitemap(
                [(self.urls.base, None)]
                + [(self.urls.page(e.id), e.published_at) for e in newest_first(episodes)]))
            for name in pages.ASSETS:
                rel = f"assets/{name}"
                if build.reuse(rel, pages.fingerprint()) is None:
                    build.write(rel, pages.asset(name))
            build.write(MANIFEST, json.dumps(
                {"version": MANIFEST_VERSION, "files": build.keys}, indent=0, sort_keys=True))
            self.hook("swap")
            stage.commit(build.fresh if self.durable else None)
            self.hook("swapped")
        self.hook("done")
        return PublishReport(
            out=out, episodes=len(episodes), rendered=tuple(rendered),
            files_written=build.written, files_linked=build.linked,
            feeds=tuple(rel for rel, _, _ in feeds), seconds=time.perf_counter() - started,
            url=self.urls.feed, warnings=self.warnings(),
        )

    def warnings(self) -> tuple[str, ...]:
        """What would keep the published feed from working in podcast apps and directories."""
        found = []
        if is_local(self.show.base_url):
            found.append(
                f"mergecast.toml [show] base_url is {self.show.base_url}, a local address: "
                "podcast apps and other machines cannot reach the feed, its audio or its "
                "pages; set it to the address the site will be served from before you "
                "publish it (a preview with `mergecast serve` works as it is)")
        if not self.show.email:
            found.append(
                "mergecast.toml [show] email is not set, so the feed has no itunes:email: "
                "Apple Podcasts Connect and other directories send their ownership check "
                "to that address; set [show] email to an address you read")
        return tuple(found)

    # ---------------------------------------------------------------- parts

    def _show_key(self) -> str:
        return _hash(dataclasses.asdict(self.show), pages.fingerprint())

    def _cover(self, build: _Build) -> str:
        """Write the show's cover; return its path relative to OUT."""
        image = self.show.image
        if image is None:
            key = _hash("drawn", self.show.name or show_title(self.show), pages.RENDER_VERSION)
            if build.reuse("cover.png", key) is None:
                build.write("cover.png", draw_cover(self.show.name or show_title(self.show)))
            return "cover.png"
        rel = f"cover{cover_suffix(image)}"
        st = image.stat()
        key = _hash("image", str(image), st.st_size, st.st_mtime_ns)
        if build.reuse(rel, key) is None:
            build.copy(rel, image, key)
        return rel

    def _episodes(
        self, build: _Build, episodes: Sequence[Episode], cover: str
    ) -> tuple[dict[str, int], list[str]]:
        near = nearby(episodes)
        by_id = {e.id: e for e in episodes}
        art_key = build.keys[cover]
        art = functools.cache(lambda: episode_mp3.cover_art((build.root / cover).read_bytes()))
        show_key = self._show_key()
        cover_url = self.urls.cover(cover)
        sizes: dict[str, int] = {}
        rendered: list[str] = []
        for ep in episodes:
            folder = safe_join(build.root, "episodes", ep.id)
            rel = f"episodes/{ep.id}"
            # repr of the frozen models: complete, deterministic, and 4x cheaper than to_dict
            ep_key = _hash(repr(ep), pages.RENDER_VERSION)
            size = self._audio(build, ep, rel, ep_key, art, art_key)
            if size is not None:
                sizes[ep.id] = size
            for name, make in files.CAPTIONS:
                if build.reuse(f"{rel}/{name}", ep_key) is None:
                    build.write(f"{rel}/{name}", make(ep.script, ep.audio))
            json_key = _hash(ep_key, self.urls.base, size)
            if build.reuse(f"{rel}/episode.json", json_key) is None:
                build.write(f"{rel}/episode.json", files.episode_json(ep, self.urls, size))
            related = pages.related_episodes(ep, by_id)
            page_key = _hash(ep_key, neighbours_key(near[ep.id]), neighbours_key(related),
                             show_key, size is not None, cover)
            if build.reuse(f"{rel}/index.html", page_key) is None:
                context = pages.episode_context(
                    ep, show=self.show, urls=self.urls, near=near[ep.id],
                    has_audio=size is not None, cover_url=cover_url, cover_href=cover,
                    related=related)
                build.write(f"{rel}/index.html", pages.render_episode(context))
                rendered.append(ep.id)
            build._mkdir(str(folder))
            self.hook(f"episode:{ep.id}")
        return sizes, rendered

    def _audio(self, build: _Build, ep: Episode, rel: str, ep_key: str,
               art: Callable[[], bytes], art_key: str) -> int | None:
        """Place episode.mp3, tagged with the show's title, cover art and the episode page;
        its size in bytes, or None for a text-only episode."""
        if ep.audio.audio_bytes is None:
            return None
        target = f"{rel}/episode.mp3"
        src: Path | None = None
        source: tuple[object, ...]
        if ep.audio.audio_sha256:
            source = ("mp3", ep.audio.audio_sha256, ep.audio.audio_bytes)
        else:
            src = self.media(ep.id) / "episode.mp3"
            try:
                st = src.stat()
            except OSError:
                st = None
            source = ("mp3-stat", st.st_size if st else None, st.st_mtime_ns if st else None)
        key = _hash(*source, art_key, show_title(self.show), self.urls.page(ep.id), ep_key,
                    episode_mp3.TAGS_VERSION)
        reused = build.reuse(target, key)
        if reused is not None:
            return reused
        src = src or self.media(ep.id) / "episode.mp3"
        if not src.is_file():
            raise PublishError(
                f"episode {ep.id} has audio but {src} is missing; render it again with "
                f"`mergecast speak` for that day (or publish it text-only with --voice none)"
            )
        data = episode_mp3.published_mp3(src.read_bytes(), ep, show=show_title(self.show),
                                         art=art(), page_url=self.urls.page(ep.id))
        return build.write(target, data).stat().st_size

    def _feeds(
        self, build: _Build, episodes: Sequence[Episode], sizes: dict[str, int], cover: str
    ) -> tuple[list[tuple[str, str, str]], list[pages.AreaLink]]:
        """Write every feed; return (path, label, absolute URL) of the show's feeds, and the
        area feeds (spellings of one area folded into one feed) with their episode counts."""
        title = show_title(self.show)
        cover_url = self.urls.cover(cover)

        def spec(rel: str, url: str, feed_title: str, description: str) -> feed.FeedSpec:
            return feed.FeedSpec(url, feed_title, description, self.identity.feed_guid(rel))

        specs: list[tuple[str, str, feed.FeedSpec, Sequence[Episode]]] = [
            ("feed.xml", "Podcast feed (RSS)",
             spec("feed.xml", self.urls.feed, title, show_description(self.show)), episodes),
            ("weekly/feed.xml", "Weekly recaps only",
             spec("weekly/feed.xml", self.urls.weekly_feed, f"{title} — weekly recaps",
                  f"Weekly recaps of {title}."),
             [e for e in episodes if e.kind == "weekly"]),
        ]
        areas: list[pages.AreaLink] = []
        for group in area_groups(episodes):
            listed = [e for e in episodes if group.spellings & set(e.areas)]
            # Other spellings' feeds stay, with the same episodes: subscribers keep theirs.
            for slug in (group.slug, *group.aliases):
                safe_join(build.root, "areas", slug)
                rel = f"areas/{slug}/feed.xml"
                specs.append((rel, group.name, spec(
                    rel, self.urls.area_feed(slug), f"{title} — {group.name}",
                    f"Episodes of {title} with a theme or roundup in {group.name}."), listed))
            areas.append(pages.AreaLink(group.name, f"areas/{group.slug}/feed.xml",
                                        self.urls.area_feed(group.slug), group.episodes))
        items = feed.build_items(episodes, show=self.show, urls=self.urls, audio_sizes=sizes,
                                 identity=self.identity)
        result = []
        for rel, label, feed_spec, members in specs:
            build.write(rel, feed.build_feed(members, show=self.show, spec=feed_spec,
                                             urls=self.urls, cover_url=cover_url, items=items))
            result.append((rel, label, feed_spec.url))
        self.hook("feeds")
        return result, areas

    def _index(
        self, build: _Build, episodes: Sequence[Episode], areas: Sequence[pages.AreaLink],
        cover: str,
    ) -> None:
        ordered = newest_first(episodes)
        html = pages.render_index(
            ordered[: self.latest], show=self.show, urls=self.urls, areas=areas,
            cover_href=cover, total=len(ordered))
        build.write("index.html", html)


def _check(episodes: Sequence[Episode]) -> None:
    seen: set[str] = set()
    for ep in episodes:
        check_episode_id(ep.id)
        if ep.id in seen:
            raise PublishError(f"two episodes share the id {ep.id}; keep one in the store")
        seen.add(ep.id)


def _read_manifest(out: Path) -> dict[str, str]:
    """The current site's file keys; {} for a new folder. Refuses folders we don't own."""
    if not out.exists():
        return {}
    if not out.is_dir():
        raise PublishError(f"{out} is a file, not a folder; pass --out with a folder for the site")
    path = out / MANIFEST
    if not path.is_file():
        if any(out.iterdir()):
            raise PublishError(
                f"{out} is not empty and is not a mergecast site (no {MANIFEST}); "
                "pass --out with a new or empty folder"
            )
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # unreadable manifest: rebuild everything, the swap keeps it safe
    if not isinstance(data, dict) or data.get("version") != MANIFEST_VERSION:
        return {}
    keys = data.get("files")
    return {str(k): str(v) for k, v in keys.items()} if isinstance(keys, dict) else {}


def publish_site(
    episodes: Sequence[Episode],
    out: Path,
    show: ShowConfig,
    *,
    media: Callable[[str], Path],
    identity: FeedIdentity,
    latest: int = 20,
) -> PublishReport:
    """Render every episode into OUT (layout in CONTRACT.md), atomically and incrementally."""
    return Publisher(show, media=media, identity=identity, latest=latest).publish(episodes, out)
