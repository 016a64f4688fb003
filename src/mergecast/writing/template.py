"""The deterministic template writer (the offline default).

Wording lives in templates/phrases.toml; this module only decides which phrase to use and
fills it from the digest. Sentences lifted from PR text are kept only when the fact check
finds nothing unsupported in them.
"""

from __future__ import annotations

import datetime as dt
import functools
import tomllib
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

from ..config import WritingConfig
from ..dates import spoken_date
from ..errors import EmptyWindowError
from ..models import Change, Digest, Script, Section, Sentence, State, Theme
from .factcheck import Facts, fact_check
from .length import Line, Part, fit
from .normalise import normalise
from .numbers import (
    count_phrase,
    join_words,
    number_words,
    ordinal_words,
    pr_list,
    pr_numbers,
    with_article,
)
from .plain import (
    body_sentences,
    gerund_phrase,
    headline_text,
    noun_phrase,
    shorten,
    strip_title,
    title_case,
    verb_phrase,
)

MAX_WORDS = 30
SHORT_DAY = 3  # changes; at or below this the episode is a short one


@functools.cache
def phrases() -> Mapping[str, Any]:
    text = resources.files("mergecast.writing").joinpath("templates/phrases.toml").read_text(
        encoding="utf-8")
    return tomllib.loads(text)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _area_name(name: str) -> str:
    if name.islower() and not any(c.isdigit() for c in name):
        return name.upper() if len(name) <= 3 else _cap(name)  # mps -> MPS, dynamo -> Dynamo
    return name


def check_not_empty(digest: Digest, writing: WritingConfig) -> None:
    """An empty window makes no episode unless [writing] allow_empty / --allow-empty."""
    if digest.counts.changes == 0 and not digest.themes and not writing.allow_empty:
        raise EmptyWindowError(
            f"no activity between {digest.window.since.isoformat()} and "
            f"{digest.window.until.isoformat()}, so no episode was written; "
            "ingest more data or pass --allow-empty for a short no-news episode")


def size_phrase(t: Theme) -> str:
    """How big a theme is, in words: "an eleven-part stack, PRs 191044 through 191049"."""
    s = t.stack
    if s is not None and s.members:
        n = s.declared_size or len(s.declared) or s.in_window
        size = with_article(f"{number_words(n)}-part stack")
        if n > s.in_window:
            return f"{size} with {number_words(s.in_window)} of its PRs in this window, " + \
                pr_list(s.members)
        return f"{size}, {pr_list(s.members)}"
    if len(t.prs) > 1:
        return f"{count_phrase(len(t.prs), 'linked PR')}, {pr_numbers(t.prs)}"
    return f"a single PR, {pr_list(t.prs)}" if t.prs else "no PRs"


