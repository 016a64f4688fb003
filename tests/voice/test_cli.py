from __future__ import annotations

from click.testing import CliRunner

from mergecast.cli import main


def test_speak_help_lists_voices():
    result = CliRunner().invoke(main, ["speak", "--help"])
    assert result.exit_code == 0
    assert "[piper|espeak-ng|openai|none]" in result.output
    assert "--date DAY" in result.output and "--out DIRECTORY" in result.output


def test_speak_bad_date_is_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["speak", "--date", "2026-02-30"])
    assert result.exit_code == 2
    assert result.output == ("mergecast: expected a day as YYYY-MM-DD, 'today' or 'yesterday', "
                             "got '2026-02-30' for --date\n")
    assert not (tmp_path / ".mergecast").exists()


def test_speak_rejects_unknown_voice(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["speak", "--date", "2026-01-02", "--voice", "sam"])
    assert result.exit_code == 2
    assert "Invalid value for '--voice'" in result.output
