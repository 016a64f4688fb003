"""What a theme name is built from besides its words: the area that qualifies it ("MPS
reductions", "timeout in Parallelisms"), the kind of work most of its titles do ("RL
fixes", "NVFP4 clean-up"), whether a name names anything at all ("a minor issue"), and
the names of grab-bags ("Loader work", "more work in Writing")."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from ..models import Action
from .language import base_verb, case_word, kind_of, lower_first, parse_title, words

MAX_WORDS = 7  # a name longer than this is cut at a natural boundary
KIND_SHARE = 0.6  # a theme whose titles share nothing is named by its work when most agree


def with_kind(thing: str, titles: Sequence[str]) -> str | None:
    """"Float8Linear clean-up", "NVFP4 fixes": a thing every title names, told with the
    kind of work most do when that kind is specific to it; "X features" or "X tests and
    tooling" says no more than X, and a move is not a clean-up of where it goes, nor a
    dropped "X support" a clean-up of X."""
    actions = [parse_title(t) for t in titles]
    # Dropping "PyTorch 2.7 support" does not clean PyTorch up: the object is the support.
    kind = _main_kind([a for a in actions if a.verb != "move" and not (
        a.verb == "remove" and "support" in a.obj.lower().split())], len(titles))
    return f"{thing} {words().kind_names[kind]}" if kind in _THING_KINDS else None


def _main_kind(actions: Sequence[Action], total: int) -> str | None:
    """The kind of work most of `total` titles do, if it has a name."""
    kinds = Counter(kind_of(a) for a in actions)
    kind, n = kinds.most_common(1)[0] if kinds else ("", 0)
    return kind if n >= KIND_SHARE * total and kind in words().kind_names else None


_THING_KINDS = ("correctness", "cleanup")


def kind_name(titles: Sequence[str], areas: Sequence[str]) -> str | None:
    """"RL fixes": the area and the kind of work, when most titles do the same kind;
    documentation is a name on its own ("documentation updates")."""
    kind = _main_kind([parse_title(t) for t in titles], len(titles))
    if kind is None:
        return None
    area = usable_area(areas)
    if kind == "documentation" or area is None:
        return words().kind_names[kind] if kind == "documentation" else None
    return f"{area} {words().kind_names[kind]}"


def kind_named(name: str) -> bool:
    """Whether a name is a kind of work's ("Checkpoint fixes", "NVFP4 clean-up",
    "documentation updates"): its changes share that kind, not one problem."""
    low = name.lower()
    return len(low.split()) <= 5 and any(
        low == kind or low.endswith(f" {kind}") for kind in words().kind_names.values())


def vague(name: str) -> bool:
    """Whether a name names nothing: past an activity's verb ("fixing"), only articles,
    numbers and words that say nothing alone ("a minor issue", "2 small fixes")."""
    ws = name.lower().split()[1 if is_activity(name) else 0:]
    said = [w for w in ws if w not in words().function and not w.isdigit()]
    return bool(said) and all(w in words().generic for w in said)


def is_activity(name: str) -> bool:
    """"Fixing the step log" is an activity: it opens on a verb's -ing form, or an adverb
    before one ("temporarily disabling the test", never "a temporarily disabling …")."""
    ws = name.split()
    if len(ws) > 1 and ws[0].lower() in words().adverbs:
        ws = ws[1:]
    first = ws[0] if ws else ""
    return first.endswith("ing") and base_verb(first) is not None


def in_area(name: str, area: str) -> str:
    """ "MPS reductions"; a folder named in the plural follows: "timeout in Parallelisms",
    "llama train configs"."""
    plural = area.endswith("s") and area.lower() not in words().case
    # a place named by its doing follows too: "the work in Writing", never "Writing work",
    # which is heard as an activity
    plural = plural or (first := area.split()[0].lower()).endswith("ing") and \
        base_verb(first) is not None
    if plural and " " in area:  # "llama train configs", not "Train configs llama"; but
        # a kind of work goes after: "SPMD types enablement"
        kind = name.lower() in words().nouns or name.lower() in words().generic or \
            name.lower() == words().kind_names["mixed"]  # "SPMD types work"
        return f"{area} {name}" if kind else f"{name} {lower_first(area)}"
    return f"{name} in {area}" if plural else f"{area} {name}"


def usable_area(areas: Sequence[str]) -> str | None:
    if not areas:
        return None
    area = areas[0].strip("/").rsplit("/", 1)[-1]
    first = area.split()[0].lower() if area.split() else ""
    verb = base_verb(first)
    if not area or fold(area) in {fold(a) for a in words().generic_areas} or \
            len(area.split()) > 3 or verb and (verb == first or verb in words().types):
        return None  # "refactor", "refactoring" are labels; "writing", "logging" places
    said = " ".join(case_word(w) for w in area.split())
    known = all(w.lower() in words().case for w in area.split())
    # ("a2av", "llama4": a code name with a digit keeps its case, as the signal says it)
    return said[:1].upper() + said[1:] if said.islower() and not known and \
        not any(c.isdigit() for c in said.split()[0]) else said


def fold(text: str) -> str:
    return re.sub(r"[\s_./-]+", "", text.lower())


def same_stem(a: str, b: str) -> bool:
    """Whether two words are one word's forms as far as their first five letters tell
    ("Quantization" and "quantize", "Sparse" and "sparsity"): a name that says its area
    again in another form."""
    return fold(a)[:5] == fold(b)[:5]


def grab_bag(name: str) -> bool:
    """Whether a name is a grab-bag's ("Quantization work", "the work in Experiments",
    "more work in Writing"): said for the theme, but no title of a day."""
    word = words().kind_names["mixed"]
    ws = name.lower().split()
    if len(ws) > 2 and ws[0] == words().again:
        ws = ws[1:]  # the second of one place: "more work in Writing", "more Loader work"
    # ("making metrics logging work for PP" is an activity, not a grab-bag)
    return bool(ws) and (ws[-1] == word and len(ws) <= 4 and not is_activity(name) or
                         ws[:2] == [word, "in"] or ws[:3] == ["the", word, "in"])


def bag_place(name: str) -> str:
    """Where a grab-bag's work is, as `grab_bag` reads its name: "Loader work", "the work
    in Experiments" -> its place ("" for no place)."""
    word = words().kind_names["mixed"]
    low = name.lower()
    if low.endswith(f" {word}"):
        return name[: -len(word)].rstrip()
    for lead in (f"the {word} in ", f"{word} in "):
        if low.startswith(lead):
            return name[len(lead):]
    return ""


def more_of(name: str) -> str:
    """The second grab-bag of one place, named as more of the first: "the work in Writing"
    -> "more work in Writing", "Loader work" -> "more Loader work"."""
    rest = name[4:] if name.lower().startswith("the ") else name
    return f"{words().again} {rest}"
