"""Titles with no verb read as actions: a fix named by its size ("Minor fix"), a problem
named ("Wrong token count in X"), a lead adjective ("Faster doc mask"), and a noun phrase
whose head names the work ("CUDAGraph support for SimpleFSDP", "int4 fixes")."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ...models import Action
from .readings import the_documents
from .trimming import as_name, to_verb
from .words import base_verb, lower_first, verb_class, words


def object_case(text: str) -> str:
    """An object keeps its capitals ("Vulkan shaders" after "Add" is a name), except a
    function word capitalised by a Title Case title ("The cache")."""
    first, _, rest = text.partition(" ")
    if first.lower() in words().function and first[1:].islower():
        return first.lower() + (" " + rest if rest else "")
    return text


_INSIDE = frozenset("their its our".split())


NOUN_LINKS = ("for", "of", "to", "in", "on", "around", "across")
_PHRASE_LINKS = frozenset([*NOUN_LINKS, "with", "without", "via", "from", "under"]) - {"of"}
_COUNTS = frozenset("one two three four five six seven eight nine ten".split())


def _sized_fix(ws: Sequence[str]) -> Action | None:
    """ "Minor fix", "a few fixes": a fix named by nothing but its size fixes an issue of
    that size; the size is not the thing fixed ("fixes minor" is false)."""
    noun = ws[-1].lower() if ws else ""
    count = ws[0].lower() if len(ws) > 1 and ws[0].lower() in _COUNTS else None
    if count and words().nouns.get(noun) == "fix" and \
            all(w.lower() in words().fix_sizes for w in ws[1:-1]):
        # "Two trivial fixes": two trivial issues, never trivial issues of "Two"
        said = " ".join([count] + [words().fix_sizes[w.lower()] for w in ws[1:-1]])
        return Action(verb="fix", lemma=words().say["fix"],
                      obj=f"{said} {'issue' if count == 'one' else 'issues'}")
    at = next((i for i, w in enumerate(ws[:-1]) if w.lower() in words().fix_sizes), None)
    if at and noun in ("fix", "fixes") and \
            all(w.lower() in words().fix_sizes for w in ws[at:-1]) and \
            all(w.lower() not in words().function for w in ws[:at]):
        # "async tp minor fix": a minor fix of async TP, "fixing a minor async TP issue"
        how = " ".join(words().fix_sizes[w.lower()] for w in ws[at:-1])
        return _issues(f"{how} {' '.join(ws[:at])}", noun == "fixes")
    size = [w.lower() for w in ws[:-1]]
    article = size[:1] == ["a"]
    size = size[1:] if article else size
    if words().nouns.get(noun) != "fix" or not size or \
            any(w not in words().fix_sizes for w in size):
        return None
    said = ("a " if article and size[0] == "few" else "") + \
        " ".join(words().fix_sizes[w] for w in size)
    return _issues(said, noun.endswith("es") or size[-1] in ("few", "several", "various",
                                                            "some"))


def _issues(said: str, plural: bool) -> Action:
    """Fixing "a minor issue", "various issues": what a fix named by its size fixes."""
    obj = f"{said} issues" if plural else f"{'an' if said[0] in 'aeiou' else 'a'} {said} issue"
    return Action(verb="fix", lemma=words().say["fix"], obj=obj)


def listed_opening(ws: Sequence[str], table: Mapping[str, str]) -> str | None:
    """The longest of `table`'s openings (one or more words) the title opens on."""
    low = [w.lower() for w in ws]
    return next((k for k in sorted(table, key=len, reverse=True)
                 if low[:len(k.split())] == k.split()), None)


_COMPOUND_ADJECTIVE = re.compile(r"\w-(?:related|based|specific|wide|level|only|aware|side|"
                                 r"facing|friendly|safe)$", re.I)


def _names_fault(ws: list[str]) -> bool:
    """Whether a verbless title says a thing is wrong ("CP AllGather on the wrong
    dimension"). Not a fault named alone: "Crash on invalid loss" makes training crash."""
    low = [w.lower() for w in ws]
    return any(low[i - 1] == "the" and low[i] in words().problems for i in range(1, len(low)))


