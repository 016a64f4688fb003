"""What every section builder shares: the phrase file, grounding, lines and change look-ups.

Commit-only changes carry no PR number, so they are found by sha here; shas themselves are
never put into a sentence (nobody wants a hash read aloud).
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import tomllib
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

from ..dates import spoken_date
from ..models import Change, Digest, State, Theme
from .factcheck import Facts
from .length import Line, Part
from .normalise import normalise
from .plain import gerund_phrase, headline_text, shorten, split_topic, verb_phrase

MAX_WORDS = 30
_WEEK = re.compile(r"^(\d{4})-W(\d{2})$")


@functools.cache
def phrases() -> Mapping[str, Any]:
    text = resources.files("mergecast.writing").joinpath("templates/phrases.toml").read_text(
        encoding="utf-8")
    return tomllib.loads(text)


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def area_name(name: str) -> str:
    """An area as it is said: folder areas by their last part, so no path is read aloud."""
    name = name.strip("/").rsplit("/", 1)[-1] or name
    if name.islower() and not any(c.isdigit() for c in name):
        return name.upper() if len(name) <= 3 else cap(name)  # mps -> MPS, dynamo -> Dynamo
    return name


def episode_day(episode_id: str) -> tuple[dt.date, bool] | None:
    """The day an episode id stands for and whether it is a weekly one (its Monday)."""
    week = _WEEK.match(episode_id)
    try:
        if week:
            return dt.date.fromisocalendar(int(week.group(1)), int(week.group(2)), 1), True
        return dt.date.fromisoformat(episode_id), False
    except ValueError:
        return None


def _cut_list(phrase: str, limit: int = 80) -> str:
    """Shorten a commit subject, which is often a list: cut at a comma, not mid-list."""
    if len(phrase) <= limit:
        return phrase
    head = phrase[:limit]
    return head.rsplit(", ", 1)[0] if ", " in head else shorten(phrase, limit)


def inline(sentence: str) -> str:
    """A commit line inside another sentence: "The voice commit …" -> "the voice commit …"."""
    first = sentence.split(" ", 1)[0]
    return sentence[:1].lower() + sentence[1:] if first in ("The", "One", "Another") else sentence


class Base:
    """Phrase picking and grounded lines for one episode."""

    def __init__(self, digest: Digest, show: str, day: dt.date, lexicon: Mapping[str, str],
                 *, weekly: str | None = None) -> None:
        self.d = digest
        self.show = show
        self.day = day
        self.lexicon = lexicon
        self.weekly = weekly
        self.facts = Facts.from_digest(digest, day=day)
        self.seed = day.toordinal()
        self.date = spoken_date(day)
        self.covered: set[int] = set()
        self.covered_commits: set[str] = set()
        self._by_sha = {c.sha: c for c in digest.changes if c.sha is not None}

    # ------------------------------------------------------------ phrases

    def say(self, group: str, key: str, **values: Any) -> str:
        """A phrase; in weekly mode a `weekly_<key>` variant wins when the file has one."""
        table = phrases()[group]
        variants = table.get(f"weekly_{key}") if self.weekly else None
        variants = table[key] if variants is None else variants
        if isinstance(variants, str):
            variants = [variants]
        raw = str(variants[self.seed % len(variants)])
        text = raw.format(**values)
        # Handles keep their case even at the start of a sentence: "d4l3k landed …".
        keep = raw.startswith(("{authors}", "{author}")) and not text.startswith("the ")
        return text if keep else cap(text)

    def grounded(self, text: str, cites: Sequence[int] = ()) -> bool:
        return not self.facts.problems(text, cites)

    def _grounded_one(self, number: int, text: str) -> bool:
        return self.grounded(text, (number,))

    def topic(self, t: Theme, limit: int = 60) -> str:
        """A theme's headline as said, or a plainer name when the headline (drawn from PR
        text) would not pass the fact check: its area, else "one more change"."""
        head = shorten(headline_text(t.headline).split(", ")[0], limit)
        if head and self.grounded(head):
            return head
        if t.areas and self.grounded(area := area_name(t.areas[0])):
            return f"work on {area}"
        return "one more change"

    def first_grounded(self, *candidates: str) -> str:
        """The first candidate the fact check accepts; the last one otherwise."""
        for text in candidates[:-1]:
            if text and self.grounded(text):
                return text
        return candidates[-1]

    def line(self, text: str, cites: Sequence[int] = (), optional: bool = False) -> Line | None:
        if optional and (len(text.split()) > MAX_WORDS or not self.grounded(text, cites)):
            return None
        return Line(text, normalise(text, self.lexicon), tuple(cites), optional)

    def add(self, part: Part, text: str, cites: Sequence[int] = (), optional: bool = False) -> None:
        ln = self.line(text, cites, optional)
        if ln is not None:
            part.lines.append(ln)

    # ------------------------------------------------------------ changes

    def commit(self, sha: str) -> Change | None:
        return self._by_sha.get(sha)

    def _title_phrase(self, c: Change | None, gerund: bool) -> str | None:
        if c is None:
            return None
        p = gerund_phrase(c.title) if gerund else verb_phrase(c.title)
        p = _cut_list(p) if c.number is None else shorten(p, 80)
        return p if p and self.grounded(p) else None

    def phrase(self, number: int, gerund: bool = False) -> str | None:
        return self._title_phrase(self.d.change(number), gerund)

    def commit_phrase(self, sha: str, gerund: bool = False) -> str | None:
        return self._title_phrase(self.commit(sha), gerund)

    def commit_line(self, sha: str, first: bool = True, said: str | None = None) -> str | None:
        """A bare commit told in one sentence, by its subject's topic when it has one:
        "Voice: piper and espeak-ng backends" -> "The voice commit covers piper and …".
        A topic the previous sentence already named (`said`) is not repeated."""
        c = self.commit(sha)
        if c is None:
            return None
        topic, rest = split_topic(c.title)
        p = _cut_list(verb_phrase(rest))
        if not p:
            return None
        text = (self.say("commit", "topic", topic=topic, phrase=p) if topic and topic != said
                else self.say("commit", "first" if first else "next", phrase=p))
        return text if self.grounded(text) and len(text.split()) <= MAX_WORDS else None

    def commit_topic(self, sha: str) -> str | None:
        c = self.commit(sha)
        return split_topic(c.title)[0] if c is not None else None

    def states(self, prs: Sequence[int]) -> set[State]:
        return {c.state for n in prs if (c := self.d.change(n)) is not None}

    def commit_authors(self, shas: Sequence[str]) -> list[str]:
        """The handles (Person.handle) of the people who wrote these commits, in order."""
        return list(dict.fromkeys(c.author.handle for s in shas if (c := self.commit(s))))

    def when(self, episode_id: str) -> tuple[str, bool] | None:
        """An earlier episode's date as it is said ("July 21st"; the year only when it
        differs from this episode's) and whether it was a weekly recap (then: its Monday)."""
        found = episode_day(episode_id)
        if found is None:
            return None
        day, weekly = found
        words = spoken_date(day)
        if day.year == self.day.year:
            words = words.rsplit(",", 1)[0]
        return words, weekly
