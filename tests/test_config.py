import dataclasses
import datetime as dt
import re
import tomllib
from pathlib import Path

import pytest

from mergecast import config
from mergecast.errors import ConfigError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mergecast.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_without_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = config.load()
    assert cfg.path is None
    assert cfg.show.publish_time == dt.time(13, 0)
    assert cfg.writing.words_per_minute == 136
    assert cfg.voice.backend == "piper"
    assert cfg.show_name == tmp_path.name


def test_paths_resolve_relative_to_the_config_file(tmp_path):
    sub = tmp_path / "conf"
    sub.mkdir()
    cfg = config.load(write(sub, '[source]\nrepo = "../repo"\n[store]\npath = "db/x.db"\n'))
    assert cfg.source.repo == tmp_path / "repo"
    assert cfg.store.path == sub / "db/x.db"
    assert cfg.publish.out == sub / "site"


def test_area_rules_keep_their_order(tmp_path):
    cfg = config.load(write(tmp_path, """
[[areas.rules]]
path = "torch/_dynamo/**"
area = "Dynamo"

[[areas.rules]]
label = "module: (?P<area>.+)"

[areas.names]
MPS = "MPS"
"""))
    assert [r.kind for r in cfg.areas.rules] == ["path", "label"]
    assert cfg.areas.rules[0].area == "Dynamo"
    assert cfg.areas.names == {"mps": "MPS"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[show]\ntimezone = 5\n", "expected a string, got number 5 in mergecast.toml [show] timezone"),
        ("[show]\ntimezone = 'Mars/Base'\n",
         "expected an IANA time zone such as 'UTC', got string 'Mars/Base' in mergecast.toml [show] timezone"),
        ("[show]\npublish_time = '25:00'\n",
         "expected a time of day as 'HH:MM', got string '25:00' in mergecast.toml [show] publish_time"),
        ("[writing]\nminutes = 0\n",
         "expected a number from 0.5 to 30, got number 0 in mergecast.toml [writing] minutes"),
        ("[voice]\nbackend = 'robot'\n",
         "expected one of 'piper', 'espeak-ng', 'openai', 'none', got string 'robot' in mergecast.toml [voice] backend"),
        ("[source]\ngithub = 'not a slug'\n",
         "expected a GitHub repository as owner/name, got string 'not a slug' in mergecast.toml [source] github"),
        ("[show]\nnmae = 'x'\n",
         "expected one of name, title, description, author, email, language, timezone, publish_time, base_url, image, got unknown key 'nmae' in mergecast.toml [show]"),
        ("[[areas.rules]]\nlabel = '('\n",
         "expected a regular expression, got '(' (missing ), unterminated subpattern at position 0) in mergecast.toml [areas] rules[0].label"),
        ("[[areas.rules]]\nlabel = 'a'\npath = 'b'\n",
         "expected exactly one of label, title, tag, path, got label, path in mergecast.toml [areas] rules[0]"),
        ("[bogus]\n", "expected one of [show], [source], [store], [areas], [writing], [lexicon], [llm], [voice], [github], [publish], got [bogus] in mergecast.toml"),
    ],
)
def test_errors_name_section_key_expected_and_found(tmp_path, text, message):
    with pytest.raises(ConfigError) as err:
        config.load(write(tmp_path, text))
    assert str(err.value) == message


def test_broken_toml_names_the_file(tmp_path):
    path = write(tmp_path, "[show\n")
    with pytest.raises(ConfigError, match=r"mergecast.toml is not valid TOML: .*; fix the syntax"):
        config.load(path)


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="not found; run `mergecast init` or pass --config"):
        config.load(tmp_path / "nope.toml")


def _declared(cls: type, name: str) -> config.Check:
    return next(f for f in dataclasses.fields(cls) if f.name == name).metadata["check"]


def test_writer_and_voice_choices_come_from_the_registries():
    from mergecast.models import WriterKind
    from mergecast.voice import BACKENDS, NONE
    from mergecast.writing import WRITERS

    assert _declared(config.WritingConfig, "writer").choices == tuple(WRITERS) == tuple(
        k.value for k in WriterKind)
    assert _declared(config.VoiceConfig, "backend").choices == (*BACKENDS, NONE)


def test_init_file_sets_the_given_keys_and_shows_every_other_at_its_default(tmp_path):
    from mergecast.config_docs import init_text

    path = tmp_path / "mergecast.toml"
    text = init_text(name="widgets", title="widgets daily", repo=".", github=None)
    given = config.parse(tomllib.loads(text), path=path)
    assert (given.show.name, given.show.title, given.source.repo, given.source.github) == (
        "widgets", "widgets daily", tmp_path, "")
    # Uncommenting every declared key changes nothing: each comment shows the real default.
    section, lines = "", []
    for line in text.splitlines():
        if line.startswith("["):
            section = line.strip("[]")
        m = re.match(r"^# (\w+) = ", line)
        lines.append(line[2:] if m and m.group(1) in config.SECTIONS.get(section, ()) else line)
    assert sum(1 for a, b in zip(text.splitlines(), lines, strict=True) if a != b) == sum(
        len(keys) for keys in config.SECTIONS.values()) - 3 - 2  # given; [voice] openai, rules
    assert config.parse(tomllib.loads("\n".join(lines)), path=path) == given
