"""`mergecast run`, `backfill` and `doctor` end to end on real git repositories."""

import hashlib
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from gitrepo import Commit, day
from mergecast.cli import main

KOVACS = ("Kit Kovacs", "101+kovacs47@users.noreply.github.com")
MARISOL = ("Mari Sol", "202+marisol31@users.noreply.github.com")


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def history(extra=()):
    stack = [
        Commit(f"[vulkan] Vulkan reduction shaders ({i}/4) (#{n})\n\nReplace the generic reduction "
               f"with a hand-written Vulkan shader for part {i}.\n\n"
               f"Pull Request resolved: https://github.com/o/r/pull/{n}",
               day(24, 8 + i), {f"aten/vulkan/reduce{i}.glsl": b"shader\n" * (10 * i)}, author=MARISOL)
        for i, n in enumerate((301, 302, 303, 304), 1)
    ]
    return [
        Commit("[dynamo] Fix guard on dict keys (#290)\n\nGuards on dict keys were dropped when "
               "the dict was mutated inside the graph.", day(23, 9), {"torch/_dynamo/g.py": b"g\n"},
               author=KOVACS),
        *stack,
        Commit("Fix a typo in the README (#305)", day(24, 11), {"README.md": b"typo\n"},
               author=KOVACS),
        Commit("[dynamo] Trace ChainMap as ordered (#306)\n\nChainMap was traced as a plain "
               "dict and lost lookup order.", day(25, 9), {"torch/_dynamo/s.py": b"s\n"},
               author=KOVACS),
        *extra,
    ]


def tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def project(tmp_path):
    (tmp_path / "mergecast.toml").write_text(
        '[show]\nname = "Demo"\nbase_url = "https://example.org/cast/"\n'
        '[voice]\ndeterministic = true\n', encoding="utf-8")
    return tmp_path


def test_run_twice_is_byte_identical_and_new_input_replaces_the_episode(make_repo, project):
    repo = make_repo(history(), origin="https://github.com/o/r.git")
    conf, site = project / "mergecast.toml", project / "site"
    first = cli("--config", conf, "run", "--repo", repo, "--date", "2026-07-24")
    assert first.exit_code == 0, first.output
    for stage in ("ingest", "digest", "script", "speak", "publish"):
        assert f"  {stage} " in first.stderr
    assert first.stdout.splitlines()[0].startswith("published: 2026-07-24 — ")
    assert f"page: {site}/episodes/2026-07-24/index.html" in first.stdout
    assert "url:  https://example.org/cast/episodes/2026-07-24/" in first.stdout
    before = tree(site)
    assert "episodes/2026-07-24/episode.mp3" in before

    second = cli("--config", conf, "run", "--repo", repo, "--date", "2026-07-24")
    assert second.exit_code == 0, second.output
    assert second.stdout.startswith("unchanged: 2026-07-24")
    assert tree(site) == before

    episode = json.loads((site / "episodes/2026-07-24/episode.json").read_text())
    assert 301 in {n for s in episode["sections"] for n in s["cites"]}
    guid = _guids(site / "feed.xml")

    late = Commit("[vulkan] Vulkan cumsum shader (#307)\n\nCumsum moves off the generic path too.",
                  day(24, 12), {"aten/vulkan/cumsum.glsl": b"k\n"}, author=MARISOL)
    repo2 = make_repo(history([late]), name="repo-late", origin="https://github.com/o/r.git")
    third = cli("--config", conf, "run", "--repo", repo2, "--date", "2026-07-24")
    assert third.exit_code == 0, third.output
    assert third.stdout.startswith("published: 2026-07-24")
    assert _guids(site / "feed.xml") == guid  # one item for the day, same GUID
    again = json.loads((site / "episodes/2026-07-24/episode.json").read_text())
    assert again["duration_seconds"] > 0
    assert again["audio_bytes"] == (site / "episodes/2026-07-24/episode.mp3").stat().st_size


def _guids(feed: Path) -> list[str]:
    root = ET.parse(feed).getroot()
    return [item.findtext("guid") for item in root.iter("item")]


def test_latest_picks_the_newest_active_day(make_repo, project):
    repo = make_repo(history(), origin="https://github.com/o/r.git")
    r = cli("--config", project / "mergecast.toml", "run", "--repo", repo, "--date", "latest",
            "--voice", "none")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("published: 2026-07-25")
    assert not (project / "site/episodes/2026-07-25/episode.mp3").exists()
    assert (project / "site/episodes/2026-07-25/index.html").is_file()


def test_a_quiet_day_makes_no_episode_and_exits_zero(make_repo, project):
    repo = make_repo(history(), origin="https://github.com/o/r.git")
    r = cli("--config", project / "mergecast.toml", "run", "--repo", repo, "--date", "2026-07-20",
            "--voice", "none")
    assert r.exit_code == 0
    assert r.stderr.splitlines()[-1] == (
        "mergecast: no activity between 2026-07-19T13:00:00+00:00 and 2026-07-20T13:00:00+00:00; "
        "no episode made (pass --allow-empty to make one anyway)")
    assert not (project / "site").exists()


def test_not_a_repository_is_one_line_and_exit_2(project):
    r = cli("--config", project / "mergecast.toml", "run", "--repo", project, "--date",
            "2026-07-24")
    assert r.exit_code == 2
    assert len(r.stderr.splitlines()) == 1
    assert str(project) in r.stderr and "not a git repository" in r.stderr


