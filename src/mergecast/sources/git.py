"""Landed commits from one streaming `git log` process.

One `git log -z --raw --numstat -M` per ingest, read in big chunks and split on NUL; never
a process per commit. --raw gives each file's status letter (added, deleted, renamed …)
in the same pass, --numstat its line counts, -M finds renames. Every git call is an
argument list and user-supplied refs go after `--end-of-options`, so a ref can never
become an option.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from ..errors import GitError
from ..models import Change, FileChange, FileStatus, Person, State, Window
from . import Cursor
from ._clean import clean_line, clean_name, clean_text
from .messages import is_bot, login_from_email, parse_message

# Fields of one commit; the record starts with \x1e so `\0\x1e` splits records.
FIELDS = ("%H", "%P", "%aN", "%aE", "%at", "%cN", "%cE", "%ct", "%B")
FORMAT = "%x1e" + "%x00".join(FIELDS)
LOG_ARGS = ("log", "-z", f"--format={FORMAT}", "--no-show-signature")
FILE_ARGS = ("--raw", "--numstat", "-M")  # per-file status, line counts, rename detection
# git's status letters; a copy (C) is a new file. Any other letter is unknown.
STATUS = {b"A": FileStatus.ADDED, b"M": FileStatus.MODIFIED, b"T": FileStatus.MODIFIED,
          b"D": FileStatus.DELETED, b"R": FileStatus.RENAMED, b"C": FileStatus.ADDED}
CHUNK = 1 << 20
MAX_RESTARTS = 50  # numstat restarts after missing blobs before going metadata-only
_REMOTE = re.compile(
    r"^(?:https?://(?:[^@/]+@)?|ssh://(?:[^@/]+@)?|git://|[^@/\s]+@)github\.com[:/]"
    r"([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+?)(?:\.git)?/?$"
)
UTC = dt.UTC
_NEVER_BEFORE = dt.datetime(1970, 1, 1, tzinfo=UTC)
_NEVER_AFTER = dt.datetime.max.replace(microsecond=0, tzinfo=UTC)


def _moment(seconds: bytes) -> dt.datetime:
    """A commit time. Git stores any 64-bit number; a broken clock's year 318857 is kept as
    the last moment Python can hold (the store warns about future times), not a crash."""
    value = int(seconds or 0)
    try:
        return dt.datetime.fromtimestamp(value, UTC)
    except (OverflowError, OSError, ValueError):
        return _NEVER_AFTER if value > 0 else _NEVER_BEFORE


def _env() -> dict[str, str]:
    # C messages (we match "unable to read"); never fetch missing objects or prompt.
    return {**os.environ, "LC_ALL": "C", "GIT_NO_LAZY_FETCH": "1", "GIT_TERMINAL_PROMPT": "0"}


def git(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run one short git command in `path`; GitError when git itself is missing."""
    try:
        return subprocess.run(
            ["git", "-C", str(path), *args], capture_output=True, text=True,
            errors="replace", env=_env(), check=False,
        )
    except FileNotFoundError as exc:
        raise GitError("git not found on PATH; install git or add it to PATH") from exc


def parse_remote_url(url: str) -> str | None:
    """`owner/name` from a github.com remote in https, ssh or scp form."""
    m = _REMOTE.match(url.strip())
    return f"{m.group(1)}/{m.group(2)}" if m else None


def detect_github_slug(path: Path) -> str | None:
    """The GitHub slug of the `origin` remote, if it points at github.com."""
    out = git(path, "remote", "get-url", "origin")
    return parse_remote_url(out.stdout) if out.returncode == 0 else None


def toplevel(path: Path) -> Path | None:
    """The top folder of the git checkout `path` is in; None outside a checkout."""
    out = git(path, "rev-parse", "--show-toplevel")
    return Path(out.stdout.strip()) if out.returncode == 0 else None


@dataclass(frozen=True)
class RepoInfo:
    path: Path
    ref: str  # full ref name (refs/heads/main) or what the user asked for
    tip: str  # the commit the ref points at
    shallow: bool