def made_work(ws: Sequence[str]) -> bool:
    """Whether a title's first noun phrase is work made ("SAC and FSDP bucketing
    improvements for AOT FX trace", "bug fix and test updates"): a [noun_titles] made noun
    within its first six words, after no verb and no function word but "and" or a size
    ("some missing fixes left from …"), ending the phrase."""
    low = [w.lower() for w in ws]
    i = next((i for i, w in enumerate(low[:6]) if w in words().made_nouns), None)
    if i is None or any(w in words().function and w != "and" and w not in words().fix_sizes
                        or base_verb(w) == w for w in low[:i]):
        return False
    after = low[i + 1] if i + 1 < len(low) else ""
    return not after or after in NOUN_LINKS or after == "and" or after.endswith("ed")


def noun_action(text: str) -> Action | str:
    """A title with no verb read as an action ("Minor fix", "Wrong token count in X", "Faster
    doc mask", "CUDAGraph support for SimpleFSDP"), or the text to read as one with its verb
    ("Better error message for X": "improve the error message for X")."""
    ws = text.split()
    if len(ws) > 2 and [w.lower() for w in ws[-2:]] == ["clean", "up"]:
        ws = [*ws[:-2], "cleanup"]  # "Attention small clean up": a clean-up of attention
        text = " ".join(ws)
    nouns = words().nouns
    # "Globs in their own module with their tests": a noun after a possessive ends a
    # phrase, it does not head the title ("tests Globs" is false).
    inside = any(w.lower() in _INSIDE for w in ws[:-1])
    # "Flight recorder for backends without native support": a noun after a preposition
    # ends the phrase the preposition opens; the title adds no support. ("Mixture of
    # experts support": "of" is inside a name.)
    linked = any(w.lower() in _PHRASE_LINKS and ws[i].lower() not in ("the", "a", "an")
                 for i, w in enumerate(ws[1:-1]))  # ("the to method fixes": a name)
    inside = inside or linked
    if (sized := _sized_fix(ws)) is not None:
        return sized
    first = ws[0].lower() if ws else ""
    if len(ws) >= 2 and (first in words().problems or _names_fault(ws)):
        # "Wrong token count in validation": a title naming a problem fixes it, as does
        # "CP AllGather on the wrong dimension"
        return Action(verb="fix", lemma=words().say["fix"], obj=lower_first(text))
    if len(ws) > 2 and first == "have":
        # "Have agents run X" makes them run it; "Have to fix X" fixes X
        return " ".join(ws[2:]) if ws[1].lower() == "to" else f"make {' '.join(ws[1:])}"
    if (at := next((i for i, w in enumerate(ws) if i > 2 and w.lower() in words().together
                    and "and" in (x.lower() for x in ws[1:i - 1])), 0)) and \
            (at == len(ws) - 1 or ws[at + 1].lower() in ("with", "together", "alongside")):
        # "Joint graph bucketing and prefetching compose with SAC": things made to work
        # together, never "adds joint graph bucketing and prefetching compose"
        return Action(verb=words().verb_class["make"], lemma="make",
                      obj=lower_first(" ".join(ws)))
    opening = listed_opening(ws, words().said_as)
    if opening is not None and len(ws) > len(opening.split()) and (
            len(ws) == len(opening.split()) + 1  # ("New README", "new tests": one thing)
            or ws[len(opening.split())].lower() not in words().whole_nouns):  # ("support for X")
        # "Better error message for X": improve the error message for X
        rest = " ".join(ws[len(opening.split()):])
        return f"{words().said_as[opening]} {rest}"
    if len(ws) >= 2 and first in words().lead_adjectives:
        cls = words().lead_adjectives[first]  # "Faster doc mask": speeds up the doc mask
        return Action(verb=cls, lemma=words().say[cls], obj=" ".join(ws[1:]))
    if len(ws) >= 4 and ws[-2].lower() == "and" and ws[-1].lower() in nouns and \
            ws[-3].lower() in nouns:
        # "int4 fixes and improvements" names two kinds of work on one thing: said whole,
        # never "changing int4 fixes".
        return Action(verb="", lemma="", obj=lower_first(text))
    if len(ws) >= 2 and ws[-1].lower() in nouns and not inside and \
            ws[-2].lower() not in NOUN_LINKS:  # ("small fixes to docs" fixes the docs)
        kept = ws if ws[-1].lower() in words().named_nouns else ws[:-1]
        while len(kept) > 1 and kept[0].lower() in words().fix_sizes:
            kept = kept[1:]  # "minor README updates" update the README, not "minor README"
        while len(kept) > 1 and kept[-1].lower() in words().fix_sizes:
            kept = kept[:-1]  # "Attention small cleanup" cleans up attention, not "… small"
        if len(kept) == 1 and _COMPOUND_ADJECTIVE.search(kept[0]):
            # "Some compile-related updates" updates nothing called "compile-related"
            return Action(verb="", lemma="", obj=f"{kept[0]} {ws[-1]}")
        noun = ws[-1].lower()
        if noun == "fixes" and kept[-1].lower() in words().faults:
            kept = kept[:-1] + [kept[-1] + "s"]  # "bug fixes" fix bugs, not "a bug"
        # "Muse Glimmer enablement": a thing named in capitals keeps them ("enabling Muse
        # Glimmer", not "muse Glimmer"); "Float8 training support" opens on a capital only
        named = len(kept) > 1 and all(re.fullmatch(r"[A-Z][a-z]+", w) for w in kept)
        cls, obj = nouns[noun], " ".join(kept) if named else lower_first(" ".join(kept))
        obj = obj[4:] if obj.lower().startswith("for ") and cls == "support" else obj
    elif (i := next((i for i in range(min(3, len(ws) - 2)) if ws[i].lower() in nouns
                     and ws[i + 1].lower() in NOUN_LINKS), None)) is not None:
        noun = ws[i].lower()
        cls, obj = nouns[noun], " ".join(ws[i + 2:])  # "minor fixes to the loader"
        if to_verb(ws, i + 1) and len(ws) > i + 3:
            # "Some improvement to make X work": it makes X work
            return " ".join(ws[i + 2:])
        # "Tiny fix for an import", "Two small fixes in X": how big, how many or how
        # lasting a fix is says nothing of what it fixes.
        head = [w for w in ws[:i] if w.lower() not in words().generic | words().fix_sizes.keys()
                | words().fix_qualifiers]
        if head and ws[i].lower() in words().whole_nouns:
            # "CUDAGraph support for SimpleFSDP" adds CUDAGraph support, not just support
            return Action(verb="add", lemma="add", obj=lower_first(" ".join(ws)))
        if head and ws[i].lower() in words().modifier_nouns and \
                head[0].lower() not in words().function:  # ("of fix of X": no "of of X")
            obj = lower_first(" ".join(head + ws[i + 1:]))  # "weight tying fix for qwen3"
    elif (i := next((i for i, w in enumerate(ws[:2]) if w.lower() in words().modifier_nouns
                     or w.lower() not in words().generic), 0)) \
            and ws[i].lower() in words().modifier_nouns and len(ws) > i + 1 and \
            ws[i + 1].lower() != "and":  # ("bug fix and test updates": two things done)
        noun = ws[i].lower()
        cls, obj = nouns[noun], " ".join(ws[i + 1:])  # "minor fix checkpoint doc"
    elif len(ws) >= 2 and ws[-1].lower() in words().trailing_verbs and not linked and \
            (lemma := base_verb(ws[-1])) is not None:
        # "XPU binary build enable": the verb comes last, what it acts on first
        return Action(verb=verb_class(lemma), lemma=lemma, obj=lower_first(" ".join(ws[:-1])))
    elif made_work(ws):
        # "Cosmetic changes to the train module": "makes cosmetic changes to …"
        return Action(verb=words().verb_class["make"], lemma="make", obj=lower_first(text))
    else:  # (no leading "to"/"for": "turns to to X", "touches on for X")
        return Action(verb="", lemma="", obj=as_name(lower_first(text)) or lower_first(text))
    # ("Some more cleanups" names nothing cleaned up: said by its kind, "refactoring")
    unnamed = cls == "refactor" and all(w.lower() in words().fix_sizes for w in obj.split())
    lemma = (None if unnamed else words().noun_verbs.get(noun)) or words().say[cls]
    if noun in words().noun_verbs and any(w.lower() in words().speed_words for w in ws):
        cls, lemma = "speed", words().say["speed"]  # "perf improvements for X"
    return Action(verb=cls, lemma=lemma, obj=("for " if cls == "support" else "") +
                  the_documents(object_case(obj)))  # "README updates": the README
