"""Theme names: the concept a theme is about, as a maintainer would name it.

A name is said aloud ("First theme: fused just-in-time kernels.") and shown in episode
titles, so it must be a complete, plain phrase: the stack's or cluster's shared tag or
title words, expanded through the lexicon (`fused_jit` -> "fused just-in-time"),
qualified by the area when it would be too bare alone ("MPS reductions"). A name never
ends on a function word, is never a vendor prefix and never a clipped verb phrase; the
language itself (cleaning, verbs, casing) lives in language.py.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from ..models import Action
from .language import (
    as_name,
    base_verb,
    case_word,
    clean_title,
    gerund,
    kind_of,
    lower_first,
    moved_name,
    name_of,
    one_fault,
    parse_actions,
    parse_title,
    stated_topic,
    trim,
    unnumbered,
    words,
)
from .naming import (
    MAX_WORDS,
    fold,
    in_area,
    is_activity,
    kind_name,
    same_stem,
    usable_area,
    vague,
    with_kind,
)
from .parallel_titles import factored_title
from .shared_names import shared_name
from .text import STOPWORDS, title_words

_LIST_AFTER = re.compile(r"\b(?:across|in|into|for|to|of|on|with|from|between|over)\s")
UNNAMED = "assorted changes"  # a title with nothing left to name


def _first_order(title: str, action: Action) -> Action:
    """"Add X, remove Y": a second order of another kind is no part of the first's object;
    one of the same verb adds its object to the first's ("Add sparsity, add the wanda
    sparsifier": "sparsity and the wanda sparsifier"); one of the same kind is left to the
    reading it has ("Integrate X, add Y")."""
    acts = parse_actions(title)
    after = action.obj[len(acts[0].obj) + 2:].split(" ", 1)[0] if acts[0].obj else ""
    if len(acts) > 1 and action.obj.startswith(f"{acts[0].obj}, ") and \
            base_verb(after) == after.lower():
        if acts[1].lemma == acts[0].lemma:
            return replace(acts[1], obj=f"{acts[0].obj} and {acts[1].obj}")
        if acts[1].verb != acts[0].verb:
            return acts[0]
    return action


# Nouns that make "to <verb-like word> <noun>" a place: "to benchmark module" is no purpose
_PLACES = frozenset("module folder package script suite file directory docs".split())


def single_headline(title: str, limit: int = MAX_WORDS) -> str:
    """One change's name: its title as a short noun phrase ("Add float8 training (#12)"
    -> "float8 training"; "Revert "X"" -> "a revert of X"), cut to about `limit` words."""
    action = parse_title(title)
    if ", " in action.obj:  # (only an object with a comma can hold a second order)
        action = _first_order(title, action)
    named, whole = name_of(action), name_of(action, True)
    topic = stated_topic(title)
    if topic and len(named.split()) > limit and len(topic.split()) > 1:
        # A statement too long to be a name is named by what it is about, never cut
        # after its verb ("a cut make X configurable keeps")
        return lower_first(as_name(trim(topic, limit)))
    phrase = as_name(trim(named, limit))
    if topic and phrase != named and phrase.split()[-1].lower() in words().finite:
        # "PYTHONHASHSEED needs" (of "… needs to be in the range"): a cut after the verb
        # names what the statement is about
        phrase = as_name(topic)
    if action.adverb and phrase.startswith(f"{action.adverb} ") and \
            len(phrase.split()) < len(named.split()):
        # An adverb bounds the whole phrase: cut from what it bounds, "only converting to
        # int4 tensors" (in H100 only) says something the title did not
        phrase = phrase[len(action.adverb) + 1:]
    ws = phrase.split()
    # The verb is one word more than the thing: said whole, the adding may take it, when
    # its "to" is the title's own, not an arrow's ("module swap -> tensor subclass") nor
    # an identifier's ("_to_mxfp8")
    adding = as_name(whole if len(whole.split()) <= limit + 1 and
                     re.search(r"\b(?:to|into)\s", title, re.I) else trim(whole, limit))
    if len(ws) > 2 and named != whole and \
            (m := re.search(r"\b(?:to|into)\s+(\w+)(?:\s+(\w+))?", phrase)) and \
            (not base_verb(m.group(1)) or (m.group(2) or "").lower() in _PLACES) and \
            (base_verb(ws[0]) == ws[0].lower() or action.verb == "add" and
             re.search(rf"{re.escape(m.group(0))}\b", adding) is not None):
        # "Add benchmark numbers to dashboard": a name opening on a verb-like word reads
        # as an order, and "sequence parallelism to Llama" as a thing that goes somewhere
        # (unless saying the adding would cut off where it goes); with a place to go to,
        # an addition is said as the adding it is
        phrase = adding
    if action.lemma in words().complement_verbs and " to " not in f" {phrase} " and \
            re.search(r"\bto\s", whole) and " to " in (allowed := as_name(trim(whole, limit + 2))):
        # "allowing fake process groups" (to simulate any rank) allows nothing: what is
        # allowed is the point, worth two words more
        phrase = allowed
    if action.lemma == "make" and (end := _complement(action.obj)) and \
            f" {end.lower()}" not in f" {phrase.lower()}" and len(action.obj.split()) > 2:
        # "make compile vs triton for dim0 cast configurable": cut, it would name "making
        # compile vs Triton"; what it is made is the point
        phrase = f"{trim(phrase, limit - 1)} {end}"
    if not re.search(r"\b(?:to|into)\s", phrase) and (moved := moved_name(action, limit)):
        phrase = moved
    if action.lemma in ("raise", "warn") and re.fullmatch(r"\w+ (?:an? )?\w+", phrase) and \
            (m := re.search(r"\b(?:when|if)\s.*$", whole)) and len(m[0].split()) <= limit + 2:
        phrase = f"{phrase} {m[0]}"  # "raising an error" names nothing: when is the point
    undo = re.match(r'^\s*(?:\[\s*)?(revert|reland)\b', title, re.I)
    if phrase and undo:
        verb = undo.group(1).lower()
        # ("a reland of moving X" reads as a form; a reland is another go at the doing)
        lead = f"{verb}ing" if not phrase.split()[0].endswith("ing") else \
            "another try at" if verb == "reland" else f"a {verb} of"
        phrase = f"{lead} {trim(phrase, limit=limit - 1)}"
    if action.verb == "fix" and phrase.startswith(f"{gerund(action.lemma)} ") and \
            (rest := phrase.split(" ", 1)[1]) != (fault := one_fault(rest)):
        phrase = f"{gerund(action.lemma)} {fault}"  # "fixing a bug when …", after the cut
    if phrase == gerund(action.lemma) and action.verb == "fix":
        phrase = ""  # "fixing" alone (the cut met a quoted "Cannot …") names nothing
    return _noun(phrase) if phrase else UNNAMED


def headline(
    titles: Sequence[str], day_titles: Mapping[str, int] | None = None, *,
    areas: Sequence[str] = (), stack: bool = False, series: bool = False,
    by_place: bool = True,
) -> str:
    """A theme's concept name from its titles.

    In order: a phrase of two or more words most titles share, led by a shared tag that is
    not the area (`fused_jit` -> "fused just-in-time kernels"); that tag plus a word most
    titles share; a stack's base (first) part, which sets up what the stack does; the area
    and the kind of work most titles do ("RL fixes"); else a cluster's first title as a noun
    phrase. A single change's name is its own title, cleaned and shortened. A `series` (one
    author's PRs with no declared order) is named like a cluster, never by its first part.
    """
    if len({clean_title(t).lower() for t in titles}) == 1 or _retold(titles):
        name = single_headline(titles[0])  # one title, posted again or barely reworded
    elif len(versions := {_VERSION.sub("#", clean_title(t).lower()) for t in titles}) == 1 \
            and "#" in versions.pop():
        # "drop PyTorch <2.9 support", "… <2.10 …", "… <2.11 …": one change told for each
        # version, named by the furthest ("dropping support for PyTorch before 2.11")
        name = single_headline(max(titles, key=_version_key))
    else:
        # A stack is what its base part starts (its later parts build on it, and a late
        # part alone names one detail); a cluster is named by its kind of work, and so is a
        # series, whose first part sets up nothing ("the enable CUDA graph config flag" for
        # three PRs of clean-ups and passes).
        name = (_topic_name(titles, areas)
                or _refined(_shared(titles, areas, day_titles or {}, stack),
                            parallel := _parallel_name(titles))
                or parallel
                or (_base_name(titles) if stack and not series else None)
                or kind_name(titles, areas)
                or (_grab_bag(titles, areas, stack and not series, series) if by_place else None)
                or (_base_name(titles) if stack else _first_named(titles, areas, by_place)))
    return _cased(_noun(_qualify(_fewer(name), areas)))


def _cased(name: str) -> str:
    """A name's words as the lexicon writes them: words shared by titles written small
    ("torchao mps ops") are named "torchao MPS ops", as their titles' effects say them."""
    return " ".join(case_word(w) for w in name.split(" "))


