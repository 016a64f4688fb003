"""Stacked PRs: every kind of evidence (stack lists, trailers, numbered titles, branch
chains, same-author series) is merged with union-find into one Stack per component.

`declared_size` is the longest single list a stack tool printed (or the N of "k/N"
titles), never the union of lists: ghstack lists are snapshots, and a later re-stack
can add or drop entries, so the union over-counts (see the shared pytorch sample).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Sequence

from ..models import Change, Stack
from .text import strip_tags, title_tags, truncate, weak_tag
from .unionfind import UnionFind

# Strongest evidence first; a stack reports the strongest tool among its edges.
TOOLS = ("ghstack", "graphite", "sapling", "spr", "trailers", "branches", "numbered", "series")

_GHSTACK = re.compile(r"^[ \t]*Stack from \[ghstack\]\([^)]*\)[^\n]*$", re.M | re.I)
_SAPLING = re.compile(r"^[ \t]*(\[//\]: # \(BEGIN SAPLING FOOTER\)|Stack created with \[Sapling\])",
                      re.M | re.I)
_SPR = re.compile(r"^[ \t]*(\*\*Stack\*\*:|Stack PRs:)\s*$", re.M | re.I)
_GRAPHITE_END = re.compile(r"This stack of pull requests is managed by\W*(?:<[^>]*>\W*)*Graphite",
                           re.I)
_GRAPHITE_ITEM = re.compile(r"^\s*[*-]\s+\*\*#(\d+)\*\*", re.M)
_ITEM = re.compile(r"^\s*[*-]\s+(?:__->__\s+)?#(\d+)\b")
_DEPS = re.compile(r"^[ \t]*ghstack dependencies:\s*(.+)$", re.M | re.I)
_NUM = re.compile(r"#(\d+)")
_NUMBERED = (
    re.compile(r"[(\[]\s*(\d{1,2})\s*/\s*(\d{1,2})\s*[)\]]"),
    re.compile(r"^\s*(?:\[[^\]]*\]\s*)*(\d{1,2})\s*/\s*(\d{1,2})\s*:"),
    re.compile(r"\bpart\s+(\d{1,2})\s+of\s+(\d{1,2})\b", re.I),
)
SERIES_MIN = 3  # distinct titles
SERIES_GAP = 25  # max distance between consecutive PR numbers in a series

_Link = Callable[[str, Sequence[int]], None]


def _list_after(body: str, start: int) -> list[int]:
    """`* #N` / `- #N` lines right after a header (one blank line allowed before them)."""
    numbers: list[int] = []
    blanks = 0
    for line in body[start:].split("\n")[1:]:
        m = _ITEM.match(line)
        if m:
            numbers.append(int(m.group(1)))
            continue
        if not line.strip() and not numbers and blanks == 0:
            blanks += 1
            continue
        break
    return numbers


def stack_lists(change: Change) -> list[tuple[str, list[int]]]:
    """Every stack list the change's body (or stack comment) prints, with its tool."""
    found: list[tuple[str, list[int]]] = []
    body = truncate(change.body)
    for text in (body, truncate(change.stack_comment or "")):
        if not text:
            continue
        for tool, pattern in (("ghstack", _GHSTACK), ("sapling", _SAPLING), ("spr", _SPR)):
            for m in pattern.finditer(text):
                line_start = text.rfind("\n", 0, m.start()) + 1
                if tool == "sapling" and m.group(1).startswith("[//]"):
                    # the footer marker is followed by the "Stack created with" line
                    continue
                numbers = _list_after(text, line_start)
                if numbers:
                    found.append((tool, numbers))
        if _GRAPHITE_END.search(text):
            numbers = [int(n) for n in _GRAPHITE_ITEM.findall(text)]
            if numbers:
                found.append(("graphite", numbers))
    deps = list(change.trailer_values("ghstack dependencies"))
    deps += [m.group(1) for m in _DEPS.finditer(body)]
    dep_numbers = [int(n) for value in deps for n in _NUM.findall(value)]
    if dep_numbers and change.number is not None:
        found.append(("trailers", dep_numbers + [change.number]))
    return found


def numbered(title: str) -> tuple[int, int] | None:
    """(k, n) from "(2/5)", "[1/7]", "2/5:", "Part 2 of 5"; None when absent or implausible."""
    for pattern in _NUMBERED:
        m = pattern.search(title)
        if m:
            k, n = int(m.group(1)), int(m.group(2))
            if 1 <= k <= n and n >= 2:
                return k, n
    return None


def _series_key(change: Change) -> str | None:
    tags = [t.lower() for t in title_tags(change.title) if not weak_tag(t)]
    if not tags:
        return None
    return f"{change.author.handle}\x00{'|'.join(tags)}"


