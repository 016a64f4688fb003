"""A theme's scope from its files: kinds of file, places said as words, sums and rounding,
and nothing at all when the files are unknown."""

from __future__ import annotations

import pytest

from mergecast import models as m
from mergecast.analysis.scope import (
    file_place,
    is_new_thing,
    path_kind,
    rounded,
    scope_of,
    totals,
)


def change(*files: tuple[str, int | None, int | None], number: int = 1,
           truncated: bool = False) -> m.Change:
    return m.Change(repo="acme/widget", title="Change", number=number,
                    files=tuple(m.FileChange(p, a, d) for p, a, d in files),
                    files_truncated=truncated)


@pytest.mark.parametrize(("path", "kind"), [
    ("tests/unit_tests/test_loss.py", "tests"),
    ("torchtitan/experiments/compiler_toolkit/tests/integration_tests.py", "tests"),
    ("test_runner.py", "tests"),
    ("docs/float8.md", "docs"),
    ("torchtitan/experiments/README.md", "docs"),
    (".github/workflows/integration_test_8gpu.yaml", "ci"),
    (".ci/docker/ubuntu/Dockerfile", "ci"),
    (".github/CODEOWNERS", "code"),  # who owns what is no CI configuration
    ("torchao/quantization/quantize_/workflows/int4/int4_tensor.py", "code"),
    ("test/quantization/quantize_/workflows/int4/test_int4_tensor.py", "tests"),
    ("scripts/loss_compare.py", "code"),
])
def test_a_path_is_tests_docs_ci_or_code(path, kind):
    assert path_kind(path) == kind


@pytest.mark.parametrize(("path", "said"), [
    ("scripts/loss_compare.py", "the loss compare script"),
    ("docs/float8.md", "the float8 docs"),
    ("tests/test_loss.py", "the loss tests"),
    ("tests/integration_tests.py", "the integration tests"),
    ("test_runner.py", "the test runner"),
    ("benchmarks/benchmark_inference.py", "the inference benchmark"),
    ("torchao/csrc/cuda/marlin_qqq/marlin_qqq_kernel.cu", "the marlin qqq CUDA kernel"),
    ("csrc/cuda/zorb_kernels/zorb_wib_kernels.cu", "the zorb wib CUDA kernel"),
    ("benchmarks/benchmarks_zorb.py", "the zorb benchmark"),
    ("torchtitan/experiments/transformers_backend/__init__.py",
     "the transformers backend package"),
    ("torchtitan/experiments/README.md", "the experiments README"),
    ("README.md", "the README"),
    ("torchtitan/experiments/compiler_toolkit/cudagraph.py", "the CUDA graph module"),
    ("torchtitan/experiments/a_very_long_file_name_nobody_says.py", ""),
])
def test_a_file_is_said_as_a_place_never_as_a_path(path, said):
    assert file_place(path) == said


@pytest.mark.parametrize(("n", "said"), [
    (4, (4, False)), (35, (35, False)), (99, (99, False)), (890, (890, False)),
    (292, (290, True)), (1936, (1900, True)), (1950, (2000, True)), (100, (100, False)),
])
def test_counts_are_rounded_as_a_person_says_them(n, said):
    assert rounded(n) == said


def test_one_script_with_its_ci_job():
    scope = scope_of([change(("scripts/loss_compare.py", 890, 0),
                             (".github/workflows/loss_compare.yaml", 40, 0))])
    assert scope == m.Scope("focused", 930, 0, 2, "adds", 930, "the loss compare script",
                            ("CI configuration",))


def test_a_few_lines_in_one_file_are_a_tiny_fix():
    scope = scope_of([change(("scripts/loss_compare.py", 3, 1))], fix=True)
    assert scope == m.Scope("tiny_fix", 3, 1, 1, "changes", 4, "the loss compare script")
    scope = scope_of([change(("test_runner.py", 3, 1))], fix=True)
    assert scope == m.Scope("tests", 3, 1, 1, "changes", 4, "the test runner")


def test_documentation_only_in_one_guide():
    scope = scope_of([change(("docs/float8.md", 20, 5))])
    assert scope is not None and (scope.shape, scope.place) == ("docs", "the float8 docs")


def test_a_folder_of_the_kind_itself_is_no_place():
    scope = scope_of([change(("docs/source/a.md", 20, 5), ("docs/source/b.md", 2, 0))])
    assert scope is not None and (scope.shape, scope.place) == ("docs", "")


def test_mostly_removal_names_where_the_lines_went():
    scope = scope_of([change(("torchtitan/experiments/rl/generator_router.py", 0, 350),
                             ("torchtitan/experiments/rl/routing.py", 20, 0))])
    assert scope == m.Scope("removal", 20, 350, 2, "removes", 350,
                            "the generator router module")


