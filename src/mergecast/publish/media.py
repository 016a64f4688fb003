"""An episode's media folder: episode.mp3, transcript.vtt and chapters.json, written whole.

The pipeline keeps one folder per episode input beside the store; `speak --out` copies
one into a site folder. Every file lands by rename after all of them are ready, so a
folder is never half new and half old.

Every temp file and render folder is flock-ed by its writer for its whole life, so what
a killed writer left (the kernel dropped its lock) is told apart from a live one: the
next writer removes such leftovers, and only names our own temp pattern matches.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from ..errors import InputError, PublishError
from ..models import Audio, Script, from_dict, to_dict
from .files import CAPTIONS
from .paths import check_episode_id, safe_join

MP3 = "episode.mp3"
FILES = (MP3, *(name for name, _ in CAPTIONS))
_AUDIO = "audio.json"  # the Audio model, so a later run reuses the folder without re-rendering


def write_media(folder: Path, script: Script, audio: Audio, mp3: bytes | None) -> None:
    """The episode's media files; without an MP3 (text-only) a stale one is removed."""
    files = {name: make(script, audio).encode() for name, make in CAPTIONS}
    if mp3 is not None:
        files[MP3] = mp3
    write_atomic(folder, files, remove=() if mp3 is not None else (MP3,))


def save_audio(folder: Path, audio: Audio) -> None:
    write_atomic(folder, {_AUDIO: json.dumps(to_dict(audio)).encode()})


def read_audio(folder: Path) -> Audio | None:
    """The Audio saved in `folder`, or None when there is none to reuse."""
    try:
        return from_dict(Audio, json.loads((folder / _AUDIO).read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def complete(folder: Path, audio: Audio) -> bool:
    """`folder` holds the media `audio` describes: the whole MP3, or the transcript."""
    if audio.audio_bytes is None:
        return (folder / "transcript.vtt").is_file()
    mp3 = folder / MP3
    return mp3.is_file() and mp3.stat().st_size == audio.audio_bytes


def check_preview(out: Path, site: Path) -> None:
    """`speak --out`: refuse a published site, a folder inside one, and the configured
    site folder `site` (or one inside it). A preview copied there would replace the live
    episode's files (a text-only one removes the MP3 its enclosures point to), outside the
    publisher's atomic swap."""
    from .site import MANIFEST  # here: the site module loads the templates

    real, live = Path(os.path.realpath(out)), Path(os.path.realpath(site))
    for folder in (real, *real.parents):
        published = (folder / MANIFEST).is_file()
        if published or folder == live:
            inside = "" if folder == real else "inside "
            what = f"the published site {folder}" if published else \
                f"the site folder {folder} ([publish] out)"
            raise InputError(
                f"cannot copy a preview to {out}: it is {inside}{what}, which only `run` and "
                "`publish` change; pass --out with a folder of its own, such as ./preview "
                "(the site is unchanged)")


def copy_media(folder: Path, out: Path, episode_id: str) -> Path:
    """Copy an episode's media into OUT/episodes/<id>/; return that folder."""
    target = safe_join(out, "episodes", check_episode_id(episode_id))
    made = {name: (folder / name).read_bytes() for name in FILES if (folder / name).is_file()}
    write_atomic(target, made, remove=[name for name in FILES if name not in made])
    return target


def write_atomic(folder: Path, files: Mapping[str, bytes], *, remove: Iterable[str] = (),
                 what: str = "episode media") -> None:
    """Write every file to a temp sibling first, then rename each into place.

    A failure before the renames leaves the folder as it was and no temp files behind;
    the temp files a killed writer left for these names are removed first.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PublishError(f"cannot create folder {folder} for {what}: {exc.strerror}; "
                           "check its parent is writable") from exc
    drop_stale(folder, re.compile("|".join(
        rf"\.{re.escape(name)}\.{_RANDOM}\.tmp" for name in files)))
    temps: dict[str, str] = {}
    fds: list[int] = []
    try:
        for name, data in files.items():
            fd, tmp = _claimed(folder, f".{name}.", ".tmp")
            fds.append(fd)
            temps[name] = tmp
            with os.fdopen(fd, "wb", closefd=False) as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        for name, tmp in temps.items():
            os.replace(tmp, folder / name)
        for name in remove:
            with contextlib.suppress(FileNotFoundError):
                (folder / name).unlink()
    except OSError as exc:
        raise PublishError(
            f"cannot write {what} to {folder}: {exc.strerror or exc}; "
            f"check the folder is writable and the disk has space"
        ) from exc
    finally:
        for tmp in temps.values():
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        for fd in fds:
            os.close(fd)


# ---- leftovers of killed writers

_RANDOM = "[a-z0-9_]{8}"  # tempfile's random part
RENDER = re.compile(rf"\.(?:[0-9a-f]{{16}})?\.{_RANDOM}")  # a render's folder: .<key16>.<random>


def _claimed(parent: Path, prefix: str, suffix: str = "", *,
             folder: bool = False) -> tuple[int, str]:
    """A new temp file (or folder) in `parent`, locked for as long as the caller keeps the
    returned fd; made again when a cleaner removed it before our lock was taken."""
    while True:
        fd = -1
        if folder:
            path = tempfile.mkdtemp(prefix=prefix, dir=parent)
        else:
            fd, path = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=parent)
        try:
            if fd < 0:
                fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
            fcntl.flock(fd, fcntl.LOCK_EX)
            if os.path.samestat(os.fstat(fd), os.lstat(path)):
                return fd, path
        except FileNotFoundError:
            pass
        if fd >= 0:
            os.close(fd)


def drop_stale(folder: Path, ours: re.Pattern[str]) -> None:
    """Remove the entries of `folder` whose names `ours` matches and that no live writer
    holds locked: a killed writer's temp files and folders. Links are never followed."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if not ours.fullmatch(entry.name):
            continue
        try:  # O_NOFOLLOW: a link named like ours is left alone (ELOOP)
            fd = os.open(entry.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                os.unlink(entry.path)
        except OSError:
            pass  # locked: a live writer's (or already gone)
        finally:
            os.close(fd)


def drop_stale_renders(root: Path) -> None:
    """The render folders killed renders left in the media tree (root and its episode
    folders): `run`, `speak`, `backfill` and `weekly` call it under the store's lock."""
    drop_stale(root, RENDER)
    with contextlib.suppress(OSError):
        for entry in os.scandir(root):
            if entry.is_dir(follow_symlinks=False) and not entry.name.startswith("."):
                drop_stale(Path(entry.path), RENDER)


@contextlib.contextmanager
def render_folder(parent: Path, key: str) -> Iterator[Path]:
    """A fresh folder in `parent` to render into, locked while the caller uses it (so no
    cleaner takes it for a leftover) and removed unless the caller moved it into place."""
    parent.mkdir(parents=True, exist_ok=True)
    drop_stale(parent, RENDER)
    fd, path = _claimed(parent, f".{key[:16]}.", folder=True)
    try:
        yield Path(path)
    finally:
        shutil.rmtree(path, ignore_errors=True)  # gone already when it was moved into place
        os.close(fd)
