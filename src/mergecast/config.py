"""mergecast.toml: loaded once, typed, validated, passed down.

Every error reads "expected X, got Y in mergecast.toml [section] key" so the user
knows exactly what to change. Relative paths resolve against the config file's folder.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import tomllib
import zoneinfo
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ConfigError

CONFIG_NAME = "mergecast.toml"


@dataclass(frozen=True)
class ShowConfig:
    name: str = ""
    title: str = ""
    description: str = ""
    author: str = ""
    email: str = ""
    language: str = "en"
    timezone: str = "UTC"
    publish_time: dt.time = dt.time(13, 0)
    base_url: str = "http://127.0.0.1:8000/"
    image: Path | None = None

    @property
    def tz(self) -> dt.tzinfo:
        return zoneinfo.ZoneInfo(self.timezone)


@dataclass(frozen=True)
class SourceConfig:
    repo: Path | None = None
    ref: str = ""  # empty: the repository's default branch
    github: str = ""  # owner/name
    gh_json: Path | None = None
    first_parent: bool = True
    bots: tuple[str, ...] = ()


@dataclass(frozen=True)
class StoreConfig:
    path: Path = Path(".mergecast/mergecast.db")


@dataclass(frozen=True)
class AreaRule:
    """One ordered rule; the first that matches a change names its area.

    kind: "label" (regex on a label), "title" (regex on the title), "tag" (a title
    tag such as [dynamo]; "*" for any), "path" (glob on a changed file).
    `area` is the display name; it may use `{area}` for the regex group `area`.
    """

    kind: str
    pattern: str
    area: str | None = None


DEFAULT_AREA_RULES = (
    AreaRule("label", r"^module: (?P<area>.+)$"),
    AreaRule("label", r"^release notes: (?P<area>.+)$"),
    AreaRule("tag", "*"),
)


@dataclass(frozen=True)
class AreasConfig:
    rules: tuple[AreaRule, ...] = DEFAULT_AREA_RULES
    names: Mapping[str, str] = field(default_factory=dict)  # lowercase tag -> display name
    labeler: bool = True  # use .github/labeler.yml path rules when present
    codeowners: bool = True  # use CODEOWNERS path rules when present


@dataclass(frozen=True)
class WritingConfig:
    writer: str = "template"  # template | llm
    minutes: float = 2.5
    words_per_minute: int = 150
    allow_empty: bool = False
    max_themes: int = 3


@dataclass(frozen=True)
class LLMConfig:
    base_url: str = "http://127.0.0.1:11434/v1"
    model: str = ""
    api_key_env: str = "OPENAI_API_KEY"
    timeout: float = 120.0
    max_seconds: float = 300.0  # wall-clock budget for all LLM requests of one episode
    max_tokens: int = 1024  # cap on any one request's generated tokens
    parallel: int = 1  # requests in flight at once


@dataclass(frozen=True)
class OpenAIVoiceConfig:
    base_url: str = "http://127.0.0.1:8880/v1"
    model: str = "tts-1"
    voice: str = "alloy"
    api_key_env: str = "OPENAI_API_KEY"
    timeout: float = 60.0


@dataclass(frozen=True)
class VoiceConfig:
    backend: str = "piper"  # piper | espeak-ng | openai | none
    sentence_pause: float = 0.3
    section_pause: float = 0.8
    rate: float = 1.0  # speaking rate: 1.0 normal, 1.1 ten percent faster
    deterministic: bool = False
    espeak_voice: str = "en-us"
    openai: OpenAIVoiceConfig = field(default_factory=OpenAIVoiceConfig)


@dataclass(frozen=True)
class GitHubConfig:
    api_url: str = ""  # empty: $GITHUB_API_URL, else https://api.github.com
    timeout: float = 30.0
    retries: int = 4


@dataclass(frozen=True)
class PublishConfig:
    out: Path = Path("site")
    latest: int = 20  # episodes listed on the show page


@dataclass(frozen=True)
class Config:
    path: Path | None = None  # the file it came from, if any
    root: Path = Path(".")
    show: ShowConfig = field(default_factory=ShowConfig)
    source: SourceConfig = field(default_factory=SourceConfig)
    store: StoreConfig = field(default_factory=StoreConfig)
    areas: AreasConfig = field(default_factory=AreasConfig)
    writing: WritingConfig = field(default_factory=WritingConfig)
    lexicon: Mapping[str, str] = field(default_factory=dict)
    llm: LLMConfig = field(default_factory=LLMConfig)
    voice: VoiceConfig = field(default_factory=VoiceConfig)
    github: GitHubConfig = field(default_factory=GitHubConfig)
    publish: PublishConfig = field(default_factory=PublishConfig)

    @property
    def db_path(self) -> Path:
        return self.store.path

    @property
    def show_name(self) -> str:
        if self.show.name:
            return self.show.name
        if self.source.github:
            return self.source.github.split("/")[-1]
        return (self.source.repo or self.root).resolve().name


# The documented keys of every section, in the order docs/reference.md lists them.
SECTIONS: dict[str, tuple[str, ...]] = {
    "show": ("name", "title", "description", "author", "email", "language", "timezone",
             "publish_time", "base_url", "image"),
    "source": ("repo", "ref", "github", "gh_json", "first_parent", "bots"),
    "store": ("path",),
    "areas": ("rules", "names", "labeler", "codeowners"),
    "writing": ("writer", "minutes", "words_per_minute", "allow_empty", "max_themes"),
    "lexicon": (),
    "llm": ("base_url", "model", "api_key_env", "timeout", "max_seconds", "max_tokens",
            "parallel"),
    "voice": ("backend", "sentence_pause", "section_pause", "rate", "deterministic",
              "espeak_voice", "openai"),
    "voice.openai": ("base_url", "model", "voice", "api_key_env", "timeout"),
    "github": ("api_url", "timeout", "retries"),
    "publish": ("out", "latest"),
}

WRITERS = ("template", "llm")
VOICES = ("piper", "espeak-ng", "openai", "none")
RULE_KINDS = ("label", "title", "tag", "path")


def find_config(start: Path | None = None) -> Path | None:
    """The mergecast.toml in `start` (default: the working directory), if any."""
    candidate = (start or Path.cwd()) / CONFIG_NAME
    return candidate if candidate.is_file() else None


def load(path: Path | None = None) -> Config:
    """Load and validate a config file; with no file, the defaults for the working folder."""
    if path is None:
        path = find_config()
        if path is None:
            return Config(root=Path.cwd())
    if not path.is_file():
        raise ConfigError(f"config file {path} not found; run `mergecast init` or pass --config")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path} is not UTF-8 text; save it as UTF-8") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}; fix the syntax") from exc
    return parse(data, path=path)


def parse(data: Mapping[str, Any], path: Path | None = None) -> Config:
    root = path.parent.resolve() if path is not None else Path.cwd()
    r = _Reader(data, path.name if path else CONFIG_NAME, root)
    for section in data:
        if section not in SECTIONS:
            raise ConfigError(
                f"expected one of {', '.join('[' + s + ']' for s in SECTIONS if '.' not in s)}, "
                f"got [{section}] in {r.file}"
            )
    show = ShowConfig(
        name=r.string("show", "name", ""),
        title=r.string("show", "title", ""),
        description=r.string("show", "description", ""),
        author=r.string("show", "author", ""),
        email=r.string("show", "email", ""),
        language=r.string("show", "language", "en"),
        timezone=r.timezone("show", "timezone", "UTC"),
        publish_time=r.time("show", "publish_time", dt.time(13, 0)),
        base_url=r.url("show", "base_url", "http://127.0.0.1:8000/"),
        image=r.path("show", "image"),
    )
    source = SourceConfig(
        repo=r.path("source", "repo"),
        ref=r.string("source", "ref", ""),
        github=r.slug("source", "github"),
        gh_json=r.path("source", "gh_json"),
        first_parent=r.flag("source", "first_parent", True),
        bots=tuple(r.str_list("source", "bots")),
    )
    store = StoreConfig(path=r.path("store", "path") or root / ".mergecast" / "mergecast.db")
    areas = AreasConfig(
        rules=r.area_rules(),
        names={k.lower(): v for k, v in r.str_table("areas", "names").items()},
        labeler=r.flag("areas", "labeler", True),
        codeowners=r.flag("areas", "codeowners", True),
    )
    writing = WritingConfig(
        writer=r.choice("writing", "writer", WRITERS, "template"),
        minutes=r.number("writing", "minutes", 2.5, low=0.5, high=30),
        words_per_minute=int(r.number("writing", "words_per_minute", 150, low=60, high=300)),
        allow_empty=r.flag("writing", "allow_empty", False),
        max_themes=int(r.number("writing", "max_themes", 3, low=1, high=6)),
    )
    llm = LLMConfig(
        base_url=r.url("llm", "base_url", LLMConfig.base_url),
        model=r.string("llm", "model", ""),
        api_key_env=r.string("llm", "api_key_env", "OPENAI_API_KEY"),
        timeout=r.number("llm", "timeout", 120.0, low=1, high=3600),
        max_seconds=r.number("llm", "max_seconds", 300.0, low=1, high=86400),
        max_tokens=int(r.number("llm", "max_tokens", 1024, low=16, high=65536)),
        parallel=int(r.number("llm", "parallel", 1, low=1, high=32)),
    )
    oa = OpenAIVoiceConfig(
        base_url=r.url("voice.openai", "base_url", OpenAIVoiceConfig.base_url),
        model=r.string("voice.openai", "model", "tts-1"),
        voice=r.string("voice.openai", "voice", "alloy"),
        api_key_env=r.string("voice.openai", "api_key_env", "OPENAI_API_KEY"),
        timeout=r.number("voice.openai", "timeout", 60.0, low=1, high=3600),
    )
    voice = VoiceConfig(
        backend=r.choice("voice", "backend", VOICES, "piper"),
        sentence_pause=r.number("voice", "sentence_pause", 0.3, low=0, high=5),
        section_pause=r.number("voice", "section_pause", 0.8, low=0, high=10),
        rate=r.number("voice", "rate", 1.0, low=0.5, high=2.0),
        deterministic=r.flag("voice", "deterministic", False),
        espeak_voice=r.string("voice", "espeak_voice", "en-us"),
        openai=oa,
    )
    github = GitHubConfig(
        api_url=r.string("github", "api_url", ""),
        timeout=r.number("github", "timeout", 30.0, low=1, high=600),
        retries=int(r.number("github", "retries", 4, low=0, high=10)),
    )
    publish = PublishConfig(
        out=r.path("publish", "out") or root / "site",
        latest=int(r.number("publish", "latest", 20, low=1, high=1000)),
    )
    return Config(
        path=path,
        root=root,
        show=show,
        source=source,
        store=store,
        areas=areas,
        writing=writing,
        lexicon=r.str_table("lexicon", None),
        llm=llm,
        voice=voice,
        github=github,
        publish=publish,
    )


def _kind(value: Any) -> str:
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


class _Reader:
    def __init__(self, data: Mapping[str, Any], file: str, root: Path) -> None:
        self.data = data
        self.file = file
        self.root = root

    def fail(self, section: str, key: str | None, expected: str, got: Any) -> ConfigError:
        where = f"[{section}] {key}" if key else f"[{section}]"
        return ConfigError(f"expected {expected}, got {_kind(got)} in {self.file} {where}")

    def section(self, name: str) -> Mapping[str, Any]:
        parts = name.split(".")
        node: Any = self.data
        for part in parts:
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

    def get(self, section: str, key: str) -> Any:
        return self.section(section).get(key)

    def string(self, section: str, key: str, default: str) -> str:
        value = self.get(section, key)
        if value is None:
            return default
        if not isinstance(value, str):
            raise self.fail(section, key, "a string", value)
        return value

    def flag(self, section: str, key: str, default: bool) -> bool:
        value = self.get(section, key)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self.fail(section, key, "true or false", value)
        return value

    def number(self, section: str, key: str, default: float, low: float, high: float) -> float:
        value = self.get(section, key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(section, key, f"a number from {low:g} to {high:g}", value)
        if not low <= value <= high:
            raise self.fail(section, key, f"a number from {low:g} to {high:g}", value)
        return float(value)

    def choice(self, section: str, key: str, choices: tuple[str, ...], default: str) -> str:
        value = self.string(section, key, default)
        if value not in choices:
            raise self.fail(section, key, "one of " + ", ".join(repr(c) for c in choices), value)
        return value

    def path(self, section: str, key: str) -> Path | None:
        value = self.string(section, key, "")
        if not value:
            return None
        p = Path(value).expanduser()
        return p if p.is_absolute() else Path(os.path.normpath(self.root / p))

    def url(self, section: str, key: str, default: str) -> str:
        value = self.string(section, key, default)
        if not re.match(r"^https?://[^\s/]+", value):
            raise self.fail(section, key, "an http:// or https:// URL", value)
        return value

    def slug(self, section: str, key: str) -> str:
        value = self.string(section, key, "")
        if value and not re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", value):
            raise self.fail(section, key, "a GitHub repository as owner/name", value)
        return value

    def timezone(self, section: str, key: str, default: str) -> str:
        value = self.string(section, key, default)
        try:
            zoneinfo.ZoneInfo(value)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError) as exc:
            raise self.fail(section, key, "an IANA time zone such as 'UTC'", value) from exc
        return value

    def time(self, section: str, key: str, default: dt.time) -> dt.time:
        value = self.get(section, key)
        if value is None:
            return default
        if isinstance(value, dt.time):
            return value
        if isinstance(value, str) and re.fullmatch(r"\d{1,2}:\d{2}", value):
            hours, minutes = map(int, value.split(":"))
            if hours < 24 and minutes < 60:
                return dt.time(hours, minutes)
        raise self.fail(section, key, "a time of day as 'HH:MM'", value)

    def str_list(self, section: str, key: str) -> list[str]:
        value = self.get(section, key)
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(section, key, "an array of strings", value)
        return list(value)

    def str_table(self, section: str, key: str | None) -> dict[str, str]:
        node = self.section(section) if key is None else self.get(section, key)
        if node is None:
            return {}
        if not isinstance(node, Mapping):
            raise self.fail(section, key, "a table of strings", node)
        for k, v in node.items():
            if not isinstance(v, str):
                raise self.fail(section, f"{key}.{k}" if key else k, "a string", v)
        return dict(node)

    def area_rules(self) -> tuple[AreaRule, ...]:
        value = self.get("areas", "rules")
        if value is None:
            return DEFAULT_AREA_RULES
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
