"""Union-find over any sortable keys (stacks of PRs, identities of people)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

K = TypeVar("K", int, str)


@dataclass
class UnionFind(Generic[K]):
    parent: dict[K, K] = field(default_factory=dict)

    def find(self, x: K) -> K:
        self.parent.setdefault(x, x)
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, a: K, b: K) -> None:
        """Join two sets; the smaller root stays, so the result is the same in any order."""
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)
