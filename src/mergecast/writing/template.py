"""The deterministic template writer (the offline default), daily and weekly.

It plans first (plan.py: what to say), then realises the plan with one phrase Lookup
(realise.py for themes, titling.py for the title and summary, chains.py for revert chains,
sections.py for the rest), fits the draft to the target length and drops any sentence the
fact check does not support. No input can block a day: a sentence that fails is dropped, a
title or summary that fails falls back to a plainer one.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Callable, Mapping

from ..analysis.text import clean_body
from ..config import WritingConfig
from ..dates import spoken_date
from ..errors import EmptyWindowError, InputError
from ..models import Digest, Plan, Ref, Script, Section, Sentence, WriterKind
from . import chains, sections, titling
from .factcheck import supported
from .follows import episode_day
from .length import Line, Part, fit, total_words
from .phrases import Lookup
from .plan import make_plan
from .realise import Slot, gather_brief, size_phrase, theme_part

__all__ = ["TemplateWriter", "Wording", "check_not_empty", "plan_episode", "realise_script",
           "size_phrase", "week_monday"]

# An active day whose material runs shorter than two minutes at [writing] words_per_minute
# (by default piper's measured pace, 136 words a minute) says it is a short one.
SHORT_MINUTES = 2.0
DESCRIBED_WORDS = 30  # words of prose that make a change "described"


def check_not_empty(digest: Digest, writing: WritingConfig) -> None:
    """An empty window makes no episode unless [writing] allow_empty / --allow-empty."""
    if digest.counts.changes == 0 and not digest.themes and not writing.allow_empty:
        raise EmptyWindowError(
            f"no activity between {digest.window.since.isoformat()} and "
            f"{digest.window.until.isoformat()}, so no episode was written; "
            "ingest more data or pass --allow-empty for a short no-news episode")


def week_monday(week: str) -> dt.date:
    """"2026-W30" -> Monday 2026-07-20; InputError for anything else."""
    found = episode_day(week)
    if found is None or not found[1]:
        raise InputError(f"expected an ISO week id like 2026-W30, got {week!r} for the weekly "
                         "recap; pass --week YYYY-Www")
    return found[0]


@dataclasses.dataclass(frozen=True)
class Wording:
    """Slots worded by another writer (the LLM writer); whatever is left empty, or comes
    back None, is realised from the phrase files as the template writer does."""

    themes: Mapping[int, Mapping[Slot, Slot]] = dataclasses.field(default_factory=dict)
    signal: Callable[[Lookup], Line | None] | None = None  # the signal's first sentence
    title: str | None = None
    summary: str | None = None
    writer: WriterKind = WriterKind.TEMPLATE


def plan_episode(digest: Digest, *, show: str, day: dt.date, writing: WritingConfig,
                 lexicon: Mapping[str, str], weekly: str | None = None) -> tuple[Lookup, Plan]:
    """The episode's phrase Lookup and its plan (what to say); raises EmptyWindowError for
    an empty window unless [writing] allow_empty."""
    check_not_empty(digest, writing)
    x = Lookup(digest, show=show, day=day, lexicon=lexicon, weekly=weekly is not None)

    def accept(text: str, ref: Ref) -> bool:
        return x.grounded(text, (ref.pr,) if ref.pr is not None else ())

    return x, make_plan(digest, show=show, day=day, max_themes=writing.max_themes,
                        weekly=weekly, accept=accept)


def realise_script(digest: Digest, x: Lookup, plan: Plan, *, writing: WritingConfig,
                   wording: Wording = Wording()) -> Script:
    """The plan in sentences, fitted to length and fact-checked; `wording` replaces the
    slots another writer worded."""
    weekly, day = plan.weekly, plan.day
    date = spoken_date(week_monday(weekly) if weekly else day)
    lead = wording.signal(x) if wording.signal is not None else None
    parts: list[Part] = [sections.signal(x, plan, lead)] if digest.counts.changes else []
    parts += gather_brief([theme_part(x, t, wording.themes.get(t.index)) for t in plan.themes])
    parts += sections.roundups(x, plan)
    parts += [p for p in (sections.duplicates(x, plan), chains.reverts(x, plan),
                          sections.notes(x, plan)) if p is not None]
    parts.append(sections.outro(x, plan, date))
    if plan.mood in ("active", "focused") and total_words(parts) < min(
            SHORT_MINUTES, writing.minutes) * writing.words_per_minute:
        # Busy by count, little to tell: a short episode that says so, rather than one
        # padded to length. Why it is short is said only when true: "say little beyond
        # their titles" needs most changes to come without a description.
        plan = dataclasses.replace(plan, mood=("focused_thin" if plan.mood == "focused"
                                               else "thin" if _undescribed(digest)
                                               else "short"))
    parts = fit([sections.intro(x, plan, date), *parts], writing)
    script = Script(
        show=plan.show, date=day, title=wording.title or titling.title(x, plan),
        summary=wording.summary or titling.summary(x, plan), writer=wording.writer,
        sections=tuple(Section(p.kind, p.heading, tuple(
            Sentence(ln.text, ln.spoken, ln.cites, origin=ln.origin) for ln in p.lines))
            for p in parts),
    )
    return _same_subject(x, supported(script, digest)[0])


_PR_SUBJECT = re.compile(r"^PR (\d+) (?=[a-z])")
# PRs a sentence names: "PR 12", "PRs 12 and 13", "PRs 12 through 19"
_NAMED = re.compile(r"\bPRs? (\d+(?:(?:, | and |, and | through | to )\d+)*)")


def _same_subject(x: Lookup, script: Script) -> Script:
    """A theme's sentence that opens on the PR the sentence before it opened on says "The
    same PR …" (at most twice an episode), not "PR 192280 … PR 192280 …". Done on the
    final, checked script, so the sentence it leans on is surely said."""
    used = 0
    out = []
    for sec in script.sections:
        kept: list[Sentence] = []
        for s in sec.sentences:
            m = _PR_SUBJECT.match(s.text)
            before = _PR_SUBJECT.match(kept[-1].text) if kept else None
            # (never "The same PR follows the same pattern as …", nor after a sentence
            # naming another PR too: "PR 1 removes X, and PR 2 fixes Y. The same PR …" is
            # heard as PR 2)
            if sec.kind == "theme" and m and before and m.group(1) == before.group(1) \
                    and used < 2 and not re.search(r"\bsame\b", s.text, re.I) \
                    and _named(kept[-1].text) == {m.group(1)}:
                text = f"{x.say('theme', 'same_subject')} {s.text[m.end():]}"
                s = dataclasses.replace(s, text=text, spoken=x.spoken(text))
                used += 1
            kept.append(s)
        out.append(dataclasses.replace(sec, sentences=tuple(kept)))
    return dataclasses.replace(script, sections=tuple(out))


def _named(text: str) -> set[str]:
    return {n for m in _NAMED.finditer(text) for n in re.findall(r"\d+", m.group(1))}


def _undescribed(digest: Digest) -> bool:
    """Whether most of the day's changes come without a description worth the name."""
    described = sum(1 for c in digest.changes
                    if len(clean_body(c.body).split()) >= DESCRIBED_WORDS)
    return 2 * described < len(digest.changes)


class TemplateWriter:
    """Writes a Script from a Digest with the phrase files; same input, same script.

    `weekly` (an ISO week id such as "2026-W30") makes a weekly recap of the digest instead
    of a daily briefing."""

    name = WriterKind.TEMPLATE

    def write(self, digest: Digest, *, show: str, day: dt.date, writing: WritingConfig,
              lexicon: Mapping[str, str], weekly: str | None = None) -> Script:
        x, plan = plan_episode(digest, show=show, day=day, writing=writing, lexicon=lexicon,
                               weekly=weekly)
        return realise_script(digest, x, plan, writing=writing)
