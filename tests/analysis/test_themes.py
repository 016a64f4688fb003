import datetime as dt

from analysis_builders import files, ghstack, pr, window

from mergecast.analysis.digest import build_digest
from mergecast.analysis.headlines import clean_title
from mergecast.analysis.themes import headline, is_noise
from mergecast.config import AreasConfig

STACK = (301, 302, 303)


def busy_day():
    body = "Fuse pointwise kernels just in time so the first call is fast."
    return [
        pr(n, f"[jit][fused_jit] {t}", author="kovacs", body=ghstack(n, *STACK) + body,
           files=files(f"torch/fused_jit/{n}.py", add=80, delete=0))
        for n, t in zip(STACK, ("Add Pallas kernels", "Add Triton kernels",
                                "Use the kernels for dilated windows"), strict=True)
    ] + [
        pr(350, "Fix typo in README", author="bob", files=files("README.md", add=1, delete=1)),
        pr(351, "[CI] Bump actions/checkout to v5", author="dependabot[bot]", bot=True,
           files=files(".github/workflows/ci.yml", add=1, delete=1)),
        pr(352, "Update docs for the cache", author="dan",
           files=files("docs/cache.md", add=900, delete=20)),
        pr(360, "[dynamo] Trace ChainMap as a chained container", author="eve",
           body="ChainMap was traced as a plain dict and lost its lookup order."),
    ]


def digest(changes, **kw):
    return build_digest(changes, window(10), areas=AreasConfig(), **kw)


def test_noise_never_outranks_a_real_stack():
    d = digest(busy_day())
    assert d.themes[0].kind == "stack" and d.themes[0].prs == STACK
    ranks = {t.prs: t.rank for t in d.themes}
    for noise in ((350,), (352,)):
        assert ranks[noise] > ranks[(360,)] > ranks[STACK]
    # a bot's bump is nobody's work: no theme, but still in its area, after real work
    assert not any(351 in t.prs for t in d.themes)
    assert d.group_of["acme/widgets#351"] == "CI"
    docs = next(t for t in d.themes if t.prs == (352,))
    assert any("ranked last" in w for w in docs.why)  # big, but docs-only


def test_stack_theme_reports_its_stack_and_why():
    top = digest(busy_day()).themes[0]
    assert top.stack is not None and top.stack.tool == "ghstack"
    assert top.authors == ("kovacs",) and top.areas == ("JIT",)  # said as the project does
    assert top.why[0] == "3 PRs"
    assert "ghstack stack declaring 3 PRs (3 in the window)" in top.why
    assert "240 lines changed" in top.why
    assert "3 files with only added lines" in top.why
    assert top.headline == "fused just-in-time kernels"  # the tag through the lexicon


def test_first_time_contributors_and_reach_score():
    deep = window(10).since - dt.timedelta(days=400)
    d = digest(busy_day(), earlier_authors={"kovacs", "bob", "dan", "dependabot[bot]"},
               history_since=deep)
    assert d.first_time_contributors == ("eve",)
    eve = next(t for t in d.themes if t.prs == (360,))
    assert "first-time contributor: eve" in eve.why
    alone = next(t for t in digest(busy_day()).themes if t.prs == (360,))
    assert alone.score == 1.0 and eve.score == 2.0


def test_related_singles_group_into_a_cluster():
    body = "The widget cache evicts entries on resize; keep hot entries in the LRU list."
    changes = [pr(400, "[cache] Keep hot widget cache entries on resize", body=body),
               pr(405, "[cache] Widget cache resize keeps LRU entries", author="bob",
                  body=body + " Also covers shrink."),
               pr(406, "[cache] Unrelated logging tweak", author="carl",
                  body="Log the hostname at startup.")]
    themes = digest(changes).themes
    cluster = next(t for t in themes if t.kind == "cluster")
    assert cluster.prs == (400, 405)
    assert "widget cache" in cluster.headline.lower()
    assert any(t.prs == (406,) and t.kind == "single" for t in themes)


def test_commits_without_pr_numbers_are_units():
    from analysis_builders import commit

    d = digest([commit("a" * 40, "Refactor the widget loader"), pr(1, "Other")])
    kinds = {t.commits: t.kind for t in d.themes}
    assert kinds[("a" * 40,)] == "single"
    assert d.counts.commits == 1 and d.counts.prs == 1


