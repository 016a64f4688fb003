"""Theme names: the concept a theme is about, as a maintainer would name it.

A name is said aloud ("First theme: fused just-in-time kernels.") and shown in episode
titles, so it must be a complete, plain phrase: the stack's or cluster's shared tag or
title words, expanded through the lexicon (`fused_jit` -> "fused just-in-time"),
qualified by the area when it would be too bare alone ("MPS reductions"). A name never
ends on a function word, is never a vendor prefix and never a clipped verb phrase; the
language itself (cleaning, verbs, casing) lives in language.py.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from ..models import Action
from .language import (
    PART,
    as_name,
    base_verb,
    case_word,
    clean_title,
    expand_term,
    gerund,
    kind_of,
    lower_first,
    name_of,
    one_fault,
    parse_title,
    plural,
    sentence_case,
    split_prefix,
    stated_topic,
    trim,
    words,
)
from .parallel_titles import factored_title
from .text import STOPWORDS, WEAK_TAGS, title_tags, title_words

_LIST_AFTER = re.compile(r"\b(?:across|in|into|for|to|of|on|with|from|between|over)\s")
MAX_WORDS = 7  # a name longer than this is cut at a natural boundary
UNNAMED = "assorted changes"  # a title with nothing left to name
KIND_SHARE = 0.6  # a theme whose titles share nothing is named by its work when most agree


def single_headline(title: str, limit: int = MAX_WORDS) -> str:
    """One change's name: its title as a short noun phrase ("Add float8 training (#12)"
    -> "float8 training"; "Revert "X"" -> "a revert of X"), cut to about `limit` words."""
    action = parse_title(title)
    named, whole = name_of(action), name_of(action, True)
    topic = stated_topic(title)
    if topic and len(named.split()) > limit and len(topic.split()) > 1:
        # A statement too long to be a name is named by what it is about, never cut
        # after its verb ("a cut make X configurable keeps")
        return lower_first(as_name(trim(topic, limit)))
    phrase = as_name(trim(named, limit))
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
            (m := re.search(r"\b(?:to|into)\s+(\w+)", phrase)) and not base_verb(m.group(1)) and \
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
    undo = re.match(r'^\s*(?:\[\s*)?(revert|reland)\b', title, re.I)
    if phrase and undo:
        verb = undo.group(1).lower()
        lead = f"a {verb} of" if phrase.split()[0].endswith("ing") else f"{verb}ing"
        phrase = f"{lead} {trim(phrase, limit=limit - 1)}"
    if action.verb == "fix" and phrase.startswith(f"{gerund(action.lemma)} ") and \
            (rest := phrase.split(" ", 1)[1]) != (fault := one_fault(rest)):
        phrase = f"{gerund(action.lemma)} {fault}"  # "fixing a bug when …", after the cut
    return _noun(phrase) if phrase else UNNAMED


def headline(
    titles: Sequence[str], day_titles: Mapping[str, int] | None = None, *,
    areas: Sequence[str] = (), stack: bool = False, by_place: bool = True,
) -> str:
    """A theme's concept name from its titles.

    In order: a phrase of two or more words most titles share, led by a shared tag that is
    not the area (`fused_jit` -> "fused just-in-time kernels"); that tag plus a word most
    titles share; a stack's base (first) part, which sets up what the stack does; the area
    and the kind of work most titles do ("RL fixes"); else a cluster's first title as a noun
    phrase. A single change's name is its own title, cleaned and shortened.
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
        # part alone names one detail); a cluster is named by its kind of work.
        name = (_topic_name(titles, areas)
                or _refined(_shared_name(titles, areas, day_titles or {}),
                            parallel := _parallel_name(titles))
                or parallel
                or (_base_name(titles) if stack else None)
                or _kind_name(titles, areas)
                or (_grab_bag(titles, areas, stack) if by_place else None)
                or _first_named(titles))
    return _noun(_qualify(_fewer(name), areas))


GRAB_BAG = 5  # a cluster this big that shares no name is no one change's story


