"""Episode models and media for publishing tests, built directly (no other stage runs)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from functools import cache
from pathlib import Path

import lameenc

from mergecast.config import ShowConfig
from mergecast.models import (
    Audio,
    Chapter,
    Cue,
    Episode,
    Script,
    Section,
    Sentence,
    ThemeRef,
    Window,
)
from mergecast.publish.identity import FeedIdentity, podcast_guid

SHOW = ShowConfig(name="Widgets", title="Widgets Daily", description="Daily notes on widgets.",
                  author="The Widgets team", email="team@example.com",
                  base_url="https://casts.example.org/widgets/")

# As a new show gets it: the UUIDv5 of its feed URL when first published.
IDENTITY = FeedIdentity(podcast_guid("https://casts.example.org/widgets/feed.xml"),
                        "mergecast:c0ffee00-0000-5000-8000-000000000001")

# Everything PR text can throw at a page or a feed.
HOSTILE = ('Fix <script>alert("pwned")</script> & "quotes" ]]> &amp; &#x3C;b&#x3E; '
           '\x00nul\x01\x0b\x1b[31m \u202egnp.exe\u202c zero\u200bwidth\ufeff '
           '<img src=x onerror=alert(1)> </script><!--')
HOSTILE_CLEAN = ('Fix <script>alert("pwned")</script> & "quotes" ]]> &amp; &#x3C;b&#x3E; '
                 'nul[31m gnp.exe zerowidth <img src=x onerror=alert(1)> </script><!--')
DAY0 = dt.date(2026, 3, 2)


@cache
def mp3_bytes(seconds: float = 6.0) -> bytes:
    """A real MP3 (silence), so browsers report a duration and podcast apps could play it."""
    rate = 16000
    enc = lameenc.Encoder()
    enc.set_bit_rate(32)
    enc.set_in_sample_rate(rate)
    enc.set_channels(1)
    enc.set_quality(7)
    pcm = bytes(2 * int(rate * seconds))
    return bytes(enc.encode(pcm) + enc.flush())


def make_episode(
    day: dt.date | str,
    *,
    title: str | None = None,
    summary: str | None = None,
    areas: tuple[str, ...] = ("Dynamo",),
    seconds: float = 170.0,
    audio: bool = True,
    hostile: bool = False,
    links: dict[int, str] | None = None,
) -> Episode:
    """A daily (date) or weekly ('YYYY-Www') episode with four sections and timed cues."""
    if isinstance(day, str) and "-W" in day:
        year, week = day.split("-W")
        date = dt.date.fromisocalendar(int(year), int(week), 7)
        eid, kind = day, "weekly"
    else:
        date = day if isinstance(day, dt.date) else dt.date.fromisoformat(day)
        eid, kind = date.isoformat(), "daily"
    bad = HOSTILE if hostile else ""
    title = title or (f"Weekly recap {eid}" if kind == "weekly" else f"Widgets news for {eid}")
    summary = summary or (
        f"Three themes on {eid}: faster builds, a new parser and fixes. {bad}".strip())
    sentences = [
        [Sentence(f"Good day, and welcome to Widgets for {eid}.", "Good day.")],
        [Sentence("The signal today is speed.", "The signal today is speed."),
         Sentence("Builds got faster.", "Builds got faster.")],
        [Sentence(f"First theme: ada landed a three-part stack, PRs 101 through 103. {bad}",
                  "First theme.", (101, 102, 103)),
         Sentence("It also fixes PR 104.", "It also fixes PR 104.", (104,))],
        [Sentence(f"On Dynamo: PR 105 by {bad or 'bob'} tidies guards.", "On Dynamo.", (105,))],
    ]
    kinds = [("intro", ""), ("signal", "The signal"), ("theme", f"Faster builds {bad}"),
             ("area", "On Dynamo")]
    sections = tuple(Section(k, h, tuple(s)) for (k, h), s in zip(kinds, sentences, strict=True))
    flat = [(i, j, s) for i, sec in enumerate(sections) for j, s in enumerate(sec.sentences)]
    step = seconds / len(flat)
    cues = tuple(Cue(i, j, n * step, (n + 1) * step - 0.05, s.text)
                 for n, (i, j, s) in enumerate(flat))
    chapters = []
    for i, sec in enumerate(sections):
        first = next(c for c in cues if c.section == i)
        chapters.append(Chapter(first.start, sec.heading or "Welcome"))
    data = mp3_bytes()
    published = dt.datetime.combine(date, dt.time(13, 0), tzinfo=dt.UTC)
    return Episode(
        id=eid,
        kind=kind,
        window=Window(published - dt.timedelta(days=7 if kind == "weekly" else 1), published),
        published_at=published,
        script=Script("Widgets", date, title + (f" {bad}" if bad else ""), summary, "template",
                      sections),
        audio=Audio(seconds, cues, tuple(chapters),
                    audio_bytes=len(data) if audio else None,
                    audio_sha256="0" * 64 if audio else None, voice="piper" if audio else "none"),
        themes=(ThemeRef(f"Faster builds {bad}", ("ada", bad or "bob"), areas, (101, 102, 103)),),
        areas=areas,
        links=links if links is not None else {
            n: f"https://github.com/acme/widgets/pull/{n}" for n in (101, 102, 103, 104, 105)
        } | ({105: "javascript:alert(1)"} if hostile else {}),
    )


def write_media(root: Path, episodes: list[Episode]) -> Callable[[str], Path]:
    """media(id) for publish_site, with a real episode.mp3 for each episode that has audio."""
    for ep in episodes:
        folder = root / ep.id
        folder.mkdir(parents=True, exist_ok=True)
        if ep.audio.audio_bytes is not None:
            (folder / "episode.mp3").write_bytes(mp3_bytes())
    return lambda episode_id: root / episode_id


def series(count: int, start: dt.date = DAY0, weekly: bool = True) -> list[Episode]:
    """`count` daily episodes plus a weekly recap after each full ISO week."""
    out: list[Episode] = []
    for n in range(count):
        day = start + dt.timedelta(days=n)
        out.append(make_episode(day, areas=("Dynamo",) if n % 2 else ("Inductor", "MPS")))
        if weekly and day.isoweekday() == 7:
            year, week, _ = day.isocalendar()
            out.append(make_episode(f"{year}-W{week:02d}", areas=("Dynamo", "Inductor")))
    return out