def test_changes_with_no_area_group_only_on_the_same_title_and_file():
    from analysis_builders import commit

    readme = files("README.md")
    d = digest([commit("a" * 40, "Update README.md", files=readme),
                commit("b" * 40, "Update README.md", files=readme),
                commit("c" * 40, "Describe the install steps", files=readme),
                commit("d" * 40, "Update README.md", files=files("NOTES.md"))])
    assert all(not t.areas for t in d.themes)
    assert sorted(t.commits for t in d.themes) == [
        ("a" * 40, "b" * 40), ("c" * 40,), ("d" * 40,)]


def test_headline_is_drawn_from_shared_title_words():
    # A noun that names the work whole, after the shared words in most titles, stays.
    assert headline(["Add parameter_name support to the int4 transform",
                     "Add parameter_name support to the int8 transform",
                     "Fix the intx transform to use parameter_name properly"]) == \
        "parameter name support"
    titles = ["[android] Vulkan shaders for row reductions",
              "[android] Vulkan shaders for windowed reductions",
              "[android] Cumsum via Vulkan shaders"]
    assert headline(titles, areas=("android",)) == "Vulkan shaders"
    # A capital only because a title opens on it is no name; one written inside another
    # title ("via Vulkan shaders" above) is.
    assert headline(["Flight recorder for backends without native support",
                     "[c10d] Dump the flight recorder trace when a collective fails"],
                    stack=True) == "flight recorder"
    assert headline(["[c10d] Give each backend its own Options"]) == \
        "giving each backend its own Options"
    assert headline(["Alpha thing", "Beta stuff"], stack=True) == "alpha thing"  # the base
    # Words only a stack's later parts share name a detail of theirs, not the stack: its
    # base part says what it starts, unless most parts share the words.
    parts = ["Make retry on timeout configurable", "Give each channel its own budget",
             "Record a channel's peers", "Flight recorder for plain channels",
             "Dump the flight recorder when a call fails"]
    assert headline(parts, stack=True) == "making retry on timeout configurable"
    assert headline([*parts[:2], "Flight recorder for channel peers", *parts[3:]],
                    stack=True) == "flight recorder"


def test_a_name_the_lexicon_does_not_know_is_cased_as_its_change_writes_it():
    # "flydsl MXFP8 quantize": the title wrote it small, the description "FlyDSL" throughout
    body = ("- add ZorbDSL 2D quantize kernel for wib\n- register ZorbDSL kernels\n\n"
            "Moves the helpers into zorbdsl_utils.py, as the ZorbDSL kernels share them.")
    d = digest([pr(40, "Zorbdsl wib quantize", body=body)])
    assert d.themes[0].headline == "ZorbDSL wib quantize"
    # A word written small or capitalised only to open a sentence stays as the name says it
    d = digest([pr(40, "Zorbdsl wib quantize",
                   body="Zorbdsl is new. Wib quantize runs on zorbdsl. ZorbDSL kernels.")])
    assert d.themes[0].headline == "zorbdsl wib quantize"


def test_is_noise():
    assert is_noise(pr(1, "Fix typo in docstring"))
    assert is_noise(pr(1, "Bump numpy from 1.2 to 1.3"))
    assert is_noise(pr(1, "Words", files=files("docs/x.rst", ".github/a.yml")))
    assert not is_noise(pr(1, "Fix cache eviction", files=files("src/cache.py", "docs/x.md")))
    # A title that calls itself minor and names nothing else leads no day; one that
    # names what it fixes is real work.
    assert is_noise(pr(1, "minor fix", files=files("src/train.py")))
    assert not is_noise(pr(1, "small fix for the loader", files=files("src/train.py")))


def test_single_headline_is_a_short_noun_phrase_of_its_title():
    # Real torchtitan / torchao titles: tags, prefixes, parentheses and refs go.
    cases = {
        "qwen3.5 Unified Path in RL (bitwise parity, cudagraph and MoE routing)":
            "qwen3.5 unified path in RL",
        "[BE][torchtitan] Add float8 training (#1234)": "float8 training",
        "feat(ckpt): Introduce a Storage Seam in BaseCheckpointManager":
            "storage seam in BaseCheckpointManager",
        "fix: validation loss accumulation rescaling":
            "fixing validation loss accumulation rescaling",  # the commit type says what
        "ci: add codespell pre-commit hook": "codespell pre-commit hook",
        "replace dataloader with grain": "replacing dataloader with grain",
        "Add support for MXFP8 All gather ": "support for MXFP8 All gather",
        "[Reland][PT2E] Add Inductor fusion passes of float8 qconv for X8…":
            "relanding Inductor fusion passes of float8 qconv",
        'Revert "[X86] Re-enable some inductor-related test cases"':
            "a revert of re-enabling some Inductor-related test cases",
        "[reland] Move the loader out of prototype": "another try at moving the loader out of "
                                                     "prototype",
        "Add support for copy_ for plain layout": "support for copy for plain layout",
    }
    for title, expected in cases.items():
        assert headline([title]) == expected, title


