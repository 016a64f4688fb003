"""mergecast.toml: every key declared once, then loaded once, typed, validated, passed down.

A key is a dataclass field made by `key()`: its default, its type (the annotation), its
range or choices, and its help text, in one place. The parser and its error messages,
`init`'s commented file and the key tables of docs/reference.md are all made from these
declarations. Every error reads "expected X, got Y in mergecast.toml [section] key" so
the user knows exactly what to change. Relative paths resolve against the config file's
folder.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import functools
import tomllib
import typing
import zoneinfo
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ConfigError
from .models import Forge, VoiceKind, WriterKind

CONFIG_NAME = "mergecast.toml"
RULE_KINDS = ("label", "title", "tag", "path")
SLUG = r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+"  # a GitHub repository, owner/name


@dataclass(frozen=True)
class Check:
    """What a key accepts beyond its type, and how the reference table shows it."""

    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    form: str = ""  # url | slug | timezone: a string of that shape
    empty_ok: bool = False  # the form's key may also be "" (not set)
    fields: tuple[str, ...] = ()  # a URL template: must use {fields[0]}, may use the others
    lower_keys: bool = False  # a table whose keys are matched in lowercase
    doc_type: str = ""  # the reference's Type column, when the type alone says too little
    doc_default: str = ""  # the reference's Default column, when the value alone says too little


def _names(kind: type[enum.StrEnum]) -> tuple[str, ...]:
    """The choices of a key: the models' vocabulary, which the stages' registries are keyed by."""
    return tuple(k.value for k in kind)


def key(default: Any = None, help: str = "", *, factory: Any = None, **check: Any) -> Any:
    """One declared key: its default (or default factory), help text and checks."""
    meta = {"help": help, "check": Check(**check)}
    if factory is not None:
        return field(default_factory=factory, metadata=meta)
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class ShowConfig:
    name: str = key("", "The show's name, which is also spoken in the intro. Empty: the name of the repository the day's changes come from, then the name part of `[source] github`, then the repository folder's name.")  # noqa: E501
    title: str = key("", "The title of the feed and pages. Empty: `name`, then `mergecast`.")
    description: str = key("", "The feed and show page description. Empty: a generated sentence about the repository.")  # noqa: E501
    author: str = key("", "The feed's `itunes:author` and owner name. Empty: the title.")
    email: str = key("", "The feed owner's e-mail (`itunes:email`), where directories such as Apple Podcasts Connect send their ownership check. Omitted when empty, and `publish` then warns.")  # noqa: E501
    language: str = key("en", "The language tag of the feed and pages.")
    timezone: str = key("UTC", "The IANA time zone of `publish_time` and of bare dates in `--since`/`--until`, for example `\"Europe/Berlin\"`.", form="timezone")  # noqa: E501
    publish_time: dt.time = key(dt.time(13, 0), "When a day's episode is published. `--date DAY` covers the 24 hours that end at this time on DAY.", doc_type='string `"HH:MM"` or TOML time')  # noqa: E501
    base_url: str = key("http://127.0.0.1:8000/", "Where the site is hosted. Feed, enclosure and page URLs are made absolute against it. Changing it later moves every URL but not the feed's identity (see [Feed identity](#feed-identity)). `publish` warns while it is a local address.", form="url")  # noqa: E501
    image: Path | None = key(None, "The cover art: a PNG or JPEG, square, 1400×1400 or larger. It is copied to `OUT/cover.png` or `OUT/cover.jpg`. When unset, mergecast draws `cover.png` from the show name. A missing file or another format fails at publish time.")  # noqa: E501

    @property
    def tz(self) -> dt.tzinfo:
        return zoneinfo.ZoneInfo(self.timezone)


@dataclass(frozen=True)
class SourceConfig:
    repo: Path | None = key(None, "The git checkout whose landed commits are read. Its `.github/labeler.yml` and `CODEOWNERS` also give area path rules.", doc_default="none (the config file's folder)")  # noqa: E501
    ref: str = key("", "The branch, tag or commit to read. Empty: the repository's default branch.")  # noqa: E501
    github: str = key("", "The GitHub repository. When it is set, `run` and `backfill` also read its pull requests from the API, and git changes from `repo` take this identity.", form="slug")  # noqa: E501
    gh_json: Path | None = key(None, "A `gh pr list --json ...` export that `run` imports. `ingest` imports it when `repo` is not set.")  # noqa: E501
    first_parent: bool = key(True, "`true`: follow only the branch's first-parent line, so a merged branch counts as one change. `false`: read every reachable commit.")  # noqa: E501
    bots: tuple[str, ...] = key((), "Author handles to treat as bots, in addition to any `[bot]` account and the built-in list (pytorchbot, pytorchmergebot, facebook-github-bot, dependabot, …). A handle ending in `*` matches every handle it begins (`\"ci-runner-*\"`). A bot is never credited with work; see [`mergecast digest`](#mergecast-digest).")  # noqa: E501
    forge: str = key("auto", "Where the repository is hosted, for the links to its PRs and commits: `github`, `gitlab`, `gitea`, `forgejo` (also Codeberg), or `none` (only the `pr_url` and `commit_url` templates). `auto`: from the host name of `web_url`, of `github`, or of the checkout's `origin` remote.", choices=_names(Forge))  # noqa: E501
    web_url: str = key("", "The repository's web address, for example `https://gitlab.example.com/group/project`. Empty: `https://github.com/` and `github` when that is set, else the `origin` remote's address.", form="url", empty_ok=True)  # noqa: E501
    pr_url: str = key("", "The link of a pull (merge) request: an http(s) URL template with `{number}`, and optionally `{repo}` (owner/name), for example `https://review.example.com/{repo}/changes/{number}`. Empty: the forge's own.", fields=("number", "repo"))  # noqa: E501
    commit_url: str = key("", "The link of a commit: an http(s) URL template with `{sha}`, and optionally `{repo}`, for example `https://cgit.example.com/project/commit/?id={sha}`. Empty: the forge's own.", fields=("sha", "repo"))  # noqa: E501


@dataclass(frozen=True)
class StoreConfig:
    path: Path = key(Path(".mergecast/mergecast.db"), "The SQLite store of changes, episodes and cached GitHub responses. `--db` overrides it. Rendered media and the lock file live beside it (see [Files beside the store](#files-beside-the-store)).")  # noqa: E501


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
    rules: tuple[AreaRule, ...] = key(DEFAULT_AREA_RULES, "The ordered area rules (`[[areas.rules]]`, in the reference). Setting `rules` replaces the defaults entirely.", doc_type="array of tables (`[[areas.rules]]`)", doc_default="three rules: label `^module: (?P<area>.+)$`, label `^release notes: (?P<area>.+)$`, tag `*`")  # noqa: E501
    names: Mapping[str, str] = key(help="Display names for areas: area name (matched in lowercase) to the name shown, for example `inductor = \"Inductor\"`.", factory=dict, lower_keys=True, doc_type="table of strings (`[areas.names]`)")  # noqa: E501
    labeler: bool = key(True, "Use the path rules of `.github/labeler.yml` (or `.yaml`) in `[source] repo`, when that file exists.")  # noqa: E501
    codeowners: bool = key(True, "Use the path rules of `CODEOWNERS` (`.github/CODEOWNERS`, `CODEOWNERS` or `docs/CODEOWNERS`, first found) in `[source] repo`.")  # noqa: E501


@dataclass(frozen=True)
class WritingConfig:
    writer: str = key("template", "Who writes the prose: templates (offline), or an OpenAI-compatible LLM server (`[llm]`). Both pass the same fact check. `--writer` overrides it.", choices=_names(WriterKind))  # noqa: E501
    minutes: float = key(2.5, "The target episode length in minutes. Weekly recaps use at least 3.5.", low=0.5, high=30)  # noqa: E501
    words_per_minute: int = key(136, "The speaking speed assumed when sizing the script to `minutes`; the default is the bundled piper voice's measured pace, pauses included (4,635 spoken words in 2,047 s over twenty real episodes).", low=60, high=300)  # noqa: E501
    allow_empty: bool = key(False, "Make a short no-news episode for a quiet window, as `--allow-empty` does.")  # noqa: E501
    max_themes: int = key(3, "How many themes (\"first theme, second theme…\") an episode covers before the area roundups. Weekly recaps use at least 4.", low=1, high=6)  # noqa: E501


@dataclass(frozen=True)
class LLMConfig:
    base_url: str = key("http://127.0.0.1:11434/v1", "The API base URL. `/chat/completions` is appended to it.", form="url")  # noqa: E501
    model: str = key("", "The model name. It is required when the LLM writer is used; an empty value is a config error (exit 2).")  # noqa: E501
    api_key_env: str = key("OPENAI_API_KEY", "The name of the environment variable that holds the API key, sent as `Authorization: Bearer`. When the variable is unset or empty, no key is sent, which suits local servers.")  # noqa: E501
    timeout: float = key(120.0, "The longest one request may take, in seconds. A server that goes silent or keeps dripping bytes is cut off at this point.", low=1, high=3600)  # noqa: E501
    max_seconds: float = key(300.0, "The wall-clock budget for all LLM requests of one episode, in seconds. A request still running when it is spent is cut off, and no further request is sent: the writer uses the template writer's text for what is left and says so in a warning.", low=1, high=86400)  # noqa: E501
    max_tokens: int = key(1024, "The most tokens any one request may generate. Each request asks for fewer when its text is short; this caps them all, so a model stuck in a loop stops early.", low=16, high=65536)  # noqa: E501
    max_episode_tokens: int = key(50_000, "The most tokens, prompt and completion together, all LLM requests of one episode may use. A request that would pass it is not sent: its slot uses the template writer's text. Caps the cost of a hosted API; a day's episode needs about 5,000.", low=100, high=10_000_000)  # noqa: E501
    parallel: int = key(1, "How many requests may be in flight at once. Raise it to match the server's parallel slots (llama.cpp `--parallel`, Ollama `OLLAMA_NUM_PARALLEL`, any hosted API).", low=1, high=32)  # noqa: E501


@dataclass(frozen=True)
class OpenAIVoiceConfig:
    base_url: str = key("http://127.0.0.1:8880/v1", "The speech API base URL (OpenAI-compatible `/audio/speech`).", form="url")  # noqa: E501
    model: str = key("tts-1", "The speech model.")
    voice: str = key("alloy", "The voice name on that server.")
    api_key_env: str = key("OPENAI_API_KEY", "The environment variable that holds the API key. When it is unset or empty, no key is sent.")  # noqa: E501
    timeout: float = key(60.0, "The request timeout in seconds.", low=1, high=3600)


@dataclass(frozen=True)
class VoiceConfig:
    backend: str = key("piper", "The narrator. `piper` is the neural voice, offline, with the bundled `joe` voice. `espeak-ng` needs the `espeak-ng` program. `openai` is an OpenAI-compatible speech server (`[voice.openai]`). `none` makes a text-only episode without an MP3. `--voice` overrides it.", choices=_names(VoiceKind))  # noqa: E501
    sentence_pause: float = key(0.3, "The silence between sentences, in seconds.", low=0, high=5)
    section_pause: float = key(0.8, "The silence between sections, in seconds.", low=0, high=10)
    rate: float = key(1.0, "The speaking rate: `1.0` is normal, and `1.1` is ten percent faster.", low=0.5, high=2.0)  # noqa: E501
    deterministic: bool = key(False, "piper only: turn off its sampling noise, so the same script always gives the same audio (useful for tests).")  # noqa: E501
    espeak_voice: str = key("en-us", "The espeak-ng voice (see `espeak-ng --voices`).")
    openai: OpenAIVoiceConfig = key(help="The settings for the `openai` backend.", factory=OpenAIVoiceConfig, doc_type="table (`[voice.openai]`)", doc_default="see below")  # noqa: E501


@dataclass(frozen=True)
class GitHubConfig:
    api_url: str = key("", "The API base URL, for GitHub Enterprise for example. Empty: `$GITHUB_API_URL`, else `https://api.github.com`.")  # noqa: E501
    timeout: float = key(30.0, "The per-request timeout in seconds.", low=1, high=600)
    retries: int = key(4, "How many times a failed or rate-limited request is retried, with backoff.", low=0, high=10)  # noqa: E501


@dataclass(frozen=True)
class PublishConfig:
    out: Path = key(Path("site"), "The site folder that `publish`, `run`, `backfill` and `weekly` write and `serve` serves. `--out` overrides it.")  # noqa: E501
    latest: int = key(20, "How many of the newest episodes the show page (`index.html`) lists. The feeds list every episode.", low=1, high=1000)  # noqa: E501


@dataclass(frozen=True)
class Config:
    path: Path | None = None  # the file it came from, if any
    root: Path = Path(".")
    show: ShowConfig = field(default_factory=ShowConfig)
    source: SourceConfig = field(default_factory=SourceConfig)
    store: StoreConfig = field(default_factory=StoreConfig)
    areas: AreasConfig = field(default_factory=AreasConfig)
    writing: WritingConfig = field(default_factory=WritingConfig)
    lexicon: Mapping[str, str] = field(default_factory=dict)  # word -> how to say it
    llm: LLMConfig = field(default_factory=LLMConfig)
    voice: VoiceConfig = field(default_factory=VoiceConfig)
    github: GitHubConfig = field(default_factory=GitHubConfig)
    publish: PublishConfig = field(default_factory=PublishConfig)

    @property
    def show_name(self) -> str:
        if self.show.name:
            return self.show.name
        if self.source.github:
            return self.source.github.split("/")[-1]
        return (self.source.repo or self.root).resolve().name


@functools.cache
def type_hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _sections() -> dict[str, type]:
    """Section name -> its dataclass, in the order of Config (and of the reference)."""
    found: dict[str, type] = {}
    hints = type_hints(Config)
    for f in dataclasses.fields(Config):
        tp = hints[f.name]
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            found[f.name] = tp
            sub = type_hints(tp)
            found.update({f"{f.name}.{g.name}": sub[g.name] for g in dataclasses.fields(tp)
                          if dataclasses.is_dataclass(sub[g.name])})
        elif f.name not in ("path", "root"):
            found[f.name] = dict  # [lexicon]: a free table of strings, no fixed keys
    return found


SECTION_TYPES = _sections()
# The documented keys of every section, in the order docs/reference.md lists them.
SECTIONS: dict[str, tuple[str, ...]] = {
    name: tuple(f.name for f in dataclasses.fields(tp)) if dataclasses.is_dataclass(tp) else ()
    for name, tp in SECTION_TYPES.items()
}


def find_config(start: Path | None = None) -> Path | None:
    """The nearest mergecast.toml: in `start` (default: the working directory) or the
    closest parent folder that has one, as git finds its repository from a subfolder."""
    here = (start or Path.cwd()).absolute()
    for folder in (here, *here.parents):
        candidate = folder / CONFIG_NAME
        if candidate.is_file():
            return candidate
    return None


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
    """A Config from parsed TOML; ConfigError names the first bad section or key."""
    from .config_reader import Reader  # here: the reader is built on these declarations

    root = path.parent.resolve() if path is not None else Path.cwd()
    r = Reader(data, path.name if path else CONFIG_NAME, root)
    for section in data:
        if section not in SECTIONS:
            raise ConfigError(
                f"expected one of {', '.join('[' + s + ']' for s in SECTIONS if '.' not in s)}, "
                f"got [{section}] in {r.file}"
            )
    parts: dict[str, Any] = {}
    for f in dataclasses.fields(Config):
        if f.name in SECTION_TYPES:
            tp = SECTION_TYPES[f.name]
            parts[f.name] = r.table(f.name, None) if tp is dict else r.section_of(f.name, tp)
    return Config(path=path, root=root, **parts)
