"""The coverage ledger: every change active in the window, told or listed under its group.

Analysis decides each change's group (its theme's headline, else its area, see
`Digest.group_of`); the script decides what was told (the PR numbers its sentences cite).
A change the script does not cite is listed on the episode page under its group, so no
change of the window goes unmentioned.
"""

from __future__ import annotations

from collections.abc import Collection

from ..models import Change, Digest, LedgerEntry
from .headlines import clean_title


def change_url(c: Change) -> str | None:
    """A change's own URL, else its GitHub page when its repository is an owner/name slug."""
    if c.url:
        return c.url
    if c.repo.count("/") != 1:
        return None
    if c.number is not None:
        return f"https://github.com/{c.repo}/pull/{c.number}"
    return f"https://github.com/{c.repo}/commit/{c.sha}" if c.sha else None


def ledger(digest: Digest, cited: Collection[int]) -> tuple[LedgerEntry, ...]:
    """One entry per window change, in the digest's order; `cited`: the script's PRs.
    Titles are cleaned as headlines are: no tags, links, code or PR references a title
    makes up (the entry's own number and link are the reference)."""
    credits = {(cr.number, cr.sha): cr for cr in digest.credits}
    out = []
    for c in digest.changes:
        credit = credits.get((c.number, c.sha))
        out.append(LedgerEntry(
            number=c.number, sha=c.sha, title=clean_title(c.title),
            url=change_url(c), group=digest.group_of.get(c.key, ""),
            told=c.number is not None and c.number in cited,
            author=credit.handle if credit else c.author.handle,
            credit=credit.how if credit else "",
        ))
    return tuple(out)
