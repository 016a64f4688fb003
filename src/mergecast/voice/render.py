"""speak: Script → a mastered, tagged MP3 and the timings measured from it (or estimated).

Nothing is written here: the publisher owns every file (episode.mp3, transcript.vtt,
chapters.json) and writes them from what this returns.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass

import httpx

from ..config import VoiceConfig
from ..errors import VoiceError
from ..models import Audio, Script
from . import NONE, Progress, Voice, make_voice
from .narrate import estimate, narrate


@dataclass(frozen=True)
class Speech:
    """What the voice made: the timings, and the MP3 (None for a text-only episode)."""

    audio: Audio
    mp3: bytes | None


def speak(
    script: Script,
    voice: VoiceConfig,
    *,
    backend: str | None = None,
    links: Mapping[int, str] = {},  # noqa: B006 - read only; the contract's signature
    transport: httpx.BaseTransport | None = None,
    engine: Voice | None = None,
    progress: Progress | None = None,
) -> Speech:
    """Narrate `script`.

    `engine` is a ready Voice (tests and batch runs reuse one loaded model); otherwise the
    backend named `backend` (default [voice] backend) is built. With backend "none" no
    audio is made: cue and chapter times are then a words-per-minute estimate.
    `progress` hears of each sentence as it is spoken.
    """
    name = engine.name if engine is not None else (backend or voice.backend)
    if engine is None and name == NONE:
        duration, cues, chapters = estimate(
            script, sentence_pause=voice.sentence_pause, section_pause=voice.section_pause,
            links=links,
        )
        return Speech(Audio(duration_seconds=duration, cues=cues, chapters=chapters,
                            voice=NONE), None)
    # Mastering (scipy, pyloudnorm) loads only when there is audio to master. The ID3 tag is
    # written by the voice worker: its tagger (mutagen) is GPL, like piper (docs/licensing.md).
    from .audio import OUT_RATE, encode_mp3, master
    from .process import tagged

    owned = engine is None
    engine = engine or make_voice(name, voice, transport=transport)
    try:
        narration = narrate(
            script,
            engine,
            sentence_pause=voice.sentence_pause,
            section_pause=voice.section_pause,
            links=links,
            progress=progress,
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
    audio = Audio(
        duration_seconds=duration,
        cues=narration.cues,
        chapters=narration.chapters,
        audio_bytes=len(mp3),
        audio_sha256=hashlib.sha256(mp3).hexdigest(),
        voice=name,
    )
    return Speech(audio, mp3)
