"""What slot a description's sentence fills: the problem it states, the benefit it
promises, or a detail of what the change does. Read from the sentence's words, its opening
and the sentence after it; the word lists are data (templates/bodies.toml [cues])."""

from __future__ import annotations

import re

from ..analysis.language import base_verb
from .cues import cues
from .sentences import LABEL, measured

HOWEVER = re.compile(r"^However,\s+(?=\S)")


def _unknown_label(raw: str) -> bool:
    plain = " ".join(raw.split()).replace("**", "")
    return bool(LABEL.match(plain)) and not cues().label.match(plain)


# A relative clause's own past ("actions that were previously pinned … remain pinned"):
# it names a thing, and says nothing of a state the change answers.
_RELATIVE_PAST = re.compile(r"\b(?:that|which|who)\s+(?:was|were|had been|have been|has been)"
                            r"(?:\s+previously)?(?=\s+\w+ed\b)", re.I)


def _problem(sentence: str, weak: bool = False) -> bool:
    """Whether a sentence states a problem; with `weak`, whether any problem word is in it."""
    c = cues()
    sentence = _RELATIVE_PAST.sub("", sentence)
    if c.problem.search(c.fine_state.sub("", sentence)) or tells_old_state(sentence):
        return True
    found = {m.span() for m in c.problem_weak.finditer(sentence)}
    # A weak word is a problem beside a contrast, and one word is not both: "X on V only
    # is a tradeoff between …" has its "only" and nothing against it
    return bool(found) and (weak or bool({m.span() for m in c.contrast.finditer(sentence)}
                                         - found))


_BEFORE_VERB = frozenset("will would should can also now then further".split())
# A sentence rewritten to tell what the change does: "PR 12 adds …", "When X is empty, PR 12
# uses …" (a place or a condition first).
TOLD = re.compile(r"^(?:[^,]{1,70}, )?(?:PR \d+|[Tt]he commit) ")


def kind_of(sentence: str, rewritten: bool, label: str = "", raw: str = "") -> str:
    if label:
        return label
    if _unknown_label(raw):
        return "detail"  # "Important trick: …" says nothing of a problem or a payoff
    if HOWEVER.match(raw.lstrip("*_ ")) and re.search(r"\b(?:will|won't)\b", sentence):
        # "However, users will not be able to X": a caveat the change leaves, told on its
        # own when the sentence it qualifies was not; never what prompted the change
        return "detail"
    if cues().own_limit.search(sentence):
        return "detail"  # "PP and CP are unsupported here": the change's own limit
    if re.match(r"\W*Note that\s", raw):
        return "detail"  # an aside, whatever words it uses: never "The problem: …"
    if cues().after_state.match(raw.lstrip("*_ ")):
        return "benefit"  # the state the change leaves, never "The problem: after this …"
    if cues().losses.search(sentence) and not cues().past.search(sentence):
        return "detail"  # "it got slower (from 1.36x to 1.29x)": a cost, said plainly
    if measured(sentence) and not _problem(sentence, weak=True):
        return "benefit"  # "PR 12 gives a 3x gain": a figure is what the change buys
    if tells_old_state(sentence):
        return "problem"  # "Without this change, X receives …": no payoff, whatever words
    if rewritten:
        # "PR 12 migrates X to Y instead of Z" is what it does; "PR 12 will prevent errors"
        # and "PR 12 moves X to allow Y" say what that buys.
        told = TOLD.match(sentence)
        ws = [w for w in sentence[told.end() if told else 0:].split()
              if w.lower() not in _BEFORE_VERB]
        gain = bool(ws) and (base_verb(ws[0]) or "") in cues().gains
        return "benefit" if gain or cues().purpose.search(sentence) else "detail"
    # ("ranks with fewer valid tokens" names ranks: no gain)
    # (a name's words masked, its place kept: "no forced all-reduce" reduces nothing)
    unnamed = cues().benefit_names.sub(lambda m: "_" * len(m.group(0)), sentence)
    payoff = [m.group(0).lower() for m in cues().benefit.finditer(unnamed)
              if _said_as_word(m.group(0), raw)
              and not re.search(r"\bwith\s+$", sentence[:m.start()], re.I)]
    if payoff and not cues().past.search(sentence):
        if set(payoff) <= cues().benefit_weak and _outcome(sentence):
            # "The wrong metadata results in a bug when DCP saves DTensor": "saves" is a verb
            return "problem"
        if cues().consequence.match(raw.lstrip("*_ ")):
            # "As a result, the checkpointer no longer tracks …": what the old state led to
            return "problem" if _problem(sentence, weak=True) else "detail"
        return "benefit"  # "PR 12 will prevent errors …" as much as "Runs no longer …"
    if _problem(sentence):
        return "problem"
    return "detail"


def led_to_problem(sentence: str, after: str) -> bool:
    """Whether the next sentence says this one led to a problem ("This means the buffer is
    too large, causing a mismatch"): this one tells the state before the change, unless it
    is what the change does, the state after it, a figure or a gain of its own."""
    c = cues()
    # ("When X is set, the placement will be preserved. This means Y won't be called": what
    # the change will do, and a limit it leaves)
    return (bool(c.led_to.match(after.lstrip("*_ "))) and _problem(after)
            and not c.own_limit.search(after)
            and not re.search(r"\b(?:will|would|won't)\b", sentence)
            and not TOLD.match(sentence) and not c.after_state.match(sentence)
            and not measured(sentence)
            and all(m.group(0).lower() in c.benefit_weak for m in c.benefit.finditer(sentence)))


def tells_old_state(sentence: str) -> bool:
    """Whether a sentence opens on the state before the change ("The current validation
    requires GPUs", "Previously, X was …")."""
    return bool(cues().before_state.match(sentence))


def _outcome(sentence: str) -> bool:
    """Whether the sentence has an outcome of a problem not said as gone ("without errors",
    "no crash", "fewer OOMs", "resolves the hang" are gains)."""
    return any(not re.search(r"\b(?:without|no|fewer|never|zero|not|fix(?:es|ed|ing)?|"
                             r"resolv\w*|avoid\w*|prevent\w*|eliminat\w*)\s+(?:\w+\s+)?$",
                             sentence[:m.start()], re.I)
               for m in cues().outcome.finditer(sentence))


def _said_as_word(word: str, raw: str) -> bool:
    """Whether the description wrote `word` as a word, not only inside an identifier it
    was spoken from ("compile.enable" is a flag, not a change that enables)."""
    return not raw or re.search(rf"(?<![\w.`]){re.escape(word)}(?![\w`]|\.\w)", raw,
                                re.I) is not None
