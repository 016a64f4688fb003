"""The command line's shared parts: options that several commands take, declared once,
with the checks that run as they are parsed (days, repository names, verbosity), and the
config, loaded once per command. Heavy modules load only when a command first uses them.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import re
import sys
import types
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from . import redact
from .errors import InputError, MergecastError
from .voice import VOICES
from .writing.writer import WRITERS


def lazy(name: str) -> types.ModuleType:
    """Module `name`, executed when a command first uses it, so `--help` never waits."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.loader is not None
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


if TYPE_CHECKING:
    from . import collect, console, dates, pipeline
    from . import config as config_mod
    from .collect import Flags
    from .publish import text
else:
    collect, config_mod, console, dates, pipeline, text = (
        lazy(f"mergecast.{m}") for m in ("collect", "config", "console", "dates", "pipeline",
                                          "publish.text"))

F = TypeVar("F", bound=Callable[..., Any])
# Context.meta keys of the root context: the command line (for the one-line crash report),
# the verbosity (-q/-v) and the command's console, made on first use.
ARGS, VERBOSITY, CONSOLE = "mergecast.args", "mergecast.verbosity", "mergecast.console"
JSON = "mergecast.json"  # --json was given: even a quiet window answers in JSON


def combine(*decorators: Callable[[F], F]) -> Callable[[F], F]:
    def apply(fn: F) -> F:
        for decorator in reversed(decorators):
            fn = decorator(fn)
        return fn

    return apply


def examples(*lines: str) -> str:
    """A command's --help epilog; docs/reference.md shows the same lines (a test checks)."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)


def _slug(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not re.fullmatch(config_mod.SLUG, value):
        raise InputError(f"expected a GitHub repository as OWNER/NAME, got {value!r} for "
                         f"--{(param.name or '').replace('_', '-')}")
    return value


def check_day(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A day option checked as it is parsed, before anything is read: YYYY-MM-DD, or
    today/yesterday in [show] timezone (as YYYY-MM-DD); run's --date also takes latest."""
    if value is None or (value == "latest" and ctx.info_name == "run"):
        return value
    flag = param.opts[0]
    if value in ("today", "yesterday"):
        today = dt.datetime.now(config().show.tz).date()
        return (today - dt.timedelta(days=value == "yesterday")).isoformat()
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        also = ", 'yesterday' or 'latest'" if ctx.info_name == "run" and flag == "--date" \
            else " or 'yesterday'"
        raise InputError(f"expected a day as YYYY-MM-DD, 'today'{also}, got {value!r} for "
                         f"{flag}") from None
    return dates.parse_day(value, flag).isoformat()  # and the days mergecast can be about


def _verbosity(level: int) -> Callable[[click.Context, click.Parameter, bool], None]:
    def store(ctx: click.Context, param: click.Parameter, value: bool) -> None:
        root = ctx.find_root().meta
        if value and root.setdefault(VERBOSITY, level) != level:
            raise InputError("expected one of --quiet or --verbose, got both; pick one")

    return store


DIRECTORY = click.Path(path_type=Path, file_okay=False)

window_options = combine(
    click.option("--date", metavar="DAY", callback=check_day,
                 help="The 24 hours that end at the show's publish time on DAY (YYYY-MM-DD, "
                      "today or yesterday); run also takes 'latest'."),
    click.option("--since", metavar="WHEN", help="Start of the window: ISO date or datetime."),
    click.option("--until", metavar="WHEN",
                 help="End of the window (exclusive): ISO date or datetime."),
)
source_options = combine(
    click.option("--repo", type=click.Path(path_type=Path), metavar="DIRECTORY",
                 help="Read landed commits from this git checkout."),
    click.option("--gh-json", type=click.Path(path_type=Path), metavar="FILE",
                 help="Import a `gh pr list --json ...` export (JSON array or JSON Lines)."),
    click.option("--github", metavar="OWNER/NAME", callback=_slug,
                 help="Fetch pull requests from the GitHub API."),
    click.option("--repo-name", metavar="OWNER/NAME", callback=_slug,
                 help="The repository the --repo and --gh-json changes belong to."),
    click.option("--offline", is_flag=True, help="GitHub source: use cached responses only."),
)
strict_option = click.option(
    "--strict", is_flag=True, help="Fail when a source cannot be read (default: a GitHub "
    "failure skips that source with a warning and the episode is made from the rest).")
voice_option = click.option("--voice", type=click.Choice(VOICES),
                            help="Voice backend (default: [voice] backend, piper); "
                                 "'none' makes a text-only episode.")
