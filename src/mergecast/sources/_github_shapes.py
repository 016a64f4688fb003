"""GitHub pull-request records → models.Change.

One converter serves both `gh pr list --json …` exports and GraphQL search nodes: they
share GitHub's camelCase field names and differ only in how lists come (`[…]` in gh,
`{"nodes": […]}` in GraphQL) and how a bot author is marked (`is_bot` vs `__typename`).
The unauthenticated REST search API has its own snake_case shape (`change_from_search_item`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..dates import as_utc
from ..models import Change, FileChange, FileStatus, Person, State
from ._clean import clean_line, clean_login, clean_slug, clean_text

GRAPHITE_MARK = "This stack of pull requests is managed by Graphite"
# GraphQL's PatchStatus as a file status; COPIED is a new file, CHANGED a changed file type.
# Any other value (a server's new or garbled one) is unknown, never an error.
CHANGE_TYPES = {"ADDED": FileStatus.ADDED, "COPIED": FileStatus.ADDED,
                "MODIFIED": FileStatus.MODIFIED, "CHANGED": FileStatus.MODIFIED,
                "DELETED": FileStatus.DELETED, "RENAMED": FileStatus.RENAMED}
GH_FILES_CAP = 100  # gh and our GraphQL query list at most the first 100 files
# GitHub's GraphQL Int is 32-bit: no PR number or count is larger (the store's integer
# columns would overflow at 2**63, and a number that long is no one's PR).
INT_LIMIT = 2**31

_URL_REPO = re.compile(r"^https?://[^/\s]+/([^/\s]+/[^/\s]+)/pull/\d+")
_STATES = {"OPEN": State.OPEN, "MERGED": State.MERGED, "CLOSED": State.CLOSED}


class ShapeError(ValueError):
    """A record has a field of the wrong type; the caller adds where it was."""


def repo_from_url(url: str | None) -> str | None:
    """'https://github.com/o/r/pull/5' -> 'o/r'; cleaned like every untrusted field, and
    None unless a plain OWNER/NAME is left."""
    m = _URL_REPO.match(clean_line(url or ""))
    return clean_slug(m.group(1)) if m else None


def change_from_pr(rec: Mapping[str, Any], repo: str | None = None) -> Change:
    """Convert one gh-export object or GraphQL PullRequest node.

    `repo` None: taken from the record's url. Raises ShapeError naming the bad field.
    """
    number = _number(rec.get("number"))
    title = rec.get("title")
    if not isinstance(title, str):
        raise ShapeError(f"expected a string title, got {_show(title)} in PR #{number}")
    url = _line(rec, "url", number)
    slug = repo or repo_from_url(url)
    if not slug:
        raise ShapeError(
            f"PR #{number} has no url of the form https://github.com/OWNER/NAME/pull/N "
            "to take the repository from; pass --repo-name OWNER/NAME or set [source] github"
        )
    merged_at = _time(rec, "mergedAt", number)
    state_raw = _opt_str(rec, "state", number)
    state = _STATES.get((state_raw or "OPEN").upper())
    if state is None:
        raise ShapeError(
            f"expected state OPEN, MERGED or CLOSED, got {state_raw!r} in PR #{number}"
        )
    if merged_at is not None:
        state = State.MERGED
    login, bot = _author(rec.get("author"), number)
    files, truncated, changed = _files(rec, number)
    return Change(
        repo=slug,
        title=clean_line(title),
        number=number,
        body=clean_text(_opt_str(rec, "body", number) or ""),
        author=Person(login=clean_login(login)),
        created_at=_time(rec, "createdAt", number),
        updated_at=_time(rec, "updatedAt", number),
        merged_at=merged_at,
        closed_at=_time(rec, "closedAt", number),
        state=state,
        draft=_flag(rec, "isDraft", number),
        labels=tuple(_names(rec.get("labels"), "labels", number)),
        files=files,
        files_truncated=truncated,
        changed_files=changed,
        additions=_opt_int(rec, "additions", number),
        deletions=_opt_int(rec, "deletions", number),
        base_ref=_line(rec, "baseRefName", number),
        head_ref=_line(rec, "headRefName", number),
        url=url,
        bot=bot,
        stack_comment=_stack_comment(rec.get("comments")),
        author_association=_association(rec.get("authorAssociation")),
    )


def change_from_search_item(item: Mapping[str, Any], repo: str) -> Change:
    """Convert one REST /search/issues item (used without a token: no files or sizes)."""
    number = _number(item.get("number"))
    title = item.get("title")
    if not isinstance(title, str):
        raise ShapeError(f"expected a string title, got {_show(title)} in PR #{number}")
    pr = _mapping(item.get("pull_request"))
    merged_at = _time(pr, "merged_at", number)
    closed_at = _time(item, "closed_at", number)
    user = _mapping(item.get("user"))
    login = user.get("login") if isinstance(user.get("login"), str) else None
    state = State.MERGED if merged_at else State.CLOSED if closed_at else State.OPEN
    return Change(
        repo=repo,
        title=clean_line(title),
        number=number,
        body=clean_text(_opt_str(item, "body", number) or ""),
        author=Person(login=clean_login(login)),
        created_at=_time(item, "created_at", number),
        updated_at=_time(item, "updated_at", number),
        merged_at=merged_at,
        closed_at=closed_at,
        state=state,
        draft=_flag(item, "draft", number),
        labels=tuple(_names(item.get("labels"), "labels", number)),
        url=_line(item, "html_url", number),
        bot=bool(login and login.endswith("[bot]")) or user.get("type") == "Bot",
        author_association=_association(item.get("author_association")),
    )


# --------------------------------------------------------------------------- helpers


def _show(value: Any) -> str:
    if value is None:
        return "nothing"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _nodes(value: Any, field: str, number: int) -> Sequence[Any]:
    if value is None:
        return ()
    if isinstance(value, Mapping):
        value = value.get("nodes") or ()
    if not isinstance(value, list | tuple):
        raise ShapeError(f"expected a list of {field}, got {_show(value)} in PR #{number}")
    return [v for v in value if v is not None]


def _names(value: Any, field: str, number: int) -> list[str]:
    out = []
    for item in _nodes(value, field, number):
        name = item.get("name") if isinstance(item, Mapping) else item
        if not isinstance(name, str):
            raise ShapeError(
                f"expected {field} with a string name, got {_show(item)} in PR #{number}"
            )
        if cleaned := clean_line(name):
            out.append(cleaned)
    return out


def _association(value: Any) -> str | None:
    """GitHub's author association (MEMBER, FIRST_TIME_CONTRIBUTOR, …); anything else is
    unknown, never an error: an export without it is still a good export."""
    if isinstance(value, str) and re.fullmatch(r"[A-Z_]{2,40}", value):
        return value
    return None


def _number(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ShapeError(f"expected an integer number, got {_show(value)}")
    if not 0 < value < INT_LIMIT:
        raise ShapeError(f"expected a PR number from 1 to {INT_LIMIT - 1}, got {_show(value)}")
    return value


def _opt_str(rec: Mapping[str, Any], key: str, number: int) -> str | None:
    value = rec.get(key)
    if value is None or isinstance(value, str):
        return value
    raise ShapeError(f"expected a string {key}, got {_show(value)} in PR #{number}")


def _line(rec: Mapping[str, Any], key: str, number: int) -> str | None:
    """A one-line string field (url, branch name), cleaned; None when absent or empty."""
    value = _opt_str(rec, key, number)
    return (clean_line(value) or None) if value is not None else None


def _opt_int(rec: Mapping[str, Any], key: str, number: int) -> int | None:
    value = rec.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ShapeError(f"expected an integer {key}, got {_show(value)} in PR #{number}")
    if not 0 <= value < INT_LIMIT:
        raise ShapeError(
            f"expected {key} from 0 to {INT_LIMIT - 1}, got {_show(value)} in PR #{number}"
        )
    return value


def _flag(rec: Mapping[str, Any], key: str, number: int) -> bool:
    value = rec.get(key)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ShapeError(f"expected true or false for {key}, got {_show(value)} in PR #{number}")
    return value


def _time(rec: Mapping[str, Any], key: str, number: int) -> dt.datetime | None:
    value = rec.get(key)
    if value is None or value == "":
        return None
    # gh prints the zero time for "never" in some versions
    if isinstance(value, str) and value.startswith("0001-01-01"):
        return None
    try:
        moment = dt.datetime.fromisoformat(value) if isinstance(value, str) else None
        if moment is not None and moment.tzinfo is not None:
            moment.astimezone(dt.UTC)  # 9999-12-31T23:00-14:00 is past the last UTC year
    except (ValueError, OverflowError):
        moment = None
    if moment is None or moment.year < 1970:
        raise ShapeError(
            f"expected an ISO time such as 2026-08-03T13:00:00Z for {key}, "
            f"got {_show(value)} in PR #{number}"
        )
    return as_utc(moment)


def _author(value: Any, number: int) -> tuple[str | None, bool]:
    if value is None:
        return None, False  # deleted account ("ghost")
    if not isinstance(value, Mapping):
        raise ShapeError(f"expected an author object, got {_show(value)} in PR #{number}")
    login = value.get("login")
    if login is not None and not isinstance(login, str):
        raise ShapeError(f"expected a string author login, got {_show(login)} in PR #{number}")
    bot = bool(login and login.endswith("[bot]"))
    bot = bot or value.get("is_bot") is True or value.get("__typename") == "Bot"
    return login or None, bot


def _files(
    rec: Mapping[str, Any], number: int
) -> tuple[tuple[FileChange, ...] | None, bool, int | None]:
    raw = rec.get("files")
    changed = _opt_int(rec, "changedFiles", number)
    if raw is None:
        return None, False, changed
    more = False
    if isinstance(raw, Mapping):
        total = raw.get("totalCount")
        if changed is None and isinstance(total, int) and not isinstance(total, bool):
            changed = total
        page = raw.get("pageInfo")
        more = isinstance(page, Mapping) and page.get("hasNextPage") is True
    files = []
    for item in _nodes(raw, "files", number):
        if not isinstance(item, Mapping) or not isinstance(item.get("path"), str):
            raise ShapeError(
                f"expected files with a string path, got {_show(item)} in PR #{number}"
            )
        files.append(
            FileChange(
                path=clean_text(item["path"]),
                additions=_opt_int(item, "additions", number),
                deletions=_opt_int(item, "deletions", number),
                status=CHANGE_TYPES.get(str(item.get("changeType")), FileStatus.UNKNOWN),
            )
        )
    if changed is not None:
        truncated = more or changed > len(files)
    else:
        # gh lists only the first 100 files and does not say whether there were more
        truncated = more or len(files) >= GH_FILES_CAP
    return tuple(files), truncated, changed


def _stack_comment(value: Any) -> str | None:
    if not isinstance(value, Mapping | list):
        return None
    for item in _nodes(value, "comments", 0):
        body = item.get("body") if isinstance(item, Mapping) else None
        if isinstance(body, str) and GRAPHITE_MARK in body:
            return clean_text(body)
    return None
