"""A theme's plan in sentences: one function per slot, all sharing one phrase Lookup.

Each slot (opener, memory, size and effects, problem, benefit, details, related, open work)
can be realised on its own, so another writer may word any slot differently and keep the
rest. Effects come from titles read as actions and grouped by verb, so a stack is told as
"adding X and Y, then using native kernels for A, B and C", never title by title.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..analysis.headlines import GRAB_BAG
from ..analysis.language import (
    parse_title,
    shorten,
)
from ..models import Theme, ThemePlan
from .clauses import Clause, clauses
from .described import benefit, core, details, listed, problem
from .follows import follows, when
from .length import Line, Part, present
from .numbers import (
    count_phrase,
    join_words,
    number_words,
    ordinal_words,
    parts,
    pr_list,
    pr_numbers,
    with_article,
)
from .phrases import MAX_WORDS, Lookup, cap, said
from .phrases import opener as opening  # (opener is this module's slot)
from .plan import is_brief
from .scope import scope, whose
from .told import room, sparse
from .who_size import checked_effects, folded, more_count, size, who


def size_phrase(t: Theme) -> str:
    """How big a theme is, in words: "an eleven-part stack, PRs 584044 through 584049"."""
    s = t.stack
    commits = f" plus {count_phrase(len(t.commits), 'commit')}" if t.commits and t.prs else ""
    if s is not None and s.members:
        n = s.size
        size = with_article(parts(n, s.is_series))
        if n > s.in_window:
            return f"{size} with {number_words(s.in_window)} of its PRs in this window, " + \
                pr_list(s.members) + commits
        return f"{size}, {pr_list(s.members)}{commits}"
    if len(t.prs) > 1:
        return f"{count_phrase(len(t.prs), 'related PR')}, {pr_numbers(t.prs)}{commits}"
    if t.prs:
        return f"a single PR, {pr_list(t.prs)}{commits}"
    return count_phrase(len(t.commits), "commit") if t.commits else "no PRs"


def concept(x: Lookup, t: ThemePlan, limit: int = 80) -> str:
    """The theme's name as said, or a plainer one when the name (drawn from PR text) would
    not pass the fact check or is no name at all: its area, else "one more change"."""
    name = shorten(t.concept, limit)
    if name and name != "assorted changes" and x.grounded(name):
        return name
    if t.area and x.grounded(t.area):
        said = x.say("effects", "area_work", area=t.area)
        return said[:1].lower() + said[1:]
    return "one more change"


# ------------------------------------------------------------------ slots

Slot = Callable[[Lookup, ThemePlan], list[Line]]


def opener(x: Lookup, t: ThemePlan) -> list[Line]:
    ordinal = cap(ordinal_words(t.index))
    return present(x.line(x.say("theme", "opener", ordinal=ordinal, concept=concept(x, t)),
                         t.prs))


def memory(x: Lookup, t: ThemePlan) -> list[Line]:
    """Work an earlier episode covered is told as continuing, not as new."""
    c = t.continues
    if c is None or x.weekly:
        return []  # a recap tells the week's work once, as a whole
    about = c.headline
    if c.days >= 3:
        text = x.say("theme", "continues_days", headline=about, ordinal=ordinal_words(c.days))
    elif c.days == 2:
        text = x.say("theme", "continues", headline=about)
    elif (earlier := when(x, c.episode_id)) is not None:
        date, weekly = earlier
        text = x.say("theme", "returns_week" if weekly else "returns", headline=about, date=date)
    else:
        return []
    return present(x.line(text))


def _fits(text: str, before: str, never: str | None) -> bool:
    """Whether an effects sentence opens otherwise than the one before it and says none of
    `never` ("PR 3 also", of a PR not said yet)."""
    return opening(text) != before and not (never is not None and never in text)


def effects(x: Lookup, t: ThemePlan) -> list[Line]:
    """The effects the size sentence had no room for, two to a sentence."""
    fold = len(folded(x, t))
    told = checked_effects(x, t)
    # A big theme whose descriptions say nothing of why tells more of its parts instead.
    big = t.size >= GRAB_BAG and not (t.problem or t.benefit or t.details)
    rest, cut = room(told, fold, t.concept, big)
    keys: list[str] = []  # the effects sentences' phrase keys so far
    out: list[Line] = []
    subject = _subject(t)
    plural = whose(t) in ("prs", "commits", "changes")  # ("the series" is one)

    def some(cites: Sequence[int]) -> bool:
        """Whether PRs are some of the theme's, not all: "the PRs" would say all."""
        return whose(t) in ("prs", "changes") and bool(cites) and set(cites) < set(t.prs)

    def owner(c: Clause) -> str:
        """The PRs an effect is from ("PR 2 also adds X", "PRs 3 and 4 fix Y"), when the
        theme has more: "the PRs add X" would say all of them do."""
        if not some(c.cites):
            return ""
        # (three numbers before the verb are a mouthful)
        return _some(len(c.cites)) if len(c.cites) > 2 else pr_list(c.cites)

    def third(c: Clause) -> str:  # (after its owner)
        return c.third(len(c.cites) > 1)

    def ordered(pair: list[Clause]) -> list[Clause]:
        # "the PRs fix X, and PR 3 renames Y", never "PR 3 renames Y, and the PRs fix X"
        return sorted(pair, key=lambda c: bool(owner(c)))

    def body(pair: Sequence[Clause], own: bool = True) -> str:
        first, *more = pair
        if own and any(map(owner, pair)):  # "PR 1 uses X, and PR 2 adds Y": each of its own PR
            head = third(first) if owner(first) else f"{said('stated_plural')} " \
                f"{first.ing()}" if plural and sparse(t, told) else first.third(plural)
            if not more:
                return head
            tail = third(more[0]) if owner(more[0]) == owner(first) else \
                f"{owner(more[0])} {third(more[0])}"
            return f"{head}, and {tail}"
        if plural and sparse(t, told):  # "the PRs include one fixing X and one adding Y"
            return f"{said('stated_plural')} " + \
                join_words([pair[0].ing(), *(f"one {c.ing()}" for c in pair[1:])])
        return pair[0].third(plural) + (f", and {pair[1].third(plural)}" if len(pair) > 1
                                        else "")

    for i in range(0, len(rest), 2):
        pair = rest[i:i + 2]
        # "Finally" and "To finish" tell the stack's last step: never one followed by cut
        # ones, nor by another step; an "also" follows an effect said, not one the fact
        # check left out
        step = len(out) + bool(fold)
        key = "effects" if step == 0 else "last_effects" if (
            step >= 2 and not cut and i + 2 >= len(rest)) else "more_effects"
        # (a second "also" sentence is worded otherwise; room() leaves room for no third;
        # nor does one open as the sentence before it, whatever the openers used up)
        salt = keys.count(key)
        keys.append(key)
        before = opening(out[-1].text) if out else ""
        pair = ordered(pair)
        who = owner(pair[0]) or subject
        # ("PR 3 also generalizes X" says PR 3 did something already: only of a PR said)
        unsaid = who != subject and not set(pair[0].cites) & {n for ln in out for n in ln.cites}
        never = f"{who} also " if unsaid else None
        text = x.say("theme", key, salt, subject=who, effects=body(pair))
        for _ in x.variants("theme", key)[1:]:
            if _fits(text, before, never):
                break
            salt += 1
            text = x.say("theme", key, salt, subject=who, effects=body(pair))
        if not _fits(text, before, never) and key == "more_effects":
            # the episode used up every other wording: "On top of that, … On top of that"
            key = "spare_effects"
            text = x.say("theme", key, salt, subject=who, effects=body(pair))
        cites = tuple(n for c in pair for n in c.cites)
        if len(text.split()) > MAX_WORDS and len(pair) > 1 and who != subject:
            # both effects said of their PRs together, rather than one of them left out
            # ("four of the PRs add X and copy Y"; "the PRs" only when they are all)
            together = _some(len(set(cites))) if some(cites) else subject
            text = x.say("theme", key, salt, subject=together, effects=body(pair, own=False))
        if len(text.split()) > MAX_WORDS and len(pair) > 1:
            text = x.say("theme", key, salt, subject=who, effects=body(pair[:1]))
            cites = pair[0].cites
        # After "landed eight related PRs, setting seeds" (one of the eight), the others'
        # effects are never trimmed: alone, the size sentence says all eight set seeds
        lone = bool(fold) and sparse(t, told[:fold])
        out += present(x.line(text, cites, optional=bool(out) or bool(fold) and not lone,
                             weight=-10))
    return out


