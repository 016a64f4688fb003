"""Digests built by hand for the writing tests: no store, no analysis stage."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

from mergecast import models as m
from mergecast.config import LLMConfig, WritingConfig

UTC = dt.UTC
DAY = dt.date(2026, 3, 12)
WINDOW = m.Window(dt.datetime(2026, 3, 11, 13, tzinfo=UTC),
                  dt.datetime(2026, 3, 12, 13, tzinfo=UTC))
# The hand-made days are sized for a budget of about 380 words, so every optional slot is
# still heard: 2.8 minutes at the voice's measured pace (136 words a minute).
WRITING = WritingConfig(minutes=2.8)
LLM = LLMConfig(model="test-model", timeout=5.0)

BODIES = {
    "tiles": (
        "## Summary\nConvolution kernels searched for their tile sizes on first use, which "
        "made the first step of every training run slow. The change computes them from a "
        "cost model and caches the result on disk. Warm starts now skip the search "
        "entirely.\n\n"
        "```python\nx = torch.compile(f)\n```\nSee https://example.com/design for details.\n"
    ),
    "rpc": (
        "Summary:\nThe in-tree transport ignored the retry budget that users configured. "
        "The change reads the configured budget and applies it to every channel. "
        "Jobs that hang now fail with a clear error instead of waiting forever.\n"
    ),
    "vulkan": (
        "Reductions on Android GPUs fell back to a slow generic path for windowed inputs. "
        "The change adds hand-written Vulkan shaders for row and windowed reductions.\n"
    ),
}


def pr(number: int, title: str, author: str, *, body: str = "", state: m.State = m.State.MERGED,
       labels: Sequence[str] = ()) -> m.Change:
    t = dt.datetime(2026, 3, 12, 9, tzinfo=UTC)
    return m.Change(repo="acme/widget", title=title, number=number, body=body,
                    author=m.Person(login=author), created_at=t - dt.timedelta(days=1),
                    merged_at=t if state is m.State.MERGED else None, state=state,
                    labels=tuple(labels), url=f"https://github.com/acme/widget/pull/{number}")


def rich_digest(*, continues: m.Continuity | None = None,
                extra: Sequence[m.Change] = ()) -> m.Digest:
    """A busy day: an eleven-part stack (six in window), a two-PR cluster, a single PR,
    area work, a duplicate pair, a revert and a reland."""
    stack_prs = tuple(range(584044, 584050))
    stack = m.Stack("ghstack", ("kovacs47",), 11, stack_prs, tuple(range(584040, 584051)))
    tile_titles = ["Add shared tiling machinery", "Add a cost model for tiles",
                     "Use planned tiles for depthwise filters", "Use planned tiles for dilated windows",
                     "Use planned tiles for grouped channels", "Enable the tile planner by default"]
    changes = [pr(n, f"[inductor] {t}", "kovacs47",
                  body=BODIES["tiles"] if i == 0 else "")
               for i, (n, t) in enumerate(zip(stack_prs, tile_titles, strict=True))]
    changes += [
        pr(584064, "[rpc] Honor the configured retry budget", "b7r2n", body=BODIES["rpc"]),
        pr(584073, "[rpc] Add call timing to the in-tree transport", "b7r2n",
           state=m.State.OPEN),
        pr(584097, "[vulkan] Add Vulkan shaders for windowed reductions", "marisol31",
           body=BODIES["vulkan"]),
        pr(584024, "[dynamo] Fix a guard on ChainMap", "devkumar4417"),
        pr(584025, "[dynamo] Trace hasattr on slotted classes", "hughchen36"),
        pr(587111, "[dynamo] Keep ChainMap lookup order", "fabiomartens"),
        pr(587167, "[dynamo] Preserve lookup order for ChainMap", "jlorne"),
        pr(584200, "Revert \"[dynamo] Speed up guard checks\"", "pytorchbot"),
        pr(584201, "[dynamo] Reland faster guard checks", "devkumar4417"),
        *extra,
    ]
    themes = (
        m.Theme(1, "convolution tile planning", "stack", ("kovacs47",), ("Inductor",),
                stack_prs, (), stack, 9.5, ("stack of eleven",), continues),
        m.Theme(2, "retry budgets in distributed RPC", "cluster", ("b7r2n",), ("Distributed",),
                (584064, 584073), (), None, 6.0, ("linked",)),
        m.Theme(3, "Vulkan reductions", "single", ("marisol31",), ("Vulkan",), (584097,), (), None,
                4.0, ("big",)),
    )
    areas = (m.Area("Dynamo", (584024, 584025, 587111, 587167, 584200, 584201), ()),
             m.Area("Inductor", stack_prs, ()))
    authors = {c.author.handle for c in changes}
    return m.Digest(
        window=WINDOW, counts=m.Counts(len(changes), len(changes), 0, len(authors)),
        themes=themes,
        duplicates=(m.Duplicate((587111, 587167), "both keep ChainMap lookup order"),),
        reverts=(m.RevertPair(m.Ref(pr=584200), m.Ref(pr=584150), "broke internal tests"),),
        relands=(m.RevertPair(m.Ref(pr=584201), m.Ref(pr=584150)),),
        areas=areas, first_time_contributors=("jlorne",), changes=tuple(changes),
    )


def small_digest(n: int = 1) -> m.Digest:
    changes = [pr(500 + i, f"[docs] Fix typo number {i} in the install guide", "ada")
               for i in range(n)]
    themes = (m.Theme(1, "install guide fixes", "single", ("ada",), ("Docs",), (500,), (), None,
                      1.0, ("only change",)),)
    return m.Digest(window=WINDOW, counts=m.Counts(n, n, 0, 1), themes=themes, duplicates=(),
                    reverts=(), relands=(), areas=(m.Area("Docs", tuple(500 + i for i in range(n)),
                                                          ()),),
                    first_time_contributors=(), changes=tuple(changes))


def empty_digest() -> m.Digest:
    return m.Digest(window=WINDOW, counts=m.Counts(0, 0, 0, 0), themes=(), duplicates=(),
                    reverts=(), relands=(), areas=(), first_time_contributors=())


def commit(sha: str, title: str, author: str, *, body: str = "",
           email: str | None = None) -> m.Change:
    """A bare commit on main: no PR number, known by sha and a git author name."""
    t = dt.datetime(2026, 3, 12, 9, tzinfo=UTC)
    return m.Change(repo="acme/widget", title=title, shas=(sha,), body=body,
                    author=m.Person(name=author, email=email or f"{author.split()[0]}@x.org"),
                    landed_at=t, state=m.State.LANDED)


COMMIT_BODY = (
    "The cache kept every entry forever, so long sessions ran out of memory. "
    "The change evicts the least recently used entries once the cache is full.\n"
)


def commit_digest(*, continues: m.Continuity | None = None) -> m.Digest:
    """A day with no PR numbers: a three-commit cluster, a single commit, an area commit."""
    changes = [
        commit("a1" * 20, "Cache: evict old entries", "Ivy Zhou", body=COMMIT_BODY),
        commit("b2" * 20, "Cache: add a size limit setting", "Ivy Zhou"),
        commit("c3" * 20, "Cache: document the eviction policy", "Ivy Zhou"),
        commit("d4" * 20, "Parser: speed up tokenizing of long lines", "omar"),
        commit("e5" * 20, "Fix a typo in the README", "omar"),
    ]
    shas = tuple(c.shas[0] for c in changes)
    themes = (
        m.Theme(1, "Cache: evict old entries", "cluster", ("Ivy Zhou",), ("cache",), (),
                shas[:3], None, 5.0, ("0 PRs and 3 commits",), continues),
        m.Theme(2, "Parser: speed up tokenizing of long lines", "single", ("omar",),
                ("parser",), (), shas[3:4], None, 3.0, ("0 PRs and 1 commits",)),
    )
    areas = (m.Area("src/cache", (), shas[:3]), m.Area("src/parser", (), shas[3:4]),
             m.Area("docs", (), shas[4:]))
    return m.Digest(window=WINDOW, counts=m.Counts(5, 0, 5, 2), themes=themes, duplicates=(),
                    reverts=(), relands=(), areas=areas, first_time_contributors=(),
                    changes=tuple(changes))


_WHO_FIRST = re.compile(r"(?:The work comes from|Behind this one (?:is|are)) ([^,]+(?:, [^,]+ "
                        r"and others)?), who ")


def who_first(text: str) -> str:
    """`text` with each theme's who-and-size sentence in its plain wording ("ada landed
    …"), however the episode worded it ("The work comes from ada, who landed …", "Behind
    this one is ada, who landed …"): the words after it are what a test checks."""
    return _WHO_FIRST.sub(r"\1 ", text)

