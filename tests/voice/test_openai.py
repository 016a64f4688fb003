"""OpenAI-compatible speech backend against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import http.server
import io
import json
import threading
import time
import wave
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from mergecast.config import OpenAIVoiceConfig, VoiceConfig
from mergecast.errors import VoiceError
from mergecast.pipeline import render_media
from mergecast.voice.openai import OpenAIBackend


def _wav(seconds: float, rate: int = 24000) -> bytes:
    t = np.arange(int(seconds * rate)) / rate
    pcm = (0.3 * np.sin(2 * np.pi * 220 * t) * 32767).astype("<i2")
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.tobytes())
    return buf.getvalue()


class _Handler(http.server.BaseHTTPRequestHandler):
    mode = "ok"
    requests: list[tuple[str, dict[str, str], dict[str, object]]] = []

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append((self.path, dict(self.headers), body))
        if self.mode == "refuse":
            self._send(500, b'{"error": "model tts-1 is not loaded"}', "application/json")
        elif self.mode == "escape":  # a server's error page that would recolour a terminal
            self._send(500, b"bad \x1b[31mred\x1b]0;title\x07 \xe2\x80\xae end", "text/plain")
        elif self.mode == "echo_cut":  # a server quoting part of the key it was sent
            key = self.headers["Authorization"].removeprefix("Bearer ")
            self._send(401, f"key {key[:10]}... is invalid".encode(), "text/plain")
        elif self.mode == "slow":
            time.sleep(2.5)
            self._send(200, _wav(0.5), "audio/wav")
        else:
            self._send(200, _wav(0.05 * len(str(body["input"]))), "audio/wav")

    def _send(self, status: int, data: bytes, kind: str) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except OSError:
            pass  # the client gave up (timeout test)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[tuple[str, type[_Handler]]]:
    handler = type("H", (_Handler,), {"requests": [], "mode": "ok"})
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/v1", handler
    srv.shutdown()
    srv.server_close()


def _cfg(base: str, timeout: float = 5.0) -> VoiceConfig:
    oa = OpenAIVoiceConfig(base_url=base, model="tts-1", voice="alloy", api_key_env="MC_TEST_KEY",
                           timeout=timeout)
    return VoiceConfig(backend="openai", openai=oa)


def test_good_answer_renders_episode(server, short_script, tmp_path, monkeypatch):
    base, handler = server
    monkeypatch.setenv("MC_TEST_KEY", "sk-test")
    a = render_media(short_script, tmp_path, _cfg(base))
    assert a.voice == "openai" and a.audio_bytes == (tmp_path / "episode.mp3").stat().st_size
    texts = [r[2]["input"] for r in handler.requests]
    assert texts == [s.spoken for sec in short_script.sections for s in sec.sentences]
    path, headers, body = handler.requests[0]
    assert path == "/v1/audio/speech"
    assert headers["Authorization"] == "Bearer sk-test"
    assert body["response_format"] == "wav" and body["model"] == "tts-1"
    # cue lengths come from the samples the server sent (0.05 s per character)
    first = short_script.sections[0].sentences[0].spoken
    assert a.cues[0].end == pytest.approx(0.05 * len(first), abs=1e-3)


def test_refusal_is_one_clear_line_and_nothing_written(server, short_script, tmp_path):
    base, handler = server
    handler.mode = "refuse"
    with pytest.raises(VoiceError) as err:
        render_media(short_script, tmp_path / "m", _cfg(base))
    assert str(err.value) == (
        f"TTS server {base}/audio/speech refused speech: HTTP 500: "
        '{"error": "model tts-1 is not loaded"}; '
        "check [voice.openai] model and voice, and the server's log"
    )
    assert not (tmp_path / "m").exists()


def _refused(server, short_script, tmp_path, mode: str) -> str:
    base, handler = server
    handler.mode = mode
    with pytest.raises(VoiceError) as err:
        render_media(short_script, tmp_path / "m", _cfg(base))
    return str(err.value)


def test_part_of_the_key_is_never_repeated(server, short_script, tmp_path, monkeypatch):
    base, _ = server
    monkeypatch.setenv("MC_TEST_KEY", "sk-live-0123456789abcdef")
    assert _refused(server, short_script, tmp_path, "echo_cut") == (
        f"TTS server {base}/audio/speech refused speech: HTTP 401: key ***... is invalid; "
        "set $MC_TEST_KEY to a valid key"
    )


def test_control_characters_in_an_error_page_never_reach_the_message(server, short_script,
                                                                     tmp_path):
    base, _ = server
    assert _refused(server, short_script, tmp_path, "escape") == (
        f"TTS server {base}/audio/speech refused speech: HTTP 500: bad [31mred ]0;title end; "
        "check [voice.openai] model and voice, and the server's log"
    )


def test_timeout_is_one_clear_line_and_old_files_survive(server, short_script, tmp_path):
    base, handler = server
    handler.mode = "slow"
    (tmp_path / "episode.mp3").write_bytes(b"old")
    with pytest.raises(VoiceError) as err:
        render_media(short_script, tmp_path, _cfg(base, timeout=1.0))
    assert str(err.value) == (
        f"TTS server {base}/audio/speech timed out after 1s; check it is up or raise "
        "[voice.openai] timeout in mergecast.toml"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["episode.mp3"]
    assert (tmp_path / "episode.mp3").read_bytes() == b"old"


def test_unreachable_server(short_script, tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    with pytest.raises(VoiceError, match=r"could not be reached .*fix \[voice.openai\] base_url"):
        OpenAIBackend(_cfg(f"http://127.0.0.1:{port}/v1").openai).synthesize("Hello.")


def test_no_key_means_no_authorization_header(server, monkeypatch):
    base, handler = server
    monkeypatch.delenv("MC_TEST_KEY", raising=False)
    samples = OpenAIBackend(_cfg(base).openai, environ={}).synthesize("Hi there.")
    assert samples.size == int(0.05 * len("Hi there.") * 24000)
    assert "Authorization" not in handler.requests[0][1]


def test_injected_transport(short_script, tmp_path: Path):
    import httpx

    seen: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(json.loads(request.content)["input"])
        return httpx.Response(200, content=_wav(0.2), headers={"content-type": "audio/wav"})

    a = render_media(short_script, tmp_path, _cfg("http://tts.invalid/v1"),
                     transport=httpx.MockTransport(answer))
    assert len(seen) == len(a.cues) == 4
