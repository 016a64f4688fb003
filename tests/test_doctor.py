"""`mergecast doctor`'s [llm] check against the fake LLM server on 127.0.0.1."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from mergecast.cli import main
from writing.llm_fake_server import (
    FakeLLMServer,
    echo_headers,
    ignoring_schema,
    rejecting,
    schema_answer,
)

KEY = "sk-doctorkeywithoutanydigitsatall"


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as srv:
        yield srv


def doctor(tmp_path: Path, base_url: str, writer: str = "template") -> tuple[int, list[str], str]:
    cfg = tmp_path / "mergecast.toml"
    cfg.write_text(f'[writing]\nwriter = "{writer}"\n[llm]\nbase_url = "{base_url}"\n'
                   'model = "m"\napi_key_env = "MC_DOCTOR_KEY"\ntimeout = 5\n', encoding="utf-8")
    result = CliRunner(env={"MC_DOCTOR_KEY": KEY}).invoke(main, ["--config", str(cfg), "doctor"])
    lines = result.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if re.match(r"\[(ok |warn|FAIL)\] llm ", line))
    return result.exit_code, lines[at:at + 2], result.output


def test_a_server_honouring_json_schema(server, tmp_path):
    server.behaviour = schema_answer("Reviews catch bugs early.")
    code, llm, _ = doctor(tmp_path, server.base_url)
    assert code == 0
    assert re.fullmatch(rf"\[ok \] llm        {server.base_url} answers and honours json_schema; "
                        r"\d+\.\d tokens/s \(5 tokens in \d+\.\d s\)", llm[0]), llm
    body = server.seen[0].body
    assert body["max_tokens"] == 64 and body["response_format"]["type"] == "json_schema"


def test_a_server_refusing_response_format_reports_the_dialect_that_held(server, tmp_path):
    server.behaviour = rejecting("response_format")
    code, llm, _ = doctor(tmp_path, server.base_url, writer="llm")
    assert code == 0 and "answers and honours llama_json_schema; " in llm[0]


def test_a_server_ignoring_the_schema_is_a_warning(server, tmp_path):
    server.behaviour = ignoring_schema("Because reviews matter.")
    code, llm, _ = doctor(tmp_path, server.base_url, writer="llm")
    assert code == 0
    assert llm[0].startswith(f"[warn] llm        {server.base_url} answers but ignores "
                             "structured output; ")
    assert llm[1] == ("       fix: mergecast parses its answers tolerantly; a server that honours "
                      "response_format json_schema (docs/llm.md) is more reliable")
    assert len(server.seen) == 2  # it tried the next dialect once before saying so


def test_no_server_fails_only_when_the_llm_writer_is_chosen(tmp_path):
    base = "http://127.0.0.1:9/v1"
    code, llm, _ = doctor(tmp_path, base, writer="llm")
    assert code == 1
    assert llm[0].startswith(f"[FAIL] llm        LLM server {base} is unreachable: ")
    assert llm[1] == ("       fix: start the server, or fix [llm] base_url and model "
                      "(docs/llm.md has recipes)")
    code, llm, _ = doctor(tmp_path, base)
    assert code == 0 and llm[0].startswith("[warn] llm ")


def test_an_echoed_key_is_not_printed(server, tmp_path):
    server.behaviour = echo_headers(401)
    code, llm, output = doctor(tmp_path, server.base_url, writer="llm")
    assert code == 1 and "answered HTTP 401: " in llm[0] and "Bearer ***" in llm[0]
    assert KEY[:8] not in output and KEY[-8:] not in output
