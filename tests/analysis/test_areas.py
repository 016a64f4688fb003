from analysis_builders import files, pr

from deadline import deadline
from mergecast.analysis.areas import (
    assign_areas,
    parse_codeowners,
    parse_labeler,
    path_rules_from_repo,
)
from mergecast.config import AreaRule, AreasConfig

LABELER_V4 = """\
# v4 syntax
"module: dynamo":
  - torch/_dynamo/**
  - any: ['torch/fx/**', '!torch/fx/README.md']
docs:
- docs/**/*
"release notes: mps": aten/src/ATen/mps/**  # inline value
"""

LABELER_V5 = """\
'module: inductor':
- changed-files:
  - any-glob-to-any-file: ['torch/_inductor/**', 'test/inductor/**']
feature:
- head-branch: ['^feature', 'feature']
ci:
  - changed-files:
    - any-glob-to-any-file:
      - .github/**
      - .ci/*
"""

CODEOWNERS = """\
# owners
*.md @acme/docs-team
/torch/distributed/ @acme/distributed
/torch/distributed/rpc/ @alice
"""


def test_labeler_v4():
    rules = parse_labeler(LABELER_V4)
    assert [(r.pattern, r.area) for r in rules] == [
        ("torch/_dynamo/**", "module: dynamo"), ("torch/fx/**", "module: dynamo"),
        ("docs/**/*", "docs"), ("aten/src/ATen/mps/**", "release notes: mps")]


def test_labeler_v5_skips_branch_conditions():
    rules = parse_labeler(LABELER_V5)
    assert [(r.pattern, r.area) for r in rules] == [
        ("torch/_inductor/**", "module: inductor"), ("test/inductor/**", "module: inductor"),
        (".github/**", "ci"), (".ci/*", "ci")]


def test_codeowners_last_match_wins_and_teams_name_areas():
    rules = parse_codeowners(CODEOWNERS)
    assert rules[0] == AreaRule("path", "torch/distributed/rpc/**", "rpc")
    assert AreaRule("path", "torch/distributed/**", "distributed") in rules
    assert AreaRule("path", "**/*.md", "docs-team") in rules


def test_config_rules_first_match_wins_with_display_names():
    cfg = AreasConfig(names={"mps": "MPS", "dynamo": "Dynamo"})
    changes = [
        pr(1, "[mps] Faster argmax"),
        pr(2, "[MPS] Windowed reductions"),
        pr(3, "[dynamo] Trace ChainMap", labels=("module: inductor",)),
        pr(4, "[BE] Tidy guards", labels=("release notes: dynamo",)),
    ]
    area = assign_areas(changes, cfg)
    assert area["acme/widgets#1"] == "MPS" and area["acme/widgets#2"] == "MPS"
    assert area["acme/widgets#3"] == "inductor"  # the label rule comes before the tag rule
    assert area["acme/widgets#4"] == "Dynamo"


def test_spelling_follows_the_day_without_names():
    area = assign_areas([pr(1, "[MPS] a"), pr(2, "[MPS] b"), pr(3, "[mps] c")], AreasConfig())
    assert set(area.values()) == {"MPS"}


def test_repo_path_rules_then_title_word_then_directory():
    rules = path_rules_from_repo(LABELER_V4, CODEOWNERS)
    changes = [
        pr(1, "Guard fix", files=files("torch/_dynamo/guards.py", "torch/_dynamo/x.py",
                                        "docs/a.md")),
        pr(2, "[c10d] Heartbeat"),
        pr(3, "Add a pure-Python c10d heartbeat"),
        pr(4, "Speed up", files=files("src/gadgets/core/a.py", "src/gadgets/core/b.py",
                                       "tools/x.py")),
        pr(5, "Mystery"),
    ]
    area = assign_areas(changes, AreasConfig(), rules)
    assert area["acme/widgets#1"] == "dynamo"  # labeler label run through the label rules
    assert area["acme/widgets#2"] == "c10d"
    assert area["acme/widgets#3"] == "c10d"
    assert area["acme/widgets#4"] == "gadgets"  # a directory is said by its name, not path
    assert "acme/widgets#5" not in area


