"""Revert chains, told once each: what was reverted, by whom, why, and every later step
up to the newest (sections.py tells the rest of the episode around the themes)."""

from __future__ import annotations

import re

from ..analysis.language import clean_title, name_of, parse_title, shorten, trim
from ..models import Plan, RevertChain
from .follows import when
from .length import Part
from .phrases import Lookup

_INTERNAL_ID = re.compile(r"[DT]\d{6,}")


def reverts(x: Lookup, plan: Plan) -> Part | None:
    """Each revert chain told once, by what it reverted, with who, why and whether the work
    came back."""
    part = Part("reverts", x.say("headings", "reverts"), rank=35)
    told: set[str] = set()  # days an original was covered, said once
    for chain in plan.chains[:3]:
        _chain(x, part, chain, told)
    return part if part.lines else None


def chain_what(chain: RevertChain) -> str:
    """What a chain reverted, as the doing ("reverted fbgemm as a dependency" of "Add fbgemm
    …" would say the revert removed fbgemm); "" for none or an internal id ("D73201409")."""
    what = trim(name_of(parse_title(chain.title), True), 8) if chain.title else ""
    return "" if _INTERNAL_ID.fullmatch(what) else what


_LATER_STEPS = 3  # after the first revert: back, reverted again, back again


def _chain(x: Lookup, part: Part, chain: RevertChain, told: set[str]) -> None:
    o = chain.original.pr
    what = chain_what(chain)
    undo = next((s for s in chain.steps if s.kind == "revert"), None)
    back = next((s for s in chain.steps if s.kind == "reland"), None)
    # A reland the revert came after is what it reverted ("[Reland] X" landed, then
    # "Revert [Reland] X"): never "The change came back in PR N" after the revert.
    relanded = back if undo is not None and back is not None and \
        chain.steps.index(back) < chain.steps.index(undo) else None
    cites = [n for n in (o, *(st.ref.pr for st in chain.steps)) if n is not None]
    if undo is None:
        if back is not None and back.ref.pr is not None and o is not None:
            x.add(part, x.say("reverts", "reland_only", reland=back.ref.pr, what=what,
                              original=o), cites) or \
                x.add(part, x.say("reverts", "reland_plain", reland=back.ref.pr, original=o),
                      cites)
        return
    r = undo.ref.pr
    if relanded is not None and relanded.ref.pr is not None and r is not None and what:
        options = [x.say("reverts", "revert_reland", revert=r, reland=relanded.ref.pr,
                         what=what)]
    elif o is not None and r is not None:
        by = undo.by if undo.by and undo.by != chain.author else None
        options = [x.say("reverts", "revert_by", author=chain.author, what=what, original=o,
                         by=by, revert=r) if chain.author and by and what else "",
                   x.say("reverts", "revert", author=chain.author, what=what, original=o,
                         revert=r) if chain.author and what else "",
                   x.say("reverts", "revert_plain", revert=r, what=what, original=o)
                   if what else "",
                   x.say("reverts", "revert_unnamed", revert=r, original=o)]
    elif o is not None:
        options = [x.say("reverts", "revert_commit", what=what or "an earlier change",
                         original=o)]
    elif r is not None:
        options = [x.say("reverts", "revert_unknown", revert=r, what=what) if what else
                   x.say("reverts", "revert_unnamed_commit", revert=r)]
    else:
        return
    if not any(x.add(part, text, cites) for text in options if text):
        return
    if undo.reason and (reason := shorten(clean_title(undo.reason), 90)):
        # Why a change was undone is the chain's story: never trimmed away from it.
        x.add(part, x.say("reverts", "reason", reason=reason.rstrip(".")), cites)
    # Every later step, in order, up to the newest (often the day's news): "The change came
    # back in PR 3777. andrewor14 reverted it again in PR 3820." Only what the data shows:
    # no "not yet" from a pair.
    prev, came_back = undo, False
    for st in chain.steps[chain.steps.index(undo) + 1:][:_LATER_STEPS]:
        if st.kind == "reland":
            key = "back_same" if st.ref == prev.ref else \
                "back_commit" if st.ref.pr is None else "back_again" if came_back else "back"
            x.add(part, x.say("reverts", key, reland=st.ref.pr), cites)
            came_back = True
        elif st.ref.pr is not None:
            key = "again_by" if st.by and st.by != chain.author else "again"
            x.add(part, x.say("reverts", key, revert=st.ref.pr, by=st.by), cites)
        prev = st
    found = when(x, chain.original_episode) if chain.original_episode else None
    if found is not None:
        date, weekly = found
        key = "covered_week" if weekly else "covered_again" if date in told else "covered"
        told.add(date)
        x.add(part, x.say("reverts", key, date=date), cites)
