"""The one recipe: every command makes an episode the way `run` does, and errors are handled once."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from gitrepo import Commit, day
from mergecast import pipeline
from mergecast.cli import _Guarded, main
from mergecast.errors import AuthError, VoiceError
from mergecast.models import Script, Section, Sentence
from mergecast.store import Store

BODY = ("The reducer kept every partial sum in float16, so long reductions lost precision. "
        "This keeps the partial sums in float32 and rounds once at the end.")


def cli(*args: object):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def pr(number: int, title: str, created: str, updated: str, merged: str | None = None,
       login: str = "ada") -> dict[str, object]:
    return {"number": number, "title": title, "body": BODY, "author": {"login": login},
            "state": "MERGED" if merged else "OPEN", "createdAt": created, "updatedAt": updated,
            "mergedAt": merged, "url": f"https://github.com/o/r/pull/{number}",
            "labels": [{"name": "module: reductions"}]}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "mergecast.toml").write_text('[show]\nname = "Demo"\n', encoding="utf-8")
    (tmp_path / "prs.json").write_text(json.dumps([
        # Open on the 24th's day, merged on the 25th's: both episodes tell it.
        pr(900, "Keep reduction partial sums in float32", "2026-07-23T15:00:00Z",
           "2026-07-24T16:00:00Z", "2026-07-24T16:00:00Z"),
        pr(901, "Add a float32 accumulator to the reduction kernels", "2026-07-23T16:00:00Z",
           "2026-07-24T11:00:00Z", login="bo"),
        pr(902, "Round reduction results once at the end", "2026-07-24T15:30:00Z",
           "2026-07-24T17:00:00Z", "2026-07-24T17:00:00Z", login="cy"),
    ]), encoding="utf-8")
    return tmp_path


def run_day(project: Path, date: str, *more: str):  # type: ignore[no-untyped-def]
    return cli("--config", project / "mergecast.toml", "run", "--gh-json", project / "prs.json",
               "--repo-name", "o/r", "--date", date, "--voice", "none", *more)


def test_script_prints_exactly_what_run_stored_memory_included(project: Path) -> None:
    for date in ("2026-07-24", "2026-07-25"):
        made = run_day(project, date)
        assert made.exit_code == 0, made.output
    with Store(project / ".mergecast" / "mergecast.db") as store:
        stored = store.episode("2026-07-25")
    assert stored is not None
    assert "continues from yesterday." in stored.script.transcript  # memory was used
    shown = cli("--config", project / "mergecast.toml", "script", "--date", "2026-07-25",
                "--json")
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout) == stored.script.to_json()


def test_speak_renders_into_the_folder_run_publishes_from(project: Path) -> None:
    made = run_day(project, "2026-07-24")
    assert made.exit_code == 0, made.output
    spoken = cli("--config", project / "mergecast.toml", "speak", "--date", "2026-07-24",
                 "--voice", "none")
    assert spoken.exit_code == 0, spoken.output
    with Store(project / ".mergecast" / "mergecast.db") as store:
        episode = store.episode("2026-07-24")
    assert episode is not None
    folder = project / ".mergecast" / "media" / "2026-07-24" / episode.source_hash[:16]
    assert spoken.stdout.endswith(f"-> {folder}\n")
    assert sorted(p.name for p in folder.iterdir()) == [
        "audio.json", "chapters.json", "transcript.vtt"]
    assert [p.name for p in folder.parent.iterdir()] == [folder.name]  # one layout, one folder


def test_run_and_backfill_honour_allow_empty(make_repo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    repo = make_repo([Commit("[dynamo] Fix guards (#1)", day(24))], origin="https://github.com/o/r.git")
    conf = tmp_path / "mergecast.toml"
    conf.write_text('[show]\nname = "Demo"\n', encoding="utf-8")
    quiet = cli("--config", conf, "run", "--repo", repo, "--date", "2026-07-20", "--voice",
                "none", "--allow-empty")
    assert quiet.exit_code == 0, quiet.output
    assert quiet.stdout.startswith("published: 2026-07-20 — ")
    made = cli("--config", conf, "backfill", "--from", "2026-07-21", "--to", "2026-07-22",
               "--repo", repo, "--voice", "none", "--allow-empty")
    assert made.stdout.splitlines() == [
        "made 2 episode(s), skipped 0 already done, 0 quiet day(s) without an episode",
        "made: 2026-07-21, 2026-07-22"]


@pytest.mark.parametrize("flag", ["--repo-name", "--github"])
def test_run_checks_repository_names_like_ingest(tmp_path: Path, flag: str) -> None:
    r = cli("--db", tmp_path / "m.db", "run", flag, "not a slug", "--date", "2026-07-24")
    assert r.exit_code == 2
    assert r.stderr == (
        f"mergecast: expected a GitHub repository as OWNER/NAME, got 'not a slug' for {flag}\n")
    assert not (tmp_path / "m.db").exists()  # refused before anything was opened


def _group(error: BaseException) -> click.Group:
    @click.command("boom")
    @click.option("--date")
    def boom(date: str | None) -> None:
        raise error

    return _Guarded("mergecast", commands={"boom": boom})


def test_an_unexpected_error_is_one_line_naming_the_command_and_its_input() -> None:
    r = CliRunner().invoke(_group(OverflowError("date value out of range")),
                           ["boom", "--date", "0001-01-01"], catch_exceptions=False)
    assert r.exit_code == 1
    assert r.stderr == (
        "mergecast: `mergecast boom --date 0001-01-01` failed unexpectedly (OverflowError: "
        "date value out of range); this is a bug, please report it with this line\n")


def test_our_errors_keep_their_message_and_status_and_ctrl_c_is_130() -> None:
    r = CliRunner().invoke(_group(AuthError("GitHub rejected the token")), ["boom"],
                           catch_exceptions=False)
    assert (r.exit_code, r.stderr) == (2, "mergecast: GitHub rejected the token\n")
    r = CliRunner().invoke(_group(KeyboardInterrupt()), ["boom"], catch_exceptions=False)
    assert (r.exit_code, r.stderr) == (130, "mergecast: interrupted; nothing was half-written\n")


def test_a_real_command_never_prints_a_traceback(tmp_path: Path) -> None:
    r = cli("--db", tmp_path / "m.db", "script", "--date", "0001-01-01")
    assert r.exit_code != 0 and len(r.stderr.splitlines()) == 1
    assert "0001-01-01" in r.stderr and "Traceback" not in r.stderr


def test_a_failed_render_leaves_no_media_behind(tmp_path: Path) -> None:
    cfg = pipeline.load_config(None, tmp_path / "m.db")
    script = Script("s", day(24).date(), "T", "S", "template",
                    (Section("intro", "Hi", (Sentence("Hello.", "Hello."),)),))
    with pytest.raises(VoiceError, match="expected a voice backend"):
        pipeline.render(cfg, "2026-07-24", "ab" * 32, script, "sam", {})
    assert list((tmp_path / "media" / "2026-07-24").iterdir()) == []


def test_python_dash_m_mergecast_is_the_cli() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "mergecast", "--version"], capture_output=True,
                          text=True, check=False)
    assert (done.returncode, done.stdout) == (0, "mergecast, version 0.1.0\n")
