"""WAV / raw PCM bytes to float samples, shared by the espeak-ng and openai backends."""

from __future__ import annotations

import io
import wave
from math import gcd

import numpy as np
from scipy.signal import resample_poly

from . import Samples


def read_wav(data: bytes) -> tuple[Samples, int]:
    """Mono float32 samples and the sample rate of a 16-bit PCM WAV (channels averaged)."""
    with wave.open(io.BytesIO(data), "rb") as w:
        if w.getsampwidth() != 2:
            raise ValueError(f"expected 16-bit PCM WAV, got {8 * w.getsampwidth()}-bit")
        rate, channels = w.getframerate(), w.getnchannels()
        frames = w.readframes(w.getnframes())
    pcm = np.frombuffer(frames, dtype="<i2").astype(np.float32) / 32768.0
    if channels > 1:
        pcm = pcm.reshape(-1, channels).mean(axis=1)
    return pcm.astype(np.float32, copy=False), rate


def read_pcm16(data: bytes) -> Samples:
    """Raw little-endian 16-bit mono PCM (OpenAI's `pcm` format)."""
    usable = len(data) - len(data) % 2
    return (np.frombuffer(data[:usable], dtype="<i2").astype(np.float32) / 32768.0).astype(
        np.float32, copy=False
    )


def resample(samples: Samples, src: int, dst: int) -> Samples:
    """Polyphase resampling; exact length src→dst ratio (rounded up)."""
    if src == dst or samples.size == 0:
        return samples.astype(np.float32, copy=False)
    g = gcd(src, dst)
    out = resample_poly(samples.astype(np.float64), dst // g, src // g)
    return out.astype(np.float32)