def test_config_path_rules_and_title_regex():
    cfg = AreasConfig(rules=(AreaRule("title", r"(?i)\bonnx\b", "ONNX"),
                             AreaRule("path", "docs/**", "Docs"),
                             AreaRule("path", "src/**", "Core")))
    changes = [pr(1, "Fix ONNX export"),
               pr(2, "Words", files=files("docs/a.md", "docs/b.md", "src/c.py"))]
    area = assign_areas(changes, cfg)
    assert area == {"acme/widgets#1": "ONNX", "acme/widgets#2": "Docs"}


def test_attacker_area_text_is_not_formatted():
    cfg = AreasConfig(rules=(AreaRule("label", r"^module: (?P<area>.+)$", "mod {area}"),))
    area = assign_areas([pr(1, "x", labels=("module: {area.__class__}",))], cfg)
    assert area["acme/widgets#1"] == "mod area.__class__"  # braces dropped, never formatted


def test_area_names_from_untrusted_text_are_cleaned_or_dropped():
    changes = [pr(1, "[<b>dynamo</b>] Fix guard"), pr(2, "Escape", files=files("../../x.py")),
               pr(3, "[<>] Nothing"), pr(4, '[mps" onclick="x] Kernel')]
    area = assign_areas(changes, AreasConfig())
    assert area == {"acme/widgets#1": "dynamo", "acme/widgets#4": "mps onclick x"}


def test_series_tags_are_not_areas_and_directories_are_said_by_name():
    changes = [pr(1, "[1/x] docs update", files=files("torchao/prototype/a.py")),
               pr(2, "[10/x] docs update", files=files("torchao/_models/llama/b.py"))]
    area = assign_areas(changes, AreasConfig())
    assert area == {"acme/widgets#1": "prototype", "acme/widgets#2": "models"}


def test_a_folder_named_in_capitals_is_said_in_sentence_case():
    # "On ISSUE TEMPLATE: PR 12 adds …"; a one-word acronym stays as written
    changes = [pr(1, "Add a bug form", files=files(".github/ISSUE_TEMPLATE/bug.yml",
                                                    ".github/ISSUE_TEMPLATE/ask.yml")),
               pr(2, "Tidy the loader", files=files("widget/CUDA/loader.py")),
               pr(3, "Tune the big config", files=files("train_configs/405b/a.toml",
                                                         "train_configs/405b/b.toml"))]
    area = assign_areas(changes, AreasConfig())
    # (a model size in lower case is written as one: "405B")
    assert area == {"acme/widgets#1": "Issue template", "acme/widgets#2": "CUDA",
                    "acme/widgets#3": "405B"}


def test_snake_case_tags_are_said_as_words_and_a_number_after_a_digit_as_its_version():
    changes = [pr(1, "[qwen3_5] Reset state"), pr(2, "[kimi_k2_7] Add config"),
               pr(3, "[zorp2_1_deltanet] Fix"), pr(4, "[zorp3_0_6b] Add"),
               pr(5, "[graph_trainer] Add"), pr(6, "[float8_moe] Fix"), pr(7, "[zorp4.2] Tune")]
    area = assign_areas(changes, AreasConfig())
    assert area == {"acme/widgets#1": "Qwen3.5", "acme/widgets#2": "Kimi K2.7",
                    # more digits after it: a size ("0.6b") or a version and a size
                    # ("3.1 8b") cannot be told apart, so the name is read as words
                    "acme/widgets#3": "Zorp2.1 deltanet", "acme/widgets#4": "zorp3 0 6b",
                    "acme/widgets#5": "graph trainer", "acme/widgets#6": "float8 moe",
                    "acme/widgets#7": "Zorp4.2"}
    # … and so is a tag with a space before its version: "kimi k2_7" is "Kimi K2.7", the
    # lexicon casing the word before it
    assert assign_areas([pr(8, "[kimi k2_7] Add config")], AreasConfig()) == \
        {"acme/widgets#8": "Kimi K2.7"}