def _some(n: int) -> str:
    """Some of a theme's PRs, counted: "three of the PRs"."""
    return said("subject_some").format(count=number_words(n))


def _subject(t: ThemePlan) -> str:
    key = whose(t)
    if key == "one":
        return f"PR {t.prs[0]}" if t.prs else said("subject_commit")
    return said(f"subject_{key}")


def related(x: Lookup, t: ThemePlan) -> list[Line]:
    """Changes grouped with the theme but not part of it, in one sentence (two at most)."""
    told = [(a.ref.pr, c.third()) for a in t.related
            if a.ref is not None and a.ref.pr is not None for c in clauses([a])][:2]
    if len(told) == 2:
        (pr, effect), (pr2, effect2) = told
        two = x.line(x.say("theme", "related_two", pr=pr, effect=effect, pr2=pr2,
                           effect2=effect2), (pr, pr2), optional=True, weight=-30)
        if two is not None:
            return [two]
    return present(*(x.line(x.say("theme", "related", pr=pr, effect=effect), (pr,),
                           optional=True, weight=-30) for pr, effect in told[:1]))


def open_work(x: Lookup, t: ThemePlan) -> list[Line]:
    still = list(t.open_prs)
    if not still or len(still) == len(t.prs):
        return []  # an all-open theme already said "opened"
    return present(x.line(x.say("theme", "still_open", prs=cap(pr_list(still)),
                               is_are="is" if len(still) == 1 else "are"), still,
                         optional=True, weight=-20))