class _Builder:
    def __init__(self, digest: Digest, show: str, day: dt.date, lexicon: Mapping[str, str]):
        self.d = digest
        self.show = show
        self.day = day
        self.lexicon = lexicon
        self.facts = Facts.from_digest(digest, day=day)
        self.seed = day.toordinal()
        self.date = spoken_date(day)
        self.covered: set[int] = set()

    # ------------------------------------------------------------ helpers

    def say(self, group: str, key: str, **values: Any) -> str:
        variants = phrases()[group][key]
        if isinstance(variants, str):
            variants = [variants]
        return _cap(str(variants[self.seed % len(variants)]).format(**values))

    def grounded(self, text: str, cites: Sequence[int] = ()) -> bool:
        return not self.facts.problems(text, cites)

    def _grounded_one(self, number: int, text: str) -> bool:
        return self.grounded(text, (number,))

    def line(self, text: str, cites: Sequence[int] = (), optional: bool = False) -> Line | None:
        if optional and (len(text.split()) > MAX_WORDS or not self.grounded(text, cites)):
            return None
        return Line(text, normalise(text, self.lexicon), tuple(cites), optional)

    def add(self, part: Part, text: str, cites: Sequence[int] = (), optional: bool = False) -> None:
        ln = self.line(text, cites, optional)
        if ln is not None:
            part.lines.append(ln)

    def phrase(self, number: int, gerund: bool = False) -> str | None:
        c = self.d.change(number)
        if c is None:
            return None
        p = shorten(gerund_phrase(c.title) if gerund else verb_phrase(c.title), 80)
        return p if p and self.grounded(p) else None

    def states(self, prs: Sequence[int]) -> set[State]:
        return {c.state for n in prs if (c := self.d.change(n)) is not None}

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
        heads = [shorten(headline_text(t.headline), 60) for t in themes]
        areas = [a for t in themes for a in t.areas]
        shared = [a for a in dict.fromkeys(areas) if all(a in t.areas for t in themes)]
        if heads and len(themes) > 1 and shared:
            self.add(part, self.say("signal", "shared_area", area=_area_name(shared[0]),
                                    headlines=join_words(heads)))
        elif heads:
            self.add(part, self.say("signal", "mixed", headlines=join_words(heads)))
        distinct = [_area_name(a) for a in dict.fromkeys(areas)]
        if len(distinct) > 1 and not shared:
            self.add(part, self.say("signal", "spread", areas=join_words(distinct)), optional=True)
        k = self.d.counts
        self.add(part, self.say("signal", "totals", changes=count_phrase(k.changes, "change"),
                                authors=count_phrase(k.authors, "developer")), optional=bool(heads))
        return part

    def theme(self, t: Theme, index: int) -> Part:
        ordinal = _cap(ordinal_words(index))
        head = headline_text(t.headline)
        part = Part("theme", self.say("headings", "theme", ordinal=ordinal, headline=head),
                    rank=80 - 10 * index, required=index == 1)
        self.covered.update(t.prs)
        self.add(part, self.say("theme", "opener", ordinal=ordinal, headline=head), t.prs)
        authors = join_words(list(t.authors[:2]) + (["others"] if len(t.authors) > 2 else []))
        states = self.states(t.prs)
        verb = ("landed" if states and states <= {State.MERGED, State.LANDED}
                else "opened" if states == {State.OPEN}
                else "pushed" if State.OPEN in states else "posted")
        s = t.stack
        if s is not None and s.members:
            self.covered.update(s.members)
            size_n = s.declared_size or len(s.declared) or s.in_window
            size = with_article(f"{number_words(size_n)}-part stack")
            if s.in_window == 1:
                text = self.say("theme", "stack_one", authors=authors, verb=verb, size=size,
                                pr=s.members[0])
            elif size_n > s.in_window:
                text = self.say("theme", "stack_partial", authors=authors, verb=verb, size=size,
                                in_window=number_words(s.in_window), prs=pr_list(s.members))
            else:
                text = self.say("theme", "stack", authors=authors, verb=verb, size=size,
                                prs=pr_list(s.members))
            self.add(part, text, s.members)
            order = list(s.members) + [n for n in sorted(t.prs) if n not in s.members]
        elif len(t.prs) > 1:
            size = count_phrase(len(t.prs), "linked PR")
            self.add(part, self.say("theme", "cluster", authors=authors, verb=verb, size=size,
                                    prs=pr_numbers(t.prs)), t.prs)
            order = sorted(t.prs)
        else:
            pr = t.prs[0] if t.prs else None
            if pr is not None:
                self.add(part, self.say("theme", "single", authors=authors, verb=verb, pr=pr),
                         t.prs)
            order = list(t.prs)
        if t.continues is not None:
            key = "continues" if t.continues.days <= 2 else "continues_days"
            self.add(part, self.say("theme", key, headline=headline_text(t.continues.headline),
                                    ordinal=ordinal_words(t.continues.days)))
        self._explain(part, t, order)
        open_prs = [n for n in order if (c := self.d.change(n)) and c.state is State.OPEN]
        if open_prs and len(open_prs) < len(order):
            self.add(part, self.say("theme", "still_open", prs=_cap(pr_list(open_prs)),
                                    is_are="is" if len(open_prs) == 1 else "are"),
                     open_prs, optional=True)
        return part

    def _explain(self, part: Part, t: Theme, order: Sequence[int]) -> None:
        explained = False
        for i, n in enumerate(order[:4]):
            c = self.d.change(n)
            if c is None:
                continue
            found = body_sentences(c.body, accept=functools.partial(self._grounded_one, n),
                                   limit=3 if i == 0 else 1)
            for j, sentence in enumerate(found):
                self.add(part, sentence, (n,), optional=explained or j > 0)
                explained = True
        stack_members = set(t.stack.members) if t.stack else set(t.prs)
        phrased = [(n, p) for n in order if n in stack_members
                   and (p := self.phrase(n, gerund=True))]
        if len(phrased) <= 1 and not explained and (p := self.phrase(order[0])):
            self.add(part, self.say("theme", "title", pr=order[0], phrase=p), order[:1])
        for k in range(0, len(phrased) if len(phrased) > 1 else 0, 3):
            chunk = phrased[k:k + 3]
            text = self.say("theme", "parts", phrases=join_words([p for _, p in chunk]))
            if len(text.split()) > MAX_WORDS:
                text = self.say("theme", "parts", phrases=join_words([p for _, p in chunk[:1]]))
            self.add(part, text, [n for n, _ in chunk], optional=explained or k > 0)
        for n in order:
            if n not in stack_members and (p := self.phrase(n)):
                self.add(part, self.say("theme", "related", pr=n, phrase=p), (n,), optional=True)

    def areas(self) -> list[Part]:
        parts = []
        for i, area in enumerate(self.d.areas):
            prs = [n for n in sorted(area.prs) if n not in self.covered][:4]
            phrased = [(n, p) for n in prs if (p := self.phrase(n))]
            if not phrased:
                continue
            part = Part("area", self.say("headings", "area", area=_area_name(area.name)),
                        rank=25 - i)
            for j, (n, p) in enumerate(phrased):
                key = "first" if j == 0 else "next"
                self.add(part, self.say("area", key, area=_area_name(area.name), pr=n, phrase=p),
                         (n,), optional=j > 0)
                self.covered.add(n)
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
            if pair.original_episode:
                try:
                    when = spoken_date(dt.date.fromisoformat(pair.original_episode))
                except ValueError:
                    continue
                self.add(part, self.say("reverts", "covered", date=when), cites, optional=True)
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
                              if c.number is not None and c.number not in self.covered]
        rest.sort(key=lambda c: (-c.lines_changed, c.number or 0))
        for c in rest[:3]:
            assert c.number is not None
            if (p := self.phrase(c.number)) is not None:
                self.add(part, self.say("notes", "leftover", pr=c.number, phrase=p), (c.number,),
                         optional=True)
                self.covered.add(c.number)
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
        heads = [title_case(strip_title(t.headline)) for t in themes[:2]]
        heads = [h for h in heads if h and self.grounded(h)]
        if len(heads) == 2:
            both = str(phrases()["title"]["two"][0]).format(a=heads[0], b=heads[1])
            if len(both) <= 70:
                return both
        if heads:
            return shorten(heads[0], 70)
        if self.d.changes:
            first = title_case(strip_title(self.d.changes[0].title))
            if first and self.grounded(first):
                return shorten(first, 70)
        return self.say("title", "quiet")

    def summary(self, themes: Sequence[Theme]) -> str:
        if not themes:
            return self.say("summary", "quiet") if not self.d.changes else _cap(
                self.say("signal", "totals", changes=count_phrase(self.d.counts.changes, "change"),
                         authors=count_phrase(self.d.counts.authors, "developer")))
        lead = [(_cap(shorten(headline_text(t.headline), 60)), join_words(list(t.authors[:2])))
                for t in themes[:2]]
        if len(lead) == 2:
            text = self.say("summary", "two", headline=lead[0][0], authors=lead[0][1],
                            headline2=lead[1][0][0].lower() + lead[1][0][1:]
                            if lead[1][0][1:2].islower() else lead[1][0], authors2=lead[1][1])
            if self.grounded(text):
                return text
        return self.say("summary", "one", headline=lead[0][0], authors=lead[0][1])


class TemplateWriter:
    """Writes a Script from a Digest with the phrase files; same input, same script."""

    name = "template"

    def write(self, digest: Digest, *, show: str, day: dt.date, writing: WritingConfig,
              lexicon: Mapping[str, str]) -> Script:
        check_not_empty(digest, writing)
        b = _Builder(digest, show, day, lexicon)
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
