from analysis_builders import ghstack, pr, sample

from mergecast.analysis.stacks import detect_stacks, numbered
from mergecast.models import Trailer


def test_ghstack_list_naming_prs_outside_the_window():
    # The stack lists 5 PRs; only 301 and 303 are in the window.
    changes = [
        pr(301, "[widgets] Add the cache layer", body=ghstack(301, 300, 301, 302, 303, 304)),
        pr(303, "[widgets] Use the cache in reads",
           body=ghstack(303, 300, 301, 302, 303, 304, version=False, blank=True)),
        pr(310, "Unrelated fix", author="bob"),
    ]
    [stack] = detect_stacks(changes)
    assert stack.tool == "ghstack"
    assert stack.members == (301, 303)
    assert stack.declared == (300, 301, 302, 303, 304)
    assert stack.declared_size == 5
    assert (stack.first, stack.last, stack.in_window) == (301, 303, 2)
    assert stack.authors == ("alice",)


def test_a_single_pr_with_a_long_list_is_still_a_stack():
    [stack] = detect_stacks([pr(42, "Part of a stack", body=ghstack(42, 40, 41, 42))])
    assert stack.members == (42,) and stack.declared_size == 3


def test_a_one_entry_ghstack_list_is_not_a_stack():
    assert detect_stacks([pr(42, "Alone", body=ghstack(42, 42))]) == []


def test_ghstack_dependencies_trailers():
    a = pr(11, "Base change")
    b = pr(12, "Top change", trailers=(Trailer("ghstack dependencies", "#11, #10"),))
    [stack] = detect_stacks([a, b])
    assert stack.tool == "trailers"
    assert stack.members == (11, 12)
    assert stack.declared == (10, 11, 12)
    assert stack.declared_size is None  # a trailer names dependencies, not the whole stack


def test_graphite_stack_from_body_and_stack_comment():
    block = (
        "* **#23** <a href=\"https://app.graphite.dev/github/pr/acme/widgets/23\">"
        "<img src=\"https://static.graphite.dev/x.png\" alt=\"Graphite\"/></a>\n"
        "* **#22** 👈 <a href=\"https://app.graphite.dev/x\">(View in Graphite)</a>\n"
        "* **#21**\n* `main`\n\nThis stack of pull requests is managed by "
        "<a href=\"https://graphite.dev\"><b>Graphite</b></a>."
    )
    changes = [pr(21, "Parser: tokens", body="Tokens."),
               pr(22, "Parser: grammar", stack_comment=block),
               pr(23, "Parser: errors", body="Errors.\n\n" + block)]
    [stack] = detect_stacks(changes)
    assert (stack.tool, stack.members, stack.declared_size) == ("graphite", (21, 22, 23), 3)


def test_sapling_and_spr_lists():
    sapling = ("Body.\n\n[//]: # (BEGIN SAPLING FOOTER)\nStack created with "
               "[Sapling](https://sapling-scm.com). Best reviewed with [ReviewStack](x).\n"
               "* #33\n* __->__ #32\n* #31\n")
    spr = "Body.\n\n---\n\n**Stack**:\n- #52\n- #51 ⬅\n\n⚠️ *Part of a stack created by [spr]*"
    stacks = detect_stacks([pr(32, "A", body=sapling), pr(51, "B", author="bob", body=spr)])
    assert [(s.tool, s.members, s.declared) for s in stacks] == [
        ("sapling", (32,), (31, 32, 33)), ("spr", (51,), (51, 52))]


def test_numbered_title_forms():
    assert numbered("Add kernels (2/5)") == (2, 5)
    assert numbered("[1/7] Add kernels") == (1, 7)
    assert numbered("[mps] 2/5: reductions") == (2, 5)
    assert numbered("Reductions, part 3 of 4") == (3, 4)
    assert numbered("Fix 1/0 division") is None
    assert numbered("Bump to 3/2") is None


def test_numbered_series_by_one_author():
    changes = [pr(70, "[mps] Rewrite reductions (1/4)", author="isa"),
               pr(72, "[mps] Strided reductions (2/4)", author="isa"),
               pr(75, "[mps] Argmax (3/4)", author="isa"),
               pr(71, "[mps] Unrelated (1/4)", author="bob")]
    [stack] = detect_stacks(changes)
    assert (stack.tool, stack.members, stack.declared_size) == ("numbered", (70, 72, 75), 4)


def test_chained_branches():
    changes = [pr(80, "One", head_ref="feat/a", base_ref="main"),
               pr(81, "Two", head_ref="feat/b", base_ref="feat/a"),
               pr(82, "Three", head_ref="feat/c", base_ref="feat/b"),
               pr(90, "ghstack one", head_ref="gh/alice/1/head", base_ref="gh/alice/1/base"),
               pr(91, "ghstack two", head_ref="gh/alice/2/head", base_ref="gh/alice/2/base")]
    [stack] = detect_stacks(changes)
    assert (stack.tool, stack.members, stack.declared_size) == ("branches", (80, 81, 82), None)


def test_same_author_series_sharing_a_tag():
    changes = [pr(100, "[fused_jit] Pallas kernel builder"),
               pr(104, "[fused_jit] Triton cost model"),
               pr(109, "[fused_jit] depthwise filter kernel"),
               pr(400, "[fused_jit] far away kernel")]
    [stack] = detect_stacks(changes)
    assert (stack.tool, stack.members) == ("series", (100, 104, 109))


def test_resubmissions_of_one_title_are_not_a_series():
    changes = [pr(100, "[c10d] Give each backend its own Options"),
               pr(110, "[c10d] Give each backend its own Options"),
               pr(111, "[c10d] Something else")]
    assert detect_stacks(changes) == []


def test_evidence_is_merged_and_the_strongest_tool_reported():
    changes = [pr(200, "[x] A (1/3)", body=ghstack(200, 200, 201)),
               pr(201, "[x] B (2/3)", body=ghstack(201, 200, 201)),
               pr(202, "[x] C (3/3)")]
    [stack] = detect_stacks(changes)
    assert stack.tool == "ghstack" and stack.members == (200, 201, 202)
    assert stack.declared_size == 3  # the largest list or k/N total


def test_real_sample_stacks():
    stacks = detect_stacks(sample())
    by_author = {s.authors: s for s in stacks}
    tushar = by_author[("tushar00jain",)]
    assert tushar.members == (192105, 192110, 192115, 192233, 192234)
    assert tushar.declared_size == 15  # #192110's list; later pushes are snapshots
    assert {192837, 192858}.issubset(tushar.declared)
    d4l3k = by_author[("d4l3k",)]
    assert d4l3k.members == (192276, 192280, 192281)
    assert d4l3k.declared_size == 6
    assert (d4l3k.first, d4l3k.last) == (192276, 192281)
    assert len(stacks) == 2  # the resubmissions #191953/#191985 are not a stack
