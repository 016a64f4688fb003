import datetime as dt

import pytest

from mergecast import dates
from mergecast.config import ShowConfig
from mergecast.errors import InputError

UTC = dt.UTC


def test_day_window_ends_at_publish_time():
    w = dates.day_window(dt.date(2026, 7, 25), ShowConfig())
    assert w.since == dt.datetime(2026, 7, 24, 13, tzinfo=UTC)
    assert w.until == dt.datetime(2026, 7, 25, 13, tzinfo=UTC)


def test_day_window_in_another_zone():
    show = ShowConfig(timezone="Europe/Paris", publish_time=dt.time(7, 0))
    w = dates.day_window(dt.date(2026, 7, 25), show)
    assert w.until.astimezone(UTC) == dt.datetime(2026, 7, 25, 5, tzinfo=UTC)


def test_day_of_is_the_window_containing_the_moment():
    show = ShowConfig()
    assert dates.day_of(dt.datetime(2026, 7, 25, 12, 59, tzinfo=UTC), show) == dt.date(2026, 7, 25)
    assert dates.day_of(dt.datetime(2026, 7, 25, 13, 0, tzinfo=UTC), show) == dt.date(2026, 7, 26)
    for day in (dt.date(2026, 1, 1), dt.date(2026, 12, 31)):
        w = dates.day_window(day, show)
        assert dates.day_of(w.since, show) == day
        assert dates.day_of(w.until - dt.timedelta(microseconds=1), show) == day


def test_bare_date_is_midnight_in_show_zone():
    show = ShowConfig(timezone="America/New_York")
    t = dates.parse_when("2026-07-25", show)
    assert t.utcoffset() == dt.timedelta(hours=-4)
    assert (t.hour, t.minute) == (0, 0)


def test_window_for_rejects_mixed_flags_and_reversed_windows():
    show = ShowConfig()
    with pytest.raises(InputError, match="got both"):
        dates.window_for(show, "2026-07-25", "2026-07-24", None)
    with pytest.raises(InputError, match="got both"):  # given, if empty: still both
        dates.window_for(show, "2026-07-25", None, "")
    with pytest.raises(InputError, match="expected --until after --since"):
        dates.window_for(show, None, "2026-07-25", "2026-07-24")
    with pytest.raises(InputError) as err:
        dates.window_for(show, "July 25", None, None)
    assert str(err.value) == "expected a day as YYYY-MM-DD, got 'July 25' for --date"


@pytest.mark.parametrize(
    ("day", "words"),
    [((2026, 7, 25), "July 25th, 2026"), ((2026, 9, 1), "September 1st, 2026"),
     ((2026, 9, 2), "September 2nd, 2026"), ((2026, 9, 3), "September 3rd, 2026"),
     ((2026, 9, 11), "September 11th, 2026"), ((2026, 9, 22), "September 22nd, 2026")],
)
def test_spoken_date(day, words):
    assert dates.spoken_date(dt.date(*day)) == words


def test_weeks():
    assert dates.week_id(dt.date(2026, 7, 25)) == "2026-W30"
    assert dates.parse_week("2026-W30") == (2026, 30)
    assert dates.week_days(2026, 30)[0] == dt.date(2026, 7, 20)
    with pytest.raises(InputError):
        dates.parse_week("2026-W60")


def test_a_since_until_episode_is_dated_by_the_last_day_it_covers():
    show = ShowConfig()
    w = dates.window_for(show, None, "2026-09-05", "2026-09-07")
    assert dates.covered_day(w, show) == dt.date(2026, 9, 6)
    assert dates.spoken_date(dates.covered_day(w, show)) == "September 6th, 2026"
    # DAY's own window, given as --since/--until, is still DAY's episode
    own = dates.day_window(dt.date(2026, 9, 6), show)
    assert dates.covered_day(own, show) == dt.date(2026, 9, 6)
    # one afternoon: that afternoon's day, in the show's timezone
    paris = ShowConfig(timezone="Europe/Paris")
    w = dates.window_for(paris, None, "2026-09-05T14:00", "2026-09-05T23:30")
    assert dates.covered_day(w, paris) == dt.date(2026, 9, 5)