# A stack is named by words its parts share when its base part says them or most parts
# do: "flight recorder" in the last two of five parts names a detail of the later ones.
STACK_SHARE = 0.5
def _shared(titles: Sequence[str], areas: Sequence[str], day: Mapping[str, int],
            stack: bool) -> str | None:
    name = shared_name(titles, areas, day)
    if not stack or name is None or _says(titles[0], name):
        return name
    return shared_name(titles, areas, day, STACK_SHARE)


def _says(title: str, name: str) -> bool:
    """Whether a title has every word of a name ("autograd functions" in "add a2a dispatch
    autograd function")."""
    def said(text: str) -> set[str]:
        return {w.rstrip("s") for w in re.findall(r"[a-z0-9]+", text.lower())}
    return said(name) <= said(title)


GRAB_BAG = 5  # a cluster this big that shares no name is no one change's story
SERIES_BAG = 3  # … and a series this big: its parts share an author, not a story


def _grab_bag(titles: Sequence[str], areas: Sequence[str], stack: bool,
              series: bool = False) -> str | None:
    """"Quantization work": a cluster of GRAB_BAG or more changes (a series of SERIES_BAG)
    that share no words, kind of work or parts is named by where it happens, never by its
    first title (eleven PRs named "fixing a bug in loading seed checkpoint" would say all
    eleven fix it)."""
    area = usable_area(areas)
    if stack or len(titles) < (SERIES_BAG if series else GRAB_BAG) or area is None:
        return None
    return in_area(words().kind_names["mixed"], area)


