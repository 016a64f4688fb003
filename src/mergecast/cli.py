"""Thin CLI: options in, one pipeline call out."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from . import __version__, batch, dates, pipeline
from . import config as config_mod
from . import doctor as doctor_mod
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
        "--until", "until", metavar="WHEN",
        help="End of the window (exclusive): ISO date or datetime."
    )(fn)
    fn = click.option(
        "--since", "since", metavar="WHEN", help="Start of the window: ISO date or datetime."
    )(fn)
    fn = click.option(
        "--date",
        "date",
        metavar="DAY",
        help="The 24 hours that end at the show's publish time on DAY (YYYY-MM-DD); "
    "run also takes 'latest'.",
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

_SLUG = r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+"


def _warn(message: str) -> None:
    click.echo(f"mergecast: warning: {message}", err=True)


def _printable(text: str) -> str:
    """Untrusted titles reach a terminal: drop control characters (escape sequences)."""
    return "".join(ch if ch >= " " and not "\x7f" <= ch <= "\x9f" else " " for ch in text)


@main.command("init")
@click.option("--force", is_flag=True, help="Overwrite an existing mergecast.toml.")
@handle_errors
def init_command(force: bool) -> None:
    """Write a commented mergecast.toml for the repository in the working folder."""
    import os
    import tempfile

    from .errors import InputError
    from .sources.git import detect_github_slug, git

    here = Path.cwd()
    target = here / config_mod.CONFIG_NAME
    if target.exists() and not force:
        raise InputError(f"{target} already exists; pass --force to overwrite it")
    top = git(here, "rev-parse", "--show-toplevel")
    root = Path(top.stdout.strip()) if top.returncode == 0 else here
    slug = detect_github_slug(root) if top.returncode == 0 else None
    name = slug.split("/")[-1] if slug else root.name
    repo = os.path.relpath(root, here)
    text = _INIT_TEMPLATE.format(
        name=_toml(name), title=_toml(f"{name} daily"), repo=_toml(repo),
        github=f"github = {_toml(slug)}" if slug else '# github = "owner/name"',
    )
    fd, tmp = tempfile.mkstemp(dir=here, prefix=".mergecast.toml.")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, target)
    click.echo(f"wrote {target}" + (f" for {slug}" if slug else ""))


def _toml(value: str) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)


_INIT_TEMPLATE = """\
# mergecast.toml, written by `mergecast init`. Every key is optional; the commented
# ones show their defaults.

[show]
name = {name}
title = {title}
# description = "What landed yesterday, in under three minutes."
# author = ""
# language = "en"
# timezone = "UTC"           # IANA zone; a bare --since/--until date is midnight here
# publish_time = "13:00"     # --date DAY covers the 24 hours that end at this time on DAY
# base_url = "http://127.0.0.1:8000/"

[source]
repo = {repo}
# ref = ""                   # empty: the repository's default branch
{github}
# gh_json = "prs.json"       # a `gh pr list --json ...` export
# first_parent = true
# bots = ["my-ci-bot"]       # authors to treat as bots, besides any "[bot]" account

[store]
# path = ".mergecast/mergecast.db"

