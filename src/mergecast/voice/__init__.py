"""Voice stage: a Script's spoken sentences in; the MP3 and its timings out (`speak`).

Each backend is a `Voice` (one sample rate, one method) made by name from `BACKENDS`.
`none` is not a backend: it makes a text-only episode (see `render.speak`). This face
imports nothing heavy: numpy, the mastering filters and the engines load when a script
is first spoken, so `mergecast --help` never waits for them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..errors import VoiceError
from ..models import VoiceKind

if TYPE_CHECKING:
    import httpx
    import numpy as np
    import numpy.typing as npt

    from ..config import VoiceConfig
    from .render import Speech, speak

    Samples = npt.NDArray[np.float32]


@runtime_checkable
class Voice(Protocol):
    """Text in, mono float32 samples in [-1, 1] at `sample_rate` out."""

    name: str
    sample_rate: int

    def synthesize(self, text: str) -> Samples: ...


Factory = Callable[["VoiceConfig", "httpx.BaseTransport | None"], Voice]
Progress = Callable[[int, int], None]  # (sentences spoken, sentences in the script)


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
    VoiceKind.PIPER.value: _piper,
    VoiceKind.ESPEAK.value: _espeak,
    VoiceKind.OPENAI.value: _openai,
}
FAKES: Mapping[str, Factory] = {"fake": _fake}  # for tests by name; never offered to users
NONE = VoiceKind.NONE.value  # text-only episode: no audio file, estimated timings
VOICES = (*BACKENDS, NONE)  # what --voice offers


def make_voice(
    name: str, cfg: VoiceConfig, *, transport: httpx.BaseTransport | None = None
) -> Voice:
    """The backend called `name`, configured from [voice]."""
    factory = BACKENDS.get(name) or FAKES.get(name)
    if factory is None:
        choices = ", ".join([*BACKENDS, *FAKES, NONE])
        raise VoiceError(
            f"expected a voice backend ({choices}), got {name!r}; pass --voice or set "
            f"[voice] backend in mergecast.toml"
        )
    return factory(cfg, transport)


def __getattr__(name: str) -> Any:
    """The heavy names, loaded on first use."""
    if name == "Samples":
        np = importlib.import_module("numpy")
        return importlib.import_module("numpy.typing").NDArray[np.float32]
    if name in ("Speech", "speak"):
        return getattr(importlib.import_module(".render", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BACKENDS", "FAKES", "NONE", "VOICES", "Progress", "Samples", "Speech", "Voice",
           "make_voice", "speak"]
