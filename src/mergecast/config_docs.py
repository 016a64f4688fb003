"""mergecast.toml as people read it, made from config's key declarations.

`init_text` is the commented file `mergecast init` writes; `reference_table` is a
section's key table in docs/reference.md, where each table sits between
`<!-- keys [section] -->` and `<!-- end keys -->`. `make docs` rewrites those tables
(`update_reference`) and a test checks they are up to date.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .config import SECTION_TYPES, AreaRule, Check, type_hints

_BLOCK = re.compile(r"(<!-- keys \[(?P<section>[\w.]+)\] -->\n).*?(<!-- end keys -->)", re.S)


@dataclasses.dataclass(frozen=True)
class Key:
    section: str
    name: str
    type: Any
    default: Any
    help: str
    check: Check


def keys(section: str) -> list[Key]:
    """The declared keys of one section, in order."""
    cls = SECTION_TYPES[section]
    if not dataclasses.is_dataclass(cls):
        return []
    hints = type_hints(cls)
    found = []
    for f in dataclasses.fields(cls):
        default = f.default if f.default_factory is dataclasses.MISSING else f.default_factory()
        found.append(Key(section, f.name, hints[f.name], default, f.metadata["help"],
                         f.metadata["check"]))
    return found


def _type(k: Key) -> str:
    c = k.check
    if c.doc_type:
        return c.doc_type
    if c.choices:
        quoted = [f'`"{x}"`' for x in c.choices]
        return ", ".join(quoted[:-1]) + " or " + quoted[-1]
    if k.type is bool:
        return "boolean"
    if k.type in (int, float):
        return f"{'integer' if k.type is int else 'number'}, {c.low:g}–{c.high:g}"
    if k.type in (Path, Path | None):
        return "path"
    if k.type == tuple[str, ...]:
        return "array of strings"
    if c.fields:
        return "URL template"
    return {"url": "http(s) URL", "slug": "string `owner/name`"}.get(c.form, "string")


def _toml(value: Any) -> str:
    """A default as it is written in mergecast.toml."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dt.time):
        return json.dumps(value.strftime("%H:%M"))
    if isinstance(value, str | Path):
        return json.dumps(str(value), ensure_ascii=False)
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{}"
    return repr(value)


def _default(k: Key) -> str:
    if k.check.doc_default:
        return k.check.doc_default
    return "none" if k.default is None else f"`{_toml(k.default)}`"


def reference_table(section: str) -> str:
    """The Markdown key table of one section, as docs/reference.md shows it."""
    rows = ["| Key | Type | Default | Meaning |", "|---|---|---|---|"]
    rows += [f"| `{k.name}` | {_type(k)} | {_default(k)} | {k.help} |" for k in keys(section)]
    return "\n".join(rows) + "\n"


def update_reference(text: str) -> str:
    """docs/reference.md with every marked key table made anew from the declarations."""
    return _BLOCK.sub(lambda m: m.group(1) + reference_table(m.group("section")) + m.group(3),
                      text)


def init_text(*, name: str, title: str, repo: str, github: str | None) -> str:
    """The commented mergecast.toml `init` writes: the given values set, every other key
    commented out at its default, each with its help."""
    given = {("show", "name"): name, ("show", "title"): title, ("source", "repo"): repo}
    if github:
        given[("source", "github")] = github
    out = ["# mergecast.toml, written by `mergecast init`. Every key is optional: a commented",
           "# key shows its default. docs/reference.md explains each one; relative paths",
           "# are resolved against this file's folder."]
    for section in SECTION_TYPES:
        out += ["", f"[{section}]"]
        if section == "lexicon":
            out += _comment("How the voice says a word, exactly as written; for example:")
            out.append('# NCCL = "nickel"')
        tables: list[str] = []  # an array of tables must come after the section's keys
        for k in keys(section):
            if dataclasses.is_dataclass(k.type):
                continue  # a subsection: it has its own header below
            if k.type == tuple[AreaRule, ...]:
                tables += _comment(f"{k.name}: {k.help}")
                tables += ["# [[areas.rules]]", '# path = "docs/**"', '# area = "Docs"']
                continue
            out += _comment(k.help)
            if (section, k.name) in given:
                out.append(f"{k.name} = {_toml(given[section, k.name])}")
            else:
                out.append(f"# {k.name} = {_toml('' if k.default is None else k.default)}")
        out += tables
    return "\n".join(out) + "\n"


def _comment(text: str) -> list[str]:
    return ["# " + line for line in textwrap.wrap(text, 86)]
