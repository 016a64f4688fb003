"""The fact check's handles and names: a word said where a person goes ("by X", "X's
stack", "@X", "X landed") must be a handle of the digest, a word its titles or bodies use,
or plain English; a name mixing letters and digits ("H100", "llama2") must be one of the
digest's own words."""

from __future__ import annotations

import re
from collections.abc import Set

from .numbers import NUMBER_WORD, parse_count

_AT = re.compile(r"(?<![\w.])@([A-Za-z0-9][\w-]*)")
_STRICT_SLOTS = (
    re.compile(r"\b(?:developer|author|contributors?|handle)\s+@?([A-Za-z0-9][\w-]*)", re.I),
    re.compile(rf"\b([A-Za-z0-9][\w-]*)['’]s\s+(?:(?:{NUMBER_WORD})-part\s+)?"
               r"(?:stack|series|PRs?|pull requests?|patch(?:es)?|work)\b", re.I),
    re.compile(r"(?:^|[.;:!?]\s+)([A-Za-z0-9][\w-]*)\s+(?:landed|opened|posted|pushed|merged|"
               r"authored|reverted|relanded|submitted|wrote|shipped|sent)\b"),
)
_LOOSE_SLOT = re.compile(r"\b(?:by|from)\s+@?([A-Za-z0-9][\w-]*)", re.I)
MIXED = re.compile(r"(?<![\w.])(?=[\w-]*[A-Za-z])(?=[\w-]*\d)[A-Za-z0-9][\w-]*(?![\w])")
_HARMLESS_MIXED = re.compile(r"\d+(?:st|nd|rd|th|x|s|d|D|k|K|M|GB|MB|KB|ms|us)|v\d+(?:\.\d+)*")
_COMMON = frozenset(
    """a an the this that these those it its their them they he she his her one each both all
    another other some any today today's yesterday yesterday's earlier later several many more
    most few scratch default hand design itself themselves now then there here which who what
    stack stacks series pr prs change changes work patch patches fix fixes team developers
    developer theme week day month main upstream downstream users people contributors
    maintainers reviewers time far making adding using moving letting everything nothing
    something effort refactor cleanup follow-up rest part parts piece pieces code briefing
    briefings experience tooling community productivity quoted was were is are has have
    had""".split()
)
_PLAIN_ENGLISH = frozenset(
    """default design hand scratch now here there far then time today yesterday name
    accident mistake hardware software memory disk source""".split()
)


def check_handles(text: str, handles: Set[str], names: Set[str], vocabulary: Set[str]
                  ) -> tuple[int, list[str]]:
    """How many of the digest's handles `text` says, and what in it names a person or a
    thing the digest does not know."""
    found: list[str] = []
    said: set[str] = set()
    for m in _AT.finditer(text):
        h = m.group(1).lower()
        if h in handles:
            said.add(h)
        else:
            found.append(f"handle @{m.group(1)} is not in the digest")
    for rx in _STRICT_SLOTS:
        for m in rx.finditer(text):
            w = m.group(1).lower()
            if w in handles:
                said.add(w)
            elif w not in _COMMON and w not in names:
                found.append(f"handle {m.group(1)!r} is not in the digest")
    for m in _LOOSE_SLOT.finditer(text):
        w = m.group(1).lower()
        if w in handles:
            said.add(w)
        elif not (parse_count(w) is not None or w in _COMMON or w in vocabulary
                  or w.endswith(("ing", "ed")) or w in _PLAIN_ENGLISH):
            found.append(f"handle {m.group(1)!r} is not in the digest")
    for m in MIXED.finditer(text):
        token = m.group(0)
        w = token.lower()
        if w in handles:
            said.add(w)
        elif not (_HARMLESS_MIXED.fullmatch(token) or w in vocabulary):
            found.append(f"name {token!r} is not in the digest")
    return len(said), found
