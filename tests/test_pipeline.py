"""The one recipe: every command makes an episode the way `run` does, and errors are handled once."""

from __future__ import annotations

import datetime as dt
import json
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from gitrepo import Commit, day
from mergecast import pipeline, targets
from mergecast.cli import main
from mergecast.errors import AuthError, InputError, VoiceError
from mergecast.models import Script, Section, Sentence
from mergecast.options import Guarded
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

    return Guarded("mergecast", commands={"boom": boom})


def test_an_unexpected_error_is_one_line_naming_the_command_and_its_input() -> None:
    r = CliRunner().invoke(_group(OverflowError("date value out of range")),
                           ["boom", "--date", "0001-01-01"], catch_exceptions=False)
    assert r.exit_code == 1
    assert r.stderr == (
        "mergecast: `mergecast boom --date 0001-01-01` failed unexpectedly (OverflowError: "
        "date value out of range); this is a bug, please report it with this line\n")


def test_a_secret_in_an_error_line_is_scrubbed() -> None:
    # a git error quoting a remote URL with the token in it, or any exception's text
    from mergecast import redact

    token = "ghp_inaremoteurlXYZ"
    redact.remember(token)  # as load_config does for GITHUB_TOKEN
    r = CliRunner().invoke(_group(InputError(f"cannot read https://{token}@github.com/o/r")),
                           ["boom"], catch_exceptions=False)
    assert (r.exit_code, r.stderr) == (2, "mergecast: cannot read https://***@github.com/o/r\n")
    r = CliRunner().invoke(_group(RuntimeError(token)), ["boom"], catch_exceptions=False)
    assert r.stderr == ("mergecast: `mergecast boom` failed unexpectedly (RuntimeError: ***); "
                        "this is a bug, please report it with this line\n")


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


# ---- issue 15 item 3: every field an episode uses is in its source hash

EDITS: dict[str, dict[str, object]] = {
    "title": {"title": "Round every reduction result once, at the very end"},
    "open to merged": {"state": "MERGED", "mergedAt": "2026-07-24T11:30:00Z"},
    "open to closed": {"state": "CLOSED", "closedAt": "2026-07-24T11:30:00Z"},
    "body": {"body": "Long reductions drifted by a few units in the last place. This rounds "
                     "the float32 result to the output type once, after the last partial sum."},
    "labels": {"labels": [{"name": "module: numerics"}, {"name": "topic: bc breaking"}]},
    "author": {"author": {"login": "dee"}},
    "draft": {"isDraft": True},
}


def _day(folder: Path, prs: list[dict[str, object]]):  # type: ignore[no-untyped-def]
    folder.mkdir(exist_ok=True)
    (folder / "mergecast.toml").write_text('[show]\nname = "Demo"\n', encoding="utf-8")
    (folder / "prs.json").write_text(json.dumps(prs), encoding="utf-8")
    made = run_day(folder, "2026-07-24")
    assert made.exit_code == 0, made.output
    with Store(folder / ".mergecast" / "mergecast.db") as store:
        return made.stdout, store.episode("2026-07-24")


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_edited_pr_remakes_the_day_as_if_it_were_new(tmp_path: Path, edit: str) -> None:
    base = [
        pr(900, "Keep reduction partial sums in float32", "2026-07-23T15:00:00Z",
           "2026-07-24T10:00:00Z", "2026-07-24T10:00:00Z"),
        pr(101, "Add a float32 accumulator to the reduction kernels", "2026-07-23T16:00:00Z",
           "2026-07-24T11:00:00Z", login="bo"),
        pr(102, "Round reduction results once at the end", "2026-07-24T09:30:00Z",
           "2026-07-24T11:00:00Z", login="cy"),
    ]
    edited = [*base[:2], {**base[2], **EDITS[edit]}]  # the same updatedAt: only the data moved
    _day(tmp_path / "old", base)
    again, remade = _day(tmp_path / "old", edited)
    _, fresh = _day(tmp_path / "fresh", edited)
    assert again.startswith("published: 2026-07-24"), again  # not "unchanged"
    assert remade is not None and fresh is not None
    assert remade == fresh  # the same episode as a store that only ever saw the edit


