"""Theme sections: who, how big and what, for PR stacks, PR clusters and bare commits.

A repository whose history has no PR numbers gives themes of commits only; they are told
the same way ("mergecast team landed three commits"), from commit titles and bodies, and
never by sha. Work an earlier episode covered is told as continuing, not as new.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from ..models import State, Theme
from .base import MAX_WORDS, Base, cap, inline
from .length import Part
from .numbers import (
    count_phrase,
    join_words,
    number_words,
    ordinal_words,
    pr_list,
    pr_numbers,
    with_article,
)
from .plain import body_sentences, headline_text


def _stack_size(t: Theme) -> int:
    s = t.stack
    return (s.declared_size or len(s.declared) or s.in_window) if s else 0


def size_phrase(t: Theme) -> str:
    """How big a theme is, in words: "an eleven-part stack, PRs 191044 through 191049"."""
    s = t.stack
    commits = f" plus {count_phrase(len(t.commits), 'commit')}" if t.commits and t.prs else ""
    if s is not None and s.members:
        n = _stack_size(t)
        size = with_article(f"{number_words(n)}-part stack")
        if n > s.in_window:
            return f"{size} with {number_words(s.in_window)} of its PRs in this window, " + \
                pr_list(s.members) + commits
        return f"{size}, {pr_list(s.members)}{commits}"
    if len(t.prs) > 1:
        return f"{count_phrase(len(t.prs), 'linked PR')}, {pr_numbers(t.prs)}{commits}"
    if t.prs:
        return f"a single PR, {pr_list(t.prs)}{commits}"
    return count_phrase(len(t.commits), "commit") if t.commits else "no PRs"


def _more(n: int, noun: str) -> str:
    """(1, "PR") -> "one more PR"; (3, "commit") -> "three more commits"."""
    return f"{number_words(n)} more {noun}{'' if n == 1 else 's'}"


class ThemeSections(Base):
    """The theme sections of an episode (mixed into the template writer's builder)."""

    def who(self, t: Theme) -> tuple[str, bool]:
        """Who did a theme's work, as said, and whether that is more than one person."""
        handles = list(t.authors) or self.commit_authors(t.commits)
        if not handles:
            return "the authors", True
        shown = handles[:2] + (["others"] if len(handles) > 2 else [])
        return join_words(shown), len(handles) > 1

    def theme(self, t: Theme, index: int) -> Part:
        ordinal = cap(ordinal_words(index))
        head = self.topic(t, limit=80)
        part = Part("theme", self.say("headings", "theme", ordinal=ordinal, headline=head),
                    rank=80 - 10 * index, required=index == 1)
        self.covered.update(t.prs)
        self.covered_commits.update(t.commits)
        self.add(part, self.say("theme", "opener", ordinal=ordinal, headline=head), t.prs)
        continuing = self._memory(part, t)
        order = self._size(part, t, continuing)
        self._explain(part, t, order)
        self._explain_commits(part, t, explained=bool(order) and len(part.lines) > 2)
        open_prs = [n for n in order if (c := self.d.change(n)) and c.state is State.OPEN]
        if open_prs and len(open_prs) < len(order):
            self.add(part, self.say("theme", "still_open", prs=cap(pr_list(open_prs)),
                                    is_are="is" if len(open_prs) == 1 else "are"),
                     open_prs, optional=True)
        return part

    def _memory(self, part: Part, t: Theme) -> bool:
        """Say that a theme continues earlier work; True when something was said."""
        c = t.continues
        if c is None or self.weekly:
            return False  # a recap tells the week's work once, as a whole
        about = headline_text(c.headline)
        if c.days >= 3:
            text = self.say("theme", "continues_days", headline=about,
                            ordinal=ordinal_words(c.days))
        elif c.days == 2:
            text = self.say("theme", "continues", headline=about)
        elif (when := self.when(c.episode_id)) is not None:
            date, weekly = when
            text = self.say("theme", "returns_week" if weekly else "returns", headline=about,
                            date=date)
        else:
            return False
        ln = self.line(text)
        if ln is None or not self.grounded(text):
            return False
        part.lines.append(ln)
        return True

    def _size(self, part: Part, t: Theme, continuing: bool) -> list[int]:
        """The who-and-how-big sentence; returns the theme's PRs in the order told."""
        authors, many = self.who(t)
        states = self.states(t.prs)
        verb = ("landed" if states and states <= {State.MERGED, State.LANDED}
                else "opened" if states == {State.OPEN}
                else "pushed" if State.OPEN in states else "posted")
        adds = "add" if many else "adds"
        s = t.stack
        if s is not None and s.members:
            if s.authors:  # a stack is its owner's; a related fix by someone else is not theirs
                authors, many = join_words(list(s.authors)), len(s.authors) > 1
                adds = "add" if many else "adds"
            self.covered.update(s.members)
            size_n = _stack_size(t)
            size = with_article(f"{number_words(size_n)}-part stack")
            if continuing:
                text = self.say("theme", "more_stack", authors=authors, adds=adds,
                                more=_more(s.in_window, "PR"),
                                size=f"the {number_words(size_n)}-part stack",
                                prs=pr_list(s.members))
            elif s.in_window == 1:
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
        elif t.prs:
            order = sorted(t.prs)
            many_prs = len(order) > 1
            if continuing:
                text = self.say("theme", "more_prs", authors=authors, adds=adds,
                                more=_more(len(order), "PR"), prs=pr_numbers(order))
            elif many_prs:
                text = self.say("theme", "cluster", authors=authors, verb=verb,
                                size=count_phrase(len(order), "linked PR"),
                                prs=pr_numbers(order))
            else:
                text = self.say("theme", "single", authors=authors, verb=verb, pr=order[0])
            self.add(part, text, order)
        else:
            order = []
        if t.commits:
            n = len(t.commits)
            if not t.prs:
                key = "more_commits" if continuing else "commits"
                size = _more(n, "commit") if continuing else count_phrase(n, "commit")
                self.add(part, self.say("theme", key, authors=authors, adds=adds, size=size))
            else:
                self.add(part, self.say("theme", "with_commits",
                                        size=count_phrase(n, "commit")), optional=True)
        return order

    def _explain(self, part: Part, t: Theme, order: Sequence[int]) -> None:
        if not order:
            return
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

    def _explain_commits(self, part: Part, t: Theme, explained: bool) -> None:
        """What a theme's bare commits do: their cleaned bodies, then their titles."""
        if not t.commits:
            return
        if t.prs:  # the PRs carry the story; each commit gets one optional line
            for sha in t.commits[:3]:
                if (line := self.commit_line(sha)) is not None:
                    self.add(part, self.say("theme", "related_commit", commit=inline(line)),
                             optional=True)
            return
        body_said = False
        for i, sha in enumerate(t.commits[:4]):
            c = self.commit(sha)
            if c is None:
                continue
            for j, sentence in enumerate(body_sentences(c.body, accept=self.grounded,
                                                        limit=3 if i == 0 else 1)):
                self.add(part, sentence, optional=body_said or j > 0)
                body_said = True
        if len(t.commits) == 1:
            if (p := self.commit_phrase(t.commits[0])) is not None:
                self.add(part, self.say("theme", "commit_title", phrase=p),
                         optional=body_said or explained)
            return
        said, topic = 0, None
        for sha in t.commits[:6]:
            if (line := self.commit_line(sha, first=said == 0, said=topic)) is not None:
                self.add(part, line, optional=body_said or said > 0)
                said += 1
                topic = self.commit_topic(sha) or topic