def _refined(shared: str | None, parallel: str | None) -> str | None:
    """The shared words' name, unless the titles' parts name it better: when they hold all
    its words ("packing routines" -> "2bit and 5bit packing routines") or it is a tag and
    one word they hold ("a2av token" -> "autograd support for token dispatch and combine
    ops"). An area or a kind of work the parts lack keeps it ("MPS reductions clean-up")."""
    if shared is None or parallel is None:
        return shared
    have, low = set(parallel.lower().split()), shared.lower().split()
    return parallel if set(low) <= have or len(low) == 2 and low[-1] in have else shared


def _parallel_name(titles: Sequence[str]) -> str | None:
    """Titles that say one thing of several parts, named as one ("autograd support for
    token dispatch and combine ops"), when the name keeps every part."""
    both = factored_title(titles)
    if both is None:
        return None
    name = single_headline(both, MAX_WORDS + 2)  # a list of parts takes a word or two more
    last = both.split()[-1].lower()
    return name if " and " in name and name.split()[-1].lower() == last else None


_VERSION = re.compile(r"\d+(?:\.\d+)+")  # a dotted version: "2.10", not "int8"


def _version_key(title: str) -> tuple[int, ...]:
    m = _VERSION.search(clean_title(title))
    return tuple(int(p) for p in m.group(0).split(".")) if m else ()


