"""render_audio: Script → episode.mp3 + transcript.vtt + chapters.json, written atomically."""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

import httpx

from ..config import VoiceConfig
from ..errors import VoiceError
from ..models import Audio, Script
from . import NONE, Voice, make_voice
from .audio import OUT_RATE, encode_mp3, master
from .captions import chapters_json, webvtt
from .narrate import ESTIMATE_WPM, estimate, narrate
from .tags import tagged

MP3 = "episode.mp3"
VTT = "transcript.vtt"
CHAPTERS = "chapters.json"
FILES = (MP3, VTT, CHAPTERS)


def render_audio(
    script: Script,
    out_dir: Path,
    voice: VoiceConfig,
    *,
    backend: str | None = None,
    links: Mapping[int, str] = {},  # noqa: B006 - read only; the contract's signature
    transport: httpx.BaseTransport | None = None,
    engine: Voice | None = None,
) -> Audio:
    """Narrate `script` and write the episode's media into `out_dir`.

    `engine` is a ready Voice (tests and batch runs reuse one loaded model); otherwise the
    backend named `backend` (default [voice] backend) is built. With backend "none" no
    audio is made: cue and chapter times are then a words-per-minute estimate, said so in
    the VTT's NOTE, and any stale episode.mp3 in `out_dir` is removed.
    Nothing is written until every byte is ready, and each file lands by rename.
    """
    name = engine.name if engine is not None else (backend or voice.backend)
    if engine is None and name == NONE:
        return _text_only(script, out_dir, voice, links)
    owned = engine is None
    engine = engine or make_voice(name, voice, transport=transport)
    try:
        narration = narrate(
            script,
            engine,
            sentence_pause=voice.sentence_pause,
            section_pause=voice.section_pause,
            links=links,
        )
    finally:
        close = getattr(engine, "close", None)
        if owned and callable(close):
            close()
    if narration.samples.size == 0:
        raise VoiceError(
            f"script {script.date.isoformat()} has no spoken text to narrate; "
            f"check the writing stage's output (mergecast script --json)"
        )
    pcm = master(narration.samples, narration.sample_rate)
    duration = pcm.size / OUT_RATE
    mp3 = tagged(encode_mp3(pcm), script, narration.chapters, duration)
    vtt = webvtt(narration.cues)
    chapters = chapters_json(narration.chapters, title=script.title)
    write_atomic(out_dir, {MP3: mp3, VTT: vtt.encode(), CHAPTERS: chapters.encode()})
    return Audio(
        duration_seconds=duration,
        cues=narration.cues,
        chapters=narration.chapters,
        audio_bytes=len(mp3),
        audio_sha256=hashlib.sha256(mp3).hexdigest(),
        voice=name,
    )


def _text_only(
    script: Script, out_dir: Path, voice: VoiceConfig, links: Mapping[int, str]
) -> Audio:
    duration, cues, chapters = estimate(
        script,
        sentence_pause=voice.sentence_pause,
        section_pause=voice.section_pause,
        links=links,
    )
    note = (
        f"Text-only episode: no audio was rendered. Timings are estimated at "
        f"{ESTIMATE_WPM:g} words per minute."
    )
    write_atomic(
        out_dir,
        {
            VTT: webvtt(cues, note=note).encode(),
            CHAPTERS: chapters_json(chapters, title=script.title).encode(),
        },
        remove=(MP3,),
    )
    return Audio(duration_seconds=duration, cues=cues, chapters=chapters, voice=NONE)


def write_atomic(
    out_dir: Path, files: Mapping[str, bytes], *, remove: Iterable[str] = ()
) -> None:
    """Write every file to a temp sibling first, then rename each into place.

    A failure before the renames leaves the folder as it was and no temp files behind.
    """
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise VoiceError(f"cannot create media folder {out_dir}: {exc.strerror}") from exc
    temps: dict[str, str] = {}
    try:
        for name, data in files.items():
            fd, tmp = tempfile.mkstemp(dir=out_dir, prefix=f".{name}.", suffix=".tmp")
            temps[name] = tmp
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        for name, tmp in temps.items():
            os.replace(tmp, out_dir / name)
        for name in remove:
            with contextlib.suppress(FileNotFoundError):
                (out_dir / name).unlink()
    except OSError as exc:
        raise VoiceError(
            f"cannot write episode media to {out_dir}: {exc.strerror or exc}; "
            f"check the folder is writable and the disk has space"
        ) from exc
    finally:
        for tmp in temps.values():
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)


def iso_duration(seconds: float) -> str:
    """ISO 8601 duration, whole seconds: 170.4 → "PT2M50S", 3725 → "PT1H2M5S"."""
    total = max(0, round(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    out = "PT"
    if hours:
        out += f"{hours}H"
    if minutes:
        out += f"{minutes}M"
    if secs or out == "PT":
        out += f"{secs}S"
    return out
