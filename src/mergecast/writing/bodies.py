"""Sentences from PR and commit descriptions that stand on their own: problem, benefit, detail.

Bodies are untrusted and written for reviewers, not listeners. The prose of a description
is found (checklists, test plans, code blocks and stack boilerplate end or leave it), each
sentence is made speakable or refused (sentences.py), and what is kept is typed as the
problem it states, the benefit it promises, or a detail of what the change does (kinds.py).
When nothing qualifies, nothing is said.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable

from ..analysis.language import base_verb, is_finite, is_tail_word, parse_title, words
from ..analysis.language.orders import parse_actions
from ..analysis.text import clean_body
from ..models import Action, Claim, Ref
from .cues import cues
from .kinds import HOWEVER, TOLD, kind_of, led_to_problem
from .rewrite import states
from .sentences import GAP, MAX_WORDS, SPLIT, main_words, measured, standalone


def _labelled(raw: str) -> str:
    """The slot a "Root cause:"-style label says its sentence fills ("" for none)."""
    m = cues().label.match(" ".join(raw.split()).replace("**", ""))
    return cues().labels[m.group(1).lower()] if m else ""


_GAP = re.compile(r"(?<=\S)[ \t]{2,}(?=\S)")
_BOLD_STOP = re.compile(r"([.!?])(\*\*|__)(?=\s)")


_HEADING = re.compile(r"(?m)^[ \t]*#{1,6}[ \t]+\S.*$")


def _heading(m: re.Match[str]) -> str:
    """A heading that is no label and ends no section ("## High-level Goal") heads the
    prose under it; it is no part of its first sentence, and is not said."""
    line = m.group(0)
    return line if cues().heading.match(line) or cues().section_end.match(line) else ""


_TICKED = re.compile(r"(?m)^(\s*[-*]\s+)\[[xX]\]\s+(\w+)")
# "[Problem]", "[Testing]" on a line of their own: a heading written in brackets, or in
# bold ("**Testing**").
_BRACKET_HEADING = re.compile(r"(?m)^[ \t]*(?:\[([A-Za-z][A-Za-z ]{1,30})\]|(?:\*\*|__)"
                              r"([A-Za-z][A-Za-z ]{1,30}?)(?:\*\*|__)[ \t]*:?)[ \t]*$")


_WRAPPED = re.compile(r"(?<=[a-z])-\n[ \t]*(?=[a-z])")


# A squashed branch's message is a list of its commits ("* fix the loader"). A later one
# naming a PR of about this one's number ("* Add a tutorial (#908)" in PR 904) came in with
# a merge of the main branch, and so, as far as the message can tell, did every item and
# line after it. (A first item names what a reland brings back; a far number, a PR of the
# author's fork.)
_SQUASHED = re.compile(r"\A\s*[*-]\s")
_PR_ITEM = re.compile(r"^\s*[*-]\s.*?(?:\(#(\d+)\))?\s*$", re.M)
_SPACED_COMMA = re.compile(r"(?<=[A-Za-z)]) ,(?= [A-Za-z])")
NEAR = 0.1  # how far, as a share of this PR's number, a PR merged in from main may be


def _own(body: str, ref: Ref) -> str:
    """A squashed description without the messages of other PRs merged into its branch:
    they are those PRs' work, never this change's."""
    if "(#" not in body or ref.pr is None or not _SQUASHED.match(body):
        return body
    for i, m in enumerate(_PR_ITEM.finditer(body)):
        if i and m.group(1) and int(m.group(1)) != ref.pr and \
                abs(int(m.group(1)) - ref.pr) <= max(50, NEAR * ref.pr):
            return body[:m.start()]
    return body


def _prose(body: str) -> str:
    # A ticked item that is an action ("- [x] Support memory reuse") is done work, a list
    # item like any other; the rest of a checklist ("- [x] tests added") is a form's.
    body = _TICKED.sub(lambda m: m.group(1) + m.group(2) if base_verb(m.group(2))
                       else m.group(0), body)
    body = _HEADING.sub(_heading, _BRACKET_HEADING.sub(
        lambda m: f"## {m.group(1) or m.group(2)}", body))
    body = _WRAPPED.sub("-", body)  # "the token-⏎ sharding degree": one word, wrapped
    # "surfaces , namely" is the author's slip, mended before cleaning: after it, a space
    # before a comma is where a link was cut out ("FIXES <link>, some ranks hang")
    body = _SPACED_COMMA.sub(",", body)
    text = clean_body(body)
    # A label on a line of its own ("## Problem") labels the prose under it, as "Problem:".
    text = cues().heading.sub(r"\1:", text)
    cut = cues().section_end.search(text)
    while cut and not text[: cut.start()].strip():
        # "Note: review #3765 first" opening a description is an aside, not the end of it:
        # its paragraph goes, the prose after it stays.
        rest = text.find("\n\n", cut.end())
        text = text[rest:].lstrip("\n") if rest >= 0 else ""
        cut = cues().section_end.search(text)
    text = text[: cut.start()] if cut else text
    # One space keeps a line's indent: an indented line goes on with the list item above
    return "\n".join(" " * line[:1].isspace() + _GAP.sub(f" {GAP} ", line.strip())
                     for line in text.split("\n"))


SQUASH_LINES = 5  # typed commit lines ("feat: …", "* fix(x): …") that make a squash log


@functools.cache
def _typed_line() -> re.Pattern[str]:
    typed = "|".join(map(re.escape, [*words().types, "chore", "wip", "test", "style"]))
    return re.compile(rf"(?im)^\s*[*-]?\s*(?:{typed})(?:\([^)\n]*\))?!?:\s")


def squash_log(body: str) -> bool:
    """Whether a description is the log of the commits squashed into the change ("feat:
    adding triton dependency" … "fix: removing triton dependency"): its lines tell the
    change's history, not what it does in the end."""
    return len(_typed_line().findall(body)) >= SQUASH_LINES


def steps(body: str, ref: Ref, limit: int = 3) -> list[Action]:
    """What a description's list says the change does, when its items are actions
    ("- add configuration options for X"); items that are not are left alone. A squash
    log's lines are none: "adding X" may be undone three lines later."""
    if squash_log(body):
        return []
    out: list[Action] = []
    for _, items, _ in _paragraphs(_prose(_own(body, ref))):
        # (bold is no word; "more options, such as" before its sub-list: the options)
        for item in (_ITEM_TAG.sub("", _EXAMPLES.sub("", i.replace("**", ""))) for i in items):
            # "Commit Comparison: Compare losses between two commits": the label names the
            # feature, the words after it say what the change does.
            if (m := _ITEM_LABEL.match(item)) and base_verb(m.group(1)):
                item = item[m.start(1):]
            # "Rename X to Y: Improved clarity in Z": the step is before the colon, the
            # words after it say why.
            if (m := _EXPLAINED.search(item)) and base_verb(m.group(1)) != m.group(1).lower():
                item = item[:m.start()]
            if not base_verb(item.split(" ", 1)[0]) or cues().noise_item.match(item) or \
                    _nouns_listed(item) or states(item) or \
                    standalone(_sentence(item), ref, step=True) is None:
                continue
            # ("add docstrings, update variable names": two steps, never "adds docstrings,
            # update variable names"; "X support, passed through from Y" is one)
            orders = [] if _PARTICIPLE_AFTER.search(item) else parse_actions(item)
            for action in orders if len(orders) > 1 else [parse_title(item)]:
                if action.lemma and action.obj:
                    out.append(dataclasses.replace(action, ref=ref))
                if len(out) >= limit:
                    return out
    return out


def _nouns_listed(item: str) -> bool:
    """Whether an item opening on a word in -s lists things ("Imports and `__all__`
    exports in X", under "Removed:") or tells what became of them ("tests written, issues
    fixed"), not a step said in the third person ("Adds X")."""
    raw = item.split()
    ws = [w.lower().strip(",") for w in raw]
    # (a participle that ends its clause: "fixes broken tests" is a step)
    told = len(ws) > 1 and re.fullmatch(r"[a-z]{2,}(?:ed|en)", ws[1]) is not None and (
        len(ws) == 2 or raw[1].endswith(",") or ws[2] == "and")
    return len(ws) > 1 and ws[0].endswith("s") and (told or len(ws) > 2 and ws[1] in (
        "and", "or") and base_verb(ws[2].strip("`*")) is None)


def claims(body: str, ref: Ref, *, accept: Callable[[str, Ref], bool] = lambda s, r: True,
           limit: int = 6) -> list[Claim]:
    """Up to `limit` standalone sentences of a description, in body order, each typed as
    the problem it states, the benefit it promises, or a detail of what the change does.
    A squash log has none: its lines are the change's history ("still needs work")."""
    if squash_log(body):
        return []
    out: list[Claim] = []
    opening = True
    limited = _limited(body)
    for prose, items, leaning in _paragraphs(_prose(_own(body, ref))):
        # A list item that is a whole statement ("Defaults now load from either file.")
        # stands alone as well, unless its lead-in pointed at what it lists; items that
        # open on a verb are steps, told with the titles.
        stated = [] if leaning else [x for i in items for x in _contrasted(
            SPLIT.split(_sentence(i))) if _statement(x)][:2]
        # "**Weights are probabilities.** A weight of 3 …": a bold lead-in that is a
        # sentence of its own ends at its full stop, not at the closing marks.
        prose = _BOLD_STOP.sub(r"\2\1", prose)
        split = _contrasted(SPLIT.split(prose)) if prose else []
        told = [(raw, opening and i == 0, split[i + 1] if i + 1 < len(split) else "")
                for i, raw in enumerate(split)]
        # A list item's sentence is never the description's opening: its "This is …"
        # points at the item ("token-in/token-out … This is the standard"), not the change.
        for raw, first, after in told + [(x, False, "") for x in stated]:
            said = standalone(_led_in(raw) if first else raw, ref, first=first)
            opening = False
            if said is None or said in {c.text for c in out} or not accept(said, ref):
                continue  # (a sentence written twice is said once)
            kind = kind_of(said, bool(TOLD.match(said)), _labelled(raw), raw)
            if kind != "problem" and not _labelled(raw) and led_to_problem(said, after):
                kind = "problem"
            if kind in ("problem", "benefit") and " ".join(raw.split()[:6]) in limited:
                kind = "detail"  # what the change leaves out, under "## Limitations"
            out.append(Claim(said, kind, ref))
            if len(out) >= limit:
                return out
    return out


def _limited(body: str) -> str:
    """The text under a limitations heading ("## Known limitations"), up to the next
    heading, its whitespace made single: what the change leaves out."""
    out: list[str] = []
    inside = False
    for line in body.split("\n"):
        if cues().limit_heading.match(line):
            inside = True
        elif inside and any(rx.match(line) for rx in (_HEADING, _BRACKET_HEADING, _LABEL_LINE)):
            inside = False
        elif inside:
            out.append(_ITEM.sub("", line))
    return " ".join(" ".join(out).split())


_POINTING = frozenset("see here below follows following like including includes include "
                      "are is e.g. i.e. example examples".split())


def _led_in(raw: str) -> str:
    """A description that opens on what the change does, leading into code or a table
    ("Fold the batch dimension into the token dimension across the stack:"), says it
    whole: the colon ends it. One ending on a word that needs more ("Update X to:") or
    pointing at what follows ("Add the following:") is left to fail as it is."""
    ws = raw.rstrip().rstrip(":").split()
    if not raw.rstrip().endswith(":") or len(ws) < 4 or \
            base_verb(ws[0]) != ws[0].lower() or is_tail_word(ws[-1]) or \
            ws[-1].lower() in _POINTING or "," in raw:
        return raw  # ("Fix typo in X, hf asset should be Y, see:" points at a link)
    return raw.rstrip()[:-1] + "."


def _contrasted(sentences: list[str]) -> list[str]:
    """"X was updated at runtime. However, the checkpoints stored zeros." is one thought:
    told as "X was updated at runtime, but the checkpoints stored zeros", since the first
    alone reads as no problem at all and the second alone leans on it."""
    out: list[str] = []
    for raw in sentences:
        m = HOWEVER.match(raw)
        if not (m and out and out[-1].rstrip().endswith(".")):
            out.append(raw)
        elif len(out[-1].split()) + len(raw.split()) <= MAX_WORDS:
            rest = raw[m.end():]
            rest = rest[0].lower() + rest[1:] if rest[1:2].islower() else rest
            out[-1] = f"{out[-1].rstrip()[:-1]}, but {rest}"
        else:
            # Too long for one breath: the contrast is the point ("Previously, the fallback
            # worked. However, the RoPE op was not fused."), said without the state it
            # qualifies, which alone would tell the opposite.
            out[-1] = raw
    return out


def _statement(item: str) -> bool:
    """A list item that reads as a sentence of its own: a subject and a finite verb early
    on ("Defaults can be loaded from either file"), no "Label: value", no arrows or
    symbols; an item opening on a verb is a step, not a statement."""
    ws = item.split()
    # ("Implementation of K-means to be used for X": "to be" carries no tense; "No CPU
    # sync, not backward-able, is graph-safe": a verb after a list of traits has no subject)
    finite = [i for i, w in enumerate(ws) if i and is_finite(w) and not ws[i - 1].endswith(",")]
    # The verb must be the item's, not a "when" clause's ("No-op when no nodes are
    # tagged"). An item opening on its clause ("When the files change") needs a verb for
    # the clause and one of its own ("When X was set SAM2 would crash"); a comma after the
    # clause is taken to lead to the item's own.
    main = main_words(ws) if "," not in item else ws
    if main:
        verb = any(0 < i < min(9, len(main)) for i in finite)
    else:
        verb = len(finite) >= 2
    return bool(ws) and not base_verb(ws[0]) and len(ws) <= 20 and \
        not re.search(r"[:→×=<>|]", item) and ws[0][:1].isupper() and verb


_EXPLAINED = re.compile(r":\s+([A-Z][a-z]+)\b.*$")
_LABEL_HEAD = r"^(?:[A-Z][\w-]*\s+){0,3}[A-Z][\w-]*\s*:"  # "Commit Comparison:"
_LABEL = re.compile(_LABEL_HEAD + r"\s*")
_ITEM_LABEL = re.compile(_LABEL_HEAD + r"\s+(\w+)\s")  # the label and the word after it
_ITEM = re.compile(r"^\s*(?:[-*+•]|\d{1,2}[.)]|[a-h](?:\)|\s+-))\s+")  # "a - x", "b) y": lettered


_LABEL_LINE = re.compile(r"^\s*[A-Z][\w ]{0,30}:\s*$")


# A lead-in pointing at a thing it shows ("All graph passes must follow this signature:",
# its code cut): the statements listed under it are that thing's rules, and leaned on it.
_POINTS_AT = re.compile(r"\b(?:follows?|use|uses|like|in|with)\s+(?:this|these)(?:\s+\w+)?\s*:\s*$",
                        re.I)


def _paragraphs(text: str) -> list[tuple[str, list[str], bool]]:
    """Each paragraph's prose (without list items and their lead-in line), its items, and
    whether they lean on a lead-in pointing at what it shows (`_POINTS_AT`)."""
    out = []
    for paragraph in text.split("\n\n"):
        prose: list[str] = []
        items: list[str] = []
        leaning = False
        last = ""  # the line before, as written
        in_item = False  # whether that line was a list item's
        for line in paragraph.split("\n"):
            if _ITEM.match(line):
                if prose and not prose[-1].rstrip().endswith((".", "!")) and not items:
                    # "New behavior:" leans on the list it introduces, from where its
                    # sentence starts ("X will open PRs when … are available, helping to:")
                    kept = _before_last_sentence(prose)
                    leaning = bool(_POINTS_AT.search(" ".join(prose)))
                    prose = kept
                items.append(" ".join(_ITEM.sub("", line).split()))
                in_item = True
            elif in_item and _wrapped(last, line):
                items[-1] += " " + " ".join(line.split())  # a wrapped line of the item
            else:
                if prose and _log_lines(prose[-1], line):
                    prose[-1] = prose[-1].rstrip() + "."
                prose.append(line)
                # A heading's label after a list starts prose of its own: "Design:" ⏎
                # "… of varying" ⏎ "shapes." is one sentence, no part of the list's end.
                in_item = in_item and not _LABEL_LINE.match(line)
            last = line
        out.append((" ".join(" ".join(prose).split()), items, leaning))
    return out


def _log_lines(before: str, line: str) -> bool:
    """Whether two prose lines are two lines of a change log, each its own sentence with
    no full stop ("Deleted the kernel and its layouts" / "Deleted its tests"): both open
    on a verb, or the first is longer than any editor wraps a line and the second opens on
    a capital ("… during the first forward pass)" / "Bugfix in quant primitives"), and the
    first ends on no joiner."""
    lead, ws = _LABEL.sub("", before.strip()).split(), line.split()
    end = before.rstrip()[-1:]
    return bool(lead and ws) and (end.isalnum() or end in ")]`") and \
        lead[-1].lower() not in words().line_joiners and (
            all(w[:1].isupper() and base_verb(w) is not None for w in (lead[0], ws[0])) or
            len(before.strip()) > UNWRAPPED_WIDTH and ws[0][:1].isupper() and
            lead[-1].lower() not in words().function)  # ("… new versions of" / "GitHub …")


def _before_last_sentence(lines: list[str]) -> list[str]:
    """`lines` without the sentence they end on, which may have begun lines before."""
    text = " ".join(" ".join(lines).split())
    ends = list(re.finditer(r"[.!?](?=\s+[A-Z])", text))
    return [text[:ends[-1].end()]] if ends else []


WRAP_WIDTH = 66  # a line this long may have been wrapped by its writer's editor
UNWRAPPED_WIDTH = 150  # ... and one longer than this was written as one line


def _wrapped(before: str, line: str) -> bool:
    """Whether a line goes on with the list item above it: indented under it, opening in
    lower case, or after a line long enough to have been wrapped. "AAS Track mult issues"
    after a short item is a line of its own; after "… deterministic mode, and" (a joiner
    ends no item) "TensorBoard enabled" is the item's end."""
    stripped = line.lstrip()
    last = before.split()[-1].lower() if before.split() else ""
    # "2. **Link checking:** Integrates" (a link too long for the line went to the next):
    # an item that is only its label and a verb has its object still to come.
    said = _LABEL.sub("", _ITEM.sub("", before).replace("**", "")).split()
    return line[:1].isspace() or not stripped[:1].isupper() or \
        len(before.rstrip()) >= WRAP_WIDTH or before.rstrip().endswith((",", "(", "-")) or \
        last in words().line_joiners or len(said) == 1 and base_verb(said[0]) is not None


_PARTICIPLE_AFTER = re.compile(r",\s+(?:and\s+)?[a-z]+ed\b")
# "[mxfp8 moe training] add a 3D quantize kernel": a squashed commit's tag, as in a title
_ITEM_TAG = re.compile(r"^\[[^\]\n]{1,40}\]\s*(?=\w)")
_EXAMPLES = re.compile(r",?\s+(?:such as|like|including|e\.g\.?|for example)\s*:?\s*$", re.I)


def _sentence(item: str) -> str:
    item = item.rstrip(" ;,")
    return item if item.endswith((".", "!")) else item + "."


def _score(c: Claim, first: Ref) -> float:
    """How well a claim states a problem or a benefit: a stated cause, an outcome a user
    feels, a contrast with what should happen; from the base change rather than a later
    part."""
    text, cue = c.text, cues()
    score = 1.0 if c.ref == first else 0.0
    if c.kind == "benefit":
        score += 2 * measured(text) + bool(cue.cause.search(text))
    else:
        past = cue.past.search(text) or re.search(r"\b\w{3,}ed\b", text)
        score += 2 * bool(cue.outcome.search(text)) + bool(cue.contrast.search(text)) + \
            bool(past) + 0.5 * bool(cue.cause.search(text))
    return score


def best(found: list[Claim], kind: str) -> Claim | None:
    """The strongest claim of a kind (earliest on a tie)."""
    of_kind = [c for c in found if c.kind == kind]
    if not of_kind:
        return None
    first = found[0].ref
    return max(of_kind, key=lambda c: (_score(c, first), -of_kind.index(c)))
