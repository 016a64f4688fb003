"""What the terminal shows: plain-text and Markdown scripts, changes as lines or JSON.

Every string here may come from a PR (titles, handles), so control characters, which
would be escape sequences to a terminal, are blanked; Markdown also gets its markup
characters escaped.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from ..codec import to_dict
from ..dates import spoken_date
from ..models import Change, Script, Window


def printable(text: str) -> str:
    """Untrusted text for a terminal: control characters (escape sequences) become spaces."""
    return "".join(ch if ch >= " " and not "\x7f" <= ch <= "\x9f" else " " for ch in text)


def printable_block(text: str) -> str:
    return "\n".join(printable(line) for line in text.split("\n"))


def script_text(script: Script) -> str:
    lines = [printable(f"{script.show}: {script.title}"), printable(script.summary), ""]
    for section in script.sections:
        lines += [printable(section.heading), printable(section.text), ""]
    lines.append(f"({script.words} spoken words, writer: {script.writer})")
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    """Untrusted text in Markdown: escape what would become markup or HTML."""
    return re.sub(r"([\\`*_{}\[\]<>()#+!|~])", r"\\\1", printable(text))


def script_markdown(script: Script) -> str:
    lines = [f"# {_md(script.title)}", "", f"*{_md(spoken_date(script.date))}* — "
             f"{_md(script.summary)}", ""]
    for section in script.sections:
        lines += [f"## {_md(section.heading)}", "", _md(section.text), ""]
    return "\n".join(lines)


def change_line(change: Change, window: Window, tz: dt.tzinfo) -> str:
    """`mergecast changes`: local time, #number or short SHA, state, author, title, size."""
    when = max(t for t in change.times() if window.contains(t)).astimezone(tz)
    ident = f"#{change.number}" if change.number is not None else (change.sha or "")[:10]
    size = ""
    if change.files is not None:
        size = f"  (+{change.additions or 0} -{change.deletions or 0}, {len(change.files)} files)"
    return (f"{when:%Y-%m-%d %H:%M}  {ident:<10} {change.state.value:<7} "
            f"{printable(change.author.handle):<16} {printable(change.title)}{size}")


def change_json(change: Change) -> dict[str, Any]:
    """The documented `mergecast changes --json` object for one change."""
    data = to_dict(change)
    person = data.pop("author")
    return {"key": change.key, "number": change.number, "sha": change.sha, "title": change.title,
            "author": change.author.handle, "author_detail": person, **data}
