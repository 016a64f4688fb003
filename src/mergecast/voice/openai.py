"""Any OpenAI-compatible `/v1/audio/speech` server (OpenAI, Kokoro-FastAPI, openedai-speech…)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

import httpx
import numpy as np

from ..config import OpenAIVoiceConfig, VoiceConfig
from ..errors import VoiceError
from ..redact import excerpt, remember
from . import Samples
from ._wav import read_pcm16, read_wav, resample

SAMPLE_RATE = 24000  # OpenAI's native rate; `pcm` answers are raw 24 kHz 16-bit mono
_BEARER = re.compile(r"Bearer\s+[^\s\"',;]+", re.I)


class OpenAIBackend:
    name = "openai"
    sample_rate = SAMPLE_RATE

    def __init__(
        self,
        cfg: OpenAIVoiceConfig,
        *,
        rate: float = 1.0,
        transport: httpx.BaseTransport | None = None,
        environ: Mapping[str, str] = os.environ,
    ) -> None:
        self._cfg = cfg
        self._url = cfg.base_url.rstrip("/") + "/audio/speech"
        self._speed = max(0.25, min(4.0, rate))
        headers = {"Accept": "audio/wav"}
        key = environ.get(cfg.api_key_env, "") if cfg.api_key_env else ""
        if key:
            headers["Authorization"] = f"Bearer {key}"
        self._key = key
        remember(key)
        self._client = httpx.Client(
            transport=transport, timeout=httpx.Timeout(cfg.timeout), headers=headers
        )

    @classmethod
    def from_config(
        cls, cfg: VoiceConfig, *, transport: httpx.BaseTransport | None = None
    ) -> OpenAIBackend:
        return cls(cfg.openai, rate=cfg.rate, transport=transport)

    def close(self) -> None:
        self._client.close()

    def synthesize(self, text: str) -> Samples:
        if not text.strip():
            return np.zeros(0, dtype=np.float32)
        body = {
            "model": self._cfg.model,
            "voice": self._cfg.voice,
            "input": text,
            "response_format": "wav",
            "speed": self._speed,
        }
        where = f"TTS server {self._url}"
        try:
            response = self._client.post(self._url, json=body)
        except httpx.TimeoutException as exc:
            raise VoiceError(
                f"{where} timed out after {self._cfg.timeout:g}s; check it is up or raise "
                f"[voice.openai] timeout in mergecast.toml"
            ) from exc
        except httpx.HTTPError as exc:
            raise VoiceError(
                f"{where} could not be reached ({exc}); start it or fix [voice.openai] base_url"
            ) from exc
        if response.status_code != 200:
            detail = _BEARER.sub("Bearer ***", excerpt(response.text, 160, self._key))
            fix = (
                f"set ${self._cfg.api_key_env} to a valid key"
                if response.status_code in (401, 403)
                else "check [voice.openai] model and voice, and the server's log"
            )
            raise VoiceError(
                f"{where} refused speech: HTTP {response.status_code}"
                f"{': ' + detail if detail else ''}; {fix}"
            )
        return self._decode(response)

    def _decode(self, response: httpx.Response) -> Samples:
        data = response.content
        kind = response.headers.get("content-type", "")
        try:
            if data[:4] == b"RIFF":
                samples, rate = read_wav(data)
                return resample(samples, rate, self.sample_rate)
            if "pcm" in kind or "L16" in kind or "octet-stream" in kind:
                return read_pcm16(data)
        except (ValueError, EOFError) as exc:
            raise VoiceError(f"TTS server {self._url} sent unreadable WAV audio: {exc}") from exc
        raise VoiceError(
            f"TTS server {self._url} answered {kind or 'no content type'}, expected WAV or PCM "
            f"audio; use a server that supports response_format \"wav\""
        )
