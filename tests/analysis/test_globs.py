"""Globs from repository files: the same answers as before, in linear time for any glob."""

import pytest

from deadline import deadline
from mergecast.analysis.globs import glob_match

DEEP = "a/" * 3000 + "x.py"  # 3,000 folders deep


def test_glob_match():
    assert glob_match("torch/_dynamo/**", "torch/_dynamo/utils.py")
    assert glob_match("docs/**/*", "docs/a/b.md")
    assert glob_match("**/*.md", "README.md")
    assert not glob_match(".ci/*", ".ci/a/b.sh")
    assert glob_match("/torch/x.py", "torch/x.py")


@pytest.mark.parametrize(("pattern", "path", "want"), [
    ("**/" * 40 + "x.py", DEEP, True),  # the hostile CODEOWNERS line of issue 15 (> 120 s)
    ("**/" * 40 + "y.py", DEEP, False),
    ("**a" * 40 + "/x.py", DEEP, True),
    ("*a" * 40 + "*.py", DEEP, False),  # `*` stays inside one folder
    ("*a" * 40 + "*.py", "a" * 20_000 + ".py", True),
    ("*a" * 40 + "*b.py", "a" * 20_000 + ".py", False),
    ("/" + "**/a/" * 30 + "**/x.py", DEEP, True),
])
def test_hostile_globs_against_a_deep_path_finish_well_under_a_second(pattern, path, want):
    with deadline(1.0):
        assert glob_match(pattern, path) is want


def test_glob_semantics_are_kept():
    cases = [
        ("**/**/x", "x", True), ("**/**/x", "a/b/x", True), ("**/x", "ax", False),
        ("a/**", "a/", True), ("a/**", "a", False), ("a/**/b", "a/b", True),
        ("a/**/b", "a/x/y/b", True), ("a/*/b", "a/x/y/b", False), ("a?c", "a/c", False),
        ("***/x", "q/r/x", True), ("**.py", "a/b.py", True), ("*.py", "a/b.py", False),
        ("**/*", "", True), ("x" * 1001, "x" * 1001, False),  # over GLOB_LIMIT: no match
        ("a.b", "aXb", False), ("[ab]", "[ab]", True),  # no character classes, no regex
    ]
    for pattern, path, want in cases:
        assert glob_match(pattern, path) is want, (pattern, path)
