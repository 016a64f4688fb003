"""An episode's media folder: episode.mp3, transcript.vtt and chapters.json, written whole.

The pipeline keeps one folder per episode input beside the store; `speak --out` copies
one into a site folder. Every file lands by rename after all of them are ready, so a
folder is never half new and half old.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterable, Mapping
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

    A failure before the renames leaves the folder as it was and no temp files behind.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PublishError(f"cannot create folder {folder} for {what}: {exc.strerror}; "
                           "check its parent is writable") from exc
    temps: dict[str, str] = {}
    try:
        for name, data in files.items():
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
            temps[name] = tmp
            with os.fdopen(fd, "wb") as fh:
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
