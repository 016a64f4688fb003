"""A description's sentence told as the change's own: "This PR adds X", "We add X", "Add
X" and "Adds X" become "PR 12 adds X"; a sentence about a bare commit, "The commit adds
X". An instruction to the reader or the test plan's check is no thing the change does, and
a gerund opening a sentence is its subject only when the sentence has a verb of its own."""

from __future__ import annotations

import re

from ..analysis.language import (
    base_verb,
    gerund,
    has_verb,
    says_how_it_goes,
    the_documents,
    third_person,
    told_of_one,
    words,
)
from ..models import Ref
from .changes import DOER
from .clauses import article
from .cues import cues
from .lists import count_nouns

# What a change calls itself: "This PR adds …", "The patch …", "This modification …".
SELF_NAMES = ("PR", "pull request", "change", "patch", "commit", "modification")
_THIS_CHANGE = re.compile(rf"^(?:(?:This|The)\s+(?:{'|'.join(SELF_NAMES)})|PR)[:,]?\s+(?!\d)",
                          re.I)  # "This PR: adds …", "This PR, adds …"


# "The changes ensure that X" is the change's own doing, told as "PR 12 ensures that X".
_THESE_CHANGES = re.compile(r"^(?:These|The)\s+changes\s+(?=(\w+)\s)")


def change_name(ref: Ref) -> str:
    """The change a description speaks for, as its sentences name it."""
    return f"PR {ref.pr}" if ref.pr is not None else "The commit"


_FIXES_BY = re.compile(r"^((?:PR \d+|The commit) )(?:fixes|solves|addresses|resolves)"
                       r"(?: (?:this|it|that|the issue|the problem|the bug))? by (\w+ing)\b")


def fixes_by(sentence: str) -> str:
    """"PR 12 fixes by reading X" (what it fixes was the sentence before) -> "PR 12 reads
    X": the how stands alone."""
    m = _FIXES_BY.match(sentence)
    verb = base_verb(m.group(2)) if m else None
    return f"{m.group(1)}{third_person(verb)}{sentence[m.end():]}" if m and verb else sentence


def _rest_told(clause: str) -> str:
    """A clause after its first verb, any later verb told as the change's ("… and evicts")."""
    return told_of_one(clause).partition(" ")[2]


# An auxiliary whose subject is missing ("[link] does not allow X": the subject went with
# the link); "Do not enable X" and "Don't X" are orders, the change's own.
_DO = frozenset({"does", "did"})


_ADDS_IN = re.compile(r"^((?:PR \d+|The commit)(?: also)? adds) in (?=\w)")
_PLACE_README = re.compile(r"\b(in|to|into|from|of)\s+readme\b(?![\w./-])")
_ARTICLE_VERBS = frozenset({"adds", "fixes", "removes"})  # whose object takes an article


def object_told(said: str) -> str:
    """The change's object as a speaker says it: "PR 12 adds in X" adds X, and a bare
    count noun takes its article as in a title's ("PR 12 adds test to check …" -> "adds
    a test to check …"); an object opening on a verb is a name ("removes validate
    granularity"), left as written. Done last: the words a sentence needs to be said
    were counted without them."""
    said = _ADDS_IN.sub(r"\1 ", said)
    said = _PLACE_README.sub(r"\1 the README", said)  # "the command in readme fails"
    if (doer := DOER.match(said)) is None:
        return said
    verb, rest = doer.group(2), said[doer.end():]
    rest = the_documents(rest, made=verb == "adds")  # "PR 12 updates README …": the README
    first = rest.split(" ", 1)[0]
    if verb in _ARTICLE_VERBS and first and not (
            base_verb(first) == first.lower() and first.lower() not in count_nouns()):
        rest = article(rest, base_verb(verb) or "")
    return said[:doer.end()] + rest


