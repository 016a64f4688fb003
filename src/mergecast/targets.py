"""What an episode is for: a day, a window, the newest day with activity, or an ISO week —
each a `Target` with its id, kind, window and the day its script is dated by."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable

from . import dates
from .config import Config
from .errors import EmptyWindowError
from .models import EpisodeKind, Window
from .store import Store


@dataclasses.dataclass(frozen=True)
class Target:
    """One episode to make: its id, kind, window, and the day its script is dated by."""

    id: str
    kind: EpisodeKind
    window: Window
    day: dt.date


def daily(day: dt.date, cfg: Config) -> Target:
    return Target(day.isoformat(), EpisodeKind.DAILY, dates.day_window(day, cfg.show), day)


def wants_latest(date: str | None, since: str | None, until: str | None) -> bool:
    """`run`'s --date latest, or no window at all (`latest` with --since/--until: refused)."""
    dates.check_one_window(date, since, until)
    return date == "latest" or (date is None and since is None and until is None)


def latest(cfg: Config, store: Store) -> Target:
    """The newest day with stored activity."""
    newest = store.latest_activity(dt.datetime.now(dt.UTC))
    if newest is None:
        if stored := store.count_changes():  # each one dated by a clock that was wrong
            raise EmptyWindowError(
                f"no activity yet: all {stored} stored change(s) are dated more than a day "
                "after now, so --date latest has no day to pick; pass --date DAY to make an "
                "episode of a day anyway")
        raise EmptyWindowError("the store holds no activity yet; nothing to make an episode of")
    return daily(dates.day_of(newest, cfg.show), cfg)


def target_for(cfg: Config, date: str | None, since: str | None, until: str | None) -> Target:
    """--date DAY, or --since/--until, dated by the day whose window holds their end."""
    window = dates.window_for(cfg.show, date, since, until)
    day = dates.parse_day(date) if date else dates.covered_day(window, cfg.show)
    return Target(day.isoformat(), EpisodeKind.DAILY, window, day)


def weekly(cfg: Config, week: str | None, now: dt.datetime | None = None,
           dailies: Iterable[str] = ()) -> Target:
    """The recap of ISO week `week`, from Monday's window to Sunday's. Without one: the
    newest week of the `dailies` (daily episode ids) that has ended, else the newest of
    theirs; with no dailies at all, last calendar week."""
    now = now or dt.datetime.now(dt.UTC)
    if week is not None:
        year, number = dates.parse_week(week)
    else:
        weeks = sorted({dates.parse_day(d).isocalendar()[:2] for d in dailies})
        ended = [w for w in weeks if _week_window(cfg, *w).until <= now]
        if ended or weeks:
            year, number = (ended or weeks)[-1]
        else:
            today = dates.day_of(now, cfg.show)
            year, number, _ = (today - dt.timedelta(days=7)).isocalendar()
    window = _week_window(cfg, year, number)
    return Target(f"{year}-W{number:02d}", EpisodeKind.WEEKLY, window,
                  dates.week_days(year, number)[-1])


def _week_window(cfg: Config, year: int, number: int) -> Window:
    days = dates.week_days(year, number)
    return Window(dates.day_window(days[0], cfg.show).since,
                  dates.day_window(days[-1], cfg.show).until)
