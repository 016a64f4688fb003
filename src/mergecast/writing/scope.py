"""A theme's scope in a sentence: how big it is and where, from its files ("It adds about
290 lines, most of them in the CUDA graph module, with tests and documentation alongside").

The plan decides what the files say (analysis/scope.py); this words it from the [scope]
phrases. Every count is said as analysis/scope.py rounds it, so the fact check can trace it
to a sum of the files. Said after the effects, trimmed before the benefit on a busy day;
never in a weekly recap, where one theme spans a week of changes told elsewhere.
"""

from __future__ import annotations

from dataclasses import replace

from ..analysis.scope import claim_markers, rounded
from ..models import Scope, ThemePlan
from .length import Line
from .numbers import join_words, number_words, with_article
from .phrases import Lookup

WEIGHT = -15  # trimmed after a theme's details, listed steps and related changes
_VERBED = {"adds": "added", "removes": "removed", "changes": "changed"}


def said_lines(n: int) -> str:
    """A line count as said: "four", "35", "about 1,900"."""
    if n < 10:
        return number_words(n)
    value, about = rounded(n)
    return f"about {value:,}" if about else f"{value:,}"


def sentence(x: Lookup, s: Scope, subject: str = "one") -> str:
    """The scope of one theme as a sentence; `subject` says whose: one | stack | prs |
    commits | changes ("the change adds …", "together, the PRs add …")."""
    files = number_words(s.files) if s.files < 100 else str(s.files)
    several = subject in ("prs", "commits", "changes")

    def agree(verb: str) -> str:  # "adds" / "add"; "is" / "are"
        if not several:
            return verb
        return "are" if verb == "is" else verb[:-2] if verb.endswith("ches") else verb[:-1]
    values = {
        "place": s.place, "files": files,
        "across": f" across {files} files" if s.files > 1 else "",
        "over": f" over {files} files" if s.files > 1 else "",
        "spread": f", across {files} files" if s.files > 1 else "", "lines": said_lines(s.lines),
        "line_s": "line" if s.lines == 1 else "lines",
        "a_lines": with_article(number_words(s.lines)),
        "subject": x.say("scope", f"subject_{subject}"), "verbed": _VERBED[s.verb],
        "adds": agree(x.pick("scope", "verb_changes") if s.verb == "changes" else s.verb),
        "is": agree("is"), "touches": agree("touches"),
        "reaches": agree("reaches"), "removes": agree("removes"),
        "go": x.pick("scope", f"go_{s.verb}"),
        "added": said_lines(s.added), "removed": said_lines(s.removed),
        "places": join_words(list(s.places)),
        "alongside": x.say("scope", "alongside", kinds=join_words(list(s.alongside)))
        if s.alongside else "",
        "where": x.say("scope", "where", place=s.place) if s.place else "",
        "also": x.say("scope", "also", claim=s.also) if s.also else "",
    }
    key = s.shape
    if key == "removal" and s.added == 0:
        key = "removal_only"
    elif key in ("docs", "tests", "ci", "tiny", "tiny_fix") and not s.place:
        key += "_spread"
    return x.say("scope", key, **values)


def whose(t: ThemePlan) -> str:
    """Whose work a theme's sentences speak of: stack | series | changes (PRs and commits that
    resolved no PR: what a commit does is no PR's) | prs | commits | one."""
    if t.stack is not None and t.stack.members:
        return "series" if t.stack.is_series else "stack"
    if t.prs and t.commits:
        return "changes"
    if len(t.prs) > 1:
        return "prs"
    return "one" if t.size <= 1 else "commits"


def scope(x: Lookup, t: ThemePlan) -> list[Line]:
    """The scope slot of a theme (realise.SLOTS)."""
    if t.scope is None or x.weekly:
        return []
    subject = whose(t)
    # A gone or renamed file is the first thing left out of a sentence grown too long.
    for said in (t.scope, replace(t.scope, also="")) if t.scope.also else (t.scope,):
        # A file's claim is checked word for word: no acronym is spelled out inside it.
        claims = bool(said.also) or said.place.startswith(claim_markers()["new"])
        found = x.line(sentence(x, said, subject), t.prs, optional=True, weight=WEIGHT,
                       expand=not claims)
        if found is not None:
            return [found]
    return []