def rewrite(sentence: str, ref: Ref, named_next: bool = False) -> str | None:
    """"This PR adds X." -> "PR 12 adds X."; "We add X.", "Add X." and "Adds X." -> "PR 12
    adds X."; a sentence about a bare commit is said as "The commit adds X". None for an
    instruction to the reader. `named_next`: the second word was written as code (a name,
    even when said like a verb: "Adds `enable_x` config")."""
    who = change_name(ref)
    sentence = re.sub(r"\bthis (?:PR|pull request|diff|patch)\b", "this change", sentence)
    m = _THIS_CHANGE.match(sentence) or ((c := _THESE_CHANGES.match(sentence)) and
                                         base_verb(c.group(1)) == c.group(1).lower() and c)
    if m:
        said, _, rest = sentence[m.end():].partition(" ")
        if said.lower() == "to":
            return None  # "This PR to skip X + infra changes": a purpose with no verb
        if base_verb(said) and said[1:].islower():
            said = said.lower()  # "This PR: Ensures that …"
        if base_verb(said) == said and rest:  # "this commit add X": the author's slip
            said = third_person(said)
        if sentence[:4].lower() == "this" and (base := base_verb(said)) and rest and \
                said.lower().endswith("ed") and third_person(base) in cues().this_does:
            said = third_person(base)  # "This PR removed X": told, like its title, as now
        if (base := base_verb(said)) and said == third_person(base) and rest and \
                base not in _CAUSATIVE:  # ("makes X inherit Y and use Z": both X's)
            rest = _rest_told(f"{base} {rest}")  # "… adds a router, and use it …": uses
        return f"{who} {said} {rest}".rstrip()
    if (m := re.match(r"^Also\s+(\w+)\s+(\w+)", sentence)) and \
            m.group(2).lower() not in words().finite and (verb := base_verb(m.group(1))) \
            and not _not_the_changes(verb) and (
            m.group(1).lower() in (verb, third_person(verb))
            or third_person(verb) in cues().this_does):
        # "Also adds a seed test", "Also removed the wrapper": one more thing the change
        # does; "Also inference doesn't need …" has its subject and still leans.
        return f"{who} also {third_person(verb)} {_rest_told(sentence[m.start(1):])}"
    sentence = re.sub(r"^In this (?:change|PR|commit),?\s+(?=(?:I|we)\s)", "", sentence,
                      flags=re.I)
    m = re.match(r"^(?:We|I)\s+(\w+)\s+", sentence)
    if m and (verb := base_verb(m.group(1))) and (
            m.group(1).lower() == verb or third_person(verb) in cues().this_does):
        # "We add X" and "I added X" (a change's own verb, said of the change) are the
        # change; "We found that …" is not, and stays first person (dropped).
        return f"{who} {third_person(verb)} {_rest_told(sentence[m.start(1):])}"
    if (m := _PLACE_FIRST.match(sentence)) and (verb := base_verb(m.group(2))) and \
            m.group(2) == verb and not _not_the_changes(verb):
        # "In VarlenAttention, remove the hard-coded types": the order is the change's
        return f"{m.group(1)}{who} {third_person(verb)} {_rest_told(sentence[m.start(2):])}"
    first, _, rest = sentence.partition(" ")
    verb = base_verb(first)
    if first.lower().endswith("ed") and rest.split(" ", 1)[0] in ("not", "to"):
        return None  # "decided not to use local map …", "Wanted to keep …": an author's note
    if verb is None and re.fullmatch(r"[A-Z][a-z]+[^s]s", first) and \
            first.lower() not in words().finite and \
            rest.split(" ", 1)[0] in _DETERMINERS and not states(sentence):
        # "Follows the same pattern as …": a verb the lexicon does not know, before its
        # object; the change's, said without its subject
        return f"{who} {first.lower()} {rest}"
    if first == "Note" and rest.startswith("that ") and len(rest) > 5:
        return rest[5].upper() + rest[6:]  # "Note that CP is not working yet": an aside
    if first in (w.capitalize() for w in cues().to_reader):
        return None  # "See the inline comments for rationale": the reader's to do
    if verb is None and rest.split(" ", 1)[0] in ("the", "a", "an") and _order_like(first):
        return None  # "Highlight the fact that …", "Creatd an affine …": no verb to say
    if verb is None and first.lower().endswith("ed") and first[:1].isupper() and \
            rest.split(" ", 1)[0].lower() in _AFTER_PAST:
        return None  # "Discovered when loading the model.": no subject, whatever the verb
    low = first.lower()
    if verb is None or not rest or low in _DO or low != "don't" and low in words().auxiliaries:
        # ("[link] does not allow X to be -1": an auxiliary's subject went with the link,
        # and the change is not it)
        return sentence
    if not (named_next and first.lower() == verb) and \
            any(w.lower() in words().finite for w in rest.split()[:2]) or states(sentence) or \
            (first.isupper() and len(first) > 1):
        # "Upstream PyTorch has a bug", "PREPARE and CONVERT branches are"; but in "Add
        # `backward_requires_autograd` to …" the name's words are no verb of a subject
        return sentence
    if first.lower() == verb and rest.startswith("for ") and \
            (verb in words().for_objects or words().nouns.get(verb) == "support"):
        # "Support for X", "Fix for Y", "Workaround for Z": a noun opening what the change
        # is, no order ("PR 12 supports for X" is no English)
        return f"{who} adds support {rest}" if verb not in words().for_objects else \
            f"{who} {third_person(verb)} {rest[4:]}"  # "fixes Y", "works around Z"
    if first.lower() == verb:
        # An imperative ("Add the scheduler, …") describes what the change does, unless it
        # tells the reader what to do.
        # "Test locally with 8 GPUs" is the test plan's, not the change's.
        return None if _not_the_changes(verb) else \
            f"{who} {third_person(verb)} {_rest_told(sentence)}"
    if first.lower() == gerund(verb) and verb not in cues().to_reader and \
            not _gerund_subject(rest):
        # "Extracting the scaffolding so it can be reused …": what the change does, said
        # without its subject; "Extracting it is …" has a verb of its own and stays.
        return f"{who} {third_person(verb)} {_rest_told(sentence)}"
    nxt = rest.split(" ", 1)[0].lower()
    if first.lower() == third_person(verb) and verb in cues().asserted:
        return None  # a test's "Asserts the quantizer builds …": not what the change does
    # "Adds support for X", "Removes check for Y": a noun before its preposition, though
    # it could be a verb; never for a verb's form that is as often a plural noun ("Fixes
    # land in …")
    after = rest.split()[1].lower() if len(rest.split()) > 1 else ""
    object_noun = after in _OBJECT_PREPOSITIONS and first.lower() in cues().this_does and \
        first.lower() not in _PLURAL_NOUNS
    # "Supports only simple schedules": "only" before no verb leaves "Supports" the verb
    # ("Traces only show …" has its verb after it)
    only = nxt == "only" and first.lower() in cues().this_does and \
        base_verb(after) is None and after.isalpha()
    if first.lower() == third_person(verb) and (nxt not in cues().subject_next or only) and \
            (base_verb(nxt) != nxt or named_next or object_noun) and not _plural_subject(rest):
        # "Adds a pass", not "Traces now show"
        return f"{who} {first.lower()} {rest}"
    if first.lower().endswith("ed") and first.lower() != verb and nxt not in _AFTER_PARTICIPLE \
            and verb not in cues().checked and (third_person(verb) in cues().this_does
                                                or third_person(verb) in cues().this_first
                                                or nxt in _DETERMINERS
                                                and not _not_the_changes(verb)):
        # "Added a fix to the subclass …", "Updated the places where …": a change log's
        # line, said of the change ("PR 12 adds a fix …"); any verb the lexicon knows
        # before "the" is one too ("Fused the communication and permutation steps …")
        return f"{who} {third_person(verb)} {_rest_told(sentence)}"
    if first.lower().endswith("ed") and (rest.split(" ", 1)[0].lower() in _AFTER_PAST
                                         or verb in cues().checked):
        return None  # "Bundled with the pass, runs …", "Tested locally …": no subject
    if first[:1].isupper() and first.lower().endswith("ed") and first.lower() != verb and \
            nxt.isalpha() and len(rest.split()) >= 4 and \
            any(w.lower() in _AFTER_OBJECT for w in rest.split()[1:3]) and \
            not _not_the_changes(verb) and not has_verb(_main_words(rest)):
        # "Reconfigured subclasses to inherit …": a past verb, its object and "to" or a
        # preposition, and no other verb in the clause: a change log's line ("Fixed width
        # arrays are slow", "Sharded training rarely copes with …" are not; a short line,
        # "Unified tensor subclass API", labels code more often than not)
        return f"{who} {third_person(verb)} {_rest_told(sentence)}"
    return sentence


