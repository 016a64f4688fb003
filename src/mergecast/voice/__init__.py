"""Voice stage: a Script's spoken sentences in; episode.mp3, transcript.vtt, chapters.json out.

Each backend is a `Voice` (one sample rate, one method) made by name from `BACKENDS`.
`none` is not a backend: it renders a text-only episode (see `render.render_audio`).
Heavy engines (piper / onnxruntime) are imported only when that backend is chosen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol, runtime_checkable

import httpx
import numpy as np
import numpy.typing as npt

from ..config import VoiceConfig
from ..errors import VoiceError

Samples = npt.NDArray[np.float32]


@runtime_checkable
class Voice(Protocol):
    """Text in, mono float32 samples in [-1, 1] at `sample_rate` out."""

    name: str
    sample_rate: int

    def synthesize(self, text: str) -> Samples: ...


Factory = Callable[[VoiceConfig, "httpx.BaseTransport | None"], Voice]


def _piper(cfg: VoiceConfig, transport: httpx.BaseTransport | None) -> Voice:
    from .piper import PiperBackend

    return PiperBackend.from_config(cfg)


def _espeak(cfg: VoiceConfig, transport: httpx.BaseTransport | None) -> Voice:
    from .espeak import EspeakBackend

    return EspeakBackend.from_config(cfg)


def _openai(cfg: VoiceConfig, transport: httpx.BaseTransport | None) -> Voice:
    from .openai import OpenAIBackend

    return OpenAIBackend.from_config(cfg, transport=transport)


def _fake(cfg: VoiceConfig, transport: httpx.BaseTransport | None) -> Voice:
    from .fake import FakeVoice

    return FakeVoice(rate=cfg.rate)


BACKENDS: Mapping[str, Factory] = {
    "piper": _piper,
    "espeak-ng": _espeak,
    "openai": _openai,
    "fake": _fake,
}
NONE = "none"  # text-only episode: no audio file, estimated timings


def make_voice(
    name: str, cfg: VoiceConfig, *, transport: httpx.BaseTransport | None = None
) -> Voice:
    """The backend called `name`, configured from [voice]."""
    try:
        factory = BACKENDS[name]
    except KeyError:
        choices = ", ".join([*BACKENDS, NONE])
        raise VoiceError(
            f"expected a voice backend ({choices}), got {name!r}; pass --voice or set "
            f"[voice] backend in mergecast.toml"
        ) from None
    return factory(cfg, transport)


from .render import iso_duration, render_audio  # noqa: E402  (render imports Voice above)

__all__ = [
    "BACKENDS",
    "NONE",
    "Samples",
    "Voice",
    "iso_duration",
    "make_voice",
    "render_audio",
]