def detect_stacks(changes: Sequence[Change]) -> list[Stack]:
    """Stacks among the window's PRs, ordered by first member."""
    prs = {c.number: c for c in changes if c.number is not None}
    uf: UnionFind[int] = UnionFind()
    tools: dict[int, set[str]] = defaultdict(set)  # PR -> tools whose evidence names it
    lists: list[tuple[int, list[int]]] = []  # (PR it came from, numbers)
    sizes: list[tuple[int, int]] = []  # (a member, a declared size)

    def link(tool: str, numbers: Sequence[int]) -> None:
        for n in numbers:
            uf.union(numbers[0], n)
            tools[n].add(tool)

    for number, c in sorted(prs.items()):
        for tool, numbers in stack_lists(c):
            entries = sorted(set(numbers) | {number})
            if len(entries) < 2:
                continue
            link(tool, entries)
            lists.append((number, entries))
            if tool != "trailers":  # a trailer names dependencies only, not the whole stack
                sizes.append((number, len(entries)))
    _link_branches(prs, link)
    _link_numbered(prs, link, sizes)
    _link_series(prs, link)

    groups: dict[int, list[int]] = defaultdict(list)
    for number in prs:
        if number in uf.parent:
            groups[uf.find(number)].append(number)
    declared_by_root: dict[int, set[int]] = defaultdict(set)
    for number, entries in lists:
        declared_by_root[uf.find(number)].update(entries)
    size_by_root: dict[int, int] = {}
    for number, size in sizes:
        root = uf.find(number)
        size_by_root[root] = max(size_by_root.get(root, 0), size)

    stacks: list[Stack] = []
    for root, members in groups.items():
        members.sort()
        declared = declared_by_root.get(root, set()) | set(members)
        if len(declared) < 2:
            continue
        used = set().union(*(tools[n] for n in declared if n in tools))
        tool = next(t for t in TOOLS if t in used)
        largest = size_by_root.get(root)
        authors = _authors([prs[n] for n in members])
        stacks.append(Stack(
            tool=tool,
            authors=authors,
            declared_size=max(largest, len(members)) if largest is not None else None,
            members=tuple(members),
            declared=tuple(sorted(declared)),
        ))
    stacks.sort(key=lambda s: s.members[0])
    return stacks


def _authors(changes: Sequence[Change]) -> tuple[str, ...]:
    """A stack is its owner's alone: whoever wrote most of its PRs (a tie goes to the
    author of its top PR), never every author of something linked to it."""
    counts: dict[str, int] = defaultdict(int)
    for c in changes:
        if not c.bot:
            counts[c.author.handle] += 1
    if not counts:
        return ()
    top = {c.author.handle: c.number or 0 for c in changes}
    return (min(counts, key=lambda a: (-counts[a], -top[a], a)),)


def _link_branches(prs: dict[int, Change], link: _Link) -> None:
    by_head: dict[str, int] = {}
    for number, c in sorted(prs.items()):
        # ghstack heads (gh/USER/N/head) sit on their own gh/USER/N/base, never on
        # another PR's head, so they chain only through the ghstack list.
        if c.head_ref:
            by_head.setdefault(c.head_ref, number)
    for number, c in sorted(prs.items()):
        if c.base_ref and c.base_ref in by_head and by_head[c.base_ref] != number:
            link("branches", [by_head[c.base_ref], number])


def _link_numbered(prs: dict[int, Change], link: _Link, sizes: list[tuple[int, int]]) -> None:
    series: dict[tuple[str, int], list[int]] = defaultdict(list)
    for number, c in sorted(prs.items()):
        k_n = numbered(c.title)
        if k_n:
            series[(c.author.handle, k_n[1])].append(number)
    for (_, total), numbers in series.items():
        for run in _runs(numbers, gap=max(SERIES_GAP, 10 * total)):
            if len(run) >= 2:
                link("numbered", run)
                sizes.append((run[0], total))


def _link_series(prs: dict[int, Change], link: _Link) -> None:
    by_key: dict[str, list[int]] = defaultdict(list)
    for number, c in sorted(prs.items()):
        key = _series_key(c)
        if key:
            by_key[key].append(number)
    for key in sorted(by_key):
        for run in _runs(by_key[key], gap=SERIES_GAP):
            titles = {strip_tags(prs[n].title).lower() for n in run}
            # resubmissions of one title are not a series
            if len(titles) >= SERIES_MIN:
                link("series", run)


def _runs(numbers: list[int], gap: int) -> list[list[int]]:
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n - runs[-1][-1] <= gap:
            runs[-1].append(n)
        else:
            runs.append([n])
    return runs

