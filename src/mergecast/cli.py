"""Thin CLI: options in, one pipeline call out."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from . import __version__, config as config_mod, pipeline
from .errors import EmptyWindowError, MergecastError

F = TypeVar("F", bound=Callable[..., Any])


class Context:
    """What every command gets: the loaded config (once) and the --db override."""

    def __init__(self, config_path: Path | None, db: Path | None) -> None:
        self._config_path = config_path
        self._db = db
        self._config: config_mod.Config | None = None

    @property
    def config(self) -> config_mod.Config:
        if self._config is None:
            self._config = pipeline.load_config(self._config_path, self._db)
        return self._config


def handle_errors(fn: F) -> F:
    """Print our errors as one line on stderr and exit with their status; no traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except EmptyWindowError as exc:
            click.echo(f"mergecast: {exc}", err=True)
            sys.exit(0)
        except MergecastError as exc:
            click.echo(f"mergecast: {exc}", err=True)
            sys.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo("mergecast: interrupted; nothing was half-written", err=True)
            sys.exit(130)

    return wrapper  # type: ignore[return-value]


def window_options(fn: F) -> F:
    """--date DAY | --since WHEN --until WHEN."""
    fn = click.option(
        "--until", "until", metavar="WHEN", help="End of the window (exclusive): ISO date or datetime."
    )(fn)
    fn = click.option(
        "--since", "since", metavar="WHEN", help="Start of the window: ISO date or datetime."
    )(fn)
    fn = click.option(
        "--date",
        "date",
        metavar="DAY",
        help="The 24 hours that end at the show's publish time on DAY (YYYY-MM-DD).",
    )(fn)
    return fn


pass_ctx = click.make_pass_decorator(Context)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mergecast")
@click.option(
    "--config",
    "config_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Path to mergecast.toml (default: ./mergecast.toml if present).",
)
@click.option(
    "--db",
    type=click.Path(path_type=Path, dir_okay=False),
    help="SQLite store (default: [store] path, .mergecast/mergecast.db).",
)
@click.pass_context
def main(ctx: click.Context, config_path: Path | None, db: Path | None) -> None:
    """Turn a repository's daily activity into a developer briefing podcast."""
    ctx.obj = Context(config_path, db)


# ---- commands: init, ingest, changes (foundation)

# ---- commands: digest (analysis)

# ---- commands: script (writing)

# ---- commands: speak (voice)

# ---- commands: publish, serve (publishing)

# ---- commands: run, backfill, weekly, doctor (daily job)


if __name__ == "__main__":  # pragma: no cover
    main()