_AFTER_OBJECT = frozenset("to for from into in on with as".split())


def _main_words(text: str) -> list[str]:
    """The words of a clause up to its first comma or subordinator."""
    out: list[str] = []
    for w in text.split():
        if w.lower() in words().subordinators:
            break
        out.append(w)
        if w.endswith((",", ";")):
            break
    return out


def _not_the_changes(verb: str) -> bool:
    """An order that is the reader's ("See …") or the test plan's ("Verify …"), not a
    thing the change does."""
    return verb in cues().to_reader or verb in cues().checked


def _order_like(word: str) -> bool:
    """Whether a word opening a sentence before "the" can only be its verb: a plain
    capitalised word that is no function word, adverb, preposition or plural noun
    ("Gradients the model computes are …")."""
    low = word.lower()
    return word[:1].isupper() and word[1:].islower() and word.isalpha() and \
        low not in words().function and low not in words().adverbs and \
        low not in cues().before_determiner and not low.endswith(("ly", "ing", "s"))


_BE = frozenset({"is", "are", "was", "were"})


_DETERMINERS = frozenset("the a an its their each every all".split())


_CLAUSE_VERBS = frozenset({"ensure", "make", "verify", "check", "assert", "guarantee"})


_CLAUSE_OPENERS = frozenset("if when that which who unless because since as so while where "
                            "whether to why how what".split())