writer_option = click.option("--writer", type=click.Choice(tuple(WRITERS)),
                             help="Writer backend (default: [writing] writer, template).")
allow_empty_option = click.option("--allow-empty", is_flag=True,
                                  help="Make a short no-news episode for a quiet window.")


def _json_mode(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    ctx.find_root().meta[JSON] = value
    return value


json_option = click.option("--json", "as_json", is_flag=True, callback=_json_mode,
                           help="Print JSON.")
verbosity_options = combine(
    click.option("-q", "--quiet", is_flag=True, expose_value=False, callback=_verbosity(-1),
                 help="Print only warnings and errors (and the output asked for: data, "
                      "--json)."),
    click.option("-v", "--verbose", is_flag=True, expose_value=False, callback=_verbosity(1),
                 help="Also print mergecast's log: GitHub requests, cache use, retries."),
)


def out_option(help: str = "Site folder (default: [publish] out, ./site).") -> Callable[[F], F]:
    return click.option("--out", type=DIRECTORY, help=help)


def flags(options: dict[str, Any]) -> Flags:
    """The source options a command was given (`ref`: ingest's only; `strict`: run's and
    backfill's)."""
    names = ("repo", "gh_json", "github", "repo_name", "offline")
    return collect.Flags(**{k: options[k] for k in names}, ref=options.get("ref"),
                      strict=options.get("strict", False))


def config() -> config_mod.Config:
    """The config, loaded once per command (and only by commands that use it)."""
    ctx = click.get_current_context()
    root = ctx.find_root()
    if "config" not in root.meta:
        path, db = root.obj
        if path is not None and root.get_parameter_source("config_path") == \
                click.core.ParameterSource.ENVIRONMENT and not path.is_file():
            raise InputError(f"MERGECAST_CONFIG names {path}, which is not a file; fix the "
                             "path or unset MERGECAST_CONFIG")
        root.meta["config"] = pipeline.load_config(path, db)
    config: config_mod.Config = root.meta["config"]
    return config


# ---- the group: every command runs, and every error is handled, here


class Guarded(click.Group):
    """The group that runs every command and handles every error, once."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[ARGS] = list(args)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        shown = warnings.showwarning
        try:
            try:
                with warnings.catch_warnings():
                    warnings.filterwarnings("always", category=UserWarning,
                                            module=r"mergecast\.")
                    warnings.showwarning = lambda message, category, *rest: (
                        warn(str(message), getattr(category, "label", "warning"))
                        if category.__module__.startswith("mergecast.")
                        else shown(message, category, *rest))
                    return super().invoke(ctx)
            finally:
                if CONSOLE in ctx.meta:  # the live bar goes before any error line
                    made, detach = ctx.meta.pop(CONSOLE)
                    made.close()
                    detach()
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except MergecastError as exc:
            # A quiet window is news, not an error (exit 0): --quiet keeps it off cron's mail,
            # and --json still answers with a document a script can read.
            if not exc.exit_code and ctx.meta.get(JSON):
                print_json({"status": "quiet", "message": str(exc)})
            elif exc.exit_code or ctx.meta.get(VERBOSITY, 0) >= 0:
                click.echo(f"mergecast: {redact.scrub(str(exc))}", err=True)  # a git URL's token
            sys.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo("mergecast: interrupted; nothing was half-written", err=True)
            sys.exit(130)
        except Exception as exc:  # a bug: one line naming the input, no traceback
            line = " ".join(["mergecast", *ctx.meta.get(ARGS, [])])
            click.echo(text.printable(
                f"mergecast: `{line}` failed unexpectedly ({type(exc).__name__}: "
                f"{redact.scrub(str(exc))}); this is a bug, please report it with this line"),
                err=True)
            sys.exit(1)


def current_console() -> console.Console:
    """This command's console (stage lines, progress, warnings), at its verbosity; the
    `mergecast` log goes through it while the command runs."""
    root = click.get_current_context().find_root()
    if CONSOLE not in root.meta:
        made = console.Console(root.meta.get(VERBOSITY, console.NORMAL))
        root.meta[CONSOLE] = (made, console.attach_log(made))
    shown: console.Console = root.meta[CONSOLE][0]
    return shown


def warn(message: str, label: str = "warning") -> None:
    """A warning, or a progress line a module labels as its own ("llm")."""
    current_console().warn(message, label)


def say(line: str) -> None:
    """A command's result line on stdout; --quiet drops it."""
    if current_console().verbosity > console.QUIET:
        click.echo(line)


def print_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))
