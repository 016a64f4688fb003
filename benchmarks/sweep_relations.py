"""Relations report for the quality sweep: every relation an episode states, counted.

A listener who hears one false relation stops trusting the show, so the sweep counts, per
episode, the relations the digest and the template script claim and the ones that break a
rule of issue 14:

- duplicate claims (pairs in the digest; pairs the script says), by evidence kind;
- themes credited to a bot (target 0);
- revert changes inside ordinary themes (target 0: a revert is a chain's story);
- stack themes whose stack is credited to more than one person;
- first-time-contributor claims, and those made without 90 days of history before the
  window or a source association saying so (target 0);
- one person counted as two developers (same email, GitHub noreply login or name);
- headline fragments: a theme name ending on a function word or a dangling particle, or
  one that is nothing but a title's vendor prefix ("Qualcomm AI Engine Direct").

The rules here are deliberately independent of the analysis they measure (their own bot
list, identity keys and revert test), so a regression cannot hide by changing both.

Run:  .venv/bin/python benchmarks/sweep_relations.py DB [DB ...] [--every N] [--examples]
      (or `benchmarks/sweep.py --db DB --relations` for one store)
"""

from __future__ import annotations

import argparse
import datetime as dt
import re
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mergecast.config import Config
from mergecast.models import Change, Digest, Person, Script
from mergecast.store import Store

HISTORY_DAYS = 90
_BOTS = frozenset({"pytorchbot", "pytorchmergebot", "facebook-github-bot", "dependabot",
                   "pytorchupdatebot", "github-actions", "renovate", "pre-commit-ci",
                   "facebook community bot", "pytorch mergebot", "pytorch bot"})
_FUNCTION = frozenset(
    """a an the and or but of to for in on at by with from during via into onto as when
    while that which so if than vs per its their this these those our your is are be was
    without within after before over under between across about""".split())
_PARTICLES = frozenset("off up out down away back".split())
_NOREPLY = re.compile(r"^(?:\d+\+)?([^@]+)@users\.noreply\.github\.com$", re.I)
_PREFIX = re.compile(r"^\s*(?:\[[^\]]*\]\s*)*([^:\[\]]{3,60}?)\s*(?::\s| - )")
_FIRST_TIME = frozenset({"FIRST_TIME_CONTRIBUTOR", "FIRST_TIMER"})


@dataclass
class Relations:
    episodes: int = 0
    duplicate_pairs: Counter[str] = field(default_factory=Counter)  # evidence kind -> pairs
    duplicates_said: int = 0
    themes: int = 0
    bot_themes: int = 0
    revert_in_themes: int = 0
    stack_glue: int = 0
    first_time: int = 0
    first_time_unsupported: int = 0
    split_people: int = 0
    headlines: int = 0
    fragments: int = 0
    chains: int = 0
    examples: list[str] = field(default_factory=list)

    def add(self, other: Relations) -> None:
        for name in vars(self):
            mine, theirs = getattr(self, name), getattr(other, name)
            if isinstance(mine, Counter):
                mine.update(theirs)
            elif isinstance(mine, list):
                mine.extend(theirs)
            else:
                setattr(self, name, mine + theirs)


def evidence_kind(why: str, evidence: str = "") -> str:
    """The stored evidence kind, or (for digests made before it was stored) the one `why`
    names."""
    if evidence:
        return evidence
    low = why.lower()
    if "reference" in low:
        return "issue"
    if "title" in low:
        return "title"
    if "file" in low and "problem" not in low:
        return "files"
    return "problem"


def is_bot_name(handle: str) -> bool:
    low = handle.lower().strip()
    return low.endswith("[bot]") or low in _BOTS


def _keys(p: Person) -> set[str]:
    keys: set[str] = set()
    if p.login:
        keys.add("l:" + p.login.lower())
    if p.email:
        m = _NOREPLY.match(p.email)
        keys.add("l:" + m.group(1).lower() if m else "e:" + p.email.lower())
    if p.name and " " in p.name.strip():
        keys.add("n:" + " ".join(p.name.lower().split()))
    return keys


