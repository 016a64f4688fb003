"""The command line: options in, one `jobs` call out, the result printed.

Options that several commands take are declared once (in `options`), and so is the group
that handles every error once (`options.Guarded`): ours print their one-line message and
exit with their status, anything else prints one line naming the command and its input
(never a traceback). The heavy
stages (voice, templates, the HTTP client) load only inside the command that needs them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from . import __version__
from .errors import InputError
from .options import (
    Guarded,
    allow_empty_option,
    check_day,
    config,
    current_console,
    examples,
    flags,
    json_option,
    lazy,
    out_option,
    print_json,
    say,
    source_options,
    strict_option,
    verbosity_options,
    voice_option,
    warn,
    window_options,
    writer_option,
)

if TYPE_CHECKING:
    from . import analysis, console, dates, doctor, jobs, pipeline, watch
    from . import config as config_mod
    from .publish import text
else:
    analysis, config_mod, console, dates, doctor, jobs, pipeline, text, watch = (
        lazy(f"mergecast.{m}") for m in ("analysis", "config", "console", "dates", "doctor",
                                          "jobs", "pipeline", "publish.text", "watch"))


@click.group(cls=Guarded, context_settings={"help_option_names": ["-h", "--help"]},
             epilog=examples("mergecast init", "mergecast run --date yesterday",
                              "mergecast --config ~/briefing.toml weekly --json"))
@click.version_option(__version__, prog_name="mergecast")
@click.option("--config", "config_path", type=click.Path(path_type=Path, dir_okay=False),
              envvar="MERGECAST_CONFIG", show_envvar=True,
              help="Path to mergecast.toml (default: the nearest mergecast.toml in this folder "
                   "or a parent folder).")
@click.option("--db", type=click.Path(path_type=Path, dir_okay=False),
              help="SQLite store (default: [store] path, .mergecast/mergecast.db).")
@verbosity_options  # here too: `mergecast -q run` as well as `mergecast run -q`
@click.pass_context
def main(ctx: click.Context, config_path: Path | None, db: Path | None) -> None:
    """Turn a repository's daily activity into a developer briefing podcast.

    Shell completion: eval "$(_MERGECAST_COMPLETE=bash_source mergecast)" in ~/.bashrc
    (zsh_source, fish_source for the other shells; see docs/reference.md).
    """
    ctx.obj = (config_path, db)


@main.command("init", epilog=examples("mergecast init", "mergecast init --gitignore",
                                       "mergecast init --force --no-gitignore"))
@click.option("--force", is_flag=True, help="Overwrite an existing mergecast.toml.")
@click.option("--gitignore/--no-gitignore", default=None,
              help="Add .mergecast/ and site/ to the checkout's .gitignore (default: ask on a "
                   "terminal, else only print the lines).")
@verbosity_options
def init_command(force: bool, gitignore: bool | None) -> None:
    """Write a commented mergecast.toml for the repository in the working folder."""
    done = jobs.init(Path.cwd(), force=force)
    say(f"wrote {done.path}" + (f" for {done.slug}" if done.slug else ""))
    shown = current_console().verbosity >= 0
    if done.ignore and gitignore is None and sys.stdin.isatty() and shown:
        gitignore = click.confirm(f"Add {', '.join(done.ignore)} to {done.ignore_file}?",
                                  default=True, err=True)
    if done.ignore and gitignore:
        jobs.add_to_gitignore(done)
        say(f"added {', '.join(done.ignore)} to {done.ignore_file}")
    elif done.ignore:
        say(f"\nAdd to {done.ignore_file} (the store, media and locks; the site):")
        for line in done.ignore:
            say(f"  {line}")
    say("\nNext steps:\n"
         "  mergecast doctor                 check git, the voice, the token, the output\n"
         "  mergecast run --date latest      make the newest day's episode into site/\n"
         "  mergecast serve                  preview it at http://127.0.0.1:8000/\n"
         "Before publishing the site elsewhere, set [show] base_url to its address and\n"
         "[show] email (itunes:email, where podcast directories write) in mergecast.toml;\n"
         "[show] image sets the cover art.")


@main.command("ingest", epilog=examples(
    "mergecast ingest --repo .", "mergecast ingest --repo ../pytorch --ref main --since 2026-07-01",
    "mergecast ingest --gh-json prs.json --repo-name pytorch/pytorch",
    "mergecast ingest --github pytorch/pytorch --date yesterday"))
@source_options
@click.option("--ref", help="Branch, tag or commit to read (default: the default branch).")
@window_options
@verbosity_options
def ingest_command(date: str | None, since: str | None, until: str | None,
                   **sources: Any) -> None:
    """Read commits (--repo), a gh export (--gh-json) or the GitHub API (--github)."""
    report = jobs.ingest(config(), flags(sources), date=date, since=since, until=until)
    for message in report.warnings:
        warn(message)
    say(f"ingested {report.read} changes from {report.repo} "
         f"({report.new} new, {report.updated} updated)")


@main.command("changes", epilog=examples(
    "mergecast changes --date yesterday",
    "mergecast changes --since 2026-07-20 --until 2026-07-27 --json"))
@window_options
@json_option
@verbosity_options
def changes_command(date: str | None, since: str | None, until: str | None,
                    as_json: bool) -> None:
    """The normalised changes active in a window (created, updated, merged, closed or landed)."""
    cfg = config()
    window, found = jobs.changes(cfg, date=date, since=since, until=until)
    if as_json:
        print_json([text.change_json(c) for c in found])
    elif not found:
        current_console().line(f"no changes from {window.since.isoformat()} to "
                        f"{window.until.isoformat()}")
    for c in found if not as_json else ():
        click.echo(text.change_line(c, window, cfg.show.tz))


@main.command("digest", epilog=examples("mergecast digest --date 2026-07-25",
                                         "mergecast digest --date 2026-07-25 --json > digest.json"))
@window_options
@json_option
@verbosity_options
def digest_command(date: str | None, since: str | None, until: str | None,
                   as_json: bool) -> None:
    """The window's digest: ranked themes and why, areas, duplicates, reverts, newcomers."""
    digest = jobs.digest(config(), date=date, since=since, until=until)
    if as_json:  # sorted keys: the same input always prints the same bytes
        click.echo(json.dumps(analysis.digest_json(digest), indent=2, sort_keys=True,
                              ensure_ascii=False))
    else:
        click.echo(text.printable_block(analysis.format_digest(digest)), nl=False)


