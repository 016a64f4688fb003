"""The fact check: every PR number, handle and count a script says must be in the digest.

Both writers pass through it; the template writer also uses `Facts.problems` to drop
sentences lifted from PR text that would not pass. PR numbers are never accepted because
they occur in PR *text* (attacker-controlled); only digest structure vouches for them.
A figure a PR's own title or description states ("8.7x for 256 experts") may be repeated
by a sentence citing that PR, and only there, never in a PR-number slot.

It checks what *we* claim, not what we quote: a theme name or title said as a name ("Zero
PRs left behind") is not a count, so its words are masked before the count, handle and
day checks (PR numbers and hashes are checked everywhere). A sentence that fails is
dropped by the template writer (`supported`), never the whole episode.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..analysis.language import clean_title, name_of, parse_actions, parse_title, words
from ..analysis.text import truncate
from ..errors import FactCheckError
from ..models import Digest, Script, Section
from .handles import MIXED, check_handles
from .numbers import NUMBER_WORD, parse_count
from .sizes import Size, check_sizes, line_counts, sizes_of

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*[A-Za-z0-9]|[A-Za-z0-9]")
_INT = re.compile(r"(?<![\w.])(?<!\d,)(#?)(\d+)(?!\w|[.,]\d)")
_STATED = re.compile(r"(?<![#\w.,])(\d{3,4})(?![\w,])")  # not "#256", "1,000", "v2.100"
_PR_STRICT = re.compile(r"(?:\bPRs?|\bpull requests?|#|\bnumbers?)\s*$", re.I)
_PART = re.compile(rf"\b({NUMBER_WORD})-part\b", re.I)
_FILLER = (r"(?:(?:linked|separate|related|open|merged|landed|new|stacked|more|other|similar|"
           r"competing|distinct|different|follow-up|smaller|larger)\s+){0,2}")
_NOUNS = (r"PRs?|pull requests?|changes?|commits?|authors?|developers?|contributors?|parts?|"
          r"stacks?|themes?|reverts?|relands?")
_COUNT = re.compile(
    rf"\b(a single|{NUMBER_WORD})\s+{_FILLER}(?:of (?:its|the|their|these|those|them)\s+)?"
    rf"{_FILLER}({_NOUNS})\b",
    re.I,
)
_SOME = re.compile(rf"\bof (?:the|its|their) (?:{_NOUNS})\b", re.I)  # "four of the PRs"
_RANGE = re.compile(r"\b(\d+)\s+(?:through|to)\s+(\d+)\b")
_ORDINAL_DAY = re.compile(
    r"\b(second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\s+(?:straight\s+|"
    r"consecutive\s+)?day\b", re.I)
_ORDINAL_VALUE = {w: i for i, w in enumerate(
    "zeroth first second third fourth fifth sixth seventh eighth ninth tenth".split())}
_SHA = re.compile(r"(?<![\w.])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?![\w])", re.I)
_EPISODE_YEAR = re.compile(r"^(\d{4})-")
_DIGITS_IN_NAME = re.compile(r"(?<![\w-])(?=[\w-]*[A-Za-z])[A-Za-z0-9][\w-]*\d(?![\w-])")


_PIECE = re.compile(r"[A-Za-z0-9][\w-]*")  # the shape every name/handle check cuts from text
_SEPARATORS = re.compile(r"[._/+-]+")


def _words(texts: Iterable[str]) -> set[str]:
    """Every token the checks could cut from these texts, split the way the checks split.

    The checks read "qwen3.5" as `qwen3`, "requirements.txt" after "from" as `requirements`
    and "H100-class" as `H100-class`; a writer may also say "llama2_13b" as "llama2 13b". So
    a word of the digest's own text vouches for itself and for each of its pieces.
    """
    out: set[str] = set()
    for t in texts:
        for w in _WORD.findall(t):
            low = w.lower()
            out.add(low.rstrip(".-"))
            out.update(piece for piece in _SEPARATORS.split(low) if piece)
        for piece in _PIECE.findall(t):
            low = piece.lower()
            out.update((low, low.rstrip("-")))
            out.update(part for part in low.split("_") if part)
        out.update(m.lower() for m in MIXED.findall(t))
    return out


@dataclass(frozen=True)
class _Group:
    prs: frozenset[int]
    sizes: frozenset[int]
    stack: bool = False
    authors: frozenset[int] = frozenset()
    commits: frozenset[int] = frozenset()


@dataclass
class Facts:
    """What a digest vouches for, indexed for checking sentences."""

    prs: set[int]
    handles: set[str]
    groups: list[_Group]
    totals: set[int]
    author_totals: set[int]
    commit_totals: set[int]
    days: set[int]
    names: set[str]  # words of titles, headlines and area names (PR text the digest relies on)
    vocabulary: set[str]  # every word of every PR body too
    small_numbers: set[int] = field(default_factory=set)
    shas: set[str] = field(default_factory=set)  # never said aloud: a hash means nothing spoken
    quotes: tuple[str, ...] = ()  # names and titles said as names, longest first (lower case)
    sizes: list[Size] = field(default_factory=list)  # lines and files, per change and theme
    # The numbers each PR's own title and description state ("8.7x for 256 experts"): a
    # sentence citing that PR may repeat them, never as a PR number.
    stated: dict[int, frozenset[int]] = field(default_factory=dict)

    @classmethod
    def from_digest(cls, d: Digest, day: dt.date | None = None, show: str | None = None
                    ) -> Facts:
        prs: set[int] = {c.number for c in d.changes if c.number is not None}
        handles: set[str] = set()
        for c in d.changes:
            handles.add(c.author.handle.lower())
            for p in (c.author, *c.co_authors):
                handles.update(x.lower() for x in (p.login, p.name) if x)
            if c.revert and c.revert.by:
                handles.add(c.revert.by.lower())
        handles.update(h.lower() for h in d.first_time_contributors)
        groups: list[_Group] = []
        days: set[int] = set()
        for t in d.themes:
            prs.update(t.prs)
            handles.update(a.lower() for a in t.authors)
            groups.append(_Group(frozenset(t.prs), frozenset({len(t.prs)}),
                                 authors=frozenset({len(t.authors)}),
                                 commits=frozenset({len(t.commits)})))
            if t.stack is not None:
                s = t.stack
                prs.update(s.members)
                prs.update(s.declared)
                handles.update(a.lower() for a in s.authors)
                sizes = {s.in_window, len(s.declared)}
                if s.declared_size:
                    sizes.add(s.declared_size)
                groups.append(_Group(frozenset(s.members) | frozenset(s.declared),
                                     frozenset(sizes - {0}), stack=True,
                                     authors=frozenset({len(s.authors)})))
            if t.continues is not None:
                days.add(t.continues.days)
                prs.update(t.continues.prs)
            if t.follows is not None and t.follows.ref.pr is not None:
                prs.add(t.follows.ref.pr)  # an earlier change the analysis linked
        for a in d.areas:
            prs.update(a.prs)
            groups.append(_Group(frozenset(a.prs), frozenset({len(a.prs)}),
                                 commits=frozenset({len(a.commits)})))
        for ch in d.chains:  # the analysis stage's revert chains: who reverted, who relanded
            refs = {r.pr for r in (ch.original, *(st.ref for st in ch.steps)) if r.pr}
            prs.update(refs)
            handles.update(h.lower() for h in (ch.author, *(st.by for st in ch.steps)) if h)
            groups.append(_Group(frozenset(refs), frozenset({len(refs), 1})))
        for dup in d.duplicates:
            prs.update(dup.prs)
            groups.append(_Group(frozenset(dup.prs), frozenset({2})))
        for pair in (*d.reverts, *d.relands):
            pair_prs = {n for n in (pair.revert.pr, pair.original.pr) if n is not None}
            prs.update(pair_prs)
            groups.append(_Group(frozenset(pair_prs), frozenset({len(pair_prs), 1})))
        k = d.counts
        totals = {k.changes, k.prs, k.commits, len(d.themes), len(d.duplicates), len(d.reverts),
                  len(d.relands), len(d.areas)}
        titles = [c.title for c in d.changes] + [t.headline for t in d.themes]
        titles += [a.name for a in d.areas] + [x.why for x in d.duplicates]
        titles += [t.continues.headline for t in d.themes if t.continues]
        titles += [ch.title for ch in d.chains] + _followed(d)
        # The show's own name and the lexicon's expansions are ours, not the input's.
        names = _words(titles + [show or ""] + list(words().expand.values()))
        small = {int(n) for _, n in _INT.findall(" ".join(titles)) if len(n) <= 4}
        years = {d.window.since.year, d.window.until.year} | ({day.year} if day else set())
        # Earlier episodes the digest links to are said with their dates, years included.
        linked = [t.continues.episode_id for t in d.themes if t.continues]
        linked += [p.original_episode for p in (*d.reverts, *d.relands) if p.original_episode]
        linked += [c.original_episode for c in d.chains if c.original_episode]
        years |= {int(m.group(1)) for e in linked if (m := _EPISODE_YEAR.match(e))}
        bare = [c for c in d.changes if c.number is None and c.shas]
        # Git authors without a login are known by name ("Ivy Zhou"): each word of it is theirs.
        # "Zhang, Liangang" and "Swift.Sun" too: split them as the checks split text.
        handles |= {part.lower() for h in list(handles) if not re.fullmatch(r"[\w-]+", h)
                    for part in _PIECE.findall(h)}
        return cls(
            prs=prs, handles=handles, groups=groups, totals=totals,
            author_totals={k.authors, len(d.first_time_contributors)},
            commit_totals={k.commits, len(bare)}, days=days, names=names | handles,
            # File paths are input too: a file said as a place ("the llama3 model") is theirs.
            vocabulary=names | handles | _words(truncate(c.body) for c in d.changes)
            | _words(f.path for c in d.changes for f in c.files or ())
            | _words(t.follows.path for t in d.themes if t.follows),
            small_numbers=small | years,
            shas={s.lower() for c in d.changes for s in c.shas},
            quotes=_quotes(d), sizes=sizes_of(d),
            stated={c.number: frozenset(int(n) for n in _STATED.findall(
                f"{c.title}\n{truncate(c.body)}")) for c in d.changes if c.number is not None},
        )

    # ------------------------------------------------------------------ checking

    def _unnamed(self, cites: Sequence[int], named: set[int]) -> int | None:
        """How many of a sentence's cited PRs it counts without naming them ("four of the
        PRs add X, and PR 5 fixes Y" cites five): None unless it cites PRs, all of one
        theme's or stack's, whose PRs "the PRs" are."""
        cited = set(cites)
        if not cited or not any(cited <= g.prs for g in self.groups):
            return None
        return len(cited - named)

    def _related(self, mentioned: set[int]) -> list[_Group]:
        return [g for g in self.groups if g.prs & mentioned]

    def _allowed(self, noun: str, mentioned: set[int], handles: int) -> set[int]:
        noun = noun.lower()
        related = self._related(mentioned) if mentioned else self.groups
        if noun.startswith(("author", "developer", "contributor")):
            out = set(self.author_totals) | {handles}
            for g in related:
                out |= g.authors
            return out
        if noun.startswith("commit"):
            out = set(self.commit_totals)
            for g in related:
                out |= g.commits
            return out
        if noun.startswith("stack"):
            return {len([g for g in related if g.stack])} | self.totals
        out = {len(mentioned)} if mentioned else set(self.totals)
        for g in related:
            out |= g.sizes
        return out

    def _mask(self, text: str) -> str:
        """`text` with every quoted name replaced by a placeholder word."""
        low = text.lower()
        for q in self.quotes:
            start = low.find(q)
            while start >= 0:
                end = start + len(q)
                if (start == 0 or not low[start - 1].isalnum()) and \
                        (end == len(low) or not low[end].isalnum()):
                    pad = " " * (len(q) - 6)
                    low = low[:start] + "quoted" + pad + low[end:]
                    text = text[:start] + "quoted" + pad + text[end:]
                start = low.find(q, start + 1)
        return text

    def _unhandle(self, text: str) -> str:
        """`text` with the digits of every known handle ("liangel-02") hidden, so a handle
        is never read as a count or a number; positions are kept."""
        return _DIGITS_IN_NAME.sub(
            lambda m: re.sub(r"\d", "n", m.group(0)) if m.group(0).lower() in self.handles
            else m.group(0), text)

    def problems(self, text: str, cites: Sequence[int] = ()) -> list[str]:
        """What in `text` the digest does not support; empty when the sentence is grounded."""
        found: list[str] = []
        claimed = self._mask(text)  # what we claim: the text without quoted names
        numbers, counted = self._unhandle(text), self._unhandle(claimed)
        mentioned: set[int] = set()
        for n in cites:
            if n in self.prs:
                mentioned.add(n)
            else:
                found.append(f"cites PR {n}, which is not in the digest")
        pr_at: set[int] = set()  # where a known PR number is said as a PR number
        named: set[int] = set()  # the known PR numbers said
        sized = {i for m in line_counts(counted) for i in range(m.start(), m.end())}
        for m in _INT.finditer(numbers):
            digits = m.group(2)
            n = int(digits)
            if m.start(2) in sized:
                continue  # a line count, checked against the files below
            before = text[max(0, m.start() - 16):m.start()]
            strict = bool(m.group(1)) or bool(_PR_STRICT.search(before))
            if n in self.prs:
                mentioned.add(n)
                named.add(n)
                if strict:
                    pr_at.add(m.start(2))
                continue
            if len(digits) >= 5 or (strict and len(digits) >= 3):
                found.append(f"PR number {digits} is not in the digest")
            elif len(digits) >= 3 and n not in self.small_numbers and \
                    not any(n in self.stated.get(c, ()) for c in cites):
                found.append(f"number {digits} is not in the digest")
        for m in _RANGE.finditer(text):
            a, b = int(m.group(1)), int(m.group(2))
            if a in self.prs and b in self.prs and not any(
                a in g.prs and b in g.prs for g in self.groups
            ):
                found.append(f"range {a} through {b} is not one stack or theme")
        for m in _SHA.finditer(text):
            token = m.group(0).lower()
            if any(s.startswith(token) for s in self.shas):
                found.append(f"commit sha {m.group(0)} is read aloud")
        said_handles, wrong = check_handles(claimed, self.handles, self.names,
                                             self.vocabulary)
        found += wrong
        for m in _PART.finditer(counted):
            value = parse_count(m.group(1))
            related = self._related(mentioned) if mentioned else self.groups
            sizes = {s for g in related if g.stack for s in g.sizes}
            if value is not None and value not in sizes:
                found.append(f"count {m.group(0)!r} matches no stack in the digest")
        for m in _COUNT.finditer(counted):
            value = parse_count("one" if m.group(1).lower() == "a single" else m.group(1))
            if value is None or m.group(0).lower().endswith("-part"):
                continue
            if m.start(1) in pr_at:
                continue  # "PR 214 reverts PR 33": 214 names a PR, it does not count reverts
            if value not in self._allowed(m.group(2), mentioned, said_handles) and not (
                    _SOME.search(m.group(0)) and value == self._unnamed(cites, named)):
                found.append(f"count {m.group(0)!r} is not supported by the digest")
        found += check_sizes(self.sizes, counted, mentioned, text)
        for m in _ORDINAL_DAY.finditer(claimed):
            if _ORDINAL_VALUE[m.group(1).lower()] not in self.days:
                found.append(f"{m.group(0)!r} does not match any continuing theme")
        return found



def _quotes(d: Digest) -> tuple[str, ...]:
    """Names the writers say as names: theme names and each title as a name and an action."""
    found: set[str] = {t.headline for t in d.themes}
    found |= {t.continues.headline for t in d.themes if t.continues}
    for title in [c.title for c in d.changes] + [ch.title for ch in d.chains] + _followed(d):
        found.add(clean_title(title))
        for action in (parse_title(title), *parse_actions(title)):
            found |= {name_of(action), action.obj, f"{action.obj} {action.qualifier}".strip()}
    quoted = {q.lower().strip() for q in found if len(q.split()) >= 2 and len(q) <= 300}
    return tuple(sorted(quoted, key=lambda q: (-len(q), q)))


def _followed(d: Digest) -> list[str]:
    """The titles of the earlier changes the digest's themes follow (analysis/followups.py):
    input, though not the window's."""
    return [t.follows.title for t in d.themes if t.follows]


