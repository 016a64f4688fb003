"""Time windows: `--date DAY`, `--since/--until WHEN`, ISO weeks, and spoken dates."""

from __future__ import annotations

import datetime as dt

from .config import ShowConfig
from .errors import InputError
from .models import Window

_ORDINAL = {1: "st", 2: "nd", 3: "rd"}
# Days an episode can be about. Git's clock starts in 1970; the margin before year 9999
# leaves room for a window's day on either side, a week's seven and the history we read.
FIRST_DAY = dt.date(1970, 1, 1)
LAST_DAY = dt.date(9998, 12, 31)


def _in_range(day: dt.date, value: str, flag: str) -> dt.date:
    if not FIRST_DAY <= day <= LAST_DAY:
        raise InputError(
            f"expected a day from {FIRST_DAY} to {LAST_DAY}, got {value!r} for {flag}"
        )
    return day


def parse_when(value: str, show: ShowConfig, flag: str = "--since") -> dt.datetime:
    """An ISO date (midnight in the show's timezone) or datetime (naive: the show's zone)."""
    try:
        if len(value) == 10:
            day = _in_range(dt.date.fromisoformat(value), value, flag)
            return dt.datetime.combine(day, dt.time(0), tzinfo=show.tz)
        moment = dt.datetime.fromisoformat(value)
    except ValueError as exc:
        raise InputError(
            f"expected an ISO date or datetime such as 2026-07-25 or 2026-07-25T13:00, "
            f"got {value!r} for {flag}"
        ) from exc
    _in_range(moment.date(), value, flag)
    return moment if moment.tzinfo else moment.replace(tzinfo=show.tz)


def as_utc(moment: dt.datetime) -> dt.datetime:
    """A time written with no zone read as UTC, as stores and servers write theirs."""
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


def parse_day(value: str, flag: str = "--date") -> dt.date:
    try:
        day = dt.date.fromisoformat(value)
    except ValueError as exc:
        raise InputError(f"expected a day as YYYY-MM-DD, got {value!r} for {flag}") from exc
    return _in_range(day, value, flag)


def publish_moment(day: dt.date, show: ShowConfig) -> dt.datetime:
    """When DAY's episode is published: the show's publish time on DAY, in UTC."""
    local = dt.datetime.combine(day, show.publish_time, tzinfo=show.tz)
    return local.astimezone(dt.UTC)


def day_window(day: dt.date, show: ShowConfig) -> Window:
    """DAY's episode covers the 24 hours that end at the show's publish time on DAY."""
    until = dt.datetime.combine(day, show.publish_time, tzinfo=show.tz)
    return Window(since=until - dt.timedelta(days=1), until=until)


def day_of(moment: dt.datetime, show: ShowConfig) -> dt.date:
    """The episode day whose window contains `moment`."""
    local = moment.astimezone(show.tz)
    day = local.date()
    if local.timetz().replace(tzinfo=None) >= show.publish_time:
        day += dt.timedelta(days=1)
    return day


def window_for(
    show: ShowConfig, date: str | None, since: str | None, until: str | None
) -> Window:
    """The window chosen by CLI flags: --date DAY, or --since WHEN --until WHEN."""
    if date is not None:
        check_one_window(date, since, until)
        return day_window(parse_day(date), show)
    if since is None or until is None:
        raise InputError("expected --date DAY, or both --since WHEN and --until WHEN")
    window = Window(parse_when(since, show, "--since"), parse_when(until, show, "--until"))
    if window.until <= window.since:
        raise InputError(f"expected --until after --since, got {since} .. {until}")
    return window


def check_one_window(date: str | None, since: str | None, until: str | None) -> None:
    """--date (a day or `latest`) excludes --since/--until, even given empty."""
    if date is not None and (since is not None or until is not None):
        raise InputError("expected either --date or --since/--until, got both; pick one")


def covered_day(window: Window, show: ShowConfig) -> dt.date:
    """The day an episode for a --since/--until window is dated by: the last calendar day
    (in the show's timezone) the window covers. `--since 2026-09-05 --until 2026-09-07`
    ends at midnight, so it is the September 6th episode; a window that ends at the
    publish time on DAY (DAY's own window) is DAY's."""
    return (window.until - dt.timedelta(microseconds=1)).astimezone(show.tz).date()


def parse_week(value: str) -> tuple[int, int]:
    """'2026-W30' -> (2026, 30)."""
    try:
        year_s, week_s = value.upper().split("-W")
        year, week = int(year_s), int(week_s)
        monday = dt.date.fromisocalendar(year, week, 1)
    except ValueError as exc:
        raise InputError(
            f"expected an ISO week such as 2026-W30, got {value!r} for --week") from exc
    if not FIRST_DAY <= monday <= LAST_DAY - dt.timedelta(days=6):
        first = FIRST_DAY + dt.timedelta(days=-FIRST_DAY.weekday() % 7)
        last = LAST_DAY - dt.timedelta(days=(LAST_DAY.weekday() + 1) % 7)
        raise InputError(
            f"expected a week from {week_id(first)} to {week_id(last)}, got {value!r} for --week"
        )
    return year, week


def week_id(day: dt.date) -> str:
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def week_days(year: int, week: int) -> list[dt.date]:
    monday = dt.date.fromisocalendar(year, week, 1)
    return [monday + dt.timedelta(days=i) for i in range(7)]


def spoken_date(day: dt.date) -> str:
    """July 25th, 2026."""
    n = day.day
    suffix = "th" if 11 <= n % 100 <= 13 else _ORDINAL.get(n % 10, "th")
    return f"{day.strftime('%B')} {n}{suffix}, {day.year}"