def split_people(changes: Iterable[Change], counted: int) -> int:
    """How many more developers `counted` says than there are people (by email, noreply
    login or full name) among the changes' human authors."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for c in changes:
        if is_bot_name(c.author.handle):
            continue
        keys = sorted(_keys(c.author)) or ["h:" + c.author.handle.lower()]
        for k in keys[1:]:
            parent[find(k)] = find(keys[0])
        find(keys[0])
    people = len({find(k) for k in list(parent)})
    return max(0, counted - people)


def _is_revert(c: Change) -> bool:
    return c.revert is not None or c.title.lstrip().startswith(('Revert "', "Revert '"))


def fragment(headline: str, titles: Sequence[str]) -> bool:
    """A headline that stops mid-phrase or is only a vendor prefix of its titles."""
    words = re.findall(r"[\w'-]+", headline.lower())
    if not words:
        return True
    if words[-1] in _FUNCTION or words[-1] in _PARTICLES:
        return True
    low = " ".join(headline.lower().split())
    for t in titles:
        m = _PREFIX.match(t)
        if m and " ".join(m.group(1).lower().split()) == low:
            return True
    return False


def relations(digest: Digest, script: Script | None, history_since: dt.datetime | None,
              max_themes: int = 3) -> Relations:
    """One episode's relations (script None: the writer failed; the digest still counts)."""
    r = Relations(episodes=1)
    by_number = {c.number: c for c in digest.changes if c.number is not None}
    by_sha = {c.sha: c for c in digest.changes if c.sha}
    bots = {c.author.handle for c in digest.changes if c.bot}
    for d in digest.duplicates:
        r.duplicate_pairs[evidence_kind(d.why, d.evidence)] += 1
        r.examples.append(f"dup {d.prs}: {d.why}")
    if script is not None:
        pairs = {tuple(sorted(d.prs)) for d in digest.duplicates}
        said = {tuple(sorted(s.cites)) for sec in script.sections if sec.kind == "duplicates"
                for s in sec.sentences if len(s.cites) == 2}
        r.duplicates_said = len(pairs & said)
    for t in digest.themes:
        r.themes += 1
        if any(is_bot_name(a) or a in bots for a in t.authors):
            r.bot_themes += 1
            r.examples.append(f"bot theme {t.headline!r}: {', '.join(t.authors)}")
        members = [by_number.get(n) for n in t.prs] + [by_sha.get(s) for s in t.commits]
        reverts = [c for c in members if c is not None and _is_revert(c)]
        if reverts:
            r.revert_in_themes += len(reverts)
            r.examples.append(f"revert in theme {t.headline!r}: {reverts[0].title[:70]}")
        if t.stack is not None and len(t.stack.authors) > 1:
            r.stack_glue += 1
            r.examples.append(f"stack by {', '.join(t.stack.authors)}: {t.headline!r}")
        if t.rank <= max_themes:
            r.headlines += 1
            titles = [c.title for c in members if c is not None]
            if fragment(t.headline, titles):
                r.fragments += 1
                r.examples.append(f"fragment headline {t.headline!r}")
    firsts = set(digest.first_time_contributors)
    r.first_time = len(firsts)
    deep = history_since is not None and \
        history_since <= digest.window.since - dt.timedelta(days=HISTORY_DAYS)
    if firsts and not deep:
        said_by_source = {c.author.handle for c in digest.changes
                          if (c.author_association or "").upper() in _FIRST_TIME}
        unsupported = firsts - said_by_source
        r.first_time_unsupported = len(unsupported)
        if unsupported:
            r.examples.append(f"first-time without history: {', '.join(sorted(unsupported))}")
    r.split_people = split_people(digest.changes, digest.counts.authors)
    if r.split_people:
        r.examples.append(f"{digest.counts.authors} developers counted, "
                          f"{r.split_people} of them twice")
    r.chains = len(digest.chains)
    for chain in digest.chains:
        steps = "; ".join(f"{s.kind} #{s.ref.pr} by {s.by}" + (f" ({s.reason})" if s.reason else "")
                          for s in chain.steps)
        r.examples.append(f"chain #{chain.original.pr} {chain.title!r} by {chain.author}: {steps}")
    if firsts:
        r.examples.append(f"first-time: {', '.join(sorted(firsts))}")
    return r


