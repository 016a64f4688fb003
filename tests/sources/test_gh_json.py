"""Importing `gh pr list --json …` exports (arrays and JSON Lines)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from mergecast.errors import GhJsonError
from mergecast.models import FileChange, State
from mergecast.sources.gh_json import load_gh_json

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
SAMPLE = SHARED / "data" / "github" / "pytorch-2026-08-window.json"
FIX = (
    "re-export it with `gh pr list --state all --json number,title,author,body,createdAt,"
    "updatedAt,mergedAt,closedAt,state,url,labels,files,additions,deletions,baseRefName,"
    "headRefName,isDraft > FILE`"
)

FULL = {
    "number": 42,
    "title": "[dynamo] Trace through <script>",
    "author": {"id": "MDQ", "is_bot": False, "login": "alice", "name": "Alice"},
    "body": "Fixes #41",
    "createdAt": "2026-08-03T14:00:00Z",
    "updatedAt": "2026-08-04T09:30:00Z",
    "mergedAt": "2026-08-04T09:30:00Z",
    "closedAt": "2026-08-04T09:30:00Z",
    "state": "MERGED",
    "url": "https://github.com/o/r/pull/42",
    "labels": [{"id": "L1", "name": "module: dynamo", "color": "ededed", "description": ""}],
    "files": [{"path": "torch/_dynamo/a.py", "additions": 10, "deletions": 2}],
    "additions": 10,
    "deletions": 2,
    "baseRefName": "main",
    "headRefName": "alice/trace",
    "isDraft": False,
    "reviewDecision": "APPROVED",  # a field we do not read
    "statusCheckRollup": [{"state": "SUCCESS"}],
}


def write(tmp_path: Path, text: str | bytes, name: str = "prs.json") -> Path:
    path = tmp_path / name
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return path


@pytest.mark.skipif(not SAMPLE.is_file(), reason="../shared sample data not present")
def test_the_shared_sample_imports() -> None:
    changes = load_gh_json(SAMPLE)
    records = json.loads(SAMPLE.read_text(encoding="utf-8"))
    assert len(changes) == len(records) == 15
    assert {c.repo for c in changes} == {"pytorch/pytorch"}
    assert [c.number for c in changes] == [r["number"] for r in records]
    by_number = {c.number: c for c in changes}
    stack = by_number[192110]
    assert stack.author.login == "tushar00jain" and stack.state is State.CLOSED
    assert stack.created_at == dt.datetime(2026, 8, 4, tzinfo=dt.UTC)
    assert stack.files is None and stack.labels == ()
    assert "ghstack" in " ".join(c.body for c in changes)


def test_every_gh_field_converts_and_unknown_fields_are_ignored(tmp_path: Path) -> None:
    bot = {"number": 7, "title": "Bump deps", "author": {"login": "renovate", "is_bot": True},
           "state": "OPEN", "isDraft": True, "url": "https://github.com/o/r/pull/7",
           "somethingNew": {"nested": [1, 2]}}
    [c, b] = load_gh_json(write(tmp_path, json.dumps([FULL, bot])))
    assert c.repo == "o/r" and c.number == 42 and c.title == "[dynamo] Trace through <script>"
    assert c.state is State.MERGED and c.merged_at == dt.datetime(2026, 8, 4, 9, 30, tzinfo=dt.UTC)
    assert c.labels == ("module: dynamo",)
    assert c.files == (FileChange("torch/_dynamo/a.py", 10, 2),) and not c.files_truncated
    assert (c.base_ref, c.head_ref, c.additions, c.deletions) == ("main", "alice/trace", 10, 2)
    assert c.author.login == "alice" and not c.bot and not c.draft
    assert b.bot and b.draft and b.state is State.OPEN and b.files is None and b.body == ""


def test_only_number_and_title_are_required(tmp_path: Path) -> None:
    [c] = load_gh_json(write(tmp_path, '[{"number": 3, "title": "t"}]'), repo="o/r")
    assert (c.repo, c.number, c.title, c.author.login, c.created_at) == ("o/r", 3, "t", None, None)


def test_json_lines_work(tmp_path: Path) -> None:
    lines = [json.dumps(FULL), "", json.dumps({**FULL, "number": 43, "state": "CLOSED",
                                               "mergedAt": None, "author": {"login": "x[bot]"}})]
    changes = load_gh_json(write(tmp_path, "\n".join(lines) + "\n", "prs.jsonl"))
    assert [c.number for c in changes] == [42, 43]
    assert changes[1].state is State.CLOSED and changes[1].bot


def test_repo_argument_overrides_the_url(tmp_path: Path) -> None:
    [c] = load_gh_json(write(tmp_path, json.dumps([FULL])), repo="fork/r")
    assert c.repo == "fork/r" and c.key == "fork/r#42"


def test_broken_json_reports_file_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, '[\n  {"number": 1, "title": "a"},\n  {"number": 2, "title": }\n]\n')
    with pytest.raises(GhJsonError) as err:
        load_gh_json(path)
    assert str(err.value) == f"{path}:3:26: not valid JSON (Expecting value); {FIX}"
    assert err.value.exit_code == 2


def test_truncated_array_is_reported_where_it_ends(tmp_path: Path) -> None:
    path = write(tmp_path, '[{"number": 1, "title": "a"}')
    with pytest.raises(GhJsonError) as err:
        load_gh_json(path)
    assert str(err.value) == f"{path}:1:29: expected ',' or ']', got end of file; {FIX}"


def test_broken_json_lines_name_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, '{"number": 1, "title": "a"}\n{"number": 2, "title": "b"\n')
    with pytest.raises(GhJsonError) as err:
        load_gh_json(path)
    assert str(err.value) == f"{path}:2:27: not valid JSON (Expecting ',' delimiter); {FIX}"


def test_pretty_printed_objects_one_after_another(tmp_path: Path) -> None:
    text = json.dumps(FULL, indent=2) + "\n" + json.dumps({**FULL, "number": 43}, indent=2)
    assert [c.number for c in load_gh_json(write(tmp_path, text))] == [42, 43]


def test_a_bad_record_imports_nothing_and_names_its_place(tmp_path: Path) -> None:
    path = write(tmp_path, '[\n {"number": 1, "title": "a", "url": "https://github.com/o/r/pull/1"},'
                           '\n {"title": "no number"}\n]')
    with pytest.raises(GhJsonError) as err:
        load_gh_json(path)
    assert str(err.value) == f"{path}:3:2: record 2: expected an integer number, got nothing; {FIX}"


def test_wrong_types_are_named(tmp_path: Path) -> None:
    path = write(tmp_path, json.dumps([{**FULL, "createdAt": "yesterday"}]))
    with pytest.raises(GhJsonError) as err:
        load_gh_json(path)
    assert "expected an ISO time such as 2026-08-03T13:00:00Z for createdAt, got 'yesterday' " \
           "in PR #42" in str(err.value)


def test_no_url_and_no_repo_says_to_pass_the_repo(tmp_path: Path) -> None:
    path = write(tmp_path, '[{"number": 5, "title": "x"}]')
    with pytest.raises(GhJsonError) as err:
        load_gh_json(path)
    assert str(err.value).startswith(f"{path}:1:2: record 1: PR #5 has no url")


def test_not_utf8_is_a_clear_error(tmp_path: Path) -> None:
    path = write(tmp_path, b'[{"number": 1,\n "title": "caf\xe9"}]')
    with pytest.raises(GhJsonError) as err:
        load_gh_json(path)
    assert str(err.value) == (
        f"{path}:2: not UTF-8 text (byte 0xe9 at offset 29); {FIX} from a UTF-8 shell"
    )
    utf16 = write(tmp_path, '[{"number": 1, "title": "a"}]'.encode("utf-16"), "w.json")
    with pytest.raises(GhJsonError, match="is UTF-16 text, expected UTF-8"):
        load_gh_json(utf16)


def test_empty_and_missing_files(tmp_path: Path) -> None:
    with pytest.raises(GhJsonError, match="is empty; expected the JSON array gh prints"):
        load_gh_json(write(tmp_path, "\n"))
    with pytest.raises(GhJsonError, match="no such file; check the --gh-json path"):
        load_gh_json(tmp_path / "nope.json")
    assert load_gh_json(write(tmp_path, "[]\n")) == []


def test_a_full_first_100_files_is_marked_possibly_truncated(tmp_path: Path) -> None:
    files = [{"path": f"f{i}", "additions": 1, "deletions": 0} for i in range(100)]
    [c] = load_gh_json(write(tmp_path, json.dumps([{**FULL, "files": files}])))
    assert c.files is not None and len(c.files) == 100 and c.files_truncated
    [d] = load_gh_json(write(tmp_path, json.dumps([{**FULL, "files": files[:99]}])))
    assert not d.files_truncated
    [e] = load_gh_json(write(tmp_path, json.dumps([{**FULL, "files": files, "changedFiles": 100}])))
    assert not e.files_truncated and e.changed_files == 100


def test_cli_broken_export_is_one_line_exit_2_and_stores_nothing(tmp_path: Path) -> None:
    pytest.importorskip("mergecast.store")
    from click.testing import CliRunner

    from mergecast.cli import main

    db = str(tmp_path / "mc.db")
    good = write(tmp_path, json.dumps([FULL]), "good.json")
    bad = write(tmp_path, json.dumps([{**FULL, "number": 43}])[:-1], "bad.json")
    runner = CliRunner()
    assert runner.invoke(main, ["--db", db, "ingest", "--gh-json", str(good)]).exit_code == 0
    result = runner.invoke(main, ["--db", db, "ingest", "--gh-json", str(bad)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"mergecast: {bad}:1:")
    assert result.stderr.count("\n") == 1
    out = runner.invoke(main, ["--db", db, "changes", "--since", "2026-08-01",
                               "--until", "2026-08-10", "--json"])
    assert [c["number"] for c in json.loads(out.stdout)] == [42]


def test_author_association_is_read_when_an_export_has_it(tmp_path: Path) -> None:
    # `gh pr list` cannot export it; GraphQL-shaped exports and the GitHub source can
    records = [{**FULL, "number": 1, "authorAssociation": "FIRST_TIME_CONTRIBUTOR"},
               {**FULL, "number": 2, "authorAssociation": "<b>MEMBER</b>"},
               {**FULL, "number": 3}]
    changes = load_gh_json(write(tmp_path, json.dumps(records)))
    assert [c.author_association for c in changes] == ["FIRST_TIME_CONTRIBUTOR", None, None]


# ------------------------------------------------------------------ hostile exports


def refused(tmp_path: Path, **fields: object) -> tuple[Path, str]:
    """(the export, its one-line error) for FULL with `fields` changed."""
    path = write(tmp_path, json.dumps([{**FULL, **fields}]))
    with pytest.raises(GhJsonError) as err:
        load_gh_json(path)
    return path, str(err.value)


@pytest.mark.parametrize("number", [2**63, 2**31, 0, -5])
def test_a_pr_number_out_of_range_is_one_clear_error(tmp_path: Path, number: int) -> None:
    path, error = refused(tmp_path, number=number)
    assert error == (
        f"{path}:1:2: record 1: expected a PR number from 1 to 2147483647, got {number}; {FIX}"
    )


def test_a_count_out_of_range_is_one_clear_error(tmp_path: Path) -> None:
    path, error = refused(tmp_path, additions=10**30)
    assert error == (
        f"{path}:1:2: record 1: expected additions from 0 to 2147483647, got "
        f"1000000000000000000000000000000 in PR #42; {FIX}"
    )


@pytest.mark.parametrize("layout", ["array", "lines", "bare"])
def test_json_nested_100000_deep_is_one_clear_error(tmp_path: Path, layout: str) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    text = {"array": f"[{json.dumps(FULL)},\n {deep}]", "lines": f"{json.dumps(FULL)}\n{deep}\n",
            "bare": deep}[layout]
    path = write(tmp_path, text)
    with pytest.raises(GhJsonError) as err:
        load_gh_json(path)
    where = {"array": "2:2", "lines": "2:1", "bare": "1:2"}[layout]
    assert str(err.value) == (
        f"{path}:{where}: JSON nested too deeply to read (gh never nests more than a few "
        f"levels); {FIX}"
    )


@pytest.mark.parametrize("url", [
    "https://github.com/o/r\x1b]0;pwned\x07/pull/42",  # a terminal title escape
    "https://github.com/\u202eo/r\u202c/pull/42",  # RTL override around the owner
    "https://github.com/o\u200b/r/pull/42",  # a zero-width space in the owner
])
def test_the_repository_from_a_url_is_cleaned(tmp_path: Path, url: str) -> None:
    [c] = load_gh_json(write(tmp_path, json.dumps([{**FULL, "url": url}])))
    assert c.repo == "o/r" and c.key == "o/r#42"
    assert c.url == "https://github.com/o/r/pull/42"


@pytest.mark.parametrize("url", [
    "https://github.com/<b>o</b>/r/pull/42", "https://github.com/../r/pull/42",
    "https://github.com/o/r;rm -rf/pull/42",
])
def test_a_url_without_a_plain_owner_and_name_is_refused(tmp_path: Path, url: str) -> None:
    path, error = refused(tmp_path, url=url)
    assert error == (
        f"{path}:1:2: record 1: PR #42 has no url of the form "
        "https://github.com/OWNER/NAME/pull/N to take the repository from; pass --repo-name "
        f"OWNER/NAME or set [source] github; {FIX}"
    )


def test_branch_names_are_cleaned(tmp_path: Path) -> None:
    record = {**FULL, "baseRefName": "main\x1b[2J", "headRefName": "alice/\u202etrace\n"}
    [c] = load_gh_json(write(tmp_path, json.dumps([record])))
    assert (c.base_ref, c.head_ref) == ("main", "alice/trace")


def test_cli_a_pr_number_of_2_to_the_63_is_one_line(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from mergecast.cli import main

    path = write(tmp_path, json.dumps([{**FULL, "number": 2**63}]))
    result = CliRunner().invoke(main, ["--db", str(tmp_path / "mc.db"), "ingest",
                                       "--gh-json", str(path)])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"mergecast: {path}:1:2: record 1: expected a PR number from 1 to 2147483647, got "
        f"9223372036854775808; {FIX}\n"
    )


def test_cli_a_terminal_escape_in_a_url_never_reaches_stdout(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from mergecast.cli import main

    url = "https://github.com/o/r\x1b]0;pwned\x07\u202e/pull/42"
    path = write(tmp_path, json.dumps([{**FULL, "url": url}]))
    result = CliRunner().invoke(main, ["--db", str(tmp_path / "mc.db"), "ingest",
                                       "--gh-json", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("ingested 1 changes from o/r (1 new, 0 updated)")
    assert "\x1b" not in result.output and "\u202e" not in result.output


@pytest.mark.parametrize("when", ["9999-12-31T23:00:00-14:00", "1969-07-20T20:17:00Z"])
def test_a_time_no_clock_of_ours_can_hold_is_one_clear_error(tmp_path: Path, when: str) -> None:
    path, error = refused(tmp_path, createdAt=when)
    assert error == (
        f"{path}:1:2: record 1: expected an ISO time such as 2026-08-03T13:00:00Z for "
        f"createdAt, got '{when}' in PR #42; {FIX}"
    )
