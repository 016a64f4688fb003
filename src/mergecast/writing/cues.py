"""How descriptions are read, as data: templates/bodies.toml compiled once.

The word lists that say which sentences of a description stand alone (sentences.py) and
which slot each fills (kinds.py): lead-ins, first person, back-references, boilerplate,
rewrites, and the cues of a problem or a benefit.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import tomllib
from importlib import resources


def _any(phrases: list[str], end: str = r"(?![\w'])") -> re.Pattern[str]:
    """Whole-word, case-insensitive alternatives from a data list (`end`: what may not
    follow one)."""
    return re.compile(r"(?<![\w'])(?:" + "|".join(re.escape(p) for p in
                                                sorted(phrases, key=len, reverse=True))
                      + r")" + end, re.I)


def _fault(phrases: list[str]) -> re.Pattern[str]:
    """As _any, but never as the first part of a hyphened compound: "NaN-propagating",
    "error-handling" and "crash-safe" name a property, not the fault ("error-prone" and a
    "race-condition" are faults all the same; so is a "memory-leak")."""
    return _any(phrases, end=r"(?![\w']|-(?!(?:prone|condition)\b))")


def _opening(phrases: list[str]) -> re.Pattern[str]:
    """A sentence opening on one of the phrases, after any markup."""
    return re.compile(r"^\W*(?:" + "|".join(re.escape(p) for p in phrases) + r")\b", re.I)


@dataclasses.dataclass(frozen=True)
class Cues:
    """templates/bodies.toml, compiled once."""

    section_end: re.Pattern[str]
    label: re.Pattern[str]
    bare_label: re.Pattern[str]
    heading: re.Pattern[str]
    labels: dict[str, str]
    first_person: re.Pattern[str]
    addressing: re.Pattern[str]
    connective: re.Pattern[str]
    inferred: re.Pattern[str]
    boilerplate: re.Pattern[str]
    leans: frozenset[str]
    to_reader: frozenset[str]
    failing: frozenset[str]  # "Fails on X": no sentence opens on one without its subject
    before_determiner: frozenset[str]  # may open a sentence before "the" and not be a verb
    subject_next: frozenset[str]
    checked: frozenset[str]
    located: frozenset[str]  # "lives in <path>": the place is the point
    asserted: frozenset[str]
    # First-person turns with a plain rewrite ("we plan to" -> "the plan is to"), applied in
    # this order; a reviewer's shorthand is said in full after them (sentences._rewritten).
    rewrites: tuple[tuple[re.Pattern[str], str], ...]
    lead_in: re.Pattern[str]
    titled: re.Pattern[str]
    names: dict[str, str]  # written as one word, said as these words, longest first
    per: frozenset[str]  # "tok/s": what a rate is per
    this_does: frozenset[str]
    this_first: frozenset[str]
    this_own: frozenset[str]
    problem: re.Pattern[str]
    problem_weak: re.Pattern[str]
    fine_state: re.Pattern[str]  # "was valid": a past state that rules a problem out
    benefit: re.Pattern[str]
    benefit_names: re.Pattern[str]  # "all-reduce": a name, its "reduce" no payoff
    losses: re.Pattern[str]  # a figure that got worse: a cost, not a payoff
    gains: frozenset[str]  # verbs whose doing is the payoff: "PR 12 avoids …"
    benefit_weak: frozenset[str]  # payoff words that are as often plain verbs ("saves")
    purpose: re.Pattern[str]  # a clause saying what a change's doing is for
    outcome: re.Pattern[str]
    contrast: re.Pattern[str]
    cause: re.Pattern[str]
    past: re.Pattern[str]
    noise_item: re.Pattern[str]  # a squash or ghstack list item, no step of the change
    consequence: re.Pattern[str]  # "As a result, …": what the state before led to
    after_state: re.Pattern[str]  # "After this change, …": the state the change leaves
    before_state: re.Pattern[str]  # "The current X …": the state the change answers
    led_to: re.Pattern[str]  # "This means …": the sentence before told the old state
    clause_opener: re.Pattern[str]  # "when", "now that": a clause of its own begins
    limit_heading: re.Pattern[str]  # "## Known limitations": what the change leaves out
    own_limit: re.Pattern[str]  # "… are unsupported here": the same, said in a sentence
    capability: re.Pattern[str]  # "supports": what a thing can do ("… X only": its limit)


@functools.cache
def cues() -> Cues:
    text = resources.files("mergecast.writing").joinpath("templates/bodies.toml").read_text(
        encoding="utf-8")
    d = tomllib.loads(text)
    prose, drop, cues = d["prose"], d["drop"], d["cues"]
    later = "(?:" + "|".join(prose["later_ends"]) + ")"
    ends = "(?:" + "|".join([*prose["section_ends"], *prose["later_ends"]]) + ")"
    labels = {k.lower(): v for k, v in prose["labels"].items()}
    return Cues(
        # Where the prose ends: a heading or a "Label:" line naming one of these sections.
        section_end=re.compile(rf"(?im)^\s*(?:#+\s*{ends}\b.*|{ends}\s*:.*|{ends}\s*"
                               rf"|(?:\*\*|__){later}\s*:.*)$"),
        label=re.compile(r"^(" + "|".join(re.escape(k) for k in sorted(labels, key=len,
                                                                        reverse=True))
                         + r")(?:\s*:|\s+-)\s*(?=[A-Z0-9`])", re.I),
        bare_label=re.compile(r"^(?:(?:" + "|".join(re.escape(k) for k in prose["bare_labels"])
                              + r")\s+(?=[A-Z][a-z]|`)|(?:"
                              + "|".join(re.escape(k) for k in prose["bare_labels_any"])
                              + r")\s+)", re.I),
        heading=re.compile(r"(?im)^\s*#*\s*(" + "|".join(re.escape(k) for k in labels)
                           + r")\s*$"),
        labels=labels,
        first_person=_any(drop["first_person"]), addressing=_any(drop["addressing"]),
        connective=_any(drop["connectives"]),
        inferred=re.compile(r",?\s+(?:" + "|".join(drop["said_without"])
                            + r")\b,?(?=\s|[.!?]$)", re.I),
        boilerplate=re.compile("|".join(drop["patterns"]["boilerplate"]), re.I),
        leans=frozenset(drop["leans"]), to_reader=frozenset(drop["to_reader"]),
        failing=frozenset(drop["failing"]),
        located=frozenset(drop["located"]),
        before_determiner=frozenset(drop["before_determiner"]),
        subject_next=frozenset(drop["subject_next"]), checked=frozenset(drop["checked"]),
        asserted=frozenset(drop["asserted"]),
        rewrites=tuple((_any([k]), v) for k, v in d["rewrite"].items()),
        lead_in=re.compile(r"^(?:(?:" + "|".join(re.escape(p) for p in drop["lead_ins"]
                                                   if " " in p or p == "so")
                           + r")\s*,?|(?:" + "|".join(re.escape(p) for p in drop["lead_ins"]
                                                      if " " not in p)
                           + r")\s*,)\s+(?=[A-Za-z`])", re.I),
        per=frozenset(w.lower() for w in d["alternatives"]["per"]),
        names=dict(sorted(d["names"].items(), key=lambda kv: -len(kv[0]))),
        titled=re.compile(r"^(?:" + "|".join(re.escape(p) for p in drop["titled"])
                          + r")\b\s*[,:;.]?\s*", re.I),
        this_does=frozenset(d["this"]["does"]), this_first=frozenset(d["this"]["first"]),
        this_own=frozenset(d["this"]["own"]),
        problem=_fault(cues["problem"]), problem_weak=_fault(cues["problem_weak"]),
        fine_state=re.compile(r"\b(?:was|were)\s+(?:(?:all|still|already|also)\s+)?(?:"
                              + "|".join(cues["fine_states"]) + r")\b|\b(?:"
                              + "|".join(re.escape(p) for p in cues["same_as"])
                              + r")(?=\s*(?:[.;,:)]|$))", re.I),
        benefit=_any(cues["benefit"]), benefit_names=_any(cues["benefit_names"]),
        losses=_any(cues["losses"]),
        benefit_weak=frozenset(w.lower() for w in cues["benefit_weak"]),
        gains=frozenset(cues["gains"]), purpose=_any(cues["purpose"]),
        outcome=_any(cues["outcome"]), contrast=_any(cues["contrast"]),
        cause=_any(cues["cause"]), past=_any(cues["past"]),
        noise_item=re.compile("|".join(drop["patterns"]["items"]), re.I),
        consequence=_opening(drop["consequences"]),
        after_state=_opening(cues["after_state"]), before_state=_opening(cues["before_state"]),
        led_to=_opening(cues["led_to"]),
        clause_opener=_any(cues["clause_openers"]),
        limit_heading=re.compile(r"(?i)^\s*(?:#{1,6}\s+|\*\*|__)?\s*(?:"
                                 + "|".join(prose["limit_sections"])
                                 + r")\b[^\n.]{0,30}?(?:\*\*|__)?\s*:?\s*$"),
        own_limit=_any(cues["own_limits"]), capability=_any(cues["capability"]),
    )