_ROWS = (
    ("episodes", lambda r: r.episodes),
    ("duplicate pairs per 100 episodes", lambda r: _per100(sum(r.duplicate_pairs.values()), r)),
    ("  by evidence", lambda r: ", ".join(f"{k} {n}" for k, n in
                                          sorted(r.duplicate_pairs.items())) or "-"),
    ("duplicate pairs said per 100 episodes", lambda r: _per100(r.duplicates_said, r)),
    ("themes credited to a bot", lambda r: r.bot_themes),
    ("revert changes inside themes", lambda r: r.revert_in_themes),
    ("stacks credited to several people", lambda r: r.stack_glue),
    ("first-time claims", lambda r: r.first_time),
    ("  without 90 days of history", lambda r: r.first_time_unsupported),
    ("people counted twice", lambda r: r.split_people),
    ("fragment headlines (top themes)", lambda r: f"{r.fragments} of {r.headlines}"),
    ("revert chains told", lambda r: r.chains),
)


def _per100(n: int, r: Relations) -> str:
    return f"{100 * n / max(1, r.episodes):.1f} ({n})"


def table(columns: Sequence[tuple[str, Relations]]) -> str:
    """A plain-text table: one row per measure, one column per store."""
    head = ["measure"] + [name for name, _ in columns]
    rows = [head] + [[label] + [str(get(r)) for _, r in columns] for label, get in _ROWS]
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True))
                     for row in rows)


def history_start(store: Store) -> dt.datetime | None:
    """How far back the store's history reaches (its first activity)."""
    latest = store.latest_activity(dt.datetime.now(dt.UTC))
    if latest is None:
        return None
    return min((t for c in store.changes_between(dt.datetime(1970, 1, 1, tzinfo=dt.UTC),
                                                  latest + dt.timedelta(seconds=1))
                for t in c.times()), default=latest)


def total(results: Iterable[Any], store: Store, cfg: Config) -> Relations:
    """Sum the relations of sweep results (`sweep.DayResult`s) over one store."""
    since = history_start(store)
    out = Relations()
    for r in results:
        if r.changes and r.digest is not None:
            out.add(relations(r.digest, r.script, since, cfg.writing.max_themes))
    return out


def report(results: Iterable[Any], store: Store, cfg: Config, name: str) -> str:
    """The relations table of one store's sweep (the hook `sweep.py --relations` calls)."""
    return table([(name, total(results, store, cfg))])


def main(argv: Sequence[str] | None = None) -> int:
    import sweep  # the sibling benchmark: one way to make each day's digest and script

    from mergecast import pipeline

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dbs", type=Path, nargs="+", help="ingested mergecast stores")
    ap.add_argument("--every", type=int, default=1, help="sample every Nth day")
    ap.add_argument("--examples", type=int, default=0, help="print N examples per store")
    args = ap.parse_args(argv)
    columns: list[tuple[str, Relations]] = []
    for db in args.dbs:
        cfg = pipeline.load_config(None, db)
        with Store(db) as store:
            days = sweep.store_days(store, cfg)[:: max(1, args.every)]
            found = total(sweep.sweep(cfg, store, days), store, cfg)
        columns.append((db.stem, found))
        for line in found.examples[: args.examples]:
            print(f"{db.stem}: {line}")
    print(table(columns))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