# [[areas.rules]]            # ordered: the first rule that matches names the area
# path = "docs/**"
# area = "Docs"
"""


@main.command("ingest")
@click.option("--repo", type=click.Path(path_type=Path), help="A git checkout to read.")
@click.option("--ref", help="Branch, tag or commit to read (default: the default branch).")
@window_options
@click.option("--gh-json", "gh_json", type=click.Path(path_type=Path),
              help="A `gh pr list --json ...` export (JSON array or JSON Lines).")
@click.option("--repo-name", metavar="OWNER/NAME", help="The repository the input belongs to.")
@click.option("--github", metavar="OWNER/NAME", help="Fetch PRs from the GitHub API.")
@click.option("--offline", is_flag=True, help="With --github: use only cached responses.")
@pass_ctx
@handle_errors
def ingest_command(
    ctx: Context, repo: Path | None, ref: str | None, date: str | None, since: str | None,
    until: str | None, gh_json: Path | None, repo_name: str | None, github: str | None,
    offline: bool,
) -> None:
    """Read commits (--repo), a gh export (--gh-json) or the GitHub API (--github)."""
    import re

    from . import dates, locking
    from .errors import InputError

    for flag, value in (("--repo-name", repo_name), ("--github", github)):
        if value is not None and not re.fullmatch(_SLUG, value):
            raise InputError(
                f"expected a GitHub repository as OWNER/NAME, got {value!r} for {flag}"
            )
    cfg = ctx.config
    window = None
    lo = hi = None
    if github is not None or date is not None:
        window = dates.window_for(cfg.show, date, since, until)
        lo, hi = window.since, window.until
    else:
        lo = dates.parse_when(since, cfg.show, "--since") if since else None
        hi = dates.parse_when(until, cfg.show, "--until") if until else None
    with locking.exclusive([cfg.store.path]), pipeline.open_store(cfg) as store:
        report = pipeline.ingest(
            cfg, store, repo=repo, ref=ref, since=lo, until=hi, gh_json=gh_json,
            repo_name=repo_name, github=github, window=window, offline=offline,
        )
    for message in report.warnings:
        _warn(message)
    click.echo(
        f"ingested {report.read} changes from {report.repo} "
        f"({report.new} new, {report.updated} updated)"
    )


@main.command("changes")
@window_options
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array.")
@pass_ctx
@handle_errors
def changes_command(
    ctx: Context, date: str | None, since: str | None, until: str | None, as_json: bool
) -> None:
    """The normalised changes active in a window (created, updated, merged, closed or landed)."""
    import json

    from . import dates

    cfg = ctx.config
    window = dates.window_for(cfg.show, date, since, until)
    with pipeline.open_store(cfg) as store:
        found = pipeline.changes(cfg, store, window)
    if as_json:
        click.echo(json.dumps([pipeline.change_json(c) for c in found], indent=2,
                              ensure_ascii=False))
        return
    if not found:
        click.echo(f"no changes from {window.since.isoformat()} to {window.until.isoformat()}",
                   err=True)
        return
    for c in found:
        when = max(t for t in c.times() if window.contains(t)).astimezone(cfg.show.tz)
        ident = f"#{c.number}" if c.number is not None else (c.sha or "")[:10]
        size = ""
        if c.files is not None:
            size = f"  (+{c.additions or 0} -{c.deletions or 0}, {len(c.files)} files)"
        click.echo(
            f"{when:%Y-%m-%d %H:%M}  {ident:<10} {c.state.value:<7} "
            f"{_printable(c.author.handle):<16} {_printable(c.title)}{size}"
        )

# ---- commands: digest (analysis)


@main.command("digest")
@window_options
@click.option("--json", "as_json", is_flag=True,
              help="Print the documented JSON shape (deterministic: sorted keys).")
@pass_ctx
@handle_errors
def digest_command(
    ctx: Context, date: str | None, since: str | None, until: str | None, as_json: bool
) -> None:
    """The window's digest: ranked themes and why, areas, duplicates, reverts, newcomers."""
    import json

    from . import dates
    from .analysis import digest_json, format_digest

    cfg = ctx.config
    window = dates.window_for(cfg.show, date, since, until)
    with pipeline.open_store(cfg) as store:
        digest = pipeline.digest_for(cfg, store, window)
    if as_json:
        click.echo(json.dumps(digest_json(digest), indent=2, sort_keys=True, ensure_ascii=False))
        return
    click.echo(_printable_block(format_digest(digest)), nl=False)


def _printable_block(text: str) -> str:
    return "\n".join(_printable(line) for line in text.split("\n"))


# ---- commands: script (writing)


@main.command("script")
@window_options
@click.option("--writer", type=click.Choice(config_mod.WRITERS),
              help="Writer backend (default: [writing] writer, template).")
@click.option("--json", "as_json", is_flag=True, help="Print the documented script JSON.")
@click.option("--markdown", "as_markdown", is_flag=True, help="Print the script as Markdown.")
@click.option("--allow-empty", is_flag=True,
              help="Write a short no-news episode when the window is empty.")
@pass_ctx
@handle_errors
def script_command(
    ctx: Context, date: str | None, since: str | None, until: str | None, writer: str | None,
    as_json: bool, as_markdown: bool, allow_empty: bool,
) -> None:
    """The episode script for a window: title, summary, sections, fact-checked."""
    import json
    import warnings

    from . import dates
    from .errors import InputError
    from .writing import WritingWarning

    if as_json and as_markdown:
        raise InputError("expected one of --json or --markdown, got both; pick one")
    cfg = ctx.config
    window = dates.window_for(cfg.show, date, since, until)
    day = dates.parse_day(date) if date is not None else dates.covered_day(window, cfg.show)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", WritingWarning)
        with pipeline.open_store(cfg) as store:
            script = pipeline.script_for(cfg, store, window, day=day, writer=writer,
                                         allow_empty=allow_empty)
    for w in caught:
        if issubclass(w.category, WritingWarning):
            click.echo(f"mergecast: warning: {w.message}", err=True)
    if as_json:
        click.echo(json.dumps(script.to_json(), indent=2, ensure_ascii=False))
    elif as_markdown:
        click.echo(_script_markdown(script), nl=False)
    else:
        click.echo(_script_text(script), nl=False)


