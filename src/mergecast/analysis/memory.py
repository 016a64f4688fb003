"""Cross-day memory: tie today's themes and reverts to what earlier episodes covered.

Pure: takes the digest and the earlier episodes (oldest first), returns a new digest.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Sequence

from ..models import Continuity, Digest, Episode, Theme, ThemeRef
from .naming import grab_bag

_LOOKBACK_DAYS = 7


def link_earlier(digest: Digest, earlier: Sequence[Episode]) -> Digest:
    """Mark themes that continue earlier work, and reverts (and their chains) of changes
    an earlier episode covered."""
    dailies = [
        e for e in earlier
        if e.kind == "daily" and e.window.until <= digest.window.since + dt.timedelta(hours=1)
        and e.window.until > digest.window.since - dt.timedelta(days=_LOOKBACK_DAYS)
    ]
    dailies.sort(key=lambda e: e.window.until)
    themes = tuple(_continuity(t, dailies, digest) for t in digest.themes)
    reverts = tuple(
        dataclasses.replace(r, original_episode=found)
        if (found := _covered_in(r.original.pr, dailies)) else r
        for r in digest.reverts)
    chains = tuple(
        dataclasses.replace(c, original_episode=found)
        if (found := _covered_in(c.original.pr, dailies)) else c
        for c in digest.chains)
    return dataclasses.replace(digest, themes=themes, reverts=reverts, chains=chains)


def _matches(theme: Theme, ref: ThemeRef) -> bool:
    if set(theme.prs) & set(ref.prs):
        return True
    if theme.stack is not None and set(theme.stack.declared) & set(ref.prs):
        return True
    same_people = bool(set(theme.authors) & set(ref.authors))
    same_area = bool(set(theme.areas) & set(ref.areas))
    # A grab-bag's name ("Graph trainer work") says where, not which work: two days' bags
    # by one author are no one piece of work continuing.
    return same_people and same_area and theme.headline.lower() == ref.headline.lower() \
        and not grab_bag(theme.headline)


def _continuity(theme: Theme, dailies: list[Episode], digest: Digest) -> Theme:
    hits: list[tuple[Episode, ThemeRef]] = []
    for episode in dailies:
        for ref in episode.themes:
            if _matches(theme, ref):
                hits.append((episode, ref))
                break
    if not hits:
        return theme
    last_episode, last_ref = hits[-1]
    # Count consecutive days back from the most recent episode that covered this work.
    days = 1
    expected = digest.window.since
    for episode, _ in reversed(hits):
        if abs((episode.window.until - expected).total_seconds()) > 3600:
            break
        days += 1
        expected = episode.window.since
    mine = set(theme.prs) | set(theme.stack.declared if theme.stack else ())
    # What the episodes that covered this work said, of it or of anything: a stack posted
    # again carries the same description under new numbers.
    said = tuple(dict.fromkeys(s.text for episode, _ in hits
                               for section in episode.script.sections
                               for s in section.sentences))
    return dataclasses.replace(
        theme, follows=None,  # the continuing work is told; an earlier change of it is not
        continues=Continuity(
            episode_id=last_episode.id,
            headline=last_ref.headline,
            days=days,
            prs=tuple(sorted(set(last_ref.prs) & mine)),
            said=said,
        ),
    )


def _covered_in(pr: int | None, dailies: list[Episode]) -> str | None:
    """The latest earlier episode that told or linked PR `pr`."""
    if pr is None:
        return None
    for episode in reversed(dailies):
        if any(pr in ref.prs for ref in episode.themes) or pr in episode.links:
            return episode.id
    return None