def series(x: Lookup, t: ThemePlan) -> list[Line]:
    """The same author's same kind of work elsewhere, in one sentence: "In the same vein,
    vkuzo landed four more PRs, 4748, 4749, 4750 and 4752, removing A, B, C and D"."""
    prs = [a.ref.pr for a in t.series if a.ref and a.ref.pr is not None]
    found = clauses(t.series)
    if not prs or not found:
        return []
    values = {"who": who(t), "status": t.status, "more": more_count(len(prs), "PR"),
              "prs": pr_numbers(prs)}
    one = x.say("theme", "series", effects=join_words([c.ing() for c in found[:3]]),
                **values)
    # (one that leaves a PR's effect out, "four more PRs, removing A, B and C", is told
    # by which PRs do what)
    if len(one.split()) <= MAX_WORDS and \
            {pr for c in found[:3] for pr in c.cites} >= set(prs):
        return present(x.line(one, prs, weight=-5))
    # Too long for one breath: who and which first, then what they do, as much as fits.
    out = present(x.line(x.say("theme", "series_short", **values), prs))
    # (the objects one breath could not hold, told by the PRs doing them: "Three of them
    # remove A, B and C. The remaining PR removes D.")
    if shares := _shares(x, clauses(t.series, overflow=True)[:3], prs) or \
            _shares(x, found[:3], prs):
        return out + shares
    for n in range(min(3, len(found)), 0, -1):
        # "The four PRs remove A, B and C" of four removals says the fourth PR does one
        # of the three: said of the PRs the list cites
        cited = {pr for c in found[:n] for pr in c.cites}
        effects = join_words([c.third(plural=len(cited) > 1) for c in found[:n]])
        text = x.say("theme", "series_effects", subject=f"the {number_words(len(prs))} PRs",
                     effects=effects) if cited >= set(prs) else \
            x.say("theme", "series_share", count=cap(number_words(len(cited))),
                  effects=effects)
        if len(text.split()) <= MAX_WORDS:
            return out + present(x.line(text, [pr for pr in prs if pr in cited],
                                        optional=True, weight=-5))
    return out