def test_an_earlier_day_made_later_is_remembered_when_the_day_is_run_again(
        project: Path) -> None:
    for date in ("2026-07-25", "2026-07-24"):
        assert run_day(project, date).exit_code == 0
    again = run_day(project, "2026-07-25")
    assert again.stdout.startswith("published: 2026-07-25"), again.output
    with Store(project / ".mergecast" / "mergecast.db") as store:
        stored = store.episode("2026-07-25")
    assert stored is not None
    assert "continues from yesterday." in stored.script.transcript


def test_the_llm_server_and_model_are_in_an_llm_episode_s_hash_only(tmp_path: Path) -> None:
    import dataclasses

    from mergecast.config import LLMConfig
    from mergecast.models import Counts, Digest
    from mergecast.sources.forge import LinkPatterns

    cfg = pipeline.load_config(None, tmp_path / "m.db")
    target = targets.daily(day(24).date(), cfg)
    digest = Digest(target.window, Counts(0, 0, 0, 0), (), (), (), (), (), ())

    def key(writer: str, **llm: object) -> str:
        c = dataclasses.replace(cfg, llm=LLMConfig(**llm))  # type: ignore[arg-type]
        return pipeline.source_hash(c, target, digest, c.writing, pipeline.Choices(writer=writer),
                                    LinkPatterns())

    assert key("llm", model="a") != key("llm", model="b")
    assert key("llm", model="a") != key("llm", model="a", base_url="http://127.0.0.1:1/v1")
    assert key("llm", model="a") == key("llm", model="a", timeout=5.0)  # how long we wait
    assert key("template", model="a") == key("template", model="b")


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


@pytest.mark.parametrize("where", ["site", "site/episodes", "link"])
def test_speak_never_writes_into_a_published_site(project: Path, where: str) -> None:
    """Issue 15 item 9: a text-only preview copied over the live site deleted the MP3
    that every enclosure points to."""
    conf = project / "mergecast.toml"
    conf.write_text('[show]\nname = "Demo"\n[voice]\ndeterministic = true\n', encoding="utf-8")
    made = cli("--config", conf, "run", "--gh-json", project / "prs.json", "--repo-name", "o/r",
               "--date", "2026-07-24", "--voice", "piper")
    assert made.exit_code == 0, made.output
    site = project / "site"
    (project / "link").symlink_to(site)
    before = _tree(site)
    assert "episodes/2026-07-24/episode.mp3" in before
    r = cli("--config", conf, "speak", "--date", "2026-07-24", "--voice", "none",
            "--out", project / where)
    assert r.exit_code == 2, r.output
    inside = "" if where != "site/episodes" else "inside "
    assert r.stderr == (
        f"mergecast: cannot copy a preview to {project / where}: it is {inside}the published "
        f"site {site}, which only `run` and `publish` change; pass --out with a folder of its "
        "own, such as ./preview (the site is unchanged)\n")
    assert _tree(site) == before


def test_speak_never_writes_into_the_configured_site_folder(project: Path) -> None:
    """Not published yet, but `run` will publish there: a preview would block it."""
    conf = project / "mergecast.toml"
    conf.write_text('[show]\nname = "Demo"\n[publish]\nout = "www"\n', encoding="utf-8")
    assert cli("--config", conf, "ingest", "--gh-json", project / "prs.json", "--repo-name",
               "o/r").exit_code == 0
    r = cli("--config", conf, "speak", "--date", "2026-07-24", "--voice", "none",
            "--out", project / "www")
    assert r.exit_code == 2 and "is the published site" not in r.stderr
    assert r.stderr == (
        f"mergecast: cannot copy a preview to {project / 'www'}: it is the site folder "
        f"{project / 'www'} ([publish] out), which only `run` and `publish` change; pass --out "
        "with a folder of its own, such as ./preview (the site is unchanged)\n")
    assert not (project / "www").exists()
    preview = cli("--config", conf, "speak", "--date", "2026-07-24", "--voice", "none",
                  "--out", project / "preview")
    assert preview.exit_code == 0, preview.output
    assert (project / "preview/episodes/2026-07-24/transcript.vtt").is_file()
    assert run_day(project, "2026-07-24", "--out", project / "www").exit_code == 0