def test_a_broad_change_names_its_heaviest_places():
    files = [(f"torchtitan/models/llama3/f{i}.py", 10, 0) for i in range(3)]
    files += [(f"torchtitan/experiments/flux/g{i}.py", 8, 0) for i in range(3)]
    files += [("tests/test_a.py", 6, 0), ("docs/a.md", 5, 0)]
    scope = scope_of([change(*files)])
    assert scope is not None and scope.shape == "broad" and scope.files == 8
    assert scope.places == ("the llama3 model", "the flux experiment", "the tests")


def test_unknown_or_cut_short_file_lists_say_nothing():
    assert scope_of([m.Change(repo="acme/widget", title="x", number=1)]) is None
    assert totals([m.Change(repo="acme/widget", title="x", number=1)]) is None
    assert scope_of([change(("a/b.py", 5, 5), truncated=True)]) is None
    # one change of a theme unknown: no sum over the rest
    assert scope_of([change(("a/b.py", 50, 0)),
                     m.Change(repo="acme/widget", title="y", number=2)]) is None
    assert scope_of([change(("a/b.png", None, None))]) is None  # no lines to tell


def test_files_of_several_changes_are_summed_per_path():
    first = change(("scripts/loss_compare.py", 890, 0), number=1)
    second = change(("scripts/loss_compare.py", 35, 0), number=2)
    assert totals([first, second]) == (925, 0, 1)
    scope = scope_of([first, second])
    assert scope is not None and (scope.shape, scope.lines) == ("one_file", 925)


def test_a_folder_of_ci_or_docs_is_no_place_but_a_code_folder_of_docs_is():
    ci = scope_of([change((".github/workflows/a.yml", 5, 1), (".github/workflows/b.yml", 9, 0))])
    assert ci is not None and (ci.shape, ci.place) == ("ci", "")
    docs = scope_of([change(("torchtitan/experiments/flux/README.md", 30, 2),
                            ("torchtitan/experiments/flux/guide.md", 12, 0))])
    assert docs is not None and (docs.shape, docs.place) == ("docs", "the flux experiment")


def test_a_files_statuses_over_a_theme_add_up_or_say_nothing():
    from mergecast.analysis.scope import claims_of, statuses_of

    added, changed, gone = m.FileStatus.ADDED, m.FileStatus.MODIFIED, m.FileStatus.DELETED
    first = m.Change(repo="r", title="a", number=1, files=(
        m.FileChange("scripts/loss_compare.py", 50, 0, added),
        m.FileChange("scripts/flaky.py", 30, 0, added),
        m.FileChange("scripts/run.py", 1, 1)))
    second = m.Change(repo="r", title="b", number=2, files=(
        m.FileChange("scripts/loss_compare.py", 5, 1, changed),
        m.FileChange("scripts/flaky.py", 0, 30, gone)))
    # Added then changed is still new; added then deleted, or no status, is nothing.
    assert statuses_of([first, second]) == {"scripts/loss_compare.py": (added, None)}
    assert claims_of([first, second]) == {"a new loss compare script"}
    assert claims_of([second]) == {"the old flaky script goes"}


def _with_status(title: str, *files: tuple[str, int, int, m.FileStatus]) -> m.Change:
    return m.Change(repo="acme/widget", title=title, number=7,
                    files=tuple(m.FileChange(p, a, d, s) for p, a, d, s in files))


def test_a_title_that_names_a_thing_is_new_only_when_its_new_files_say_so():
    added, modified = m.FileStatus.ADDED, m.FileStatus.MODIFIED
    bringing = _with_status("8-bit Adam", ("widget/optim/adam_8bit.py", 300, 0, added),
                            ("widget/optim/__init__.py", 2, 0, modified))
    assert is_new_thing(bringing, "8-bit Adam")
    # New files the title does not name, or new files that hold the lesser share, or a
    # source that does not know the status: the change is only about the thing.
    assert not is_new_thing(bringing, "optimizer clean-up")
    lesser = _with_status("loader cache", ("widget/loader_cache.py", 20, 0, added),
                          ("widget/loader.py", 200, 150, modified))
    assert not is_new_thing(lesser, "loader cache")
    unknown = _with_status("loader cache", ("widget/loader_cache.py", 20, 0,
                                            m.FileStatus.UNKNOWN))
    assert not is_new_thing(unknown, "loader cache")
    assert not is_new_thing(m.Change(repo="acme/widget", title="loader cache"), "loader cache")