def _script_text(script: Any) -> str:
    lines = [_printable(f"{script.show}: {script.title}"), _printable(script.summary), ""]
    for section in script.sections:
        lines += [_printable(section.heading), _printable(section.text), ""]
    lines.append(f"({script.words} spoken words, writer: {script.writer})")
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    """Untrusted text in Markdown: escape what would become markup or HTML."""
    import re

    return re.sub(r"([\\`*_{}\[\]<>()#+!|~])", r"\\\1", _printable(text))


def _script_markdown(script: Any) -> str:
    from .dates import spoken_date

    lines = [f"# {_md(script.title)}", "", f"*{_md(spoken_date(script.date))}* — "
             f"{_md(script.summary)}", ""]
    for section in script.sections:
        lines += [f"## {_md(section.heading)}", "", _md(section.text), ""]
    return "\n".join(lines)


# ---- commands: speak (voice)


@main.command("speak")
@window_options
@click.option(
    "--voice",
    type=click.Choice(config_mod.VOICES),
    help="Voice backend (default: [voice] backend, piper). 'none' makes a text-only episode.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    help="Also copy the media to OUT/episodes/<episode-id>/.",
)
@pass_ctx
@handle_errors
def speak_command(
    ctx: Context,
    date: str | None,
    since: str | None,
    until: str | None,
    voice: str | None,
    out: Path | None,
) -> None:
    """Narrate a window's script: episode.mp3, transcript.vtt and chapters.json."""

    from . import dates, locking
    from .voice import iso_duration

    cfg = ctx.config
    window = dates.window_for(cfg.show, date, since, until)
    day = dates.parse_day(date) if date is not None else dates.covered_day(window, cfg.show)
    locks = [cfg.store.path] + ([out] if out is not None else [])
    with locking.exclusive(locks), pipeline.open_store(cfg) as store:
        audio = pipeline.speak(cfg, store, window, day=day, voice=voice, out=out)
    where = out / "episodes" / day.isoformat() if out else pipeline.media_dir(cfg, day.isoformat())
    kind = f"{audio.voice} audio" if audio.audio_bytes is not None else "text only, no audio"
    click.echo(
        f"{day.isoformat()}: {iso_duration(audio.duration_seconds)} "
        f"({audio.duration_seconds:.1f} s, {kind}), {len(audio.cues)} cues, "
        f"{len(audio.chapters)} chapters -> {where}"
    )


# ---- commands: publish, serve (publishing)


@main.command("publish")
@click.option("--out", type=click.Path(path_type=Path, file_okay=False),
              help="Site folder (default: [publish] out, ./site).")
@pass_ctx
@handle_errors
def publish_command(ctx: Context, out: Path | None) -> None:
    """Render every stored episode: pages, feeds and sitemap, swapped in atomically."""
    from . import locking

    cfg = ctx.config
    target = out if out is not None else cfg.publish.out
    with locking.exclusive([cfg.store.path, target]), pipeline.open_store(cfg) as store:
        report = pipeline.publish(cfg, store, target)
    click.echo(
        f"published {report.episodes} episodes to {report.out} "
        f"({len(report.rendered)} pages rendered, {report.files_linked} files reused, "
        f"{report.seconds:.2f} s); feed: {report.url}"
    )


@main.command("serve")
@click.option("--out", type=click.Path(path_type=Path, file_okay=False),
              help="Site folder (default: [publish] out, ./site).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind; the default keeps the preview on this machine.")
@pass_ctx
@handle_errors
def serve_command(ctx: Context, out: Path | None, port: int, host: str) -> None:
    """Preview the site over HTTP (with Range requests, so audio seeks)."""
    from .publish import serve

    target = out if out is not None else ctx.config.publish.out
    try:
        serve(target, host=host, port=port,
              announce=lambda url: click.echo(f"serving {target} at {url} (Ctrl-C to stop)"))
    except KeyboardInterrupt:
        click.echo("stopped")


# ---- commands: run, backfill, weekly, doctor (daily job)


def source_options(fn: F) -> F:
    """Where activity comes from; each overrides [source] in mergecast.toml."""
    fn = click.option("--offline", is_flag=True,
                      help="GitHub source: use cached responses only.")(fn)
    fn = click.option("--repo-name", metavar="OWNER/NAME",
                      help="Repository identity for --repo and --gh-json changes.")(fn)
    fn = click.option("--github", metavar="OWNER/NAME",
                      help="Fetch pull requests from GitHub.")(fn)
    fn = click.option(
        "--gh-json", type=click.Path(path_type=Path, dir_okay=False),
        help="Import a `gh pr list --json` export.",
    )(fn)
    fn = click.option(
        "--repo", type=click.Path(path_type=Path, file_okay=False),
        help="Read landed commits from this git repository.",
    )(fn)
    return fn


def _print_stage(name: str, seconds: float, detail: str) -> None:
    click.echo(f"  {name:<8} {seconds:7.2f} s  {detail}", err=True)