def test_an_area_named_like_the_show_or_its_repository_is_no_area():
    owners = parse_codeowners("/widgets/ @acme/widgets\n/widgets/io/ @acme/io\n")
    changes = [
        pr(1, "[Widgets] Speed up the cache", files=files("widgets/cache/a.py")),
        pr(2, "[gizmo-show] Fix a race", files=files("gizmo_show/csrc/cuda/k.cu")),
        pr(3, "Tidy the version table", files=files("widgets/__init__.py")),
        pr(4, "Rename to widgets", files=files("README.md")),
        pr(5, "[gadgets] Add a knob", files=files("widgets/x.py")),
        pr(6, "Faster reads", files=files("widgets/io/r.py")),
        pr(7, "Guard the entry points", files=files("widgets/api/a.py")),
        pr(8, "Update the code owners", files=files(".github/CODEOWNERS")),
        pr(9, "Load the kernels", files=files("widgets/csrc/init.cpp")),
    ]
    area = assign_areas(changes, AreasConfig(), owners, show="Gizmo Show")
    assert area == {
        "acme/widgets#1": "cache",  # the repository's tag, then its package folder: deeper
        "acme/widgets#2": "CUDA",  # the show's name, then a generic folder: deeper still
        "acme/widgets#5": "gadgets",
        "acme/widgets#6": "io",
        "acme/widgets#7": "API",  # CODEOWNERS names the repository: the folder decides
        "acme/widgets#8": "GitHub",
    }  # 3, 4, 9: no folder below the package but a generic one, no tag: no area
    # without a show name only the repository's own name is no area
    assert assign_areas(changes[1:2], AreasConfig())["acme/widgets#2"] == "gizmo-show"


def test_one_area_however_it_is_spelled_in_the_projects_casing():
    changes = [pr(1, "[graph trainer] a"), pr(2, "[GraphTrainer] b"), pr(3, "[graph_trainer] c"),
               pr(4, "[graphtrainer] d"), pr(5, "[cmake] e"), pr(6, "[cortex-m] f"),
               pr(7, "[Cortex_M] g"), pr(8, "[rocm] h"), pr(9, "[exir] i"), pr(10, "[llm] j")]
    area = assign_areas(changes, AreasConfig())
    assert {area[f"acme/widgets#{n}"] for n in (1, 2, 3, 4)} == {"graph trainer"}
    assert [area[f"acme/widgets#{n}"] for n in range(5, 11)] == \
        ["CMake", "Cortex-M", "Cortex-M", "ROCm", "EXIR", "LLM"]
    # the config's own names win over the data file, matched however they are spelled
    named = assign_areas(changes, AreasConfig(names={"Graph-Trainer": "GraphTrainer"}))
    assert named["acme/widgets#3"] == "GraphTrainer"
    # a "[test]" tag is the tests: "On Tests:", never "On Test:"
    tagged = assign_areas([pr(11, "[test] k"), pr(12, "[test] l")], AreasConfig())
    assert tagged["acme/widgets#11"] == "Tests"


def test_type_labels_and_tags_are_not_areas():
    cfg = AreasConfig(rules=(AreaRule("label", r"^(?P<area>.+)$"),
                             AreaRule("label", r"^release notes: (?P<area>.+)$"),
                             AreaRule("tag", "*")))
    changes = [pr(1, "Fix cache", labels=("bug", "triaged", "cache")),
               pr(2, "[enhancement] Faster load", labels=("enhancement",)),
               pr(3, "Nothing to say", labels=("release notes: none",))]
    area = assign_areas(changes, cfg)
    assert area == {"acme/widgets#1": "cache"}


