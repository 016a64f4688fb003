"""`mergecast script` end to end: a real store, the analysis stage, the CLI."""

from __future__ import annotations

import http.server
import json
import re
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from writing_builders import BODIES, pr

from mergecast.cli import main
from mergecast.store import Store


def run(*args: object) -> object:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Path, Path]:
    cfg = tmp_path / "mergecast.toml"
    cfg.write_text('[show]\nname = "Widget"\n\n[llm]\nmodel = "m"\n'
                   'base_url = "http://127.0.0.1:9/v1"\ntimeout = 2\n', encoding="utf-8")
    db = tmp_path / "m.db"
    with Store(db) as store:
        store.upsert_changes([
            pr(701, "[inductor] Plan convolution tiles from a cost model", "kovacs47",
               body=BODIES["tiles"]),
            pr(702, "[rpc] Honor the configured retry budget", "b7r2n", body=BODIES["rpc"]),
            pr(703, "[vulkan] Add Vulkan shaders for windowed reductions", "marisol31",
               body=BODIES["vulkan"]),
        ])
    return cfg, db


def test_script_json(setup):
    cfg, db = setup
    r = run("--config", cfg, "--db", db, "script", "--date", "2026-03-12", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["show"] == "Widget" and data["date"] == "2026-03-12"
    assert data["writer"] == "template"
    kinds = [s["kind"] for s in data["sections"]]
    assert kinds[0] == "intro" and kinds[-1] == "outro" and "theme" in kinds
    assert "March 12th, 2026" in data["sections"][0]["text"]
    cited = {n for s in data["sections"] for n in s["cites"]}
    assert cited <= {701, 702, 703} and cited
    assert data["words"] == sum(len(s["spoken"].split()) for s in data["sections"])


def test_script_text_and_markdown(setup):
    cfg, db = setup
    text = run("--config", cfg, "--db", db, "script", "--date", "2026-03-12")
    assert text.exit_code == 0 and text.stdout.startswith("Widget: ")
    assert "spoken words, writer: template" in text.stdout
    md = run("--config", cfg, "--db", db, "script", "--since", "2026-03-11T13:00",
             "--until", "2026-03-12T13:00", "--markdown")
    assert md.exit_code == 0 and md.stdout.startswith("# ")
    assert "\n## " in md.stdout


def test_empty_window_exits_zero_with_message(setup):
    cfg, db = setup
    r = run("--config", cfg, "--db", db, "script", "--date", "2026-01-01")
    assert r.exit_code == 0 and r.stdout == ""
    assert r.stderr.startswith("mergecast: no activity between ")
    ok = run("--config", cfg, "--db", db, "script", "--date", "2026-01-01", "--allow-empty",
             "--json")
    assert ok.exit_code == 0 and json.loads(ok.stdout)["sections"][0]["kind"] == "intro"


def test_json_and_markdown_together_is_an_input_error(setup):
    cfg, db = setup
    r = run("--config", cfg, "--db", db, "script", "--date", "2026-03-12", "--json",
            "--markdown")
    assert r.exit_code == 2
    assert r.stderr == "mergecast: expected one of --json or --markdown, got both; pick one\n"


def test_llm_writer_failure_warns_and_falls_back(setup, tmp_path):
    class Fail(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(500)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Fail)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        cfg, db = setup
        cfg.write_text(cfg.read_text().replace("127.0.0.1:9", f"127.0.0.1:{srv.server_port}"))
        r = run("--config", cfg, "--db", db, "script", "--date", "2026-03-12", "--writer", "llm",
                "--json")
        quiet = run("--config", cfg, "--db", db, "script", "--date", "2026-03-12", "--writer",
                    "llm", "--json", "--quiet")
    finally:
        srv.shutdown()
        srv.server_close()
    assert r.exit_code == 0
    assert json.loads(r.stdout)["writer"] == "template"
    # The server failed once: it is not asked again, and one warning names the slots.
    assert re.search(r"^mergecast: warning: LLM server http://127\.0\.0\.1:\d+/v1 answered "
                     r"HTTP 500; check the server's log; so theme 1, theme 2, theme 3, signal, "
                     r"title, summary use the template writer's text$", r.stderr, re.M), r.stderr
    assert r.stderr.count("mergecast: warning:") == 1
    assert "mergecast: llm: [1/6] theme 1" in r.stderr
    assert r.stderr.splitlines()[-1].startswith(
        "mergecast: llm: 0 of 6 slots from the model (0 of ")
    # --quiet keeps the warnings and drops the progress lines
    assert quiet.exit_code == 0 and "mergecast: llm:" not in quiet.stderr
    assert quiet.stderr.count("mergecast: warning: LLM server ") == 1