def states(text: str) -> bool:
    """"Prepare and CONVERT branches are left unchanged" opens on a verb-like word but says
    how things are: a statement, not an order. "Raise an error if it is set" and "Ensure
    the cache is warm" are orders."""
    ws = text.lower().split()
    for w in ws[1:5]:
        if w.strip(",;") in _CLAUSE_OPENERS:
            return False
        if w.strip(",;") in _BE:
            return ws[0] not in _CLAUSE_VERBS
    return False


# A participle before these is no change log's verb: "Bundled with the pass, …".
_AFTER_PARTICIPLE = frozenset("with by in into from for to as on at when if".split())


# After a past participle opening a sentence, these say it has no subject of its own.
_AFTER_PAST = frozenset("with by in into from for to as on when while after during because "
                        "since through via using".split())


# "In X, remove Y", "When X is empty, use Y": a place or a condition, then an order.
_PLACE_FIRST = re.compile(r"^((?:In|For|Inside|Within|On|When|Whenever|Once) [^,]{1,60}, )"
                          r"([a-z]+) (?=\S)")


_CAUSATIVE = frozenset({"make", "let", "help", "have"})


_OBJECT_PREPOSITIONS = frozenset("for of from in on to with".split())


_PLURAL_NOUNS = frozenset("fixes updates changes cuts".split())  # as often nouns as verbs


_CLAUSE_START = frozenset("so because since which while when if".split())


GERUND_WORDS = 8


_PLURAL_BE = re.compile(r"^[^,;:]{1,60}?\s(?:are|were)\s")


def _plural_subject(rest: str) -> bool:
    """"Calls through the transport are now timed": the opening word is a plural noun and
    "are" its verb, not the change "calling" ("Adds hooks for models that are …" has its
    "are" in a clause of its own)."""
    m = _PLURAL_BE.match(rest)
    return m is not None and not re.search(r"\b(?:that|which|who|where|when)\b", m.group(0))


def _told_form(low: str) -> bool:
    """A verb in a form a gerund subject takes: "-s" or a past, never its base form or an
    "-ing" ("Making X call Y", "Adding benchmarks and generate for Z" have none)."""
    base = base_verb(low)
    return base is not None and low != base and not low.endswith("ing")


def _goes(low: str) -> bool:
    """How a thing goes, said in the present or the past: "fails", "works", "crashed"."""
    if says_how_it_goes(low) or low in cues().failing:
        return True
    return low.endswith("ed") and any(low[:-n] in cues().failing for n in (1, 2))


def _gerund_subject(rest: str) -> bool:
    """Whether a gerund opening a sentence may be its subject: any verb form before the
    sentence's first clause of its own ("Extracting X so it can be reused" is a fragment
    that tells what the change does; "Moving to 7.2 aligns CI …" and "Calling X safely
    skips Y" have a verb of their own). Any word that can be a verb counts: a plural noun
    that reads as one ("Adding tests …") keeps the sentence as written."""
    ws = rest.split()
    if re.search(r"\b(?:PR|pull request)\b", rest):
        return True  # "Creating a PR from UI for now" is about the PR, not what it does
    if ws[:1] == ["sure"]:
        return False  # "Making sure X is available.": the "is" is the clause's
    before = ""
    for w in ws:
        low = w.lower().strip(",;:.!?")
        if low in _CLAUSE_START:
            return False
        if low in words().finite or low.endswith("'s") or \
                before not in words().function and (_told_form(low) or _goes(low)):
            # ("Loading the widget fails.": how the loading goes; but no verb follows
            # "the" or "for": "Updating the docs for the runs.")
            return True
        before = low
        if w.endswith((",", ";", ":")):
            return False
    # No clause of its own: only a short fragment is surely one ("Removing unused
    # attributes in Float8Tensor"); a long run may hide a verb the lexicon does not know.
    return len(ws) > GERUND_WORDS