def test_headline_never_carries_refs_paths_or_unbalanced_brackets():
    titles = [
        "enable loss parallel in SP and fix feedback from PR 111",
        "add flexible interleaved 1f1b schedule #490",
        "Workaround for pytorch#138575 distributed checkpoint loading bug",
        "squash landing import and git fixes PR #2324 and #2325",
        "fix path to float8.py in readme",
        "Fix llama_13b.toml -> llama2_13b.toml",
        "RL: observability spans across trainer/generator/controller (#3234)",
        "Remove unused exception parameter from multifeed/backfill/BackfillMain.cpp",
        "PYTHONHASHSEED needs to be in the range of [0,2**32 - 1] (see #77",
        "[graph_trainer] Defer cudagraph compatibility check to pass execution…",
        "Replacing  device_info[key] with device_info.get() .",
    ]
    for title in titles:
        h = headline([title])
        assert h and len(h.split()) <= 7, (title, h)
        assert not any(ch in h for ch in "()[]{}#/…`_"), (title, h)
        assert not any(w.isdigit() and len(w) >= 3 for w in h.split()), (title, h)
        assert h.split()[-1] not in {"and", "of", "to", "for", "in", "with", "the"}, (title, h)
    assert headline(["Workaround for pytorch#138575 distributed checkpoint loading bug"]) == \
        "working around distributed checkpoint loading bug"
    assert clean_title("RL: observability spans across trainer/generator/controller") == \
        "observability spans across trainer, generator and controller"
    assert headline(["Fix llama_13b.toml -> llama2_13b.toml"]) == "fixing Llama 13b to llama2 13b"


def test_stack_fallback_headline_is_cleaned_too():
    titles = ["[rl] Wire the beta loader up; more (#55) (1/2)",
              "[rl] Alpha refactor of things (2/2)"]
    assert headline(titles, areas=("rl",), stack=True) == "wiring up the beta loader"


def test_a_stack_is_named_by_what_its_base_part_starts_not_by_a_late_detail():
    titles = ["[c10d] Make process-abort on timeout and error configurable",
              "[c10d] Give each backend its own Options",
              "[c10d] Record a split child's world ranks"]
    assert headline(titles, areas=("c10d",), stack=True) == \
        "making process-abort on timeout and error configurable"
    assert headline(["Add a test for torch compile", *titles[1:]], stack=True) == \
        "giving each backend its own Options"  # a test around the work names no stack


def test_a_stack_is_named_by_its_own_parts_not_by_a_change_grouped_with_it():
    # A fix by the same author to the same file joins the theme, but is no part of the
    # stack: its title named the stack and credited it with the fix.
    parts = (401, 402, 403)
    model = files("models/deepseek/model.py", add=40, delete=5)
    stack = [pr(n, t, author="kewen", body=ghstack(n, *parts), files=model)
             for n, t in zip(parts, ("Write out the output splits of all-to-all-v",
                                     "Simplify token grouping before expert processing",
                                     "Let MoEs share symmetric memory across layers"),
                             strict=True)]
    extra = pr(399, "Fix pipeline stage sharding", author="kewen", files=model)
    top = digest([extra, *stack]).themes[0]
    assert top.kind == "stack" and 399 in top.prs, top
    assert "sharding" not in top.headline, top.headline


def test_two_big_mixed_clusters_of_one_area_are_its_work_and_more_of_it():
    # Each is "Loader work" alone; said twice, the second would sound like the first, and
    # named by its biggest title ("speeding up shard reads") it says all five speed them up.
    first = ["Fix the seed on restart", "Add a cache for metrics", "Rename the planner knob",
             "Remove the old flag", "Document the public API"]
    second = ["Speed up shard reads", "Drop the legacy parser", "Log every retry",
              "Bump the pinned compiler", "Guard against empty batches"]
    changes = [pr(400 + i, t, author=f"dev{i}", files=files("torch/loader/a.py", add=5))
               for i, t in enumerate(first)]
    changes += [pr(500 + i, t, author=f"dev{i}", files=files("torch/loader/b.py", add=5))
                for i, t in enumerate(second)]
    names = [t.headline for t in digest(changes).themes]
    assert names == ["Loader work", "more Loader work"], names