def _shares(x: Lookup, found: Sequence[Clause], prs: Sequence[int]) -> list[Line]:
    """A series' effects in two sentences, each said of the PRs doing it: "Two of them move
    X and split Y. The remaining three remove A, B and C." ("Two others remove A and B"
    when some PR's effect is left untold). Only when no PR's effects are in both, so
    neither sentence says what only some of its PRs do."""
    cited = [set(c.cites) for c in found]
    if len(found) < 2 or sum(map(len, cited)) != len(set().union(*cited)):
        return []
    whole = set().union(*cited) == set(prs)
    for cut in range(len(found) - 1, 0, -1):
        head, tail = found[:cut], found[cut:]
        n, m = (sum(len(c.cites) for c in part) for part in (head, tail))
        first = x.say("theme", "series_share", count=cap(number_words(n)), effects=join_words(
            [c.third(plural=n > 1) for c in head]))
        rest = x.say("theme", "series_rest", count=number_words(m) if m > 1 else "PR",
                     effects=join_words([c.third(plural=m > 1) for c in tail])) if whole else \
            x.say("theme", "series_more" if m > 1 else "series_another",
                  count=cap(number_words(m)),
                  effects=join_words([c.third(plural=m > 1) for c in tail]))
        if max(len(first.split()), len(rest.split())) <= MAX_WORDS:
            return [*present(x.line(first, [pr for c in head for pr in c.cites], optional=True,
                                    weight=-5)),
                    *present(x.line(rest, [pr for c in tail for pr in c.cites], optional=True,
                                    weight=-6))]
    return []


SLOTS: tuple[Slot, ...] = (opener, memory, size, problem, effects, follows, scope, series,
                           core, benefit, listed, details, related, open_work)


def brief_part(x: Lookup, t: ThemePlan) -> Part:
    """A theme with nothing to tell beyond its one change, after the full themes: one
    sentence by what it does ("Also today, wanchaol landed PR 71, adding …"), no heading
    of its own to announce."""
    part = Part("theme", x.say("headings", "brief"), rank=80 - 10 * t.index)
    said = concept(x, t)  # a name that is an action ("moving X to Y") is told as one
    found = clauses(t.effects) or clauses([parse_title(said)]) or [Clause("", said, "", t.prs)]
    # A title's two actions in one breath ("using X and banning Y"), else the first.
    values = {"who": who(t), "status": t.status, "effect": join_words(
        [c.ing() for c in found[:2]])}
    if len(x.say("theme", "brief", t.index, pr=t.prs[0] if t.prs else "",
                 **values).split()) > MAX_WORDS:
        values["effect"] = found[0].ing()
    if t.prs:
        told = x.add(part, x.say("theme", "brief", t.index, pr=t.prs[0], **values),
                     t.prs)
    else:
        told = x.add(part, x.say("theme", "brief_commit", t.index, **values))
    if told:  # what its files say, after it ("The change is a four-line fix in …")
        part.lines += scope(x, t)
    return part


def gather_brief(parts: Sequence[Part]) -> list[Part]:
    """Brief themes next to each other are one "Also today" section, not one each: two
    chapters with the same name sound like a mistake."""
    out: list[Part] = []
    for p in parts:
        last = out[-1] if out else None
        if last is not None and last.kind == p.kind == "theme" and last.heading == p.heading:
            out[-1] = Part(p.kind, p.heading, [*last.lines, *p.lines],
                           max(last.rank, p.rank), last.required or p.required)
        else:
            out.append(p)
    return out


def theme_part(x: Lookup, t: ThemePlan, instead: Mapping[Slot, Slot] | None = None) -> Part:
    """A theme's section: every slot in order; the first theme is never trimmed away.
    `instead` words some slots another way (the LLM writer's explanation): a slot found in
    it is realised by its replacement, every other slot from the phrase files."""
    if t.index > 1 and not instead and is_brief(t) and (brief := brief_part(x, t)).lines:
        return brief  # (another writer's wording of the theme is kept whole)
    part = Part("theme", x.say("headings", "theme", ordinal=cap(ordinal_words(t.index)),
                               concept=concept(x, t)),
                rank=80 - 10 * t.index, required=t.index == 1)
    for slot in SLOTS:
        part.lines += (instead or {}).get(slot, slot)(x, t)
    return part
