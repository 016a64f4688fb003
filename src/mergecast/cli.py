"""The command line: options in, one `jobs` call out, the result printed.

Options that several commands take are declared once, below. Errors are handled once,
by the group: ours print their one-line message and exit with their status, anything
else prints one line naming the command and its input (never a traceback). The heavy
stages (voice, templates, the HTTP client) load only inside the command that needs them.
"""

from __future__ import annotations

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

from . import __version__
from .errors import InputError, MergecastError
from .voice import VOICES
from .writing.writer import WRITERS


def _lazy(name: str) -> types.ModuleType:
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
    from . import analysis, dates, doctor, jobs, pipeline
    from . import config as config_mod
    from .collect import Flags
    from .publish import content, text
else:
    analysis, config_mod, content, dates, doctor, jobs, pipeline, text = (
        _lazy(f"mergecast.{m}") for m in ("analysis", "config", "publish.content", "dates",
                                          "doctor", "jobs", "pipeline", "publish.text"))

F = TypeVar("F", bound=Callable[..., Any])
_ARGS = "mergecast.args"  # Context.meta key: the command line, for the one-line crash report


class _Guarded(click.Group):
    """The group that runs every command and handles every error, once."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[_ARGS] = list(args)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        shown = warnings.showwarning
        try:
            with warnings.catch_warnings():
                warnings.filterwarnings("always", category=UserWarning, module=r"mergecast\.")
                warnings.showwarning = lambda message, category, *rest: (
                    _warn(str(message)) if category.__module__.startswith("mergecast.")
                    else shown(message, category, *rest))
                return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except MergecastError as exc:
            click.echo(f"mergecast: {exc}", err=True)
            sys.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo("mergecast: interrupted; nothing was half-written", err=True)
            sys.exit(130)
        except Exception as exc:  # a bug: one line naming the input, no traceback
            line = " ".join(["mergecast", *ctx.meta.get(_ARGS, [])])
            click.echo(text.printable(
                f"mergecast: `{line}` failed unexpectedly ({type(exc).__name__}: {exc}); "
                "this is a bug, please report it with this line"), err=True)
            sys.exit(1)


def _warn(message: str) -> None:
    click.echo(text.printable(f"mergecast: warning: {message}"), err=True)


def _options(*decorators: Callable[[F], F]) -> Callable[[F], F]:
    def apply(fn: F) -> F:
        for decorator in reversed(decorators):
            fn = decorator(fn)
        return fn

    return apply


def _slug(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not re.fullmatch(config_mod.SLUG, value):
        raise InputError(f"expected a GitHub repository as OWNER/NAME, got {value!r} for "
                         f"--{(param.name or '').replace('_', '-')}")
    return value


DIRECTORY = click.Path(path_type=Path, file_okay=False)

window_options = _options(
    click.option("--date", metavar="DAY", help="The 24 hours that end at the show's publish "
                 "time on DAY (YYYY-MM-DD); run also takes 'latest'."),
    click.option("--since", metavar="WHEN", help="Start of the window: ISO date or datetime."),
    click.option("--until", metavar="WHEN",
                 help="End of the window (exclusive): ISO date or datetime."),
)
source_options = _options(
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
voice_option = click.option("--voice", type=click.Choice(VOICES),
                            help="Voice backend (default: [voice] backend, piper); "
                                 "'none' makes a text-only episode.")
writer_option = click.option("--writer", type=click.Choice(tuple(WRITERS)),
                             help="Writer backend (default: [writing] writer, template).")
allow_empty_option = click.option("--allow-empty", is_flag=True,
                                  help="Make a short no-news episode for a quiet window.")
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


def out_option(help: str = "Site folder (default: [publish] out, ./site).") -> Callable[[F], F]:
    return click.option("--out", type=DIRECTORY, help=help)


def _flags(options: dict[str, Any]) -> Flags:
    """The source options a command was given (`ref`: ingest's only)."""
    names = ("repo", "gh_json", "github", "repo_name", "offline")
    return jobs.Flags(**{k: options[k] for k in names}, ref=options.get("ref"))


@click.group(cls=_Guarded, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mergecast")
@click.option("--config", "config_path", type=click.Path(path_type=Path, dir_okay=False),
              help="Path to mergecast.toml (default: ./mergecast.toml if present).")
@click.option("--db", type=click.Path(path_type=Path, dir_okay=False),
              help="SQLite store (default: [store] path, .mergecast/mergecast.db).")
@click.pass_context
def main(ctx: click.Context, config_path: Path | None, db: Path | None) -> None:
    """Turn a repository's daily activity into a developer briefing podcast."""
    ctx.obj = (config_path, db)


def _config() -> config_mod.Config:
    """The config, loaded once per command (and only by commands that use it)."""
    ctx = click.get_current_context()
    root = ctx.find_root()
    if "config" not in root.meta:
        root.meta["config"] = pipeline.load_config(*root.obj)
    config: config_mod.Config = root.meta["config"]
    return config


@main.command("init")
@click.option("--force", is_flag=True, help="Overwrite an existing mergecast.toml.")
def init_command(force: bool) -> None:
    """Write a commented mergecast.toml for the repository in the working folder."""
    target, slug = jobs.init(Path.cwd(), force=force)
    click.echo(f"wrote {target}" + (f" for {slug}" if slug else ""))


@main.command("ingest")
@source_options
@click.option("--ref", help="Branch, tag or commit to read (default: the default branch).")
@window_options
def ingest_command(date: str | None, since: str | None, until: str | None,
                   **sources: Any) -> None:
    """Read commits (--repo), a gh export (--gh-json) or the GitHub API (--github)."""
    report = jobs.ingest(_config(), _flags(sources), date=date, since=since, until=until)
    for message in report.warnings:
        _warn(message)
    click.echo(f"ingested {report.read} changes from {report.repo} "
               f"({report.new} new, {report.updated} updated)")


@main.command("changes")
@window_options
@json_option
def changes_command(date: str | None, since: str | None, until: str | None,
                    as_json: bool) -> None:
    """The normalised changes active in a window (created, updated, merged, closed or landed)."""
    cfg = _config()
    window, found = jobs.changes(cfg, date=date, since=since, until=until)
    if as_json:
        click.echo(json.dumps([text.change_json(c) for c in found], indent=2, ensure_ascii=False))
    elif not found:
        click.echo(f"no changes from {window.since.isoformat()} to {window.until.isoformat()}",
                   err=True)
    for c in found if not as_json else ():
        click.echo(text.change_line(c, window, cfg.show.tz))


@main.command("digest")
@window_options
@json_option
def digest_command(date: str | None, since: str | None, until: str | None,
                   as_json: bool) -> None:
    """The window's digest: ranked themes and why, areas, duplicates, reverts, newcomers."""
    digest = jobs.digest(_config(), date=date, since=since, until=until)
    if as_json:  # sorted keys: the same input always prints the same bytes
        click.echo(json.dumps(analysis.digest_json(digest), indent=2, sort_keys=True,
                              ensure_ascii=False))
    else:
        click.echo(text.printable_block(analysis.format_digest(digest)), nl=False)


@main.command("script")
@window_options
@writer_option
@json_option
@click.option("--markdown", "as_markdown", is_flag=True, help="Print the script as Markdown.")
@allow_empty_option
def script_command(date: str | None, since: str | None, until: str | None, writer: str | None,
                   as_json: bool, as_markdown: bool, allow_empty: bool) -> None:
    """The episode script for a window: title, summary, sections, fact-checked."""
    if as_json and as_markdown:
        raise InputError("expected one of --json or --markdown, got both; pick one")
    script = jobs.script(_config(), date=date, since=since, until=until,
                         choices=pipeline.Choices(writer=writer, allow_empty=allow_empty))
    if as_json:
        click.echo(json.dumps(script.to_json(), indent=2, ensure_ascii=False))
    else:
        click.echo((text.script_markdown if as_markdown else text.script_text)(script), nl=False)


@main.command("speak")
@window_options
@voice_option
@out_option("Also copy the media to OUT/episodes/<episode-id>/ (a preview folder, never "
            "the site).")
def speak_command(date: str | None, since: str | None, until: str | None, voice: str | None,
                  out: Path | None) -> None:
    """Narrate a window's script: episode.mp3, transcript.vtt and chapters.json."""
    episode_id, audio, where = jobs.speak(_config(), date=date, since=since, until=until,
                                          voice=voice, out=out)
    kind = f"{audio.voice} audio" if audio.audio_bytes is not None else "text only, no audio"
    click.echo(f"{episode_id}: {content.duration_iso(audio.duration_seconds)} "
               f"({audio.duration_seconds:.1f} s, {kind}), {len(audio.cues)} cues, "
               f"{len(audio.chapters)} chapters -> {where}")


@main.command("publish")
@out_option()
def publish_command(out: Path | None) -> None:
    """Render every stored episode: pages, feeds and sitemap, swapped in atomically."""
    report = jobs.publish(_config(), out)
    click.echo(f"published {report.episodes} episodes to {report.out} "
               f"({len(report.rendered)} pages rendered, {report.files_linked} files reused, "
               f"{report.seconds:.2f} s); feed: {report.url}")
    for message in report.warnings:
        _warn(message)


@main.command("serve")
@out_option()
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind; the default keeps the preview on this machine.")
def serve_command(out: Path | None, port: int, host: str) -> None:
    """Preview the site over HTTP (with Range requests, so audio seeks)."""
    from .publish.serve import serve  # here: the HTTP server modules serve no other command

    target = out if out is not None else _config().publish.out
    try:
        serve(target, host=host, port=port,
              announce=lambda url: click.echo(f"serving {target} at {url} (Ctrl-C to stop)"))
    except KeyboardInterrupt:
        click.echo("stopped")


def _print_stage(name: str, seconds: float, detail: str) -> None:
    click.echo(f"  {name:<8} {seconds:7.2f} s  {detail}", err=True)


@main.command()
@window_options
@source_options
@out_option()
@voice_option
@writer_option
@allow_empty_option
def run(date: str | None, since: str | None, until: str | None, out: Path | None,
        voice: str | None, writer: str | None, allow_empty: bool, **sources: Any) -> None:
    """Ingest, digest, write, speak and publish one episode.

    --date DAY (or --date latest, the default: the most recent day with activity), or a
    window with --since/--until. Running the same day again with the same input rewrites
    nothing.
    """
    report = jobs.run(_config(), date=date, since=since, until=until, out=out,
                      flags=_flags(sources), on_stage=_print_stage,
                      choices=pipeline.Choices(writer=writer, voice=voice, allow_empty=allow_empty))
    state = "unchanged" if report.reused else "published"
    click.echo(f"{state}: {report.episode.id} — {report.episode.script.title}")
    click.echo(f"page: {report.page}")
    click.echo(f"url:  {report.url}")


@main.command("doctor")
def doctor_command() -> None:
    """Check git, the voice, the database, the output, the config, the token and the LLM."""
    checks = doctor.run_checks(_config())
    for check in checks:
        mark = "ok " if check.ok else ("FAIL" if check.required else "warn")
        click.echo(f"[{mark}] {check.name:<10} {check.detail}")
        if check.fix and not check.ok:
            click.echo(f"       fix: {check.fix}")
    bad = doctor.problems(checks)
    if bad:
        click.echo(f"{len(bad)} problem(s) to fix.", err=True)
        sys.exit(1)
    click.echo("All good.")


@main.command()
@click.option("--from", "start", required=True, metavar="DAY", help="First day (YYYY-MM-DD).")
@click.option("--to", "end", required=True, metavar="DAY", help="Last day, inclusive.")
@click.option("--jobs", "workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Days narrated in parallel processes.")
@out_option()
@voice_option
@allow_empty_option
@source_options
def backfill(start: str, end: str, workers: int, out: Path | None, voice: str | None,
             allow_empty: bool, **sources: Any) -> None:
    """Make one episode per active day from --from to --to; done days are skipped."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    first, last = dates.parse_day(start, "--from"), dates.parse_day(end, "--to")
    jobs.check_range(first, last)
    with Progress(TextColumn("[bold]backfill[/]"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.description}"), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=False) as bar:
        task = bar.add_task("", total=None)
        report = jobs.backfill(
            _config(), start=first, end=last, jobs=workers, out=out, flags=_flags(sources),
            choices=pipeline.Choices(voice=voice, allow_empty=allow_empty),
            on_progress=lambda day, done, total: bar.update(
                task, total=total, completed=done, description=day))
    click.echo(f"made {len(report.made)} episode(s), skipped {len(report.skipped)} already "
               f"done, {len(report.quiet)} quiet day(s) without an episode")


@main.command()
@click.option("--week", metavar="YYYY-Www", help="ISO week, e.g. 2026-W30 (default: last week).")
@out_option()
@voice_option
def weekly(week: str | None, out: Path | None, voice: str | None) -> None:
    """Make and publish the recap of one ISO week's daily episodes."""
    episode = jobs.weekly(_config(), week=week, out=out, voice=voice)
    click.echo(f"published: {episode.id} — {episode.script.title}")


if __name__ == "__main__":  # pragma: no cover
    main()