@main.command("script", epilog=examples(
    "mergecast script --date 2026-07-25",
    "mergecast script --date 2026-07-25 --markdown > episode.md",
    "mergecast script --date 2026-07-25 --writer llm --json"))
@window_options
@writer_option
@json_option
@click.option("--markdown", "as_markdown", is_flag=True, help="Print the script as Markdown.")
@allow_empty_option
@verbosity_options
def script_command(date: str | None, since: str | None, until: str | None, writer: str | None,
                   as_json: bool, as_markdown: bool, allow_empty: bool) -> None:
    """The episode script for a window: title, summary, sections, fact-checked."""
    if as_json and as_markdown:
        raise InputError("expected one of --json or --markdown, got both; pick one")
    script = jobs.script(config(), date=date, since=since, until=until,
                         choices=pipeline.Choices(writer=writer, allow_empty=allow_empty))
    if as_json:
        print_json(script.to_json())
    else:
        click.echo((text.script_markdown if as_markdown else text.script_text)(script), nl=False)


@main.command("speak", epilog=examples("mergecast speak --date 2026-07-25",
                                        "mergecast speak --date today --voice espeak-ng"))
@window_options
@voice_option
@out_option("Also copy the media to OUT/episodes/<episode-id>/ (a preview folder, never "
            "the site).")
@verbosity_options
def speak_command(date: str | None, since: str | None, until: str | None, voice: str | None,
                  out: Path | None) -> None:
    """Narrate a window's script: episode.mp3, transcript.vtt and chapters.json."""
    episode_id, audio, where = jobs.speak(config(), date=date, since=since, until=until,
                                          voice=voice, out=out, watch=current_console())
    say(f"{episode_id}: {watch.audio_line(audio)}, {len(audio.cues)} cues, "
         f"{len(audio.chapters)} chapters -> {where}")


@main.command("publish", epilog=examples("mergecast publish",
                                          "mergecast publish --out /var/www/briefing --json"))
@out_option()
@json_option
@verbosity_options
def publish_command(out: Path | None, as_json: bool) -> None:
    """Render every stored episode: pages, feeds and sitemap, swapped in atomically."""
    report = jobs.publish(config(), out)
    if as_json:
        print_json(console.publish_json(report))
    else:
        say(f"published {report.episodes} episodes to {report.out} "
             f"({len(report.rendered)} pages rendered, {report.files_linked} files reused, "
             f"{report.seconds:.2f} s); feed: {report.url}")
    for message in report.warnings:
        warn(message)


@main.command("serve", epilog=examples("mergecast serve", "mergecast serve --out site --port 0"))
@out_option()
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind; the default keeps the preview on this machine.")
@verbosity_options
def serve_command(out: Path | None, port: int, host: str) -> None:
    """Preview the site over HTTP (with Range requests, so audio seeks)."""
    from .publish.serve import serve  # here: the HTTP server modules serve no other command

    target = out if out is not None else config().publish.out
    try:
        serve(target, host=host, port=port,
              announce=lambda url: say(f"serving {target} at {url} (Ctrl-C to stop)"))
    except KeyboardInterrupt:
        say("stopped")


