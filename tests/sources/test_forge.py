"""Link patterns: every PR and commit of an episode is a link, whatever forge hosts it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gitrepo import Commit, day
from mergecast import config
from mergecast.cli import main
from mergecast.errors import ConfigError
from mergecast.models import Change
from mergecast.sources.forge import GITHUB_BY_SLUG, LinkPatterns, link_patterns, web_of_remote

PR = Change(repo="proj", title="t", number=12)
COMMIT = Change(repo="proj", title="t", shas=("abc123",))


@pytest.mark.parametrize(("remote", "web"), [
    ("git@gitlab.com:group/sub/proj.git", "https://gitlab.com/group/sub/proj"),
    ("https://user:s3cret@codeberg.org/ada/proj.git", "https://codeberg.org/ada/proj"),
    ("ssh://git@git.example.com:2222/team/proj.git", "https://git.example.com/team/proj"),
    ("https://gitea.example.com:3000/team/proj/", "https://gitea.example.com:3000/team/proj"),
    ("/srv/git/proj.git", None),
    ("file:///srv/git/proj.git", None),
    ("git@host:", None),
])
def test_web_address_of_a_remote_never_keeps_credentials(remote, web):
    assert web_of_remote(remote) == web


def test_each_forge_has_its_paths_and_auto_goes_by_the_host():
    cases = {
        "https://gitlab.example.com/g/p": ("https://gitlab.example.com/g/p/-/merge_requests/12",
                                           "https://gitlab.example.com/g/p/-/commit/abc123"),
        "https://codeberg.org/a/p": ("https://codeberg.org/a/p/pulls/12",
                                     "https://codeberg.org/a/p/commit/abc123"),
        "https://gitea.example.com/a/p": ("https://gitea.example.com/a/p/pulls/12",
                                          "https://gitea.example.com/a/p/commit/abc123"),
        "https://github.com/o/r": ("https://github.com/o/r/pull/12",
                                   "https://github.com/o/r/commit/abc123"),
    }
    for origin, (pr, commit) in cases.items():
        links = link_patterns(origin=origin)
        assert (links.url_for(PR), links.url_for(COMMIT)) == (pr, commit), origin


def test_config_comes_before_the_remote_and_templates_before_the_forge():
    links = link_patterns(forge="gitlab", web_url="https://git.corp.example/g/p",
                          origin="https://github.com/o/r")
    assert links.url_for(PR) == "https://git.corp.example/g/p/-/merge_requests/12"
    custom = link_patterns(pr_url="https://review.example.com/{repo}/c/{number}",
                           commit_url="https://cgit.example.com/p/commit/?id={sha}",
                           origin="https://gitlab.com/g/p")
    assert custom.url_for(COMMIT) == "https://cgit.example.com/p/commit/?id=abc123"
    assert custom.url_for(PR) is None  # {repo} needs an owner/name, and "proj" is not one
    slug = Change(repo="g/p", title="t", number=3)
    assert custom.url_for(slug) == "https://review.example.com/g/p/c/3"
    assert link_patterns(github="o/r").url_for(PR) == "https://github.com/o/r/pull/12"


def test_an_unknown_host_gets_no_guessed_links_and_none_keeps_only_templates():
    assert link_patterns(origin="https://git.example.com/a/b") == LinkPatterns()
    assert link_patterns(forge="none", origin="https://gitlab.com/g/p") == LinkPatterns()
    assert link_patterns() == GITHUB_BY_SLUG  # nothing known: owner/name is on github.com
    assert GITHUB_BY_SLUG.url_for(PR) is None
    own = Change(repo="proj", title="t", number=1, url="https://example.org/1")
    assert link_patterns(origin="https://gitlab.com/g/p").url_for(own) == "https://example.org/1"


@pytest.mark.parametrize(("key", "value", "expected"), [
    ("pr_url", "https://x.example/{sha}",
     "an http(s) URL template with {number} (and optionally {repo})"),
    ("pr_url", "https://x.example/{number", "an http(s) URL template with {number} (and "
     "optionally {repo})"),
    ("commit_url", "ftp://x.example/{sha}", "an http(s) URL template with {sha} (and "
     "optionally {repo})"),
    ("web_url", "gitlab.com/g/p", "an http:// or https:// URL"),
    ("forge", "bitbucket", "one of 'auto', 'github', 'gitlab', 'gitea', 'forgejo', 'none'"),
])
def test_bad_link_settings_are_one_clear_config_error(key, value, expected):
    with pytest.raises(ConfigError) as err:
        config.parse({"source": {key: value}})
    assert str(err.value) == f"expected {expected}, got string {value!r} in mergecast.toml " \
                             f"[source] {key}"


HISTORY = [
    Commit("[dynamo] Fix guard on dict keys (!41)\n\nGuards were dropped.", day(24, 8),
           {"torch/_dynamo/g.py": b"g\n"}),
    Commit("[dynamo] Trace ChainMap as ordered (#42)\n\nOrder was lost.", day(24, 9),
           {"torch/_dynamo/s.py": b"s\n"}),
    Commit("Tidy the README", day(24, 10), {"README.md": b"r\n"}),
]


def cli(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_a_gitlab_checkout_links_every_pr_and_commit(make_repo, tmp_path: Path):
    repo = make_repo(HISTORY, origin="git@gitlab.com:team/proj.git")
    conf = tmp_path / "mergecast.toml"
    conf.write_text(f'[show]\nname = "Demo"\n[source]\nrepo = "{repo}"\n', encoding="utf-8")
    r = cli("--config", conf, "run", "--date", "2026-07-24", "--voice", "none")
    assert r.exit_code == 0, r.output
    episode = json.loads((tmp_path / "site/episodes/2026-07-24/episode.json").read_text())
    assert episode["links"] == {"42": "https://gitlab.com/team/proj/-/merge_requests/42"}
    page = (tmp_path / "site/episodes/2026-07-24/index.html").read_text(encoding="utf-8")
    assert 'href="https://gitlab.com/team/proj/-/merge_requests/42"' in page
    changes = json.loads(cli("--config", conf, "changes", "--date", "2026-07-24",
                             "--json").stdout)
    assert all(c["url"] for c in changes)
    assert {c["url"].rsplit("/", 1)[0] for c in changes if c["number"] is None} == {
        "https://gitlab.com/team/proj/-/commit"}


def test_a_plain_checkout_with_templates_links_its_commits(make_repo, tmp_path: Path):
    repo = make_repo(HISTORY)  # no remote at all
    conf = tmp_path / "mergecast.toml"
    conf.write_text(f'[source]\nrepo = "{repo}"\npr_url = "https://r.example/p/{{number}}"\n'
                    'commit_url = "https://c.example/p/{sha}"\n', encoding="utf-8")
    assert cli("--config", conf, "ingest").exit_code == 0
    changes = json.loads(cli("--config", conf, "changes", "--date", "2026-07-24", "--json").stdout)
    assert sorted((c["number"] or 0, c["url"]) for c in changes) == sorted(
        [(0, f"https://c.example/p/{c['sha']}") for c in changes if c["number"] is None]
        + [(42, "https://r.example/p/42")])
    assert len(changes) == 3
