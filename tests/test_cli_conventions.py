"""The CLI behaves like the tools people know: --json, --quiet/--verbose, --date today and
yesterday, weekly's default week, the config found from a subfolder or MERGECAST_CONFIG,
init's next steps and .gitignore lines, the lock inside .mergecast/, doctor's "missing",
dates checked before anything is read, and progress that moves (issue 18 items 5, 9, 10)."""

from __future__ import annotations

import datetime as dt
import json
import os
import pty
import re
import shutil
import subprocess
import sys
import zoneinfo
from pathlib import Path

import pytest
from click.testing import CliRunner

from mergecast.cli import main
from sources.github_fake import FakeGitHub, serve
from test_run import history


def cli(*args: object, env: dict[str, str | None] | None = None):
    return CliRunner(env=env).invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def project(tmp_path: Path, make_repo) -> Path:
    repo = make_repo(history(), origin="https://github.com/o/r.git")
    conf = tmp_path / "mergecast.toml"
    conf.write_text(f'[show]\nname = "Demo"\nbase_url = "https://example.org/cast/"\n'
                    f'email = "cast@example.org"\n[source]\nrepo = "{repo}"\n', encoding="utf-8")
    return conf


def test_run_json_and_quiet(project: Path):
    r = cli("--config", project, "run", "--date", "2026-07-24", "--voice", "none", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert {k: data[k] for k in ("status", "id", "kind", "voice", "audio", "duration_estimated",
                                 "url", "warnings")} == {
        "status": "published", "id": "2026-07-24", "kind": "daily", "voice": "none",
        "audio": False, "duration_estimated": True,
        "url": "https://example.org/cast/episodes/2026-07-24/", "warnings": []}
    assert data["page"] == str(project.parent / "site/episodes/2026-07-24/index.html")
    assert [s["source"] for s in data["sources"]] == ["git"]
    assert "  speak " in r.stderr  # progress stays on stderr; stdout is the JSON alone
    assert "text only, no audio (about " in r.stderr and "s of audio" not in r.stderr

    again = cli("--config", project, "run", "--date", "2026-07-24", "--voice", "none", "-q")
    assert again.exit_code == 0 and again.stdout == "" and again.stderr == ""


def test_the_publishers_warnings_reach_run_and_its_json(project: Path):
    project.write_text(project.read_text().replace('base_url = "https://example.org/cast/"\n',
                                                   "").replace('email = "cast@example.org"\n', ""))
    r = cli("--config", project, "run", "--date", "2026-07-24", "--voice", "none", "--json")
    assert r.exit_code == 0, r.output
    warned = [line.removeprefix("mergecast: warning: ") for line in r.stderr.splitlines()
              if line.startswith("mergecast: warning: ")]
    assert json.loads(r.stdout)["warnings"] == warned and len(warned) == 2
    assert warned[0].startswith("mergecast.toml [show] base_url is http://127.0.0.1:8000/, a "
                                "local address")
    assert warned[1].startswith("mergecast.toml [show] email is not set")


def test_quiet_and_verbose_exclude_each_other(project: Path):
    r = cli("--config", project, "run", "--quiet", "--verbose")
    assert r.exit_code == 2
    assert r.stderr == "mergecast: expected one of --quiet or --verbose, got both; pick one\n"


def test_verbose_shows_the_github_log(project: Path):
    fake = FakeGitHub()
    for server in serve(fake):
        env = {"GITHUB_API_URL": server.url, "GITHUB_TOKEN": "ghp_x" * 8}
        args = ["--config", project, "run", "--date", "2026-07-24", "--voice", "none",
                "--github", "o/r"]
        plain = cli(*args, env=env)
        loud = cli(*args, "--allow-empty", "-v", env=env)
    assert plain.exit_code == loud.exit_code == 0, plain.output + loud.output
    log = re.compile(r"^mergecast: GitHub o/r: 0 pull requests in \d+ requests$", re.M)
    assert not log.search(plain.stderr) and log.search(loud.stderr)


def test_date_today_and_yesterday_are_days_in_the_show_timezone(project: Path):
    tz = "Pacific/Kiritimati"  # UTC+14: "today" here is often tomorrow in UTC
    project.write_text(project.read_text() + '\n[writing]\nallow_empty = true\n', encoding="utf-8")
    project.write_text(project.read_text().replace('name = "Demo"\n',
                                                   f'name = "Demo"\ntimezone = "{tz}"\n'))
    today = dt.datetime.now(zoneinfo.ZoneInfo(tz)).date()
    for word, day in (("today", today), ("yesterday", today - dt.timedelta(days=1))):
        j = json.loads(cli("--config", project, "script", "--date", word, "--json").stdout)
        assert j["date"] == day.isoformat()
    bad = cli("--config", project, "run", "--date", "tomorrow")
    assert bad.exit_code == 2
    assert bad.stderr == ("mergecast: expected a day as YYYY-MM-DD, 'today', 'yesterday' or "
                          "'latest', got 'tomorrow' for --date\n")


def test_dates_are_checked_before_anything_is_read(tmp_path: Path):
    fake = FakeGitHub()
    for server in serve(fake):
        r = cli("--db", tmp_path / "mc.db", "run", "--github", "o/r", "--date", "2026-02-30",
                env={"GITHUB_API_URL": server.url})
        assert r.exit_code == 2
        assert r.stderr == ("mergecast: expected a day as YYYY-MM-DD, 'today', 'yesterday' or "
                            "'latest', got '2026-02-30' for --date\n")
        assert fake.requests == 0
        b = cli("--db", tmp_path / "mc.db", "backfill", "--from", "2026-07-01", "--to", "07-31")
        assert b.exit_code == 2
        assert b.stderr == ("mergecast: expected a day as YYYY-MM-DD, 'today' or 'yesterday', "
                            "got '07-31' for --to\n")
    assert not (tmp_path / "mc.db").exists()


def test_backfill_names_quiet_days_and_weekly_defaults_to_the_last_week_with_episodes(
        project: Path):
    r = cli("--config", project, "backfill", "--from", "2026-07-22", "--to", "2026-07-26",
            "--voice", "none")
    assert r.exit_code == 0, r.output
    assert "quiet (no activity): 2026-07-22, 2026-07-26" in r.stdout
    assert "  script   1/5 days (2026-07-22 quiet)" in r.stderr  # a line per day, no bar
    assert "  script   2/5 days (2026-07-23)" in r.stderr
    w = cli("--config", project, "weekly", "--voice", "none")
    assert w.exit_code == 0, w.output
    site = project.parent / "site"
    assert w.stdout.splitlines() == [
        f"published: 2026-W30 — {json.loads((site / 'episodes/2026-W30/episode.json').read_text())['title']}",
        f"page: {site}/episodes/2026-W30/index.html",
        "url:  https://example.org/cast/episodes/2026-W30/"]


def test_config_is_found_in_a_parent_folder_and_through_MERGECAST_CONFIG(
        project: Path, tmp_path: Path, monkeypatch):
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    doctor = json.loads(cli("doctor", "--json").stdout)
    assert doctor["checks"][0] == {"name": "config", "status": "ok", "detail":
                                   f"{project} is valid", "fix": None, "required": True}
    other = tmp_path / "other.toml"
    other.write_text('[show]\nname = "Other"\n', encoding="utf-8")
    via_env = json.loads(cli("doctor", "--json", env={"MERGECAST_CONFIG": str(other)}).stdout)
    assert via_env["checks"][0]["detail"] == f"{other} is valid"
    missing = cli("doctor", env={"MERGECAST_CONFIG": str(tmp_path / "nope.toml")})
    assert missing.exit_code == 2
    assert missing.stderr == (f"mergecast: MERGECAST_CONFIG names {tmp_path / 'nope.toml'}, "
                              "which is not a file; fix the path or unset MERGECAST_CONFIG\n")


def test_init_prints_next_steps_and_adds_the_gitignore_lines(make_repo, monkeypatch):
    repo = make_repo(history(), origin="git@github.com:o/r.git")
    (repo / ".gitignore").write_text("*.pyc", encoding="utf-8")
    monkeypatch.chdir(repo)
    r = cli("init")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[:4] == [
        f"wrote {repo / 'mergecast.toml'} for o/r", "",
        f"Add to {repo / '.gitignore'} (the store, media and locks; the site):",
        "  /.mergecast/"]
    assert "  /site/" in r.stdout and "mergecast run --date latest" in r.stdout
    assert "[show] email" in r.stdout and "base_url" in r.stdout
    written = (repo / "mergecast.toml").read_text()
    for key in ("# email = ", "# image = ", "[publish]", "[writing]", "[voice]",
                "# out = ", "# backend = ", "# writer = "):
        assert key in written, key
    again = cli("init", "--force", "--gitignore")
    assert again.exit_code == 0
    assert f"added /.mergecast/, /site/ to {repo / '.gitignore'}" in again.stdout
    assert (repo / ".gitignore").read_text() == (
        "*.pyc\n# mergecast: the store, media and locks; the generated site\n/.mergecast/\n"
        "/site/\n")
    assert (repo / ".gitignore").stat().st_mode & 0o777 == 0o644 & ~_umask()
    third = cli("init", "--force", "--gitignore")
    assert "Add to" not in third.stdout and "added" not in third.stdout
    assert subprocess.run(["git", "-C", repo, "check-ignore", "-q", ".mergecast/x.db"]).returncode == 0


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_quiet_day_is_silent_under_quiet(project: Path):
    r = cli("--config", project, "run", "--date", "2026-07-20", "--voice", "none", "-q")
    assert (r.exit_code, r.stdout, r.stderr) == (0, "", "")
    loud = cli("--config", project, "run", "--date", "2026-07-20", "--voice", "none")
    assert loud.stderr.splitlines()[-1].startswith("mergecast: no activity between ")
    as_json = cli("--config", project, "run", "--date", "2026-07-20", "--voice", "none", "--json")
    assert as_json.exit_code == 0 and "no activity between " not in as_json.stderr
    answer = json.loads(as_json.stdout)  # a script reads one JSON object, even on a quiet day
    assert answer["status"] == "quiet" and answer["message"].startswith("no activity between ")


def test_the_site_lock_lives_inside_the_store_folder(project: Path):
    assert cli("--config", project, "run", "--date", "2026-07-24", "--voice", "none").exit_code == 0
    root = project.parent
    assert not (root / "site.lock").exists()
    locks = sorted(p.name for p in (root / ".mergecast").glob("*.lock"))
    assert locks[0] == "mergecast.db.lock" and re.fullmatch(r"site-[0-9a-f]{12}\.lock", locks[1])


def test_doctor_says_missing_for_optional_tools_and_never_fails_on_the_token(
        project: Path, tmp_path: Path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.symlink(shutil.which("git"), bin_dir / "git")
    env = {"PATH": str(bin_dir), "GITHUB_TOKEN": None, "GH_TOKEN": None}
    r = cli("--config", project, "doctor", env=env)
    assert r.exit_code == 0, r.output
    assert ("[miss] espeak-ng  missing: espeak-ng is not installed (optional: only --voice "
            "espeak-ng needs it)") in r.stdout.splitlines()
    assert r.stdout.splitlines()[-1] == "All good."
    project.write_text(project.read_text().replace("[source]\n", '[source]\ngithub = "o/r"\n'))
    token = cli("--config", project, "doctor", "--json", env=env)
    assert token.exit_code == 0, token.output
    [check] = [c for c in json.loads(token.stdout)["checks"] if c["name"] == "token"]
    assert check["status"] == "warn" and "public repositories work without one" in check["detail"]
    assert json.loads(token.stdout)["ok"] is True


def test_every_help_has_examples():
    for name in main.commands:
        out = cli(name, "--help").stdout
        assert "Examples:\n    mergecast " in out, name
    assert "Examples:" in cli("--help").stdout


def test_progress_moves_per_sentence_on_a_terminal(project: Path, tmp_path: Path):
    """A real pseudo-terminal: the live bar redraws with every sentence spoken."""
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    exe = Path(sys.executable).with_name("mergecast")
    pid, fd = pty.fork()
    if pid == 0:  # the child: mergecast on the terminal
        os.execv(str(exe), [str(exe), "--config", str(project), "run", "--date", "2026-07-24",
                            "--voice", "espeak-ng"])
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, out[-2000:]
    text = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", out).decode("utf-8", "replace")
    counts = set(re.findall(r"(\d+)/(\d+) sentences", text))
    total = {t for _, t in counts}
    assert len(total) == 1 and len(counts) == int(total.pop()) > 3  # every sentence was shown
    assert "  speak   " in text and "published: 2026-07-24" in text


def test_progress_without_a_terminal_is_a_plain_line_each_quarter(project: Path):
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    r = cli("--config", project, "run", "--date", "2026-07-24", "--voice", "espeak-ng")
    assert r.exit_code == 0, r.output
    steps = re.findall(r"^  speak    (\d+)/(\d+) sentences$", r.stderr, re.M)
    assert steps and steps[-1][0] == steps[-1][1] and len(steps) <= 5
    assert "\x1b" not in r.stderr


def test_quiet_before_the_command_is_the_same(project: Path):
    r = cli("--config", project, "-q", "run", "--date", "2026-07-24", "--voice", "none")
    assert r.exit_code == 0 and r.stdout == "" and r.stderr == ""
    both = cli("--config", project, "-q", "run", "-v")
    assert both.exit_code == 2
    assert both.stderr == "mergecast: expected one of --quiet or --verbose, got both; pick one\n"
