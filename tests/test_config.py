import datetime as dt
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
    assert cfg.writing.words_per_minute == 150
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