@pytest.mark.parametrize("command", ["ingest", "run", "publish"])
def test_a_store_inside_the_site_folder_is_refused_before_anything_is_written(
        project: Path, command: str) -> None:
    """A sibling of item 9: the swap replaced the site whole, and the store inside it."""
    assert run_day(project, "2026-07-24").exit_code == 0
    db = project / "site" / "store.db"
    args = {"ingest": ["--gh-json", project / "prs.json", "--repo-name", "o/r"],
            "run": ["--gh-json", project / "prs.json", "--repo-name", "o/r", "--date",
                    "2026-07-24", "--voice", "none"], "publish": []}[command]
    r = cli("--config", project / "mergecast.toml", "--db", db, command, *args)
    assert r.exit_code == 2
    assert r.stderr == (
        f"mergecast: the store {db} is inside the site folder {project / 'site'}, which each "
        "publish replaces whole, so the store and its media would be lost; pass --db (or set "
        "[store] path) outside it\n")
    assert sorted(p.name for p in (project / "site").iterdir() if "store" in p.name) == []


def test_a_render_killed_mid_piper_leaves_nothing_the_next_command_keeps(project: Path) -> None:
    """Issue 15 item 21: SIGKILL during piper left an empty .<key>.<random> folder in media
    that no later run removed."""
    import os
    import signal
    import subprocess
    import sys
    import time

    conf = project / "mergecast.toml"
    assert cli("--config", conf, "ingest", "--gh-json", project / "prs.json", "--repo-name",
               "o/r").exit_code == 0
    media = project / ".mergecast" / "media" / "2026-07-24"
    proc = subprocess.Popen(
        [sys.executable, "-m", "mergecast", "--config", str(conf), "speak", "--date",
         "2026-07-24", "--voice", "piper"], cwd=project, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not (media.is_dir() and any(p.name.startswith(".") for p in media.iterdir())):
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.005)
    os.killpg(proc.pid, signal.SIGKILL)  # our own child's group only
    proc.wait(timeout=30)
    left = [p.name for p in media.iterdir()]
    assert len(left) == 1 and left[0].startswith("."), left  # the killed render's folder
    spoken = cli("--config", conf, "speak", "--date", "2026-07-24", "--voice", "none")
    assert spoken.exit_code == 0, spoken.output
    assert [p.name for p in media.iterdir() if p.name.startswith(".")] == []


# ---- issue 15 wiring: every secret the config names is scrubbed from the first answer on

LLM_KEY = "sk-llmkeyonlythewriterisgiven"


def test_a_github_answer_carrying_the_llm_key_is_scrubbed_before_the_llm_client_exists(
        tmp_path: Path) -> None:
    # GitHub is read before the writer's client is made; the key must be known already
    from sources.github_fake import FakeGitHub, make_pr, serve

    created = dt.datetime(2026, 7, 24, 9, tzinfo=dt.UTC)
    fake = FakeGitHub(prs=[make_pr(101, created, merged=created + dt.timedelta(hours=1),
                                   title=f"Rotate {LLM_KEY} in the CI secrets")])
    for github in serve(fake):
        (tmp_path / "mergecast.toml").write_text(
            f'[github]\napi_url = "{github.url}"\nretries = 0\n'
            '[llm]\nmodel = "m"\napi_key_env = "MC_WRITER_KEY"\n', encoding="utf-8")
        made = CliRunner(env={"MC_WRITER_KEY": LLM_KEY, "GITHUB_TOKEN": "ghp_testtoken"}).invoke(
            main, ["--config", str(tmp_path / "mergecast.toml"), "run", "--github", "o/r",
                   "--date", "2026-07-24", "--voice", "none"], catch_exceptions=False)
        assert made.exit_code == 0, made.output
    # The old site tree and its staging lock are removed by a detached process after `run`
    # returns (publish/swap.py): read the folder once that is done, not while it deletes.
    deadline = time.monotonic() + 30
    while any(".tmp-" in p.name or ".old-" in p.name for p in tmp_path.iterdir()) and \
            time.monotonic() < deadline:
        time.sleep(0.05)
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.name == "index.html" for p in written)
    for part in (LLM_KEY, LLM_KEY[3:11], LLM_KEY[-8:]):
        assert [p for p in written if part.encode() in p.read_bytes()] == []
        assert part not in made.output