def test_several_peoples_mix_ranks_after_a_smaller_story_it_could_name():
    # Five people's unrelated loader changes outweigh a two-PR cluster by size, but no one
    # story is theirs: the day leads with the cluster.
    mix = ["Fix the seed on restart", "Add a cache for metrics", "Rename the planner knob",
           "Remove the old flag", "Document the public API"]
    changes = [pr(400 + i, t, author=f"dev{i}", files=files("torch/loader/a.py", add=5))
               for i, t in enumerate(mix)]
    changes += [pr(500, "Add shard prefetch to the reader", author="ana",
                   files=files("torch/reader/prefetch.py", add=60)),
                pr(501, "Use shard prefetch in the reader pool", author="ana",
                   files=files("torch/reader/prefetch.py", add=40))]
    themes = digest(changes).themes
    assert [t.prs for t in themes[:2]] == [(500, 501), (400, 401, 402, 403, 404)], themes
    assert any("several people's changes" in w for w in themes[1].why)
    # One person's run of changes in one place is their day's work: no such weight.
    alone = [pr(400 + i, t, author="dev", files=files("torch/loader/a.py", add=5))
             for i, t in enumerate(mix)]
    first = digest(alone + changes[5:]).themes[0]
    assert first.prs == (400, 401, 402, 403, 404)
    assert not any("several people's" in w for w in first.why)


def test_several_peoples_cluster_named_by_one_title_is_a_mix_named_by_its_biggest_change():
    # Five people's changes in one folder share no words: the name can only be one title's,
    # so it is the biggest change doing the work (not the first, a three-line test fix, nor
    # the docs), and the cluster weighs as a mix.
    mix = [("Set the seed in numeric tests", 3), ("Add a conversion API for packed tensors", 500),
           ("Fix the tied embeddings export", 40), ("Update the loader docs", 900),
           ("Enable checkpoints from the hub", 6)]
    changes = [pr(400 + i, t, author=f"dev{i}", files=files("torch/prototype/a.py", add=n))
               for i, (t, n) in enumerate(mix)]
    theme = digest(changes).themes[0]
    assert theme.headline == "conversion API for packed tensors"
    assert "several people's changes with no shared name (x0.5)" in theme.why
    # One person's run of the same changes is their day's work: no such weight.
    alone = [pr(400 + i, t, author="dev", files=files("torch/prototype/a.py", add=n))
             for i, (t, n) in enumerate(mix)]
    assert not any("several people's" in w for w in digest(alone).themes[0].why)


def test_several_peoples_big_cluster_named_by_its_kind_of_work_is_a_mix():
    # "Loader fixes" from five people says what kind of work they share, not one story
    fixes = ["Fix the shard count", "Fix a hang in prefetch", "Fix the seed of the sampler",
             "Fix the resume offset", "Fix the worker exit code"]
    changes = [pr(400 + i, t, author=f"dev{i}", files=files("torch/loader/a.py", add=20))
               for i, t in enumerate(fixes)]
    theme = digest(changes).themes[0]
    assert theme.headline.endswith("fixes"), theme.headline
    assert "several people's changes with no shared name (x0.5)" in theme.why
    # two people's pair of fixes is no big cluster: no such weight
    pair = digest(changes[:2]).themes[0]
    assert not any("several people's" in w for w in pair.why)


def test_a_big_series_joined_by_others_is_still_its_authors_story():
    # Five [widget] PRs by alice, close in number and sharing no words: a series, named by
    # its place. bob's fix to the same file joins the theme; the series stays one person's
    # story and is not marked down as a mix of several people's changes.
    titles = ["Fix the loader for seeds", "Add a cache for metrics", "Rename the planner",
              "Remove the old flag", "Document the public API"]
    changes = [pr(500 + i, f"[widget] {t}", files=files("widget/core.py"))
               for i, t in enumerate(titles)]
    changes.append(pr(506, "Speed up the seed reader", author="bob",
                      files=files("widget/core.py")))
    [theme] = [t for t in digest(changes).themes if 500 in t.prs]
    assert theme.stack is not None and theme.stack.is_series
    assert theme.headline == "Widget work" and 506 in theme.prs
    assert not any("several people" in why for why in theme.why)
