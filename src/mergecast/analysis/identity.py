"""Who did the work: the real author of each change, one identity per person, no bots.

Credit (`credit_of`) starts from the recorded author. When that is a bot (the data file's
list, `[source] bots`, any `[bot]`), the person is recovered, in order, from: the author's
parts that are not the bot (the email of a person committed under a bot's name, when
another change names that person; the login of the PR a GitHub export joined onto a
bot-landed commit), the merge bot's ghstack line
(`ghstack PR number: …/pull/N by @login`) or a ghstack branch (`gh/LOGIN/N/head`), the
human author of the PR a `Pull Request resolved:` line points at, and a `Co-authored-by:`
trailer. A change no person can be found for is credited to nobody.

Identities (`Identities`) join people who share an email, a GitHub login (a noreply
address `12345+login@users.noreply.github.com` carries one) or a full name, so `SS-JIA`
and `Stephen Jia <ssjia@…>` are one developer, said by their login when one is known.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..models import Change, Credit, Person
from ..sources.messages import bot_name
from .policy import policy
from .text import truncate
from .unionfind import UnionFind

_NOREPLY = re.compile(r"^(?:\d+\+)?([^@+]+)@users\.noreply\.github\.com$", re.I)
_LOGIN = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$")
_MERGE_BOT_LINE = re.compile(
    r"^ghstack PR number:\s*https?://[^\s/]+/[^\s/]+/[^\s/]+/pull/(\d+)\s+by\s+@([\w-]+)",
    re.M | re.I)
_GHSTACK_BRANCH = re.compile(r"(?:^|[\s/(])gh/([A-Za-z0-9][\w-]{0,38})/\d+/(?:head|base|orig)\b")
_RESOLVED = re.compile(r"^Pull[ -]Request[ -]resolved:\s*<?https?://[^\s/]+/[^\s/]+/[^\s/]+/"
                       r"pull/(\d+)", re.M | re.I)


def bot_names(extra: Iterable[str] = ()) -> frozenset[str]:
    """The bot list: the data file's defaults plus configured names, lowercased."""
    return frozenset(b.strip().lower() for b in (*policy("people")["bots"], *extra) if b.strip())


def first_time_association(association: str | None) -> bool | None:
    """True: GitHub says the author is new here; False: it says they are not; None: unknown."""
    value = (association or "").strip().upper()
    if value in policy("people")["first_time_associations"]:
        return True
    if value in policy("people")["known_associations"]:
        return False
    return None


def noreply_login(email: str | None) -> str | None:
    m = _NOREPLY.match(email or "")
    return m.group(1) if m else None


def _human(person: Person, bots: frozenset[str]) -> Person | None:
    """The person without the parts that name a bot; None when nothing human is left."""
    email_local = (person.email or "").partition("@")[0].rpartition("+")[2]
    login = person.login if not bot_name(person.login, bots) else None
    name = person.name if not bot_name(person.name, bots) else None
    email = person.email if person.email and not bot_name(email_local, bots) else None
    if email and noreply_login(email) is not None and login is None:
        login = noreply_login(email)
    if not (login or name or email):
        return None
    return Person(login=login, name=name, email=email)


def credit_of(change: Change, bots: frozenset[str],
              pr_authors: Mapping[tuple[str, int], Person]) -> tuple[Person | None, str]:
    """(the person to credit, how they were found); (None, "bot") when only a bot is known.

    `pr_authors` maps (repo, PR number) to the PR's human author (from the window and history), for
    a bot-landed commit whose body names the PR it resolved.
    """
    human = _human(change.author, bots)
    if human == change.author and not change.bot:
        return human, "author"
    if human is not None and human != change.author:
        how = "author email" if human.email else "pr author" if human.login else "author"
        return human, how
    body = truncate(change.body)
    m = _MERGE_BOT_LINE.search(body)
    if m and not bot_name(m.group(2), bots):
        return Person(login=m.group(2)), "ghstack"
    for ref in (change.head_ref, change.base_ref, body):
        found = _GHSTACK_BRANCH.search(f" {ref}") if ref else None
        if found and not bot_name(found.group(1), bots):
            return Person(login=found.group(1)), "ghstack"
    for n in (int(x) for x in _RESOLVED.findall(body)):
        if n != change.number and (change.repo, n) in pr_authors:
            return pr_authors[(change.repo, n)], "resolved pr"
    for co in change.co_authors:
        person = _human(co, bots)
        if person is not None and person == co:
            return person, "co-author"
    return None, "bot"


