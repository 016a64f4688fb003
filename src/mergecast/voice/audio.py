"""Mastering: 44.1 kHz, −16 LUFS integrated, CBR 64 kbps mono MP3 whose decoded true peak
is at most −1 dBTP."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pyloudnorm
from scipy.ndimage import minimum_filter1d, uniform_filter1d
from scipy.signal import firwin

from . import Samples, mp3
from ._wav import resample

OUT_RATE = 44100
TARGET_LUFS = -16.0
PEAK_DBTP = -1.0
# MP3 encoding moves peaks, measured up to +0.9 dB on real episodes, so the limiter aims a
# full dB under the ceiling; the encoded file is then measured, and fixed if still over.
_CEILING_DBTP = PEAK_DBTP - 1.0
_RETRY_CEILING_DBTP = PEAK_DBTP - 1.5
# Decoders differ by a few hundredths of a dB: measure against a slightly lower line.
_DECODED_LIMIT_DBTP = PEAK_DBTP - 0.1
_OVERSAMPLE = 4  # ITU-R BS.1770 true peak: 4x oversampling
BITRATE_KBPS = 64


def master(samples: Samples, rate: int) -> Samples:
    """Set loudness and limit peaks at the voice's own rate (half the work for piper's
    22.05 kHz), then resample to 44.1 kHz; the ceiling's margin absorbs resampling ripple."""
    return np.clip(resample(normalise(samples, rate), rate, OUT_RATE), -1.0, 1.0)


def loudness(samples: npt.NDArray[np.floating[Any]], rate: int) -> float:
    """Integrated loudness in LUFS (−inf for silence or audio shorter than one 400 ms block)."""
    if samples.size < int(0.4 * rate):
        return float("-inf")
    meter = pyloudnorm.Meter(rate)
    return float(meter.integrated_loudness(np.asarray(samples, dtype=np.float64)))


def true_peak(samples: npt.NDArray[np.floating[Any]]) -> float:
    """Peak of the 4x oversampled signal, in dBTP."""
    if samples.size == 0:
        return float("-inf")
    peak = float(_peaks(np.asarray(samples, dtype=np.float64)).max())
    return float(20 * np.log10(peak)) if peak > 0 else float("-inf")


def normalise(samples: Samples, rate: int, target: float = TARGET_LUFS) -> Samples:
    """Gain to `target` LUFS, then a look-ahead limiter so the true peak fits the ceiling.

    Limiting lowers loudness a little, so gain and limit repeat (at most 4 rounds).
    """
    x = np.asarray(samples, dtype=np.float64)
    ceiling = 10 ** (_CEILING_DBTP / 20)
    for _ in range(4):
        level = loudness(x, rate)
        if not np.isfinite(level) or abs(level - target) <= 0.15:
            break  # silence / too short to measure, or close enough
        x = _limit(x * 10 ** ((target - level) / 20), rate, ceiling)
    return x.astype(np.float32)


_TAPS = _OVERSAMPLE * 12
_FIR = firwin(_TAPS, 0.9 / _OVERSAMPLE) * _OVERSAMPLE  # pass band up to 90 % of Nyquist
_DELAY = (_TAPS // _OVERSAMPLE) // 2


def _peaks(x: np.ndarray) -> np.ndarray:
    """Per-sample peak of the oversampled waveform: each polyphase branch of the
    interpolation filter gives the values between sample n and n+1."""
    env = np.abs(x)
    for p in range(_OVERSAMPLE):
        branch = np.convolve(x, _FIR[p::_OVERSAMPLE])[_DELAY - 1 : _DELAY - 1 + x.size]
        np.maximum(env, np.abs(branch), out=env)
    return env


def _limit(x: np.ndarray, rate: int, ceiling: float) -> np.ndarray:
    """Gain envelope from oversampled peaks: a min filter wider than the smoothing window
    keeps the smoothed gain at or under what every peak needs (no overshoot, no clicks)."""
    need = np.minimum(1.0, ceiling / np.maximum(_peaks(x), 1e-12))
    if need.min() >= 1.0:
        return x
    smooth = max(1, int(0.005 * rate))  # 5 ms attack and release
    hold = minimum_filter1d(need, size=2 * smooth + 1, mode="nearest")
    return x * uniform_filter1d(hold, size=smooth, mode="nearest")


def to_int16(samples: Samples) -> bytes:
    # Plain rounding, no random dither: identical input must give identical bytes.
    pcm = np.clip(np.round(samples.astype(np.float64) * 32767.0), -32768, 32767)
    return pcm.astype("<i2").tobytes()


def encode_mp3(samples: Samples, rate: int = OUT_RATE, kbps: int = BITRATE_KBPS) -> bytes:
    """Constant bitrate, mono, behind an Info header: players and tag readers then agree on
    the exact duration. The decoded file's true peak is at most −1 dBTP: when encoding
    pushed it over, the input is limited harder and encoded again, and if even that is
    over, the frames are turned down in exact 1.5 dB steps."""
    x = samples
    frames = mp3.encode(to_int16(x), rate, kbps)
    over = true_peak(mp3.decode(frames)) - _DECODED_LIMIT_DBTP
    if over > 0:
        ceiling = 10 ** (_RETRY_CEILING_DBTP / 20)
        x = _limit(np.asarray(samples, dtype=np.float64), rate, ceiling).astype(np.float32)
        frames = mp3.encode(to_int16(x), rate, kbps)
        over = true_peak(mp3.decode(frames)) - _DECODED_LIMIT_DBTP
    if over > 0:
        frames = mp3.lower_gain(frames, int(np.ceil(over / mp3.GAIN_STEP_DB)))
    return mp3.with_info_header(frames, x.size, kbps)