def test_area_work_comes_highest_ranked_first_and_housekeeping_last():
    from analysis_builders import ghstack, window

    from mergecast.analysis import build_digest

    stack = [pr(n, f"[cache] Warm cache part {n - 20}", author="ana", body=ghstack(n, 21, 22),
                files=files(f"cache/w{n}.py", add=200)) for n in (21, 22)]
    changes = [
        pr(10, "[cache] Fix a typo in the cache docs", author="bo",
           files=files("docs/cache.md", add=1, delete=1)),
        pr(11, "[cache] Log cache misses", author="cy", files=files("cache/log.py", add=5)),
        *stack,
    ]
    d = build_digest(changes, window(10), areas=AreasConfig())
    [cache] = d.areas
    assert cache.name == "cache" and cache.prs == (21, 22, 11, 10)


# ------------------------------------------------------------------ hostile repository files


DEEP = "a/" * 3000 + "x.py"  # 3,000 folders deep


def test_a_hostile_codeowners_line_cannot_hang_the_digest():
    owners = "**/" * 40 + "x.py @acme/owners\n"
    changes = [pr(1, "Deep", files=files(DEEP, "a/" * 2000 + "y.py"))]
    with deadline(1.0):
        area = assign_areas(changes, AreasConfig(), parse_codeowners(owners))
    assert area == {"acme/widgets#1": "owners"}


def test_a_line_of_spaces_in_labeler_yml_is_read_in_linear_time():
    line = "a" + " " * 1_000_000 + "b"
    with deadline(1.0):
        assert parse_labeler(line) == []
        assert parse_labeler("docs:\n  - " + line) == [AreaRule("path", line, "docs")]


def test_a_doc_area_is_said_as_a_word_not_spelled():
    cfg = AreasConfig(rules=(AreaRule("path", "doc/**", "doc"),))
    area = assign_areas([pr(1, "Words", files=files("doc/a.md"))], cfg)
    assert area == {"acme/widgets#1": "Docs"}  # not "DOC"


def test_a_tag_naming_the_kind_of_change_is_no_area():
    changes = [pr(1, "[FIX] Guard the loader", files=files("widget/loader/a.py")),
               pr(2, "[refactor] Split the cache", files=files("widget/cache/b.py"))]
    area = assign_areas(changes, AreasConfig())
    assert area == {"acme/widgets#1": "loader", "acme/widgets#2": "cache"}


def test_a_tag_noting_the_change_history_is_no_area():
    changes = [pr(1, "[Recreate of 2753] [graph_trainer] Replace the tracer",
                  files=files("widget/graph/a.py")),
               pr(2, "[cherry-pick] Guard the loader", files=files("widget/loader/a.py")),
               # a numbered reland is a reland ("steady work in reland2" named none)
               pr(3, "[reland2][ROCm] Preshuffle the widget weights",
                  files=files("widget/kernels/a.py", "widget/kernels/b.py"))]
    area = assign_areas(changes, AreasConfig())
    assert area == {"acme/widgets#1": "graph trainer", "acme/widgets#2": "loader",
                    "acme/widgets#3": "ROCm"}


def test_the_owners_file_beside_code_of_its_own_never_names_the_change():
    # CODEOWNERS lists itself: a change that edits it beside its own code is that code's.
    owners = parse_codeowners("/CODEOWNERS @acme/admins\n/widgets/io/ @acme/io\n")
    changes = [
        pr(1, "Remove the gadgets package", files=files("CODEOWNERS", "widgets/core/gadgets.py")),
        pr(2, "Update the code owners", files=files("CODEOWNERS")),
    ]
    area = assign_areas(changes, AreasConfig(), owners)
    assert area["acme/widgets#1"] == "core"  # no rule for its code: its folder
    assert area["acme/widgets#2"] == "admins"