# --------------------------------------------------------------------------- identities


def _name_key(name: str) -> str:
    return " ".join(name.casefold().split())


def _keys(p: Person) -> list[str]:
    keys: list[str] = []
    login = p.login or noreply_login(p.email)
    if login:
        keys.append("l:" + login.lower())
    if p.email and noreply_login(p.email) is None:
        keys.append("e:" + p.email.lower())
    if p.name:
        name = _name_key(p.name)
        if " " in name:
            keys.append("n:" + name)  # a full name is one person's
        elif _LOGIN.match(p.name):
            keys.append("l:" + name)  # a one-word git name is usually the login
    return keys


class Identities:
    """People joined by shared email, login or full name (union-find over their keys)."""

    def __init__(self, people: Iterable[Person]) -> None:
        self._sets: UnionFind[str] = UnionFind()
        self._members: dict[str, list[Person]] = {}
        for p in dict.fromkeys(people):
            keys = _keys(p)
            for k in keys:
                self._sets.union(keys[0], k)
            if keys:
                self._members.setdefault(keys[0], []).append(p)

    def root(self, person: Person) -> str | None:
        keys = _keys(person)
        return self._sets.find(keys[0]) if keys else None

    @functools.cached_property
    def _canonical(self) -> dict[str, Person]:
        groups: dict[str, list[Person]] = {}
        for key, people in self._members.items():
            groups.setdefault(self._sets.find(key), []).extend(people)
        return {root: _best(people) for root, people in groups.items()}

    def canonical(self, person: Person) -> Person:
        """The one Person every spelling of this person is shown as."""
        root = self.root(person)
        return self._canonical.get(root, person) if root is not None else person


def _best(people: Sequence[Person]) -> Person:
    logins = Counter(p.login or noreply_login(p.email) for p in people)
    logins.pop(None, None)
    names = Counter(p.name for p in people if p.name)
    emails = Counter(p.email for p in people if p.email)

    def top(counts: Counter[Any], prefer: Any = None) -> Any:
        if not counts:
            return None
        return min(counts, key=lambda v: (prefer(v) if prefer else 0, -counts[v], v))

    return Person(login=top(logins), name=top(names, lambda n: " " not in n.strip()),
                  email=top(emails, lambda e: noreply_login(e) is not None))


# --------------------------------------------------------------------------- crediting


@dataclasses.dataclass(frozen=True)
class Credited:
    """Changes rewritten to their credited authors, with how each was resolved."""

    changes: dict[str, Change]  # key -> the change as analysis sees it
    credits: dict[str, Credit]  # key -> how its author was found
    identities: Identities


def credit_changes(changes: Sequence[Change], bots: frozenset[str],
                   known: Iterable[Person] = ()) -> Credited:
    """Every change with its author replaced by the credited person's one identity, and
    `bot` set exactly when nobody but a bot can be credited. `known` people (authors
    before the window) join the identities so a renamed person is still known."""
    pr_authors: dict[tuple[str, int], Person] = {}
    for c in changes:
        if c.number is not None and not c.bot and _human(c.author, bots) == c.author:
            pr_authors[(c.repo, c.number)] = c.author
    found = {c.key: credit_of(c, bots, pr_authors) for c in changes}
    people = [p for p, _ in found.values() if p is not None]
    identities = Identities([*people, *known])
    out: dict[str, Change] = {}
    credits: dict[str, Credit] = {}
    for c in changes:
        person, how = found[c.key]
        if person is None:
            out[c.key] = dataclasses.replace(c, bot=True)
            handle = ""
        elif how == "author email" and not (shown := identities.canonical(person)).login \
                and not shown.name:
            # a bot's name over an address nobody else uses is the bot's own address
            out[c.key] = dataclasses.replace(c, bot=True)
            handle, how = "", "bot"
        else:
            shown = identities.canonical(person)
            out[c.key] = dataclasses.replace(c, author=shown, bot=False)
            handle = shown.handle
            if how == "author" and handle != c.author.handle:
                how = "merged identity"
        credits[c.key] = Credit(c.number, c.sha, handle, how, c.author.handle)
    return Credited(out, credits, identities)