def supported(script: Script, digest: Digest) -> tuple[Script, list[str]]:
    """`script` without the sentences the digest does not support (and without sections
    left empty), and what was dropped. The title and summary are the writer's to fix."""
    facts = Facts.from_digest(digest, day=script.date, show=script.show)
    dropped: list[str] = []
    sections = []
    for section in script.sections:
        kept = []
        for s in section.sentences:
            found = facts.problems(s.text, s.cites)
            if found:
                dropped.append(f'"{s.text}": {found[0]}')
            else:
                kept.append(s)
        if kept:
            sections.append(Section(section.kind, section.heading, tuple(kept)))
    return dataclasses.replace(script, sections=tuple(sections)), dropped


def fact_check(script: Script, digest: Digest) -> None:
    """Raise FactCheckError naming each unsupported sentence and token."""
    facts = Facts.from_digest(digest, day=script.date, show=script.show)
    problems: list[str] = []
    for label, text in (("title", script.title), ("summary", script.summary)):
        problems += [f'{label} "{text}": {p}' for p in facts.problems(text)]
    for i, section in enumerate(script.sections, 1):
        where = f"section {i} ({section.kind})"
        problems += [f'{where} heading "{section.heading}": {p}'
                     for p in facts.problems(section.heading)]
        for j, s in enumerate(section.sentences, 1):
            problems += [f'{where} sentence {j} "{s.text}": {p}'
                         for p in facts.problems(s.text, s.cites)]
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise FactCheckError(f"the script fails the fact check: {problems[0]}{more}", problems)
