"""What a theme follows, in one sentence: "The work follows PR 1240, which jerryzh168
landed on Thursday in the same autoquant module, adding the first version of autoquant v2"."

The relation is the analysis's (analysis/followups.py): same author, same file, earlier.
The sentence says that and what the earlier title says it did, read as the titles of the
day's own changes are (an action, said with its gerund); a title with no clean reading
is not said at all, only the number, the day and the place. Never in a weekly recap.
An earlier episode (a theme come back to, a reverted change told before) is said by its
date, `when`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re

from ..analysis.language import parse_title
from ..analysis.scope import area, file_place
from ..dates import spoken_date
from ..models import FollowUp, ThemePlan
from .changes import says_something
from .clauses import clauses
from .length import Line
from .phrases import MAX_WORDS, Lookup

WEIGHT = -12  # trimmed after the effects, before the scope on a busy day
WEEK = 6  # days back a day is said by its name ("on Thursday")
_WEEK = re.compile(r"^(\d{4})-W(\d{2})$")


def day_words(x: Lookup, landed: dt.date) -> str:
    """When the earlier change landed, said from the episode's day."""
    day = dt.date.fromordinal(x.seed)
    back = (day - landed).days
    if back in (0, 1):  # (0: a window given by hand, ending in the middle of its day)
        return x.pick("follows", "today" if back == 0 else "yesterday")
    if 1 < back <= WEEK:
        return x.pick("follows", "weekday").format(weekday=landed.strftime("%A"))
    return x.pick("follows", "date").format(date=spoken_date(landed).rsplit(",", 1)[0])


def place_words(x: Lookup, path: str) -> str:
    """The shared file as a place: "the same autoquant module", else its folder's place,
    else "one of the same files"."""
    place = file_place(path) or area(path)
    if place.startswith("the "):
        return x.pick("follows", "same").format(place=place.removeprefix("the "))
    return x.pick("follows", "file")


def effect_words(f: FollowUp) -> str:
    """What the earlier title says it did, with a gerund ("adding X"); "" when the title
    has no clean reading."""
    a = dataclasses.replace(parse_title(f.title), ref=f.ref)
    found = clauses([a]) if a.verb and says_something(a) else []
    return found[0].ing() if len(found) == 1 else ""


def follows(x: Lookup, t: ThemePlan) -> list[Line]:
    f = t.follows
    if f is None or x.weekly:
        return []
    ref = x.pick("follows", "pr").format(pr=f.ref.pr) if f.ref.pr is not None \
        else x.pick("follows", "commit")
    values = {"ref": ref, "who": f.author, "day": day_words(x, f.landed),
              "place": place_words(x, f.path)}
    cites = (f.ref.pr,) if f.ref.pr is not None else ()
    if effect := effect_words(f):
        text = x.say("follows", "effect", t.index, effect=effect, **values)
        if len(text.split()) <= MAX_WORDS and (ln := x.line(text, cites, optional=True,
                                                             weight=WEIGHT)):
            return [ln]
    if f.ref.pr is None:
        return []  # "The work follows a commit, which …": nothing a listener can look up
    plain = x.line(x.say("follows", "plain", t.index, **values), cites, optional=True,
                   weight=WEIGHT)
    return [plain] if plain else []

def episode_day(episode_id: str) -> tuple[dt.date, bool] | None:
    """The day an episode id stands for and whether it is a weekly one (its Monday)."""
    week = _WEEK.match(episode_id)
    try:
        if week:
            return dt.date.fromisocalendar(int(week.group(1)), int(week.group(2)), 1), True
        return dt.date.fromisoformat(episode_id), False
    except ValueError:
        return None


def when(x: Lookup, episode_id: str) -> tuple[str, bool] | None:
    """An earlier episode's date as it is said ("July 21st"; the year only when it differs
    from this episode's) and whether it was a weekly recap (then: its Monday)."""
    found = episode_day(episode_id)
    if found is None:
        return None
    day, weekly = found
    date = spoken_date(day)
    if day.year == dt.date.fromordinal(x.seed).year:
        date = date.rsplit(",", 1)[0]
    return date, weekly