@main.command(epilog=examples(
    "mergecast run", "mergecast run --date yesterday --quiet",
    "mergecast run --since 2026-07-24T09:00 --until 2026-07-25T09:00 --voice none",
    "mergecast run --date 2026-08-04 --github pytorch/pytorch --strict --json"))
@window_options
@source_options
@strict_option
@out_option()
@voice_option
@writer_option
@allow_empty_option
@json_option
@verbosity_options
def run(date: str | None, since: str | None, until: str | None, out: Path | None,
        voice: str | None, writer: str | None, allow_empty: bool, as_json: bool,
        **sources: Any) -> None:
    """Ingest, digest, write, speak and publish one episode.

    --date DAY (or --date latest, the default: the most recent day with activity), or a
    window with --since/--until. Running the same day again with the same input rewrites
    nothing.
    """
    report = jobs.run(config(), date=date, since=since, until=until, out=out,
                      flags=flags(sources), watch=current_console(),
                      choices=pipeline.Choices(writer=writer, voice=voice, allow_empty=allow_empty))
    _made(report, as_json)


def _made(report: jobs.RunReport, as_json: bool) -> None:
    """run's and weekly's result: the episode, its page and its URL."""
    if as_json:
        print_json(console.run_json(report))
        return
    state = "unchanged" if report.reused else "published"
    say(text.printable(f"{state}: {report.episode.id} — {report.episode.script.title}"))
    say(f"page: {report.page}")
    say(f"url:  {report.url}")


@main.command("doctor", epilog=examples("mergecast doctor", "mergecast doctor --json"))
@json_option
@verbosity_options
def doctor_command(as_json: bool) -> None:
    """Check git, the voice, the database, the output, the config, the token and the LLM."""
    checks = doctor.run_checks(config())
    bad = doctor.problems(checks)
    if as_json:
        print_json(console.doctor_json(checks))
    else:
        quiet = current_console().verbosity < 0
        for check in checks:
            if quiet and check.status in ("ok", "missing"):
                continue
            click.echo(f"[{check.mark}] {check.name:<10} {check.detail}")
            if check.fix and check.status != "ok":
                click.echo(f"       fix: {check.fix}")
    if bad:
        current_console().line(f"{len(bad)} problem(s) to fix.")
        sys.exit(1)
    if not as_json:
        say("All good.")


@main.command(epilog=examples("mergecast backfill --from 2026-07-01 --to 2026-07-31 --jobs 2",
                               "mergecast backfill --from 2026-07-01 --to yesterday --voice none"))
@click.option("--from", "start", required=True, metavar="DAY", callback=check_day,
              help="First day (YYYY-MM-DD, today or yesterday).")
@click.option("--to", "end", required=True, metavar="DAY", callback=check_day,
              help="Last day, inclusive.")
@click.option("--jobs", "workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Days narrated in parallel processes.")
@out_option()
@voice_option
@allow_empty_option
@source_options
@strict_option
@json_option
@verbosity_options
def backfill(start: str, end: str, workers: int, out: Path | None, voice: str | None,
             allow_empty: bool, as_json: bool, **sources: Any) -> None:
    """Make one episode per active day from --from to --to; done days are skipped."""
    report = jobs.backfill(
        config(), start=dates.parse_day(start, "--from"), end=dates.parse_day(end, "--to"),
        jobs=workers, out=out, flags=flags(sources), watch=current_console(),
        choices=pipeline.Choices(voice=voice, allow_empty=allow_empty))
    if as_json:
        print_json(console.backfill_json(report))
        return
    say(f"made {len(report.made)} episode(s), skipped {len(report.skipped)} already done, "
         f"{len(report.quiet)} quiet day(s) without an episode")
    for label, days in (("made", report.made), ("quiet (no activity)", report.quiet)):
        if days:
            say(f"{label}: {', '.join(days)}")


@main.command(epilog=examples("mergecast weekly", "mergecast weekly --week 2026-W30 --json"))
@click.option("--week", metavar="YYYY-Www", help="ISO week, e.g. 2026-W30 (default: the newest "
              "week with daily episodes that has ended).")
@out_option()
@voice_option
@json_option
@verbosity_options
def weekly(week: str | None, out: Path | None, voice: str | None, as_json: bool) -> None:
    """Make and publish the recap of one ISO week's daily episodes."""
    _made(jobs.weekly(config(), week=week, out=out, voice=voice, watch=current_console()), as_json)


if __name__ == "__main__":  # pragma: no cover
    main()