def _grab_bag(titles: Sequence[str], areas: Sequence[str], stack: bool) -> str | None:
    """"Quantization work": a cluster of GRAB_BAG or more changes that share no words,
    kind of work or parts is named by where it happens, never by its first title (eleven
    PRs named "fixing a bug in loading seed checkpoint" would say all eleven fix it)."""
    area = _usable_area(areas)
    if stack or len(titles) < GRAB_BAG or area is None:
        return None
    return _in_area(words().kind_names["mixed"], area)


def grab_bag(name: str) -> bool:
    """Whether a name is a grab-bag's ("Quantization work", "the work in Experiments"):
    said for the theme, but no title of a day."""
    word = words().kind_names["mixed"]
    ws = name.lower().split()
    # ("making metrics logging work for PP" is an activity, not a grab-bag)
    return bool(ws) and (ws[-1] == word and len(ws) <= 4 and not is_activity(name) or
                         ws[:2] == [word, "in"] or ws[:3] == ["the", word, "in"])


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
    return kind_of(parse_title(title)) in _SIDE_WORK[0 if tidy else 1:]


def _base_name(titles: Sequence[str]) -> str:
    """A stack's name: its first part that does the work, not a test, doc or tidy-up
    around it ("Add a test for torch compile" names no stack)."""
    return _first_named([t for t in titles if not side_work(t)] or titles[:1])


def _first_named(titles: Sequence[str]) -> str:
    """The first title that names something ("Simple rename changes" names nothing, so
    the next part's "Add window FIFO scheduling" names the work)."""
    names = (single_headline(t) for t in titles)
    first = next(names)
    if not vague(first) and first != UNNAMED:
        return first
    return next((n for n in names if not vague(n) and n != UNNAMED), first)


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


# A shared phrase may run to four words: "fallback kernel and interface" loses what kind
# of kernel at three, "inference mode and rank" what mode.
_SIZES = (1, 2, 3, 4)


def _grams(ws: Sequence[str]) -> set[tuple[str, ...]]:
    low = [w.lower() for w in ws]
    found: set[tuple[str, ...]] = set()
    generic, verbs, finite = words().generic, words().name_verbs, words().finite
    for size in _SIZES:
        for i in range(len(low) - size + 1):
            gram = tuple(low[i:i + size])
            if gram[0] in STOPWORDS or gram[-1] in STOPWORDS:
                continue
            if any(w in verbs or w in finite or len(w) < 2 for w in gram):
                continue  # "PyTorch is below" (from "PyTorch<2.9") states, it names nothing
            if all(w in generic for w in gram):
                continue  # "related code", "better support": says nothing on its own
            found.add(gram)
    return found


