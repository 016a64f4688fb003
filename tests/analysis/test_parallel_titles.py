"""Titles that say one thing of several parts are named as one."""

from __future__ import annotations

import pytest

from mergecast.analysis.headlines import headline
from mergecast.analysis.parallel_titles import factored_title


@pytest.mark.parametrize(("titles", "factored"), [
    (["[queue] Add timeout support for upload push op", "[queue] Add timeout support for upload pull op"],
     "Add timeout support for upload push and pull ops"),
    (["Add 3bit unpacking routines", "Add 6bit unpacking routines"],
     "Add 3bit and 6bit unpacking routines"),
    (["Remove unused cache helper", "Remove unused multi-queue helper",
      "Remove unused spool helper"],
     "Remove unused cache, multi-queue and spool helpers"),
    # a shared "to" place is no head noun: nothing is made plural
    (["Move the loader to configs", "Move the batch sampler to configs"],
     "Move the loader and batch sampler to configs"),
])
def test_titles_that_differ_in_one_part_are_one_title(titles, factored):
    assert factored_title(titles) == factored


@pytest.mark.parametrize("titles", [
    ["Add retry support", "Add retry support"],  # no part of their own
    ["Enable lazy loading in tests", "add caching in tests"],  # two kinds of work
    ["drop Python 3.9 support", "drop Python 3.10 support"],  # versions
    ["docs update: quantized upload", "docs update: quantized download"],  # a label
    ["Remove spool_helper.py", "Remove cache_helper.py"],  # files, not concepts
    ["Add the upload queue", "Fix the download retry budget"],  # nothing shared
    ["Add a", "Add b", "Add c", "Add d"],  # a list, not one thing
    ["Add retry for the upload queue in the nightly job", "Add retry for the s3 bucket"],
])
def test_titles_that_differ_in_more_are_not(titles):
    assert factored_title(titles) is None


def test_a_theme_of_parallel_titles_is_named_by_all_its_parts():
    assert headline(["[queue] Add timeout support for upload push op",
                     "[queue] Add timeout support for upload pull op"]) == \
        "timeout support for upload push and pull ops"
    # a name that would cut a part off is not used
    assert "and" not in headline(
        ["Add retry support to the nightly upload job for the push path op",
         "Add retry support to the nightly upload job for the pull path op"])