# ------------------------------------------------------------------ days no calendar reaches


def _cli(tmp_path, *args):
    from click.testing import CliRunner

    from mergecast.cli import main

    return CliRunner().invoke(main, ["--db", str(tmp_path / "m.db"), *map(str, args)])


DAYS = "expected a day from 1970-01-01 to 9998-12-31"
WEEKS = "expected a week from 1970-W02 to 9998-W52"


@pytest.mark.parametrize(("args", "message"), [
    (("run", "--date", "0001-01-01"), f"{DAYS}, got '0001-01-01' for --date"),
    (("run", "--date", "9999-12-31"), f"{DAYS}, got '9999-12-31' for --date"),
    (("ingest", "--since", "0001-01-01T00:00", "--until", "2026-01-01"),
     f"{DAYS}, got '0001-01-01T00:00' for --since"),
    (("digest", "--since", "2026-01-01", "--until", "9999-12-31"),
     f"{DAYS}, got '9999-12-31' for --until"),
    (("weekly", "--week", "0001-W01"), f"{WEEKS}, got '0001-W01' for --week"),
    (("weekly", "--week", "9999-W52"), f"{WEEKS}, got '9999-W52' for --week"),
    (("backfill", "--from", "0001-01-01", "--to", "2026-01-01"),
     f"{DAYS}, got '0001-01-01' for --from"),
])
def test_cli_days_out_of_range_are_one_line(tmp_path, args, message):
    extra: tuple[object, ...] = ()
    if args[0] in ("run", "weekly", "backfill"):
        extra = ("--out", tmp_path / "site")
    if args[0] == "run":  # a source it would read, were the day not refused first
        (tmp_path / "prs.json").write_text("[]")
        extra += ("--gh-json", tmp_path / "prs.json", "--repo-name", "o/r")
    result = _cli(tmp_path, *args, *extra)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"mergecast: {message}\n"
    assert not (tmp_path / "site").exists()
    assert not (tmp_path / "m.db").exists()  # refused before anything was read or stored


BOTH = "expected either --date or --since/--until, got both; pick one"


@pytest.mark.parametrize("args", [
    ("run", "--date", "latest", "--since", "2020-01-01"),
    ("run", "--date", "latest", "--until", "2020-01-02"),
    ("run", "--date", "latest", "--since", "2020-01-01", "--until", "2020-01-02"),
    ("run", "--date", "2026-07-24", "--since", ""),
    ("ingest", "--date", "2026-07-24", "--until", ""),
    ("digest", "--date", "2026-07-24", "--since", ""),
])
def test_conflicting_window_options_are_one_error_before_anything_is_read(tmp_path, args):
    (tmp_path / "prs.json").write_text("[]")
    result = _cli(tmp_path, *args, "--gh-json" if args[0] != "digest" else "--json",
                  *((tmp_path / "prs.json", "--repo-name", "o/r") if args[0] != "digest" else ()))
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"mergecast: {BOTH}\n")
    assert not (tmp_path / "m.db").exists() and not (tmp_path / "site").exists()


def test_the_edges_of_the_range_still_work():
    show = ShowConfig()
    for day in (dates.FIRST_DAY, dates.LAST_DAY):
        w = dates.day_window(dates.parse_day(day.isoformat()), show)
        assert dates.day_of(w.until - dt.timedelta(microseconds=1), show) == day
    assert dates.week_days(*dates.parse_week("9998-W52"))[-1] <= dates.LAST_DAY
    assert dates.week_days(*dates.parse_week("1970-W02"))[0] >= dates.FIRST_DAY


def test_a_time_with_no_zone_is_read_as_utc_and_a_zoned_one_is_kept():
    naive = dt.datetime(2026, 8, 3, 13, 0)
    assert dates.as_utc(naive) == dt.datetime(2026, 8, 3, 13, 0, tzinfo=dt.UTC)
    zoned = dt.datetime(2026, 8, 3, 13, 0, tzinfo=dt.timezone(dt.timedelta(hours=-7)))
    assert dates.as_utc(zoned) is zoned
