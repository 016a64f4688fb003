"""The deterministic template writer (the offline default), daily and weekly.

Wording lives in templates/phrases.toml; this module only decides which phrase to use and
fills it from the digest. Sentences lifted from PR or commit text are kept only when the
fact check finds nothing unsupported in them. Theme sections are built in themes.py.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence

from ..config import WritingConfig
from ..dates import spoken_date
from ..errors import EmptyWindowError, InputError
from ..models import Change, Digest, Script, Section, Sentence, State, Theme, WriterKind
from .base import area_name, cap, episode_day, inline, phrases
from .factcheck import fact_check
from .length import Part, fit
from .numbers import count_phrase, join_words, number_words
from .plain import clean_headline, noun_phrase, shorten, strip_title, title_case
from .themes import ThemeSections, size_phrase

__all__ = ["TemplateWriter", "check_not_empty", "phrases", "size_phrase"]

SHORT_DAY = 3  # changes; at or below this the episode is a short one


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


class _Builder(ThemeSections):
    def __init__(self, digest: Digest, show: str, day: dt.date, lexicon: Mapping[str, str],
                 *, weekly: str | None = None) -> None:
        super().__init__(digest, show, day, lexicon, weekly=weekly)
        if weekly:
            self.date = spoken_date(week_monday(weekly))
        self.per_area = 6 if weekly else 4

    # ------------------------------------------------------------ sections

    def intro(self) -> Part:
        part = Part("intro", self.say("headings", "intro"), rank=100, required=True)
        self.add(part, self.say("intro", "greeting", show=self.show, date=self.date))
        if self.d.counts.changes == 0:
            self.add(part, self.say("intro", "quiet"))
        elif self.d.counts.changes <= SHORT_DAY:
            self.add(part, self.say("intro", "short"))
        return part

    def signal(self, themes: Sequence[Theme]) -> Part:
        part = Part("signal", self.say("headings", "signal"), rank=95, required=True)
        # A headline that is itself a list ("makefile, CI entry point, …") is named by its head.
        heads = [self.topic(t) for t in themes[:3]]
        areas = [a for t in themes for a in t.areas]
        shared = [a for a in dict.fromkeys(areas) if all(a in t.areas for t in themes)]
        distinct = list(dict.fromkeys(area_name(a) for a in areas))
        # The signal is required: if the headlines do not pass, say the areas plainly.
        plain = self.say("signal", "plain", areas=join_words(distinct[:3])) if distinct else ""
        if heads and len(themes) > 1 and shared:
            self.add(part, self.first_grounded(
                self.say("signal", "shared_area", area=area_name(shared[0]),
                         headlines=join_words(heads)), plain,
                self.say("signal", "mixed", headlines=join_words(heads))))
        elif heads:
            self.add(part, self.first_grounded(
                self.say("signal", "mixed", headlines=join_words(heads)), plain,
                self.say("signal", "mixed", headlines=join_words(heads))))
        if len(distinct) > 1 and not shared:
            self.add(part, self.say("signal", "spread", areas=join_words(distinct)), optional=True)
        k = self.d.counts
        self.add(part, self.say("signal", "totals", changes=count_phrase(k.changes, "change"),
                                authors=count_phrase(k.authors, "developer")), optional=bool(heads))
        return part

    def areas(self) -> list[Part]:
        parts = []
        for i, area in enumerate(self.d.areas):
            # the area's PRs come highest-ranked first (docs/CI housekeeping last)
            prs = [n for n in area.prs if n not in self.covered][: self.per_area]
            phrased: list[tuple[int | None, str]] = [(n, p) for n in prs if (p := self.phrase(n))]
            shas = [s for s in area.commits if s not in self.covered_commits]
            shas = shas[: max(0, self.per_area - len(phrased))]
            phrased += [(None, p) for s in shas if (p := self.commit_line(s, first=not phrased))]
            if not phrased:
                continue
            name = area_name(area.name)
            part = Part("area", self.say("headings", "area", area=name), rank=25 - i)
            for j, (n, p) in enumerate(phrased):
                if n is None:
                    key = "first_commit" if j == 0 else "next_commit"
                    self.add(part, self.say("area", key, area=name,
                                            commit=inline(p) if j == 0 else p), optional=j > 0)
                    continue
                key = "first" if j == 0 else "next"
                self.add(part, self.say("area", key, area=name, pr=n, phrase=p), (n,),
                         optional=j > 0)
                self.covered.add(n)
            self.covered_commits.update(shas)
            parts.append(part)
        return parts

    def duplicates(self) -> Part | None:
        part = Part("duplicates", self.say("headings", "duplicates"), rank=30)
        for dup in self.d.duplicates[:3]:
            a, b = sorted(dup.prs)
            ca, cb = self.d.change(a), self.d.change(b)
            topic = shorten(noun_phrase(ca.title), 90) if ca else "the same problem"
            text = self.say("duplicates", "pair", a=a, b=b, topic=topic)
            if not self.grounded(text, (a, b)):
                text = self.say("duplicates", "pair", a=a, b=b, topic="the same problem")
            self.add(part, text, (a, b))
            self.covered.update((a, b))
            if ca and cb:
                if ca.author.handle == cb.author.handle:
                    self.add(part, self.say("duplicates", "same_author", author=ca.author.handle),
                             (a, b), optional=True)
                else:
                    self.add(part, self.say("duplicates", "two_authors", author_a=ca.author.handle,
                                            author_b=cb.author.handle), (a, b), optional=True)
        return part if part.lines else None

    def reverts(self) -> Part | None:
        part = Part("reverts", self.say("headings", "reverts"), rank=35)
        for pair in self.d.reverts:
            r, o = pair.revert.pr, pair.original.pr
            cites = [n for n in (r, o) if n is not None]
            if r is not None and o is not None:
                reason = shorten(strip_title(pair.reason or ""), 90)
                text = self.say("reverts", "revert", revert=r, original=o)
                with_reason = self.say("reverts", "revert_reason", revert=r, original=o,
                                       reason=reason)
                if reason and self.line(with_reason, cites, optional=True):
                    text = with_reason
            elif o is not None:
                text = self.say("reverts", "revert_commit", original=o)
            elif r is not None:
                text = self.say("reverts", "revert_unknown", revert=r)
            else:
                continue
            self.add(part, text, cites)
            self.covered.update(cites)
            when = self.when(pair.original_episode) if pair.original_episode else None
            if when is not None:
                date, weekly = when
                covered = self.say("reverts", "covered_week" if weekly else "covered", date=date)
                if self.grounded(covered, cites):
                    self.add(part, covered, cites)
        for pair in self.d.relands:
            r, o = pair.revert.pr, pair.original.pr
            if o is None:
                continue
            key = "reland" if r is not None else "reland_commit"
            cites = [n for n in (r, o) if n is not None]
            self.add(part, self.say("reverts", key, revert=r, original=o), cites)
            self.covered.update(cites)
        return part if part.lines else None

    def notes(self) -> Part | None:
        part = Part("notes", self.say("headings", "notes"), rank=10)
        firsts = list(self.d.first_time_contributors)
        if firsts:
            self.add(part, self.say("notes", "first_timers", handles=join_words(firsts[:4]),
                                    contributors="contributor" if len(firsts) == 1
                                    else "contributors"), optional=True)
        rest: list[Change] = [c for c in self.d.changes
                              if (c.number is not None and c.number not in self.covered)
                              or (c.number is None and c.sha and c.sha not in self.covered_commits)]
        rest.sort(key=lambda c: (-c.lines_changed, c.number or 0, c.sha or ""))
        for c in rest[:3]:
            if c.number is not None:
                if (p := self.phrase(c.number)) is not None:
                    self.add(part, self.say("notes", "leftover", pr=c.number, phrase=p),
                             (c.number,), optional=True)
                    self.covered.add(c.number)
            elif c.sha and (p := self.commit_line(c.sha)) is not None:
                self.add(part, self.say("notes", "leftover_commit", commit=inline(p)),
                         optional=True)
                self.covered_commits.add(c.sha)
        return part if part.lines else None

    def outro(self, themes: Sequence[Theme]) -> Part:
        part = Part("outro", self.say("headings", "outro"), rank=100, required=True)
        for t in themes:
            s = t.stack
            size_n = (s.declared_size or len(s.declared)) if s else 0
            if s is not None and s.members and size_n > s.in_window:
                self.add(part, self.say("outro", "watch_partial", author=t.authors[0] if t.authors
                                        else "the author",
                                        size=f"{number_words(size_n)}-part stack",
                                        in_window=number_words(s.in_window)), s.members)
                break
        else:
            for t in themes:
                open_prs = [n for n in t.prs if (c := self.d.change(n)) and c.state is State.OPEN]
                if open_prs:
                    self.add(part, self.say("outro", "watch_open", pr=open_prs[0]), open_prs[:1])
                    break
        self.add(part, self.say("outro", "signoff", date=self.date, show=self.show))
        return part

    # ------------------------------------------------------------ title and summary

    def title(self, themes: Sequence[Theme]) -> str:
        limit = 90 if self.weekly else 70
        heads = [title_case(clean_headline(t.headline)) for t in themes[:3 if self.weekly else 2]]
        heads = [h for h in heads if h and self.grounded(h)]
        keys = {3: "three", 2: "two", 1: "one"}
        while heads:
            key = keys[len(heads)]
            a, b, c = (heads + ["", ""])[:3]
            text = title_case(self.say("title", key, a=a, b=b, c=c))  # "…, and a Random …"
            if len(text) <= limit:
                return text
            if len(heads) == 1:
                return shorten(text, limit)
            heads.pop()
        if self.d.changes and not self.weekly:
            first = title_case(strip_title(self.d.changes[0].title))
            if first and self.grounded(first):
                return shorten(first, limit)
        return self.say("title", "quiet")

    def summary(self, themes: Sequence[Theme]) -> str:
        if not themes:
            return self.say("summary", "quiet") if not self.d.changes else cap(
                self.say("signal", "totals", changes=count_phrase(self.d.counts.changes, "change"),
                         authors=count_phrase(self.d.counts.authors, "developer")))
        lead = [(self.topic(t), self.who(t)[0])
                for t in themes[: 3 if self.weekly else 2]]
        if self.weekly:
            while lead:
                items = [self.say("summary", "item", headline=h, authors=a) for h, a in lead]
                items = [i[:1].lower() + i[1:] if i[1:2].islower() else i for i in items]
                text = self.say("summary", "weekly", items=join_words(items))
                if self.grounded(text):
                    return text
                lead.pop()
            return self.say("summary", "quiet")
        if len(lead) == 2:
            text = self.say("summary", "two", headline=cap(lead[0][0]), authors=lead[0][1],
                            headline2=lead[1][0], authors2=lead[1][1])
            if self.grounded(text):
                return text
        return self.first_grounded(
            self.say("summary", "one", headline=cap(lead[0][0]), authors=lead[0][1]),
            cap(self.say("signal", "totals",
                         changes=count_phrase(self.d.counts.changes, "change"),
                         authors=count_phrase(self.d.counts.authors, "developer"))))


class TemplateWriter:
    """Writes a Script from a Digest with the phrase files; same input, same script.

    `weekly` (an ISO week id such as "2026-W30") makes a weekly recap of the digest instead
    of a daily briefing."""

    name = WriterKind.TEMPLATE

    def write(self, digest: Digest, *, show: str, day: dt.date, writing: WritingConfig,
              lexicon: Mapping[str, str], weekly: str | None = None) -> Script:
        check_not_empty(digest, writing)
        b = _Builder(digest, show, day, lexicon, weekly=weekly)
        themes = list(digest.themes[: writing.max_themes])
        parts: list[Part] = [b.intro()]
        if digest.counts.changes:
            parts.append(b.signal(themes))
        parts += [b.theme(t, i) for i, t in enumerate(themes, 1)]
        # Duplicates and reverts claim their PRs before the area roundups pick theirs.
        dup, rev = b.duplicates(), b.reverts()
        parts += b.areas()
        parts += [p for p in (dup, rev, b.notes()) if p is not None]
        parts.append(b.outro(themes))
        parts = fit(parts, writing)
        sections = tuple(
            Section(p.kind, p.heading, tuple(Sentence(ln.text, ln.spoken, ln.cites)
                                             for ln in p.lines))
            for p in parts)
        script = Script(show=show, date=day, title=b.title(themes), summary=b.summary(themes),
                        writer=self.name, sections=sections)
        fact_check(script, digest)
        return script