def open_repo(path: Path, ref: str | None = None) -> RepoInfo:
    """Check `path` is a repository with commits on `ref` (default: its default branch)."""
    if not path.exists():
        raise GitError(f"{path} does not exist; pass --repo with a git checkout")
    probe = git(path, "rev-parse", "--git-dir", "--is-shallow-repository")
    if probe.returncode != 0:
        raise GitError(f"{path} is not a git repository; pass --repo with a git checkout")
    shallow = probe.stdout.split()[-1:] == ["true"]
    if not ref:
        # symbolic-ref reads .git/HEAD itself, so a branch literally named HEAD cannot
        # shadow it the way `git log HEAD` would be shadowed.
        head = git(path, "symbolic-ref", "--quiet", "HEAD")
        name = head.stdout.strip() if head.returncode == 0 else "HEAD"
        tip = _resolve(path, name)
        if tip is None:
            raise GitError(
                f"{path} has no commits yet; commit something first or pass --repo "
                "with a repository that has history"
            )
        return RepoInfo(path, name, tip, shallow)
    check_ref(ref)
    tip = _resolve(path, ref)
    if tip is None:
        if _resolve(path, "HEAD") is None and not git(path, "rev-list", "-n1", "--all").stdout:
            raise GitError(
                f"{path} has no commits yet; commit something first or pass --repo "
                "with a repository that has history"
            )
        raise GitError(
            f"ref {ref!r} not found in {path}; pass --ref with an existing branch, tag or commit"
        )
    return RepoInfo(path, ref, tip, shallow)


_BAD_REF = re.compile(r"^-|[\x00-\x20\x7f]|\.\.|@\{|[\\:?*\[]|\.lock$|/$")


def check_ref(ref: str) -> str:
    """Refuse refs git would read as options or reject (git check-ref-format's rules,
    loosened for revisions like `main~2` and `v1.0^`); GitError names the ref."""
    if not ref or _BAD_REF.search(ref):
        raise GitError(
            f"ref {ref!r} is not a valid git ref (no leading '-', spaces, control characters, "
            "'..', '@{', ':', '?', '*', '[' or '\\'); pass --ref with a branch, tag or commit"
        )
    return ref


