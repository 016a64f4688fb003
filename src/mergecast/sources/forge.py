"""Where a change lives on the web: PR and commit link patterns for GitHub, GitLab,
Gitea and Forgejo, or URL templates of the user's own.

So that every PR and commit an episode names is a link, even from a plain git checkout
with no GitHub remote. The patterns come from `[source]` (`pr_url`/`commit_url`
templates, else `forge` and `web_url`), then from `[source] github`, then from the
checkout's `origin` remote. A remote's user name, password and SSH port never reach a
link. A change that already has a URL (from the GitHub API or a gh export) keeps it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import quote, urlsplit

from ..errors import GitError
from ..models import Change, Forge
from .git import git

_PATHS = {
    Forge.GITHUB: ("/pull/{number}", "/commit/{sha}"),
    Forge.GITLAB: ("/-/merge_requests/{number}", "/-/commit/{sha}"),
    Forge.GITEA: ("/pulls/{number}", "/commit/{sha}"),
    Forge.FORGEJO: ("/pulls/{number}", "/commit/{sha}"),
}
_SCP = re.compile(r"^(?:[^@/\s]+@)?(?P<host>[^:/\s]+):(?!//)(?P<path>[^\s]+)$")  # git@host:o/r


@dataclasses.dataclass(frozen=True)
class LinkPatterns:
    """URL templates: `pr` with {number}, `commit` with {sha}; either may use {repo} (the
    change's owner/name). Empty: no such links."""

    pr: str = ""
    commit: str = ""

    def url_for(self, change: Change) -> str | None:
        """The change's own URL, else its PR page, else its commit page (None: unknown)."""
        if change.url:
            return change.url
        if change.number is not None:
            template, value = self.pr, {"number": str(change.number)}
        elif change.sha:
            template, value = self.commit, {"sha": quote(change.sha, safe="")}
        else:
            return None
        if not template or ("{repo}" in template and change.repo.count("/") != 1):
            return None  # {repo} needs an owner/name, not a folder's name
        return template.format(repo=quote(change.repo, safe="/"), **value)

    def with_urls(self, changes: Iterable[Change]) -> list[Change]:
        """The changes, each with its URL filled in where the patterns know one."""
        return [c if c.url or (url := self.url_for(c)) is None
                else dataclasses.replace(c, url=url) for c in changes]


# Before anything is known about the forge: a change whose repository is an owner/name
# is taken to be on github.com (its gh export or GitHub-remote checkout said so).
GITHUB_BY_SLUG = LinkPatterns("https://github.com/{repo}/pull/{number}",
                              "https://github.com/{repo}/commit/{sha}")


def web_of_remote(remote: str) -> str | None:
    """The web address (https://host/path) of a git remote URL in https, ssh or scp form,
    without credentials, port or `.git`; None for a local path or anything else."""
    remote = remote.strip()
    m = _SCP.match(remote)
    if m and "://" not in remote:
        host, path = m.group("host"), m.group("path")
    else:
        parts = urlsplit(remote)
        if parts.scheme not in ("https", "http", "ssh", "git", "git+ssh") or not parts.hostname:
            return None
        host, path = parts.hostname, parts.path
        if parts.scheme in ("https", "http") and parts.port:
            host = f"{host}:{parts.port}"  # a web port is part of the address; an SSH one is not
    path = path.strip("/").removesuffix(".git").strip("/")
    if not path or not re.fullmatch(r"[\w.~-]+(?:/[\w.~-]+)+", path):
        return None
    return f"https://{host}/{path}"


def forge_of(web: str) -> Forge | None:
    """The forge a web address is on, from its host name; None when the name does not say."""
    host = (urlsplit(web).hostname or "").lower()
    if host == "github.com" or host.startswith("github."):
        return Forge.GITHUB
    if "gitlab" in host:
        return Forge.GITLAB
    if host == "codeberg.org" or "forgejo" in host:
        return Forge.FORGEJO
    if "gitea" in host:
        return Forge.GITEA
    return None


def origin_web(repo: Path) -> str | None:
    """The web address of the checkout's `origin` remote, if it has one that is a forge's."""
    try:
        out = git(repo, "remote", "get-url", "origin")
    except GitError:
        return None
    return web_of_remote(out.stdout) if out.returncode == 0 else None


def link_patterns(*, forge: str = Forge.AUTO, web_url: str = "", pr_url: str = "",
                  commit_url: str = "", github: str = "", origin: str | None = None,
                  ) -> LinkPatterns:
    """The link patterns [source] asks for: its templates first, then `forge` at `web_url`
    (else `github`'s page, else the `origin` remote's web address); `forge` "auto" goes
    by the address's host. With no address at all, "auto" takes an owner/name repository
    to be on github.com; an address on a host it cannot name gets no guessed links."""
    web = web_url or (f"https://github.com/{github}" if github else "") or origin or ""
    kind = forge_of(web) if forge == Forge.AUTO and web else forge
    found = LinkPatterns()
    if kind in _PATHS and web:
        pr, commit = _PATHS[Forge(kind)]
        base = web.rstrip("/").replace("{", "{{").replace("}", "}}")
        found = LinkPatterns(base + pr, base + commit)
    elif forge == Forge.AUTO and not web:
        found = GITHUB_BY_SLUG
    return LinkPatterns(pr_url or found.pr, commit_url or found.commit)
