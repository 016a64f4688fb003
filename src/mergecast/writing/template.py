"""The deterministic template writer (the offline default), daily and weekly.

It plans first (plan.py: what to say), then realises the plan with one phrase Lookup
(realise.py for themes, sections.py for the rest), fits the draft to the target length
and drops any sentence the fact check does not support. No input can block a day: a
sentence that fails is dropped, a title or summary that fails falls back to a plainer one.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping

from ..config import WritingConfig
from ..dates import spoken_date
from ..errors import EmptyWindowError, InputError
from ..models import Digest, Ref, Script, Section, Sentence, WriterKind
from . import sections
from .factcheck import supported
from .length import Part, fit, total_words
from .phrases import Lookup
from .plan import make_plan
from .realise import size_phrase, theme_part

__all__ = ["TemplateWriter", "check_not_empty", "size_phrase", "week_monday"]

# An active day whose material runs shorter says it is a short one. In planning minutes
# ([writing] words_per_minute, 150 by default); piper's measured pace is about 116 words a
# minute, so this is close to two minutes of real audio.
SHORT_MINUTES = 1.5


def check_not_empty(digest: Digest, writing: WritingConfig) -> None:
    """An empty window makes no episode unless [writing] allow_empty / --allow-empty."""
    if digest.counts.changes == 0 and not digest.themes and not writing.allow_empty:
        raise EmptyWindowError(
            f"no activity between {digest.window.since.isoformat()} and "
            f"{digest.window.until.isoformat()}, so no episode was written; "
            "ingest more data or pass --allow-empty for a short no-news episode")


def week_monday(week: str) -> dt.date:
    """"2026-W30" -> Monday 2026-07-20; InputError for anything else."""
    found = sections.episode_day(week)
    if found is None or not found[1]:
        raise InputError(f"expected an ISO week id like 2026-W30, got {week!r} for the weekly "
                         "recap; pass --week YYYY-Www")
    return found[0]


class TemplateWriter:
    """Writes a Script from a Digest with the phrase files; same input, same script.

    `weekly` (an ISO week id such as "2026-W30") makes a weekly recap of the digest instead
    of a daily briefing."""

    name = WriterKind.TEMPLATE

    def write(self, digest: Digest, *, show: str, day: dt.date, writing: WritingConfig,
              lexicon: Mapping[str, str], weekly: str | None = None) -> Script:
        check_not_empty(digest, writing)
        x = Lookup(digest, show=show, day=day, lexicon=lexicon, weekly=weekly is not None)

        def accept(text: str, ref: Ref) -> bool:
            return x.grounded(text, (ref.pr,) if ref.pr is not None else ())

        plan = make_plan(digest, show=show, day=day, max_themes=writing.max_themes,
                         weekly=weekly, accept=accept)
        date = spoken_date(week_monday(weekly) if weekly else day)
        parts: list[Part] = [sections.signal(x, plan)] if digest.counts.changes else []
        parts += [theme_part(x, t) for t in plan.themes]
        parts += sections.roundups(x, plan)
        parts += [p for p in (sections.duplicates(x, plan), sections.reverts(x, plan),
                              sections.notes(x, plan)) if p is not None]
        parts.append(sections.outro(x, plan, date))
        if plan.mood in ("active", "focused") and total_words(parts) < SHORT_MINUTES * \
                writing.words_per_minute:
            # Busy by count, thin in substance (titles only, no descriptions): a short
            # episode that says so, rather than one padded to length.
            plan = dataclasses.replace(plan, mood="thin" if plan.mood == "active"
                                       else "focused_thin")
        parts = fit([sections.intro(x, plan, date), *parts], writing)
        script = Script(
            show=show, date=day, title=sections.title(x, plan),
            summary=sections.summary(x, plan), writer=self.name,
            sections=tuple(Section(p.kind, p.heading, tuple(
                Sentence(ln.text, ln.spoken, ln.cites, origin="template") for ln in p.lines))
                for p in parts),
        )
        return supported(script, digest)[0]