@main.command()
@window_options
@source_options
@click.option("--out", type=click.Path(path_type=Path, file_okay=False),
              help="Site folder (default: [publish] out, ./site).")
@click.option("--voice", type=click.Choice(config_mod.VOICES), help="Voice backend for this run.")
@click.option("--writer", type=click.Choice(config_mod.WRITERS), help="Writer for this run.")
@click.option("--allow-empty", is_flag=True, help="Make an episode even for a quiet window.")
@pass_ctx
@handle_errors
def run(ctx: Context, date: str | None, since: str | None, until: str | None,
        repo: Path | None, gh_json: Path | None, github: str | None, repo_name: str | None,
        offline: bool, out: Path | None, voice: str | None, writer: str | None,
        allow_empty: bool) -> None:
    """Ingest, digest, write, speak and publish one episode.

    --date DAY (or --date latest, the default: the most recent day with activity), or a
    window with --since/--until. Running the same day again with the same input rewrites
    nothing.
    """
    report = pipeline.run(
        ctx.config, date=date, since=since, until=until, out=out, repo=repo,
        gh_json=gh_json, github=github, repo_name=repo_name, voice=voice, writer=writer,
        offline=offline,
        allow_empty=allow_empty, on_stage=_print_stage,
    )
    if report.episode is not None:
        state = "unchanged" if report.reused else "published"
        click.echo(f"{state}: {report.episode.id} — {report.episode.script.title}")
        click.echo(f"page: {report.page}")
        click.echo(f"url:  {report.url}")


@main.command()
@pass_ctx
@handle_errors
def doctor(ctx: Context) -> None:
    """Check git, the voice, the database, the output, the config, the token and the LLM."""
    checks = doctor_mod.run_checks(ctx.config)
    for check in checks:
        mark = "ok " if check.ok else ("FAIL" if check.required else "warn")
        click.echo(f"[{mark}] {check.name:<10} {check.detail}")
        if check.fix and not check.ok:
            click.echo(f"       fix: {check.fix}")
    bad = doctor_mod.problems(checks)
    if bad:
        click.echo(f"{len(bad)} problem(s) to fix.", err=True)
        sys.exit(1)
    click.echo("All good.")


@main.command()
@click.option("--from", "start", required=True, metavar="DAY", help="First day (YYYY-MM-DD).")
@click.option("--to", "end", required=True, metavar="DAY", help="Last day, inclusive.")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Days narrated in parallel processes.")
@click.option("--out", type=click.Path(path_type=Path, file_okay=False),
              help="Site folder (default: [publish] out, ./site).")
@click.option("--voice", type=click.Choice(config_mod.VOICES), help="Voice backend for this run.")
@click.option("--allow-empty", is_flag=True, help="Make episodes for quiet days too.")
@source_options
@pass_ctx
@handle_errors
def backfill(ctx: Context, start: str, end: str, jobs: int, out: Path | None,
             voice: str | None, allow_empty: bool, repo: Path | None, gh_json: Path | None,
             github: str | None, repo_name: str | None, offline: bool) -> None:
    """Make one episode per active day from --from to --to; done days are skipped."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    first, last = dates.parse_day(start, "--from"), dates.parse_day(end, "--to")
    batch.check_range(first, last)
    with Progress(
        TextColumn("[bold]backfill[/]"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.description}"), TimeRemainingColumn(),
        console=_stderr_console(), transient=False,
    ) as bar:
        task = bar.add_task("", total=None)

        def progress(day: str, done: int, total: int) -> None:
            bar.update(task, total=total, completed=done, description=day)

        report = batch.backfill(
            ctx.config, start=first, end=last,
            jobs=jobs, out=out, voice=voice, allow_empty=allow_empty, on_progress=progress,
            sources={"repo": repo, "gh_json": gh_json, "github": github,
                     "repo_name": repo_name, "offline": offline},
        )
    click.echo(
        f"made {len(report.made)} episode(s), skipped {len(report.skipped)} already done, "
        f"{len(report.quiet)} quiet day(s) without an episode"
    )


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


@main.command()
@click.option("--week", metavar="YYYY-Www", help="ISO week, e.g. 2026-W30 (default: last week).")
@click.option("--out", type=click.Path(path_type=Path, file_okay=False),
              help="Site folder (default: [publish] out, ./site).")
@click.option("--voice", type=click.Choice(config_mod.VOICES), help="Voice backend for this run.")
@pass_ctx
@handle_errors
def weekly(ctx: Context, week: str | None, out: Path | None, voice: str | None) -> None:
    """Make and publish the recap of one ISO week's daily episodes."""
    episode = batch.weekly(ctx.config, week=week, out=out, voice=voice)
    click.echo(f"published: {episode.id} — {episode.script.title}")


if __name__ == "__main__":  # pragma: no cover
    main()