def _shared_name(titles: Sequence[str], areas: Sequence[str],
                 day: Mapping[str, int]) -> str | None:
    counts: Counter[tuple[str, ...]] = Counter()
    surface: dict[tuple[str, ...], str] = {}
    seqs: list[list[str]] = []
    # A "config migration: smoothquant" topic counts as words here: it is often the very
    # thing the titles share.
    cleaned = [sentence_case(clean_title(re.sub(r"^([\w -]{3,30}):\s", r"\1 ",
                                                PART.sub("", t)))) for t in titles]
    # A capital only because a title opens on it is no name ("Flight recorder for …"), unless
    # another title writes the word so inside it ("Vulkan shaders" … "Cumsum via Vulkan").
    names = {w for c in cleaned for w in c.split()[1:] if w[:1].isupper()}
    for t, text in zip(titles, cleaned, strict=True):
        ws = title_words(text if text.split(" ", 1)[0] in names else lower_first(text))
        if ws and base_verb(ws[0]):
            ws = ws[1:]  # the imperative verb is not part of any name
        seqs.append([w.lower() for w in ws])
        written = t.lower()
        for gram in _grams(ws):
            if all(w in written for w in gram):  # not "is below", said for "<"
                counts[gram] += 1
        for size in _SIZES:
            for i in range(len(ws) - size + 1):
                key = tuple(w.lower() for w in ws[i:i + size])
                surface.setdefault(key, " ".join(ws[i:i + size]))
    need = max(2, math.ceil(len(titles) * 0.4))
    area_names = {_fold(a) for a in areas}
    all_tags = _shared_tags(titles)
    w = words()
    kinds = [w.kind[w.nouns[t.lower()]] for t in all_tags if t.lower() in w.nouns]
    if kinds and kinds[0] in w.kind_names:
        # "[cleanup] …" x3 -> "Float8 clean-up"; "[Bugfix] … vLLM …" x2 -> "vLLM fixes"
        area = _usable_area(areas)
        named = [surface[g] for g, n in counts.most_common() if len(g) == 1 and
                 n == len(titles) and surface[g] != g[0] and g[0] not in w.nouns]
        thing = area if area and _fold(area) in {_fold(x) for x in named} else \
            next(iter(named), area)
        return f"{thing} {w.kind_names[kinds[0]]}" if thing else None
    tags = [t for t in all_tags if _fold(t) not in area_names and t.lower() not in w.nouns]
    tag = _tag_name(tags[-1]) if tags else None

    def best(size_ok: Callable[[int], bool]) -> tuple[str, ...] | None:
        found = [g for g, n in counts.items() if n >= need and size_ok(len(g))]
        if not found:
            return None
        return max(found, key=lambda g: (counts[g], len(g), -sum(day.get(w, 0) for w in g), g))

    phrase = _extend(best(lambda n: n in (2, 3)), counts)
    if phrase is not None and len(phrase) > 1 and phrase[-2] in _DEGREE:
        # "gptq more obvious" compares, the thing compared left out: it is what the titles
        # end on ("… block var names", "… group var names"): "more obvious var names"
        ends = Counter(" ".join(ws[-2:]) for ws in seqs if _holds(ws, phrase[-2:]))
        end, n = ends.most_common(1)[0] if ends else ("", 0)
        if n < need or set(end.split()) & set(phrase):
            phrase = None
        else:
            # whose: the tag, or the topic every title opens on ("gptq: …")
            first = {ws[0] for ws in seqs if ws}
            topic = case_word(first.pop()) if len(first) == 1 and phrase[0] in first and \
                len(phrase) > 2 else tag
            lead = topic if topic and topic.lower() not in end else None
            text = f"{' '.join(phrase[-2:])} {end}" + (f" in {lead}" if lead else "")
            return trim(text, MAX_WORDS)
    if phrase is not None:
        text = surface[phrase]
        if (noun := _named_noun(phrase, seqs, need)) is not None:
            text = f"{text} {noun}"  # "parameter name support", not just "parameter name"
        lead = tag if tag and tag.lower() not in text.lower() else None
        if phrase[-1] in words().kind_nouns and len(phrase) == 2:
            # "autograd function" is a fragment: whose functions, and several of them
            # ("MXFP8 MoE training autograd functions"), led by the tag even when it is
            # the area, since the area is what the functions belong to.
            whole = " ".join(case_word(w) for w in all_tags[-1].split()) if all_tags \
                else _usable_area(areas)
            lead = lead or (whole if whole and _fold(whole) not in _fold(text) else None)
            text = plural(text) if _several(phrase, seqs) else text
        if found := trim(f"{lead} {text}" if lead else text, MAX_WORDS):
            return found
    word = best(lambda n: n == 1)
    if word is not None and re.fullmatch(r"[a-z]{3,}ed", word[0]):
        word = None  # "torchtitan fused": a participle shared names no thing
    if tag and word is not None and word[0] not in tag.lower():
        return trim(f"{tag} {surface[word]}", MAX_WORDS)
    area = _usable_area(areas)
    if word is None or word[0] in words().nouns:
        return _in_area(surface[word], area) if word is not None and area and \
            _fold(word[0]) not in _fold(area) else None  # "SPMD types enablement"
    if counts[word] < len(titles):
        return None
    # A word every title names, qualified by the area unless it holds it ("Float8Linear"),
    # and told with the kind of work most titles do ("Qualcomm quantizer fixes").
    # ("QAT" holds Quantization: said in full, "Quantization quantization-aware training")
    spelled = area is not None and _fold(area) in _fold(expand_term(surface[word]) or "")
    holds = area is not None and (_fold(area) in _fold(word[0]) or _fold(word[0]) in _fold(area)
                                  or spelled)
    qualified = area is not None and not holds
    if base_verb(word[0]):  # "Models generate": a kind of work after it reads as a verb
        same = _fold(word[0])[:5] == _fold(area or "")[:5]
        # ("Quantization quantize")
        return _in_area(surface[word], area) if area and qualified and not same else None
    # Alone, only a word written as a name ("PyTorch", "NVFP4") names a thing.
    if qualified or word[0] != surface[word] or any(c.isdigit() for c in word[0]):
        thing = _with_kind(surface[word], titles) or \
            (surface[word] if qualified or spelled else None)
        return _in_area(thing, area) if thing and area and qualified else thing
    return None


