"""A fake voice for fast tests of other stages: deterministic tones, length ∝ text.

Like httpx.MockTransport, it can take a handler (text -> samples) instead.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

import numpy as np

from . import Samples


class FakeVoice:
    name = "fake"

    def __init__(
        self,
        *,
        sample_rate: int = 16000,
        seconds_per_char: float = 0.06,
        rate: float = 1.0,
        handler: Callable[[str], Samples] | None = None,
    ) -> None:
        self.sample_rate = sample_rate
        self._per_char = seconds_per_char / rate
        self._handler = handler
        self.calls: list[str] = []

    def synthesize(self, text: str) -> Samples:
        self.calls.append(text)
        if self._handler is not None:
            return np.asarray(self._handler(text), dtype=np.float32)
        n = round(len(text.strip()) * self._per_char * self.sample_rate)
        # A pitch per text (crc32 is stable across runs, unlike hash()) with a syllable-like
        # 4 Hz envelope, so loudness gating sees speech-like audio.
        freq = 120.0 + zlib.crc32(text.encode("utf-8")) % 200
        t = np.arange(n, dtype=np.float64) / self.sample_rate
        envelope = 0.55 + 0.45 * np.sin(2 * np.pi * 4.0 * t)
        return (0.3 * envelope * np.sin(2 * np.pi * freq * t)).astype(np.float32)
