"""The Debian `espeak-ng` program: a robotic but dependable fallback voice."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np

from ..config import VoiceConfig
from ..errors import VoiceError
from . import Samples
from ._wav import read_wav, resample

BASE_WPM = 175  # espeak-ng's own default speed, scaled by [voice] rate
SAMPLE_RATE = 22050


class EspeakBackend:
    name = "espeak-ng"
    sample_rate = SAMPLE_RATE

    def __init__(
        self, *, voice: str = "en-us", rate: float = 1.0, program: str = "espeak-ng"
    ) -> None:
        found = shutil.which(program)
        if found is None:
            raise VoiceError(
                f"the {program} program is not installed (needed for --voice espeak-ng); "
                f"install it with `apt-get install espeak-ng`, or pick --voice piper or none"
            )
        self._program = found
        self._voice = voice
        self._wpm = max(80, min(450, round(BASE_WPM * rate)))

    @classmethod
    def from_config(cls, cfg: VoiceConfig) -> EspeakBackend:
        return cls(voice=cfg.espeak_voice, rate=cfg.rate)

    def synthesize(self, text: str) -> Samples:
        if not text.strip():
            return np.zeros(0, dtype=np.float32)
        # Text goes in on stdin, never argv: script text may start with "-" or hold anything.
        cmd = [self._program, "-v", self._voice, "-s", str(self._wpm), "--stdin", "--stdout"]
        try:
            done = subprocess.run(  # noqa: S603 - fixed argv, no shell
                cmd, input=text.encode("utf-8"), capture_output=True, timeout=120, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise VoiceError(f"{self._program} failed to run: {exc}") from exc
        if done.returncode != 0 or not done.stdout:
            err = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise VoiceError(
                f"{self._program} -v {self._voice} failed ({err[0] if err else done.returncode});"
                f" check [voice] espeak_voice (see `espeak-ng --voices`)"
            )
        try:
            samples, rate = read_wav(done.stdout)
        except (ValueError, EOFError) as exc:
            raise VoiceError(f"{self._program} wrote an unreadable WAV: {exc}") from exc
        return resample(samples, rate, self.sample_rate)