def test_backfill_makes_active_days_in_parallel_and_resumes(make_repo, project):
    repo = make_repo(history(), origin="https://github.com/o/r.git")
    conf = project / "mergecast.toml"
    r = cli("--config", conf, "backfill", "--from", "2026-07-22", "--to", "2026-07-26",
            "--jobs", "2", "--voice", "none", "--repo", repo)
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines() == [
        "made 3 episode(s), skipped 0 already done, 2 quiet day(s) without an episode",
        "made: 2026-07-23, 2026-07-24, 2026-07-25",
        "quiet (no activity): 2026-07-22, 2026-07-26"]
    site = project / "site"
    assert sorted(p.name for p in (site / "episodes").iterdir()) == [
        "2026-07-23", "2026-07-24", "2026-07-25"]
    items = ET.parse(site / "feed.xml").getroot().findall("./channel/item")
    assert [i.findtext("guid") for i in items] == sorted(
        (i.findtext("guid") for i in items), reverse=True) or len(items) == 3
    before = tree(site)
    again = cli("--config", conf, "backfill", "--from", "2026-07-22", "--to", "2026-07-26",
                "--voice", "none", "--repo", repo)
    assert again.stdout.splitlines() == [
        "made 0 episode(s), skipped 3 already done, 2 quiet day(s) without an episode",
        "quiet (no activity): 2026-07-22, 2026-07-26"]
    assert tree(site) == before


def test_backfill_rejects_a_reversed_range(project):
    r = cli("--config", project / "mergecast.toml", "backfill", "--from", "2026-07-26", "--to",
            "2026-07-22")
    assert r.exit_code == 2
    assert r.stderr == "mergecast: expected --to on or after --from, got 2026-07-26 .. 2026-07-22\n"


def test_doctor_reports_each_check(project, make_repo):
    repo = make_repo(history())
    (project / "mergecast.toml").write_text(f'[source]\nrepo = "{repo}"\n', encoding="utf-8")
    r = cli("--config", project / "mergecast.toml", "doctor")
    lines = r.stdout.splitlines()
    names = [line[6:].split()[0] for line in lines if line.startswith("[")]
    assert names == ["config", "git", "voice", "espeak-ng", "database", "output", "token"]
    assert f"[ok ] git        {repo} is a git repository" in lines
    assert r.exit_code == 0 and lines[-1] == "All good."


def test_doctor_fails_on_a_configured_path_that_is_not_a_repo(project):
    (project / "mergecast.toml").write_text('[source]\nrepo = "nope"\n', encoding="utf-8")
    r = cli("--config", project / "mergecast.toml", "doctor")
    assert r.exit_code == 1
    assert f"[FAIL] git        {project / 'nope'} is not a git repository" in r.stdout
    assert "       fix: set [source] repo in mergecast.toml or pass --repo PATH" in r.stdout


def test_weekly_recap_links_its_dailies_and_has_its_own_feed(make_repo, project):
    repo = make_repo(history(), origin="https://github.com/o/r.git")
    conf = project / "mergecast.toml"
    assert cli("--config", conf, "backfill", "--from", "2026-07-20", "--to", "2026-07-26",
               "--voice", "none", "--repo", repo).exit_code == 0
    r = cli("--config", conf, "weekly", "--week", "2026-W30", "--voice", "none")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("published: 2026-W30 — Weekly Recap - ")
    site = project / "site"
    page = (site / "episodes/2026-W30/index.html").read_text(encoding="utf-8")
    for daily in ("2026-07-23", "2026-07-24", "2026-07-25"):
        assert f'href="../{daily}/index.html"' in page
    weekly_items = ET.parse(site / "weekly/feed.xml").getroot().findall("./channel/item")
    assert [i.findtext("title") for i in weekly_items][0].startswith("Weekly Recap - ")
    assert len(weekly_items) == 1
    assert len(ET.parse(site / "feed.xml").getroot().findall("./channel/item")) == 4
    script = json.loads((site / "episodes/2026-W30/episode.json").read_text())
    assert "weekly recap" in script["sections"][0]["text"].lower()
    # A stack that spanned the week is told once.
    cites = [n for s in script["sections"] for n in s["cites"] if n in (301, 302, 303, 304)]
    assert cites and len([s for s in script["sections"] if 301 in s["cites"]]) == 1
    daily = (site / "episodes/2026-07-24/index.html").read_text(encoding="utf-8")
    assert 'href="../2026-W30/index.html"' in daily  # listed among nearby episodes


def test_weekly_rejects_a_bad_week(project):
    r = cli("--config", project / "mergecast.toml", "weekly", "--week", "2026-30")
    assert r.exit_code == 2
    assert r.stderr == "mergecast: expected an ISO week such as 2026-W30, got '2026-30' for --week\n"


def test_episode_json_accounts_for_every_change_of_the_window(make_repo, project):
    repo = make_repo(history(), origin="https://github.com/o/r.git")
    r = cli("--config", project / "mergecast.toml", "run", "--repo", repo, "--date",
            "2026-07-24", "--voice", "none")
    assert r.exit_code == 0, r.output
    data = json.loads((project / "site/episodes/2026-07-24/episode.json").read_text())
    cited = {n for s in data["sections"] for n in s["cites"]}
    coverage = data["coverage"]
    ledger = coverage["ledger"]
    assert sorted(e["number"] for e in ledger) == [301, 302, 303, 304, 305]
    told = sum(1 for e in ledger if e["told"])
    assert coverage["text"] == f"5 changes: {told} told, {5 - told} listed"
    assert (coverage["changes"], coverage["told"]) == (5, told)
    for e in ledger:
        assert e["told"] == (e["number"] in cited)
        assert e["url"] == f"https://github.com/o/r/pull/{e['number']}"
        assert e["group"] and e["credit"] == "author"
    assert {e["author"] for e in ledger if e["number"] != 305} == {"marisol31"}
    assert data["duplicates"] == [] and data["chains"] == []
