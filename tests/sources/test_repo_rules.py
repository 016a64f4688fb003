"""The rule files read from a checkout: each the first found where GitHub looks for it."""

from __future__ import annotations

from pathlib import Path

from mergecast.sources.repo_rules import rule_files


def test_the_owners_file_is_read_where_github_looks_first(tmp_path: Path) -> None:
    (tmp_path / ".github").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "CODEOWNERS").write_text("/docs/ @acme/writers\n")
    (tmp_path / "CODEOWNERS").write_text("/src/ @acme/core\n")
    (tmp_path / ".github" / "labeler.yaml").write_text("'loader':\n- src/loader/**\n")
    assert rule_files(tmp_path, labeler=True, codeowners=True) == (
        "'loader':\n- src/loader/**\n", "/src/ @acme/core\n")
    # ".github/CODEOWNERS" comes before the root's
    (tmp_path / ".github" / "CODEOWNERS").write_text("/net/ @acme/net\n")
    assert rule_files(tmp_path, labeler=False, codeowners=True) == (None, "/net/ @acme/net\n")


def test_a_file_that_cannot_be_read_is_no_rule_and_the_next_place_is_tried(
        tmp_path: Path) -> None:
    (tmp_path / ".github" / "CODEOWNERS").mkdir(parents=True)  # a folder, not a file
    (tmp_path / "CODEOWNERS").write_text("/src/ @acme/core\n")
    assert rule_files(tmp_path, labeler=True, codeowners=True) == (None, "/src/ @acme/core\n")
    assert rule_files(tmp_path / "missing", labeler=True, codeowners=True) == (None, None)