def test_when_all_activity_is_in_the_future_latest_says_so(project: Path) -> None:
    # it said "the store holds no activity yet" of a store holding changes
    (project / "prs.json").write_text(json.dumps([
        pr(7, "Fix the parser", "2099-03-01T10:00:00Z", "2099-03-01T11:00:00Z")]))
    made = cli("--config", project / "mergecast.toml", "run", "--gh-json", project / "prs.json",
               "--repo-name", "o/r", "--voice", "none")
    assert (made.exit_code, made.stderr.splitlines()[-1]) == (0, (
        "mergecast: no activity yet: all 1 stored change(s) are dated more than a day after "
        "now, so --date latest has no day to pick; pass --date DAY to make an episode of a "
        "day anyway"))


def test_the_change_a_theme_follows_is_linked_like_the_day_s_own(tmp_path: Path) -> None:
    files = {"files": [{"path": "widget/reduce/accumulator.py", "additions": 40,
                        "deletions": 2}]}
    earlier = {**pr(880, "Add a float32 accumulator to the reduction kernels",
                    "2026-07-20T09:00:00Z", "2026-07-21T10:00:00Z", "2026-07-21T10:00:00Z"),
               **files}
    today = {**pr(905, "Use the float32 accumulator in the strided reduction kernels",
                  "2026-07-23T15:00:00Z", "2026-07-24T10:00:00Z", "2026-07-24T10:00:00Z"),
             **files}
    _, episode = _day(tmp_path, [earlier, today])
    assert episode is not None
    assert "PR 880" in episode.script.transcript, episode.script.transcript
    assert episode.links[880] == "https://github.com/o/r/pull/880"


def test_an_episode_s_hash_holds_the_code_that_writes_it(tmp_path: Path) -> None:
    """An editable install updated by `git pull` keeps its version: with only the version
    in the hash, `run` reused audio and a transcript the older wording wrote."""
    from mergecast.code_id import code_id, tree_id
    from mergecast.models import Counts, Digest
    from mergecast.sources.forge import LinkPatterns

    cfg = pipeline.load_config(None, tmp_path / "m.db")
    target = targets.daily(day(24).date(), cfg)
    digest = Digest(target.window, Counts(0, 0, 0, 0), (), (), (), (), (), ())

    def key(code: str | None = None) -> str:
        return pipeline.source_hash(cfg, target, digest, cfg.writing, pipeline.Choices(),
                                    LinkPatterns(), code=code)

    assert key("a") != key("b") and key() == key(code_id())
    # the id reads code and data files, not compiled caches
    pkg = tmp_path / "pkg"
    (pkg / "data").mkdir(parents=True)
    (pkg / "writer.py").write_text("X = 1\n", encoding="utf-8")
    (pkg / "data" / "phrases.toml").write_text('a = "b"\n', encoding="utf-8")
    before = tree_id(pkg)
    (pkg / "__pycache__").mkdir()
    (pkg / "__pycache__" / "writer.cpython-311.pyc").write_bytes(b"\0")
    assert tree_id(pkg) == before
    (pkg / "data" / "phrases.toml").write_text('a = "c"\n', encoding="utf-8")
    assert tree_id(pkg) != before
