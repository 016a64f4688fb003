"""docs/reference.md lists every command, option, config section and key; README's quick start.

The checks walk the real click tree and config.SECTIONS, so adding an option or a key
without documenting it fails here. Each name must appear in its own part of the page:
an option in a table row under its command's heading, a key in a table row under its
section's heading, so `timeout` documented under [llm] does not count for [github].
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path

import click

from mergecast import cli, config, config_docs

REPO_ROOT = Path(__file__).resolve().parents[1]
REFERENCE = REPO_ROOT / "docs" / "reference.md"
README = REPO_ROOT / "README.md"

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
GLOBAL_HEADING = "Global options"
EXAMPLE_HEADING = "Example `mergecast.toml`"


def parts(text: str, level: int) -> dict[str, str]:
    """Heading text -> its body, for headings of exactly `level`.

    A body runs to the next heading of the same or a higher level, so it includes its
    subsections. Lines inside fenced code blocks are never headings (TOML comments are `#`).
    """
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        m = None if fenced else _HEADING.match(line)
        if m:
            depth = len(m.group(1))
            if depth == level:
                current = found.setdefault(m.group(2), [])
                continue
            if depth < level:
                current = None
        if current is not None:
            current.append(line)
    return {title: "\n".join(lines) for title, lines in found.items()}


def commands(group: click.Group, prefix: str = "mergecast") -> Iterator[tuple[str, click.Command]]:
    """(full name, command) for every command below `group`, nested groups included."""
    for name, command in sorted(group.commands.items()):
        full = f"{prefix} {name}"
        yield full, command
        if isinstance(command, click.Group):
            yield from commands(command, full)


def long_options(command: click.Command) -> list[str]:
    names = []
    for param in command.params:
        if isinstance(param, click.Option):
            names += [o for o in (*param.opts, *param.secondary_opts) if o.startswith("--")]
    return names


def _row(name: str) -> re.Pattern[str]:
    """A table row whose first cell starts with `name` in backticks (`--out DIRECTORY`)."""
    return re.compile(rf"^\|\s*`{re.escape(name)}(?=[\s`=\[])", re.M)


def missing_commands_and_options(text: str, group: click.Group) -> list[str]:
    sections = parts(text, 3)
    missing: list[str] = []
    targets: list[tuple[str, str, click.Command]] = [(GLOBAL_HEADING, "mergecast", group)]
    targets += [(f"`{full}`", full, command) for full, command in commands(group)]
    for heading, full, command in targets:
        body = sections.get(heading)
        if body is None:
            missing.append(f"heading ### {heading}")
            continue
        missing += [f"{full} {opt}" for opt in long_options(command)
                    if not _row(opt).search(body)]
    return missing


def missing_keys(text: str, sections: Mapping[str, tuple[str, ...]]) -> list[str]:
    documented = {**parts(text, 3), **parts(text, 4)}
    missing: list[str] = []
    for section, keys in sections.items():
        body = documented.get(f"`[{section}]`")
        if body is None:
            missing.append(f"heading `[{section}]`")
            continue
        missing += [f"[{section}] {key}" for key in keys if not _row(key).search(body)]
    return missing


def example_toml(text: str) -> str:
    body = parts(text, 3)[EXAMPLE_HEADING]
    m = re.search(r"^```toml\n(.*?)^```", body, re.S | re.M)
    assert m, "the example mergecast.toml is not in a ```toml block"
    return m.group(1)


def _text() -> str:
    return REFERENCE.read_text(encoding="utf-8")


def test_every_command_and_option_is_documented_under_its_heading() -> None:
    assert missing_commands_and_options(_text(), cli.main) == []


def test_every_documented_command_exists() -> None:
    real = {full for full, _ in commands(cli.main)}
    headed = {h.strip("`") for h in parts(_text(), 3) if h.startswith("`mergecast ")}
    assert headed - real == set()
    assert real <= headed


def test_every_config_section_and_key_is_documented_in_its_section() -> None:
    assert missing_keys(_text(), config.SECTIONS) == []


def test_key_tables_are_made_from_the_key_declarations() -> None:
    """Each section's table is generated (`make docs`); editing the table by hand fails here."""
    text = _text()
    assert config_docs.update_reference(text) == text
    assert text.count("<!-- keys [") == sum(1 for keys in config.SECTIONS.values() if keys)
    edited = text.replace("The per-request timeout in seconds.", "The timeout.")
    assert config_docs.update_reference(edited) == text


def test_area_rule_kinds_are_documented() -> None:
    body = parts(_text(), 4)["`[[areas.rules]]`"]
    for key in (*config.RULE_KINDS, "area"):
        assert _row(key).search(body), key
    assert "{area}" in body


def test_checks_report_an_undocumented_option_and_key() -> None:
    """The checks above can fail: a new option or key, or a deleted row, is reported."""
    text = _text()
    extra = click.Group("mergecast", params=list(cli.main.params),
                        commands=dict(cli.main.commands))
    run = click.Command("run", params=[*cli.main.commands["run"].params,
                                       click.Option(["--brand-new-flag"], is_flag=True)])
    extra.add_command(run)
    assert missing_commands_and_options(text, extra) == ["mergecast run --brand-new-flag"]
    assert missing_keys(text, {**config.SECTIONS, "github": ("api_url", "proxy")}) == [
        "[github] proxy"]
    # `timeout` is documented under [llm]; deleting it there must not be hidden by [github].
    llm = parts(text, 3)["`[llm]`"]
    cut = text.replace(llm, re.sub(r"^\| `timeout` .*$", "", llm, flags=re.M))
    assert missing_keys(cut, config.SECTIONS) == ["[llm] timeout"]
    serve = parts(text, 3)["`mergecast serve`"]
    cut = text.replace(serve, re.sub(r"^\| `--port .*$", "", serve, flags=re.M))
    assert missing_commands_and_options(cut, cli.main) == ["mergecast serve --port"]


def test_example_config_is_valid_and_sets_every_key() -> None:
    data = tomllib.loads(example_toml(_text()))
    config.parse(data)  # raises ConfigError on any unknown key or bad value
    for section, keys in config.SECTIONS.items():
        node: object = data
        for part in section.split("."):
            assert isinstance(node, dict) and part in node, f"[{section}] missing from example"
            node = node[part]
        assert isinstance(node, dict)
        assert [k for k in keys if k not in node] == [], f"[{section}] keys missing from example"


def test_readme_first_block_names_exactly_make_demo_and_make_test() -> None:
    text = README.read_text(encoding="utf-8")
    m = re.search(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M)
    assert m, "README.md has no fenced block"
    lines = [line.split("#", 1)[0].strip() for line in m.group(1).splitlines()]
    assert [line for line in lines if line] == ["make demo", "make test"]


def help_examples(command: click.Command) -> list[str]:
    """The example lines at the end of a command's --help."""
    epilog = command.epilog or ""
    return [line.strip() for line in epilog.split("Examples:", 1)[-1].splitlines()
            if line.strip().startswith("mergecast")]


def test_every_help_ends_with_examples_that_the_reference_shows() -> None:
    sections = parts(_text(), 3)
    for full, command in commands(cli.main):
        examples = help_examples(command)
        assert examples, f"{full} --help has no examples"
        blocks = re.findall(r"^```sh\n(.*?)^```", sections[f"`{full}`"], re.S | re.M)
        shown = {line.split("  #")[0].strip() for block in blocks for line in block.splitlines()}
        assert [e for e in examples if e not in shown] == [], full
    assert help_examples(cli.main)
