"""Reading mergecast.toml: each declared key (`config.key`) read by its annotation and
checked by its `Check`; the first bad one fails with "expected X, got Y in FILE [section] key".
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import re
import string
import zoneinfo
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .config import RULE_KINDS, SECTIONS, SLUG, AreaRule, Check, type_hints
from .errors import ConfigError


def describe(value: Any) -> str:
    """How a TOML value reads in an error: "string 'x'", "number 3", "a table"."""
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, int | float):
        return f"number {value}"
    if isinstance(value, str):
        return f"string {value!r}"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


class Reader:
    """Reads each declared key by its annotation and `Check`; the first bad one fails."""

    def __init__(self, data: Mapping[str, Any], file: str, root: Path) -> None:
        self.data = data
        self.file = file
        self.root = root

    def fail(self, section: str, key: str | None, expected: str, got: Any) -> ConfigError:
        where = f"[{section}] {key}" if key else f"[{section}]"
        return ConfigError(f"expected {expected}, got {describe(got)} in {self.file} {where}")

    def section(self, name: str) -> Mapping[str, Any]:
        node: Any = self.data
        for part in name.split("."):
            node = node.get(part, {}) if isinstance(node, Mapping) else {}
        if not isinstance(node, Mapping):
            raise self.fail(name, None, "a table", node)
        known = SECTIONS[name]
        if known:
            for key in node:
                if key not in known and not isinstance(node[key], Mapping):
                    raise ConfigError(
                        f"expected one of {', '.join(known)}, got unknown key {key!r} "
                        f"in {self.file} [{name}]"
                    )
        return node

    def section_of(self, name: str, cls: type) -> Any:
        """The dataclass `cls` with every key of section `name` read and checked."""
        hints = type_hints(cls)
        values = {}
        for f in dataclasses.fields(cls):
            tp = hints[f.name]
            if isinstance(tp, type) and dataclasses.is_dataclass(tp):
                values[f.name] = self.section_of(f"{name}.{f.name}", tp)
                continue
            value = self.section(name).get(f.name)
            check: Check = f.metadata["check"]
            if value is None or (value == "" and tp in (Path, Path | None)):  # "": not set
                default = f.default if f.default_factory is dataclasses.MISSING \
                    else f.default_factory()
                # A path default is relative to the config's folder, like a configured path.
                values[f.name] = self.root / default if isinstance(default, Path) else default
            else:
                values[f.name] = self.value(name, f.name, tp, check, value)
        return cls(**values)

    def value(self, section: str, key: str, tp: Any, check: Check, value: Any) -> Any:
        if tp is bool:
            if not isinstance(value, bool):
                raise self.fail(section, key, "true or false", value)
            return value
        if tp in (int, float):
            low, high = check.low or 0.0, check.high or 0.0
            if isinstance(value, bool) or not isinstance(value, int | float) \
                    or not low <= value <= high:
                raise self.fail(section, key, f"a number from {low:g} to {high:g}", value)
            return tp(value)
        if tp is dt.time:
            return self.time(section, key, value)
        if tp == tuple[AreaRule, ...]:
            return self.area_rules(value)
        if tp == tuple[str, ...]:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise self.fail(section, key, "an array of strings", value)
            return tuple(value)
        if tp == Mapping[str, str]:
            table = self.table(section, key)
            return {k.lower(): v for k, v in table.items()} if check.lower_keys else table
        if not isinstance(value, str):
            raise self.fail(section, key, "a string", value)
        if tp in (Path, Path | None):
            p = Path(value).expanduser()
            return p if p.is_absolute() else Path(os.path.normpath(self.root / p))
        return self.string(section, key, check, value)

    def string(self, section: str, key: str, check: Check, value: str) -> str:
        if check.choices and value not in check.choices:
            expected = "one of " + ", ".join(repr(c) for c in check.choices)
            raise self.fail(section, key, expected, value)
        if check.form == "url" and not (check.empty_ok and not value) \
                and not re.match(r"^https?://[^\s/]+", value):
            raise self.fail(section, key, "an http:// or https:// URL", value)
        if check.fields and value:
            self.template(section, key, check.fields, value)
        if check.form == "slug" and value and not re.fullmatch(SLUG, value):
            raise self.fail(section, key, "a GitHub repository as owner/name", value)
        if check.form == "timezone":
            try:
                zoneinfo.ZoneInfo(value)
            except (zoneinfo.ZoneInfoNotFoundError, ValueError) as exc:
                raise self.fail(section, key, "an IANA time zone such as 'UTC'", value) from exc
        return value

    def template(self, section: str, key: str, fields: tuple[str, ...], value: str) -> None:
        expected = (f"an http(s) URL template with {{{fields[0]}}} (and optionally "
                    + ", ".join(f"{{{f}}}" for f in fields[1:]) + ")")
        try:
            used = {name for _, name, _, _ in string.Formatter().parse(value) if name is not None}
        except ValueError:
            used = {""}  # an unpaired brace
        if not re.match(r"^https?://[^\s/{}]+", value) or fields[0] not in used \
                or not used <= set(fields):
            raise self.fail(section, key, expected, value)

    def time(self, section: str, key: str, value: Any) -> dt.time:
        if isinstance(value, dt.time):
            return value
        if isinstance(value, str) and re.fullmatch(r"\d{1,2}:\d{2}", value):
            hours, minutes = map(int, value.split(":"))
            if hours < 24 and minutes < 60:
                return dt.time(hours, minutes)
        raise self.fail(section, key, "a time of day as 'HH:MM'", value)

    def table(self, section: str, key: str | None) -> dict[str, str]:
        node = self.section(section) if key is None else self.section(section).get(key)
        if not isinstance(node, Mapping):
            raise self.fail(section, key, "a table of strings", node)
        for k, v in node.items():
            if not isinstance(v, str):
                raise self.fail(section, f"{key}.{k}" if key else k, "a string", v)
        return dict(node)

    def area_rules(self, value: Any) -> tuple[AreaRule, ...]:
        if not isinstance(value, list):
            raise self.fail("areas", "rules", "an array of tables ([[areas.rules]])", value)
        rules = []
        for i, item in enumerate(value):
            where = f"rules[{i}]"
            if not isinstance(item, Mapping):
                raise self.fail("areas", where, "a table", item)
            kinds = [k for k in RULE_KINDS if k in item]
            if len(kinds) != 1:
                raise ConfigError(
                    f"expected exactly one of {', '.join(RULE_KINDS)}, got "
                    f"{', '.join(sorted(item)) or 'none'} in {self.file} [areas] {where}"
                )
            kind = kinds[0]
            pattern = item[kind]
            if not isinstance(pattern, str):
                raise self.fail("areas", f"{where}.{kind}", "a string", pattern)
            if kind in ("label", "title"):
                try:
                    re.compile(pattern)
                except re.error as exc:
                    raise ConfigError(
                        f"expected a regular expression, got {pattern!r} ({exc}) "
                        f"in {self.file} [areas] {where}.{kind}"
                    ) from exc
            area = item.get("area")
            if area is not None and not isinstance(area, str):
                raise self.fail("areas", f"{where}.area", "a string", area)
            for extra in item:
                if extra not in (kind, "area"):
                    raise ConfigError(
                        f"expected {kind} and area, got unknown key {extra!r} "
                        f"in {self.file} [areas] {where}"
                    )
            rules.append(AreaRule(kind, pattern, area))
        return tuple(rules)