RETOLD = 0.6  # titles sharing this share of their words are one title told again


def _retold(titles: Sequence[str]) -> bool:
    """A reland or a second attempt reworded ("Fixing aliasing behavior for slice in AQT
    TensorCoreTiledLayout", "… in AQT int4wo layout"): named by its title, not by the words
    the two share ("behavior for slice" loses what is fixed)."""
    if not any(_RELAND.search(t) for t in titles):
        return False  # ("Rewrite reductions for strided / batched inputs" are two parts)
    sets = [{w.lower() for w in title_words(clean_title(t))} - STOPWORDS for t in titles]
    return len(sets) > 1 and all(a and b and len(a & b) / len(a | b) >= RETOLD
                                 for a in sets for b in sets)


_RELAND = re.compile(r"^\W*(?:\[[^\]]*\]\s*)*\[?\s*re-?land\b", re.I)
_SIDE_WORK = ("cleanup", "documentation", "infrastructure")


def side_work(title: str, tidy: bool = True) -> bool:
    """Whether a title does work around the work: a test, a doc or (with `tidy`) a
    tidy-up."""
    kind = kind_of(parse_title(title))
    return kind in _SIDE_WORK and (tidy or kind != "cleanup")


def _base_name(titles: Sequence[str]) -> str:
    """A stack's name: its first part that does the work, not a test, doc or tidy-up
    around it ("Add a test for torch compile" names no stack); a base part that adds tests
    for a thing of three words or more names what the stack builds on ("Add integration tests
    for compiler toolkit experiments": "compiler toolkit experiments")."""
    if side_work(titles[0]) and (m := _TESTS_FOR.search(clean_title(titles[0]))) and \
            len(m.group(1).split()) >= 3 and not vague(name := single_headline(m.group(1))):
        return name
    return _first_named([t for t in titles if not side_work(t)] or titles[:1])


_TESTS_FOR = re.compile(r"^(?:add|adding|added)\s+(?:\w+\s+)?tests?\s+(?:for|of)\s+(.+)$",
                        re.I)


def _first_named(titles: Sequence[str], areas: Sequence[str] = (), by_place: bool = False
                 ) -> str:
    """The first title that names something ("Simple rename changes" names nothing, so
    the next part's "Add window FIFO scheduling" names the work). A doing no other title
    of three or more speaks of ("refactoring the passes module" beside "adding context
    parallel support") would say every PR does it: the cluster is named by its place
    instead ("Graph trainer work")."""
    names = [single_headline(t) for t in titles]
    at = next((i for i, n in enumerate(names) if _names_a_thing(n)), 0)
    area = usable_area(areas) if by_place and len(titles) > 2 else None
    if area is not None and is_activity(names[at]) and not any(
            _content(names[at].split(" ", 1)[-1]) & _content(t)
            for i, t in enumerate(titles) if i != at):
        return in_area(words().kind_names["mixed"], area)
    return names[at]


def _content(text: str) -> set[str]:
    """A text's words but the small ones ("the", "of"), as singulars: "details" is
    "detail"."""
    return {w.lower().rstrip("s") for w in title_words(text) if w.lower() not in STOPWORDS}


# "moving telling a sentence": a doing whose object is a doing of its own, no name at all
_TWO_DOINGS = re.compile(r"^\w+ing\s+(\w+ing)\s+(?:a|an|the|its|their|this|that|how|what)\s",
                         re.I)


def _names_a_thing(name: str) -> bool:
    two = _TWO_DOINGS.match(name)
    return not vague(name) and name != UNNAMED and not (two and base_verb(two.group(1)))


_RANK = re.compile(r"(\d+)(?:-?bit)?", re.I)


