"""What a command shows while it works: the recipe tells a `Watch` each stage it starts
and ends, how far a long stage has got, and what the user should be warned of. The
default watch says nothing; the CLI's console (`console.Console`) shows it all.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator

from .models import ESTIMATE_WPM, Audio


class Watch:
    """What a command shows while it works. Here every method says nothing; the CLI's
    console shows them on the terminal (and tests record them)."""

    def started(self, stage: str) -> None:
        """A stage began."""

    def finished(self, stage: str, seconds: float, detail: str) -> None:
        """A stage ended, after `seconds`; `detail` says what it made."""

    def advanced(self, done: int, total: int, unit: str, note: str = "") -> None:
        """Progress inside the current stage: `done` of `total` `unit` (sentences, days);
        `note` says where (which day)."""

    def warn(self, message: str) -> None:
        """Something the user should know; the command goes on."""


SILENT = Watch()


@contextlib.contextmanager
def timed(watch: Watch, name: str) -> Iterator[Callable[[str], None]]:
    """Time one stage; what is noted inside goes to the watch with its seconds."""
    detail: list[str] = []
    watch.started(name)
    start = time.monotonic()
    yield detail.append
    watch.finished(name, time.monotonic() - start, " ".join(detail))


def audio_line(audio: Audio) -> str:
    """What the voice made, as the speak stage reports it: a text-only episode has no
    audio, only an estimate of how long it would take to say."""
    if audio.audio_bytes is None:
        return (f"text only, no audio (about {audio.duration_seconds / 60:.1f} min at "
                f"{ESTIMATE_WPM:g} words a minute)")
    return f"{audio.duration_seconds:.1f} s of audio ({audio.voice})"