# A shared phrase ending "more X" or "less X" ends on an adjective: no name.
_DEGREE = frozenset({"more", "less", "most", "least"})
_TOPIC = re.compile(r"^([\w][\w -]{1,30}):\s")


def _topic_name(titles: Sequence[str], areas: Sequence[str]) -> str | None:
    """A "docs update: …" topic every title opens on is the theme's concept ("docs update",
    not "README to docs", the words two of its parts share); a one-word topic is told with
    the kind of work ("gptq: rename …" x3 -> "GPTQ clean-up")."""
    found = {m.group(1).strip().lower() if (m := _TOPIC.match(
        re.sub(r"^(?:\s*\[[^\]]*\])+\s*", "", PART.sub("", t)))) else None for t in titles}
    if len(found) != 1 or None in found:
        return None
    topic = " ".join(case_word(w) for w in str(found.pop()).split())
    if len(topic.split()) > 1:
        return topic
    return _with_kind(topic, titles)  # "mx: …" alone names no concept


def _with_kind(thing: str, titles: Sequence[str]) -> str | None:
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


def _extend(phrase: tuple[str, ...] | None,
            counts: Mapping[tuple[str, ...], int]) -> tuple[str, ...] | None:
    """The shared phrase with the word before it that the same titles share: "kernel and
    interface" -> "fallback kernel and interface"; never a verb or participle ("based low
    bit quantization")."""
    if phrase is None:
        return None
    longer = sorted(g for g, n in counts.items() if len(g) == len(phrase) + 1 and
                    g[1:] == phrase and n == counts[phrase] and not g[0].endswith("ed")
                    and not base_verb(g[0]))
    return longer[0] if longer else phrase


def _named_noun(phrase: tuple[str, ...], seqs: Sequence[Sequence[str]],
                need: int) -> str | None:
    """The noun most titles put after the phrase when it names the work whole ("support",
    "tests": [noun_titles] whole): "Add parameter_name support to X" x3 is about
    parameter name support."""
    n = len(phrase)
    after = Counter(ws[i + n] for ws in seqs for i in range(len(ws) - n)
                    if tuple(ws[i:i + n]) == phrase)
    found = [w for w, k in after.items() if k >= need and w in words().whole_nouns]
    return found[0] if len(found) == 1 else None


def _holds(ws: Sequence[str], phrase: tuple[str, ...]) -> bool:
    n = len(phrase)
    return any(tuple(ws[i:i + n]) == phrase for i in range(len(ws) - n + 1))


def _several(phrase: tuple[str, ...], seqs: Sequence[Sequence[str]]) -> bool:
    """Whether titles name different things of the phrase's kind ("a2a dispatch autograd
    function", "unpermute autograd function"), not one told twice."""
    n = len(phrase)
    before = {ws[i - 1] for ws in seqs for i in range(1, len(ws) - n + 1)
              if tuple(ws[i:i + n]) == phrase and ws[i - 1] not in STOPWORDS}
    return len(before) > 1


def _kind_name(titles: Sequence[str], areas: Sequence[str]) -> str | None:
    """"RL fixes": the area and the kind of work, when most titles do the same kind;
    documentation is a name on its own ("documentation updates")."""
    kind = _main_kind([parse_title(t) for t in titles], len(titles))
    if kind is None:
        return None
    area = _usable_area(areas)
    if kind == "documentation" or area is None:
        return words().kind_names[kind] if kind == "documentation" else None
    return f"{area} {words().kind_names[kind]}"


