"""Import `gh pr list --json …` exports: one JSON array, or JSON Lines of the same objects.

The whole file is parsed and converted before anything is returned, so a malformed
file imports nothing. Errors name the file, line and column.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import GhJsonError
from ..models import Change, Window
from . import Cursor
from ._github_shapes import ShapeError, change_from_pr

GH_FIELDS = (
    "number,title,author,body,createdAt,updatedAt,mergedAt,closedAt,state,url,labels,"
    "files,additions,deletions,baseRefName,headRefName,isDraft"
)
_FIX = f"re-export it with `gh pr list --state all --json {GH_FIELDS} > FILE`"
_WS = " \t\r\n"


def load_gh_json(path: Path, repo: str | None = None) -> list[Change]:
    """Every PR in a gh export, converted. `repo` None: taken from each record's url."""
    text = _read(path)
    records = list(_records(text, path))  # syntax errors first, before any record's fields
    changes = []
    for index, (pos, record) in enumerate(records, start=1):
        if not isinstance(record, dict):
            raise GhJsonError(
                f"{_where(path, text, pos)}: expected a JSON object for record {index}, "
                f"got {type(record).__name__}; {_FIX}"
            )
        try:
            changes.append(change_from_pr(record, repo))
        except ShapeError as exc:
            raise GhJsonError(f"{_where(path, text, pos)}: record {index}: {exc}; {_FIX}") from exc
    return changes


def _read(path: Path) -> str:
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise GhJsonError(f"{path}: no such file; check the --gh-json path") from exc
    except IsADirectoryError as exc:
        raise GhJsonError(f"{path} is a directory; pass the exported JSON file") from exc
    except OSError as exc:
        raise GhJsonError(f"{path} cannot be read ({exc.strerror}); check its permissions") from exc
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise GhJsonError(
            f"{path} is UTF-16 text, expected UTF-8; convert it "
            "(e.g. `iconv -f UTF-16 -t UTF-8`) or export from a UTF-8 shell"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise GhJsonError(
            f"{path}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            f"{_FIX} from a UTF-8 shell"
        ) from exc
    if not text.strip(_WS):
        raise GhJsonError(f"{path} is empty; expected the JSON array gh prints; {_FIX}")
    return text


def _too_deep(path: Path, text: str, at: int) -> GhJsonError:
    return GhJsonError(
        f"{_where(path, text, at)}: JSON nested too deeply to read (gh never nests more than "
        f"a few levels); {_FIX}"
    )


def _records(text: str, path: Path) -> Iterator[tuple[int, Any]]:
    """(offset, value) for each element of a top-level array, or each concatenated value."""
    decoder = json.JSONDecoder()

    def decode(at: int) -> tuple[Any, int]:
        try:
            return decoder.raw_decode(text, at)
        except json.JSONDecodeError as exc:
            raise GhJsonError(
                f"{path}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg}); {_FIX}"
            ) from exc
        except RecursionError as exc:
            raise _too_deep(path, text, at) from exc

    def expected(at: int, what: str) -> GhJsonError:
        found = repr(text[at]) if at < len(text) else "end of file"
        return GhJsonError(f"{_where(path, text, at)}: expected {what}, got {found}; {_FIX}")

    pos = _skip(text, 0)
    if text[pos] == "[":
        pos = _skip(text, pos + 1)
        if pos < len(text) and text[pos] == "]":
            pos = _skip(text, pos + 1)
        else:
            while True:
                start = pos
                value, pos = decode(pos)
                yield start, value
                pos = _skip(text, pos)
                if pos < len(text) and text[pos] == ",":
                    pos = _skip(text, pos + 1)
                    continue
                if pos < len(text) and text[pos] == "]":
                    pos = _skip(text, pos + 1)
                    break
                raise expected(pos, "',' or ']'")
        if pos < len(text):
            raise expected(pos, "end of file after the array")
        return
    if _one_per_line(text, path, decoder):
        yield from _json_lines(text, path, decoder)
        return
    # pretty-printed objects one after another (e.g. several `gh pr view --json` outputs)
    while pos < len(text):
        start = pos
        value, pos = decode(pos)
        yield start, value
        pos = _skip(text, pos)


def _one_per_line(text: str, path: Path, decoder: json.JSONDecoder) -> bool:
    first = next(line for line in text.split("\n") if line.strip(_WS))
    try:
        _, end = decoder.raw_decode(first, _skip(first, 0))
    except json.JSONDecodeError:
        return False
    except RecursionError as exc:
        raise _too_deep(path, text, _skip(text, 0)) from exc
    return _skip(first, end) == len(first)


def _json_lines(text: str, path: Path, decoder: json.JSONDecoder) -> Iterator[tuple[int, Any]]:
    """JSON Lines: one value per line, so an error names the record's own line."""
    offset = 0
    for lineno, line in enumerate(text.split("\n"), start=1):
        start = _skip(line, 0)
        if start < len(line):
            try:
                value, end = decoder.raw_decode(line, start)
            except json.JSONDecodeError as exc:
                raise GhJsonError(
                    f"{path}:{lineno}:{exc.colno}: not valid JSON ({exc.msg}); {_FIX}"
                ) from exc
            except RecursionError as exc:
                raise _too_deep(path, text, offset + start) from exc
            end = _skip(line, end)
            if end < len(line):
                raise GhJsonError(
                    f"{path}:{lineno}:{end + 1}: expected one JSON object per line, "
                    f"got more after it; {_FIX}"
                )
            yield offset + start, value
        offset += len(line) + 1


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in _WS:
        pos += 1
    return pos


def _where(path: Path, text: str, pos: int) -> str:
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return f"{path}:{line}:{column}"


class GhJsonSource:
    """A gh export, read whole every time (it has no cursor; the store merges repeats).

    The window does not filter it: an export is imported as a whole, so a PR's later
    activity is never lost to the window it was exported for.
    """

    kind = "gh-json"

    def __init__(self, path: Path, repo: str | None = None) -> None:
        self.path = path
        self.repo_name = repo
        self.warnings: list[str] = []
        self._read: list[Change] = []

    @property
    def repo(self) -> str:
        """--repo-name, else the repository of the first record read."""
        return self.repo_name or (self._read[0].repo if self._read else "")

    def cursor(self) -> Cursor | None:
        return None

    def fetch(self, window: Window | None, after: str | None = None) -> list[Change]:
        del window, after  # read whole, see above
        self._read = load_gh_json(self.path, self.repo_name)
        return self._read