def _resolve(path: Path, ref: str) -> str | None:
    out = git(path, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
    return out.stdout.strip() or None if out.returncode == 0 else None


def is_commit(path: Path, sha: str) -> bool:
    return _resolve(path, sha) == sha


def iter_records(stream: IO[bytes], chunk: int = CHUNK) -> Iterator[list[bytes]]:
    """Split a `git log -z` stream (FORMAT, optional --numstat) into per-commit fields."""
    read = getattr(stream, "read1", stream.read)
    buf = b""
    first = True
    while data := read(chunk):
        buf += data
        if first:
            buf = buf[1:] if buf.startswith(b"\x1e") else buf
            first = False
        parts = buf.split(b"\0\x1e")
        buf = parts.pop()
        for part in parts:
            yield part.split(b"\0")
    if buf:
        yield (buf[:-1] if buf.endswith(b"\0") else buf).split(b"\0")


def _path(raw: bytes) -> str:
    return clean_text(raw.decode("utf-8", "replace"))


def parse_numstat(tokens: Iterable[bytes]) -> tuple[FileChange, ...]:
    """Files from a record's `--raw` entries (`:modes blobs STATUS`, then one path, or old
    and new paths for a rename or copy) followed by its `--numstat` entries (`add\tdel\tpath`,
    or `add\tdel\t` then old and new paths); a file with no raw entry has status unknown."""
    toks = list(tokens)
    status: dict[bytes, tuple[FileStatus, bytes | None]] = {}
    files = []
    i = 0
    while i < len(toks):
        tok = toks[i][1:] if toks[i][:1] == b"\n" else toks[i]
        i += 1
        if not tok:
            continue
        if tok[:1] == b":":
            letter = tok.rpartition(b" ")[2][:1]
            if letter in (b"R", b"C"):
                old, path = toks[i:i + 2] if i + 1 < len(toks) else (b"", b"")
                i += 2
            else:
                old, path = b"", toks[i] if i < len(toks) else b""
                i += 1
            status[path] = (STATUS.get(letter, FileStatus.UNKNOWN), old or None)
            continue
        add, dele, path = tok.split(b"\t", 2)
        if not path:  # a rename: old and new path follow
            if i + 1 >= len(toks):
                break  # a record cut short: its last file is left out, not made up
            path = toks[i + 1]
            i += 2
        kind, before = status.get(path, (FileStatus.UNKNOWN, None))
        files.append(FileChange(
            _path(path), int(add) if add != b"-" else None, int(dele) if dele != b"-" else None,
            kind, _path(before) if before is not None and kind is FileStatus.RENAMED else None,
        ))
    return tuple(files)


class GitSource:
    """Reads landed commits of one ref; `read` yields them newest first.

    Its cursor is the ref's tip: a later read asks git only for commits after it.
    """

    kind = "git"

    def __init__(
        self, path: Path, *, slug: str, ref: str | None = None, first_parent: bool = True,
        bots: Iterable[str] = (), numstat: bool = True,
    ) -> None:
        self.path = path
        self.slug = slug
        self.ref = ref
        self.first_parent = first_parent
        self.bots = tuple(bots)
        self.numstat = numstat
        self.warnings: list[str] = []
        self._disagree: list[tuple[str, int, int]] = []  # (sha, subject's PR, body's PR)
        self._info: RepoInfo | None = None
        self._github = "/" in slug

    @property
    def info(self) -> RepoInfo:
        if self._info is None:
            self._info = open_repo(self.path, self.ref)
            if self._info.shallow:
                self.warnings.append(
                    f"{self.path} is a shallow clone; only the commits it holds are read "
                    "(run `git fetch --unshallow` there for the full history)"
                )
        return self._info

    @property
    def repo(self) -> str:
        return self.slug

    def cursor(self) -> Cursor:
        info = self.info
        order = "first-parent" if self.first_parent else "all"
        return Cursor(f"git:{self.slug}:{info.ref}:{order}", info.tip)

    def fetch(self, window: Window | None, after: str | None = None) -> Iterator[Change]:
        """Commits landed in `window` that are newer than commit `after`; all of them when
        `after` is no longer in the history (it was rewritten past it)."""
        tip = self.info.tip
        if after == tip:
            return
        if after is not None and not is_commit(self.path, after):
            after = None
        since, until = (window.since, window.until) if window is not None else (None, None)
        yield from self.read(after=after, since=since, until=until)

    def read(
        self, *, after: str | None = None, since: dt.datetime | None = None,
        until: dt.datetime | None = None,
    ) -> Iterator[Change]:
        """Commits on the ref newer than commit `after`, landed in [since, until)."""
        info = self.info
        lo = since.timestamp() if since else None
        hi = until.timestamp() if until else None
        seen: set[str] = set()
        unknown = 0
        start = info.tip
        restarts = 0
        numstat = self.numstat
        while True:
            proc, errfile = self._spawn(start, after, since, until, numstat)
            last: list[bytes] | None = None
            try:
                assert proc.stdout is not None
                for rec in iter_records(proc.stdout):
                    if last is not None:
                        yield from self._keep(last, lo, hi, seen, files=True)
                    last = rec
                rc = proc.wait()
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
                errfile.seek(0)
                err = errfile.read().decode("utf-8", "replace")
                errfile.close()
            if rc == 0:
                if last is not None:
                    yield from self._keep(last, lo, hi, seen, files=numstat)
                break
            if "unable to read" not in err or not numstat:
                line = err.strip().splitlines()[-1] if err.strip() else f"exit status {rc}"
                raise GitError(f"git log failed in {self.path}: {line}; check the repository")
            # Missing blobs: the commit being diffed keeps its metadata, its files unknown;
            # numstat resumes from its parent, so only the commits git cannot diff lose stats.
            if last is not None and len(last) >= len(FIELDS):
                unknown += 1
                yield from self._keep(last, lo, hi, seen, files=False)
                parents = last[1].split()
                if self.first_parent and parents and restarts < MAX_RESTARTS:
                    start = parents[0].decode("ascii")
                    restarts += 1
                    if start == after:
                        break
                    continue
            numstat = False  # too many gaps, or no commit to resume from: the rest metadata-only
        if self._disagree:
            sha, subject, body = self._disagree[0]
            self.warnings.append(
                f"{len(self._disagree)} commit(s) name another PR in a `Pull Request "
                f"resolved:` line than in their subject (e.g. {sha[:10]}: subject #{subject}, "
                f"body #{body}); the subject's number, which GitHub writes, is used"
            )
            self._disagree = []
        if unknown or (self.numstat and not numstat):
            self.warnings.append(
                f"{self.path} is missing file contents (partial clone or snapshot); file "
                "stats of the commits git could not diff are marked unknown "
                "(run `git fetch --refetch` there to fill them in)"
            )

    def _spawn(
        self, start: str, after: str | None, since: dt.datetime | None,
        until: dt.datetime | None, numstat: bool,
    ) -> tuple[subprocess.Popen[bytes], IO[bytes]]:
        args = ["git", "-C", str(self.path), *LOG_ARGS]
        if numstat:
            args += FILE_ARGS
        if self.first_parent:
            args.append("--first-parent")
        if since:
            args.append(f"--since=@{int(since.timestamp())}")
        if until:
            args.append(f"--until=@{int(until.timestamp()) + 1}")
        args += ["--end-of-options", start]
        if after:
            args.append(f"^{after}")
        # stderr to a file: a chatty git can never fill a pipe we are not reading.
        errfile = tempfile.TemporaryFile()
        try:
            proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=errfile, env=_env())
        except FileNotFoundError as exc:
            errfile.close()
            raise GitError("git not found on PATH; install git or add it to PATH") from exc
        return proc, errfile

    def _keep(
        self, rec: list[bytes], lo: float | None, hi: float | None, seen: set[str], files: bool
    ) -> Iterator[Change]:
        if len(rec) < len(FIELDS):
            return
        sha = rec[0].decode("ascii", "replace")
        if sha in seen:
            return
        seen.add(sha)
        landed = int(rec[7] or 0)
        if (lo is not None and landed < lo) or (hi is not None and landed >= hi):
            return
        yield self.change(rec, files)

    def change(self, rec: list[bytes], files: bool = True) -> Change:
        """One `Change` from one record of `iter_records`."""
        sha = rec[0].decode("ascii", "replace")
        message = clean_text(rec[8].decode("utf-8", "replace"))
        msg = parse_message(message, self.slug if self._github else None)
        if msg.number is not None and msg.body_number is not None:
            self._disagree.append((sha, msg.number, msg.body_number))
        email = clean_line(rec[3].decode("utf-8", "replace")) or None
        author = Person(
            login=login_from_email(email),
            name=clean_name(rec[2].decode("utf-8", "replace")) or None, email=email,
        )
        fc = parse_numstat(rec[9:]) if files else None
        adds = dels = None
        if fc is not None:
            adds = sum(f.additions or 0 for f in fc)
            dels = sum(f.deletions or 0 for f in fc)
        url = None
        if self._github:
            base = f"https://github.com/{self.slug}"
            url = f"{base}/pull/{msg.number}" if msg.number is not None else f"{base}/commit/{sha}"
        title = msg.title
        if msg.number is not None and title.endswith(f" (#{msg.number})"):
            title = title[: -len(f" (#{msg.number})")]  # as the PR itself is titled
        return Change(
            repo=self.slug, title=title, number=msg.number, shas=(sha,), body=msg.body,
            author=author, co_authors=msg.co_authors,
            landed_at=_moment(rec[7]), state=State.LANDED,
            files=fc, changed_files=len(fc) if fc is not None else None, additions=adds,
            deletions=dels, url=url, trailers=msg.trailers, revert=msg.revert,
            reland=msg.reland, bot=is_bot(author, self.bots),
        )
