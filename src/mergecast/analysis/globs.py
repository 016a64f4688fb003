"""Globs from repository files (CODEOWNERS, labeler.yml), matched in linear time.

CODEOWNERS and labeler.yml are written by whoever lands a commit, so a glob is hostile
input: translated to a backtracking regex, `**/**/**/…/x` against a deep path takes
exponential time. Each glob is translated once into tokens (runs of wildcards folded).
A short glob whose regex cannot backtrack more than linearly (see `_regex_safe`) is
matched by that regex; any other by a bit-parallel NFA that reads each character of
the path once. Either way the time is linear in the path, whatever the glob.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable

_LIT, _ONE, _STAR, _ANY, _DIRS = range(5)  # a char, ?, * (within a folder), **, **/
_Token = tuple[int, str]
GLOB_LIMIT = 1_000  # characters: a longer pattern in a repository file matches nothing


def _glob_tokens(pattern: str) -> list[_Token]:
    out: list[_Token] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            tok, i = (_DIRS, ""), i + 3
        elif pattern.startswith("**", i):
            tok, i = (_ANY, ""), i + 2
        elif pattern[i] in "*?":
            tok, i = ((_STAR if pattern[i] == "*" else _ONE), ""), i + 1
        else:
            tok, i = (_LIT, pattern[i]), i + 1
        out.append(tok)
    return _fold_runs(out)


def _fold_runs(tokens: list[_Token]) -> list[_Token]:
    """Each run of adjacent wildcards as its shortest equivalent: `**` absorbs the rest;
    otherwise one `**/` then one `*` (`**/**/` is `**/`; `*` cannot precede `**/`)."""
    out: list[_Token] = []
    run: set[int] = set()
    for tok in [*tokens, (_LIT, "")]:
        if tok[0] in (_STAR, _ANY, _DIRS):
            run.add(tok[0])
            continue
        if _ANY in run:
            out.append((_ANY, ""))
        else:
            out += [(kind, "") for kind in (_DIRS, _STAR) if kind in run]
        run = set()
        out.append(tok)
    return out[:-1]


def _regex_safe(tokens: list[_Token]) -> bool:
    """True when a backtracking regex runs in linear time on any path: at most one
    `**`/`**/` (its choices of where to stop are then the only branching that reaches
    across folders), at most one `*` per folder of the pattern, and none beside a `**`
    (two quantifiers over the same folder cost its length squared)."""
    if len(tokens) > 200 or sum(k in (_ANY, _DIRS) for k, _ in tokens) > 1:
        return False
    stars, crossing = 0, False
    for kind, ch in [*tokens, (_LIT, "/")]:
        if kind == _STAR:
            stars += 1
        elif kind == _ANY:
            crossing = True
        if stars > 1 or (stars and crossing):
            return False
        if (kind == _LIT and ch == "/") or kind == _DIRS:
            stars, crossing = 0, False
    return True


def _glob_regex(tokens: list[_Token]) -> re.Pattern[str]:
    parts = {_ONE: "[^/]", _STAR: "[^/]*", _ANY: ".*", _DIRS: "(?:.*/)?"}
    return re.compile(
        "".join(re.escape(v) if k == _LIT else parts[k] for k, v in tokens) + r"\Z", re.S
    )


class _Nfa:
    """A glob as a Thompson NFA whose state set is one integer (bit i: before token i).

    `**/` is three states: an entry that may skip the group, `**`, and a literal `/`.
    """

    def __init__(self, tokens: list[_Token]) -> None:
        lits: dict[str, int] = {}
        one = star = any_ = skip1 = skip3 = 0
        i = 0
        for kind, ch in tokens:
            if kind == _DIRS:
                skip1 |= 1 << i | 1 << i + 1  # entry -> `**`, and `**` -> `/` (empty run)
                skip3 |= 1 << i  # entry -> past the `/` (no folder at all)
                any_ |= 1 << i + 1
                lits["/"] = lits.get("/", 0) | 1 << i + 2
                i += 3
                continue
            if kind == _LIT:
                lits[ch] = lits.get(ch, 0) | 1 << i
            elif kind == _ONE:
                one |= 1 << i
            else:
                skip1 |= 1 << i
                if kind == _STAR:
                    star |= 1 << i
                else:
                    any_ |= 1 << i
            i += 1
        self.accept = 1 << i
        self.lits, self.one, self.stay, self.any = lits, one, any_ | star, any_
        self.skip1, self.skip3 = skip1, skip3

    def _close(self, states: int) -> int:
        while True:
            more = states | (states & self.skip1) << 1 | (states & self.skip3) << 3
            if more == states:
                return states
            states = more

    def match(self, path: str) -> bool:
        states = self._close(1)
        lits, one, stay, any_ = self.lits, self.one, self.stay, self.any
        for ch in path:
            if ch == "/":
                states = (states & lits.get("/", 0)) << 1 | states & any_
            else:
                states = (states & (lits.get(ch, 0) | one)) << 1 | states & stay
            if not states:
                return False
            states = self._close(states)
        return bool(states & self.accept)


def _literal_runs(tokens: list[_Token]) -> list[str]:
    runs, run = [], ""
    for kind, ch in [*tokens, (_ONE, "")]:
        if kind == _LIT:
            run += ch
        elif run:
            runs.append(run)
            run = ""
    return runs


@functools.lru_cache(maxsize=4096)
def _glob_matcher(pattern: str) -> Callable[[str], bool]:
    if len(pattern) > GLOB_LIMIT:
        return lambda path: False
    tokens = _glob_tokens(pattern)
    if _regex_safe(tokens):
        regex = _glob_regex(tokens)
        return lambda path: regex.match(path) is not None
    nfa = _Nfa(tokens)
    # Cheap necessary conditions first (str methods run in C): most files fail one.
    prefix = "".join(ch for _, ch in itertools.takewhile(lambda t: t[0] == _LIT, tokens))
    suffix = "".join(reversed([ch for _, ch in itertools.takewhile(
        lambda t: t[0] == _LIT, reversed(tokens))]))
    needed = [run for run in _literal_runs(tokens) if len(run) > 1]

    def match(path: str) -> bool:
        return (path.startswith(prefix) and path.endswith(suffix)
                and all(run in path for run in needed) and nfa.match(path))

    return match


def glob_match(pattern: str, path: str) -> bool:
    """Glob with `**` across directories, `*` and `?` within one; anchored at the root.

    Linear in the path's length for any pattern (see above)."""
    return _glob_matcher(pattern.lstrip("/"))(path.lstrip("/"))
