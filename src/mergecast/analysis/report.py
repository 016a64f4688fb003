"""The digest's two faces: the documented `--json` shape and a terminal view.

The JSON carries every relation with what backs it: each duplicate's evidence kind and
what the pair shares, each revert chain (original, title, credited author, steps with who
and why), and per window change its credited identity, how that was resolved and the
group (theme or area) the coverage ledger lists it under.
"""

from __future__ import annotations

from typing import Any

from ..models import Digest, RevertPair, Theme, to_dict


def _pair(p: RevertPair) -> dict[str, Any]:
    return {
        "revert": {"pr": p.revert.pr, "sha": p.revert.sha},
        "original": {"pr": p.original.pr, "sha": p.original.sha},
        "reason": p.reason,
    }


def _theme(t: Theme) -> dict[str, Any]:
    stack = None
    if t.stack is not None:
        stack = {
            "tool": t.stack.tool,
            "declared_size": t.stack.declared_size,
            "in_window": t.stack.in_window,
            "first": t.stack.first,
            "last": t.stack.last,
            "declared": list(t.stack.declared),
        }
    return {
        "rank": t.rank,
        "headline": t.headline,
        "kind": t.kind,
        "authors": list(t.authors),
        "areas": list(t.areas),
        "prs": list(t.prs),
        "commits": list(t.commits),
        "stack": stack,
        "score": t.score,
        "why": list(t.why),
        "follows": to_dict(t.follows) if t.follows else None,
    }


def digest_json(d: Digest) -> dict[str, Any]:
    """The documented `mergecast digest --json` shape; every list is in a stable order."""
    return {
        "window": {"since": d.window.since.isoformat(), "until": d.window.until.isoformat()},
        "counts": {
            "changes": d.counts.changes,
            "prs": d.counts.prs,
            "commits": d.counts.commits,
            "authors": d.counts.authors,
        },
        "themes": [_theme(t) for t in d.themes],
        "duplicates": [to_dict(x) for x in d.duplicates],
        "reverts": [_pair(p) for p in d.reverts],
        "relands": [_pair(p) for p in d.relands],
        "chains": [to_dict(c) for c in d.chains],
        "areas": [{"name": a.name, "prs": list(a.prs), "commits": list(a.commits)}
                  for a in d.areas],
        "first_time_contributors": list(d.first_time_contributors),
        "changes": [
            {**to_dict(cr), "group": d.group_of.get(c.key, "")}
            for c, cr in zip(d.changes, d.credits, strict=True)
        ] if d.credits else [],
    }


def _ref(pr: int | None, sha: str | None) -> str:
    if pr is not None:
        return f"#{pr}"
    return sha[:10] if sha else "?"


def _prs(numbers: tuple[int, ...], limit: int = 12) -> str:
    shown = ", ".join(f"#{n}" for n in numbers[:limit])
    return shown + (f" (+{len(numbers) - limit} more)" if len(numbers) > limit else "")


def format_digest(d: Digest) -> str:
    """A readable terminal view: ranked themes with their why, areas, duplicates, reverts."""
    c = d.counts
    lines = [
        f"Digest {d.window.since.isoformat()} .. {d.window.until.isoformat()}",
        f"{c.changes} changes: {c.prs} PRs, {c.commits} commits, {c.authors} authors",
        "",
        "Themes",
    ]
    if not d.themes:
        lines.append("  (nothing happened in this window)")
    for t in d.themes:
        who = ", ".join(t.authors[:3]) + (" …" if len(t.authors) > 3 else "")
        lines.append(f"  {t.rank:>2}. {t.headline}  [{t.kind}, score {t.score:g}]")
        detail = f"      {who}"
        if t.areas:
            detail += f" · {', '.join(t.areas)}"
        lines.append(detail)
        if t.stack is not None and t.stack.first is not None:
            size = t.stack.declared_size
            lines.append(
                f"      {t.stack.tool} stack: PRs {t.stack.first} through {t.stack.last}, "
                f"{t.stack.in_window} in window" + (f" of {size} declared" if size else "")
            )
        if t.prs:
            lines.append(f"      PRs {_prs(t.prs)}")
        if t.commits:
            lines.append(f"      commits {', '.join(s[:10] for s in t.commits[:6])}")
        lines.append(f"      why: {'; '.join(t.why)}")
        if (f := t.follows) is not None:
            lines.append(f"      follows {_ref(f.ref.pr, f.ref.sha)} by {f.author}, landed "
                         f"{f.landed.isoformat()}, in {f.path}")
    if d.areas:
        lines += ["", "Areas"]
        for a in d.areas:
            lines.append(f"  {a.name}: {len(a.prs) + len(a.commits)} ({_prs(a.prs, 8)})")
    if d.duplicates:
        lines += ["", "Possible duplicated effort"]
        lines += [f"  #{x.prs[0]} and #{x.prs[1]} ({x.evidence or 'evidence'}): {x.why}"
                  for x in d.duplicates]
    if d.chains:
        lines += ["", "Reverts and relands"]
        for chain in d.chains:
            by = f" by {chain.author}" if chain.author else ""
            lines.append(f"  {_ref(chain.original.pr, chain.original.sha)} "
                         f"{chain.title}{by}")
            for step in chain.steps:
                who = f" by {step.by}" if step.by else ""
                why = f" ({step.reason})" if step.reason else ""
                when = "" if step.in_window else ", before this window"
                lines.append(f"    {step.kind}ed{who}: {_ref(step.ref.pr, step.ref.sha)}"
                             f"{why}{when}")
    recovered = [cr for cr in d.credits if cr.how not in ("author", "merged identity")]
    if recovered:
        lines += ["", "Credit"]
        lines += [f"  {_ref(cr.number, cr.sha)}: {cr.handle or 'nobody'} "
                  f"(recorded {cr.recorded}; {cr.how})" for cr in recovered]
    if d.first_time_contributors:
        lines += ["", "First-time contributors: " + ", ".join(d.first_time_contributors)]
    return "\n".join(lines) + "\n"