def _qualify(name: str, areas: Sequence[str]) -> str:
    """A one-word name gets its area: "reductions" -> "MPS reductions"; a folder named
    in the plural follows it ("optimizer in Models", not "Models optimizer"). A name of
    its own ("AOPerModuleConfig", "QAT") needs no area."""
    area = _usable_area(areas)
    if area is not None and len(name.split()) > 1 and vague(name) and \
            _fold(area) not in _fold(name):
        return f"{name} in {area}"  # "fixing a bug" names nothing: "fixing a bug in EP"
    if area is None or len(name.split()) > 1 or _fold(area) in _fold(name) or \
            any(c.isupper() for c in name[1:]) or "(" in name:
        return name
    return _in_area(name, area)


def vague(name: str) -> bool:
    """Whether a name names nothing: past an activity's verb ("fixing"), only articles,
    numbers and words that say nothing alone ("a minor issue", "2 small fixes")."""
    ws = name.lower().split()[1 if is_activity(name) else 0:]
    said = [w for w in ws if w not in words().function and not w.isdigit()]
    return bool(said) and all(w in words().generic for w in said)


def is_activity(name: str) -> bool:
    """"Fixing the step log" is an activity: it opens on a verb's -ing form."""
    first = name.split(" ", 1)[0]
    return first.endswith("ing") and base_verb(first) is not None


def _in_area(name: str, area: str) -> str:
    """ "MPS reductions"; a folder named in the plural follows: "timeout in Parallelisms",
    "llama train configs"."""
    plural = area.endswith("s") and area.lower() not in words().case
    if plural and " " in area:  # "llama train configs", not "Train configs llama"; but
        # a kind of work goes after: "SPMD types enablement"
        kind = name.lower() in words().nouns or name.lower() in words().generic
        return f"{area} {name}" if kind else f"{name} {lower_first(area)}"
    return f"{name} in {area}" if plural else f"{area} {name}"


def _usable_area(areas: Sequence[str]) -> str | None:
    if not areas:
        return None
    area = areas[0].strip("/").rsplit("/", 1)[-1]
    if not area or _fold(area) in {_fold(a) for a in words().generic_areas} or \
            len(area.split()) > 3 or base_verb(area.split()[0]):
        return None  # "refactor" is a label, not a place
    said = " ".join(case_word(w) for w in area.split())
    known = all(w.lower() in words().case for w in area.split())
    # ("a2av", "llama4": a code name with a digit keeps its case, as the signal says it)
    return said[:1].upper() + said[1:] if said.islower() and not known and \
        not any(c.isdigit() for c in said.split()[0]) else said


def _fold(text: str) -> str:
    return re.sub(r"[\s_./-]+", "", text.lower())


def _tag_name(tag: str) -> str:
    """A tag as a name: `native_aot` -> "native ahead-of-time"; long expansions stay short
    (`spmd_types` -> "SPMD types")."""
    parts = [p for p in re.split(r"[_\s./-]+", tag) if p]
    # One acronym is spelled out ("native ahead-of-time"); two side by side stay short
    # ("MoE EP"): "mixture-of-experts expert-parallel" is no name.
    spelled = [p for p in parts if expand_term(p)]
    out = []
    for part in parts:
        said = expand_term(part) if len(spelled) == 1 else None
        out.append(said if said and len(said.split()) == 1 else case_word(part))
    return " ".join(out)


def _shared_tags(titles: Sequence[str]) -> list[str]:
    """Tags every title carries: bracket tags, or a shared "Vendor Name - " prefix."""
    sets = [[t for t in title_tags(x) if t.lower() not in WEAK_TAGS] for x in titles]
    prefixes = [split_prefix(x)[0] for x in titles]
    # A short shared "Area - " prefix names a topic; a long one is boilerplate (a vendor's
    # product line) and names nothing.
    if all(prefixes) and len({p.lower() for p in prefixes if p}) == 1 and prefixes[0] and \
            len(prefixes[0].split()) <= 2:
        sets = [s + [prefixes[0]] for s in sets]
    if not sets or not sets[0]:
        return []
    common = {t.lower() for t in sets[0]}.intersection(*({t.lower() for t in s} for s in sets))
    return [t for t in sets[0] if t.lower() in common]