def _fewer(name: str) -> str:
    """A list of three or more things is no name: "MessageEnv, rollout types, Rubric,
    renderer" -> "MessageEnv and rollout types" (the effects still tell every item);
    "2, 3, 4, 5 bit ops" -> "2 to 5 bit ops"."""
    items = [i.strip() for i in re.split(r",\s*(?:and\s+)?|\s+and\s+(?=[^,]*$)", name)]
    if name.count(",") < 2 and not (name.count(",") == 1 and " and " in name.split(",")[-1]):
        return name
    if _LIST_AFTER.search(name.split(",")[0]):
        return name  # "spans across trainer, generator and controller": a place, not the name
    heads = [i.split()[-1] if n == 0 else i.split()[0] for n, i in enumerate(items) if i]
    nums = [m.group(1) if (m := _RANK.fullmatch(h)) else None for h in heads]
    if len(heads) == len(items) and None not in nums and \
            [int(str(n)) for n in nums] == list(range(int(str(nums[0])),
                                                      int(str(nums[0])) + len(nums))):
        return f"{items[0]} to {items[-1]}"
    kept = [" ".join(i.split()[1:]) if base_verb(i.split()[0]) and len(i.split()) > 1 else i
            for i in items[:2] if i]
    return " and ".join(kept) if len(kept) == 2 else name


_ADJECTIVE = r"\w+(?:able|ible|al|ic|ive|ent|ant)"


def _complement(obj: str) -> str | None:
    """What "make X Y" makes X: a closing "configurable", "optional", "deterministic", or
    one before what it is measured against ("compatible with quantizers in torch ao")."""
    ws = obj.split()
    last = ws[-1].lower() if ws else ""
    if re.fullmatch(_ADJECTIVE, last):
        return last
    return next((w for i, w in enumerate(ws[2:-1], 2) if re.fullmatch(_ADJECTIVE, w.lower())
                 and ws[i + 1].lower() in ("with", "to", "of", "across")), None)


def _noun(name: str) -> str:
    """A name that still opens on a bare verb came from an identifier ("run_llama_train"):
    it is a thing, so it takes an article ("the run llama train")."""
    ws = name.split()
    if len(ws) > 1 and (v := base_verb(ws[0])) and ws[0].lower() == v and \
            ws[1].lower() not in ("for", "of", "to"):
        return "the " + name
    return name


_TOPIC = re.compile(r"^([\w][\w -]{1,30}):\s")


def _topic_name(titles: Sequence[str], areas: Sequence[str]) -> str | None:
    """A "docs update: …" topic every title opens on is the theme's concept ("docs update",
    not "README to docs", the words two of its parts share); a one-word topic is told with
    the kind of work ("gptq: rename …" x3 -> "GPTQ clean-up")."""
    found = {m.group(1).strip().lower() if (m := _TOPIC.match(
        re.sub(r"^(?:\s*\[[^\]]*\])+\s*", "", unnumbered(t)))) else None for t in titles}
    if len(found) != 1 or None in found:
        return None
    topic = " ".join(case_word(w) for w in str(found.pop()).split())
    if len(topic.split()) > 1:
        return topic
    return with_kind(topic, titles)  # "mx: …" alone names no concept


def _qualify(name: str, areas: Sequence[str]) -> str:
    """A one-word name gets its area: "reductions" -> "MPS reductions"; a folder named
    in the plural follows it ("optimizer in Models", not "Models optimizer"). A name of
    its own ("AOPerModuleConfig", "QAT") needs no area, nor one that says the area again
    ("sparsity" in Sparse, never "Sparse sparsity")."""
    area = usable_area(areas)
    if area is not None and len(name.split()) > 1 and vague(name) and \
            fold(area) not in fold(name):
        return f"{name} in {area}"  # "fixing a bug" names nothing: "fixing a bug in EP"
    if area is None or len(name.split()) > 1 or fold(area) in fold(name) or \
            same_stem(area, name) or \
            any(c.isupper() for c in name[1:]) or "(" in name:
        return name
    return in_area(name, area)

