"""A phrase cut to a name a listener can hold: to its first clause, then to a few words at
a natural break, never ending on a function word, a gerund that lost its object or a
purpose without its verb's object; names said in title case, shortened to a length."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from .words import _load, base_verb, case_word, phrasal_end, words

# Clause breaks; a comma inside a word list ("start, end and step") is not one.
_CLAUSE = re.compile(r"\s*(?:;|\s[-–—]+\s|:\s|,\s(?![\w-]+\s(?:and|or)\s)|\.\s|\s\+\s|\s&\s"
                     r"|\s\|\s|\.\.\.|…)")


_VALUE = re.compile(r"true|false|none|\d+(?:\.\d+)*", re.I)  # what a setting is set to


def _first_clause(text: str) -> str:
    """The text up to its first clause break; a comma joining two modifiers of one noun
    ("on-device, parallelized kernel") is none."""
    for m in _CLAUSE.finditer(text):
        after = text[m.end():].split()
        if m.group(0).lstrip().startswith(",") and len(after) > 1 and is_modifier(after[0]):
            continue
        return text[:m.start()].strip()
    return text.strip()


def is_modifier(word: str) -> bool:
    """A participle or listed adjective: after a comma it goes on the same noun as the
    modifier before ("on-device, parallelized kernel"), where "X, Y" is a list."""
    low = word.lower()
    return low in words().adjectives or (low.isalpha() and low.endswith(("ized", "ised")))


# A short word of lower-case consonants is read letter by letter (the voice spells it)
_VOWELLESS = re.compile(r"[b-df-hj-np-tv-xz]{2,4}")


def title_case(text: str) -> str:
    """Title Case, keeping acronyms, identifiers and small words (except the first)."""
    out = []
    small = words().small
    for i, w in enumerate(text.split()):
        w = case_word(w)  # "vllm" is written "vLLM" in a title too, never "Vllm"
        if _VOWELLESS.fullmatch(w) and w not in words().unspelled and w not in small and \
                w not in words().case:
            w = w.upper()  # "bmm", "rms": letters said one by one, written so ("BMM")
        # (and a name the lexicon writes in lower case stays so: "torchao", never "Torchao")
        if any(c.isdigit() for c in w) or any(c.isupper() for c in w[1:]) or \
                words().case.get(w.lower()) == w:
            out.append(w)
        elif i and w.lower() in small:
            out.append(w.lower())
        else:
            out.append("-".join(p if j and p.lower() in small else p[:1].upper() + p[1:]
                                for j, p in enumerate(w.split("-"))))
    return " ".join(out)


_SUBJECT_LEADS = frozenset("the a an every each this its".split())
_WH = frozenset("why how what where whether when which who".split())


_FINITE_FUNCTION = frozenset({"is", "was", "has", "does"})


def _subject(ws: list[str]) -> list[str]:
    """A title written as a sentence ("the source hash covers the whole digest") is named
    by its subject ("the source hash"), not cut after its verb ("… hash covers")."""
    for i in range(2, len(ws) - 1):
        verb = ws[i].lower()
        # (a third-person verb: "-s" before a determiner; a plural noun is followed by
        # "for", "in", "to", … in a title, almost never by "the")
        if verb.endswith("s") and not verb.endswith(("ss", "'s", "’s")) and verb.isalpha() \
                and ws[i + 1].lower() in _SUBJECT_LEADS and (
                verb not in words().function or verb in _FINITE_FUNCTION):  # "as an", no verb
            start = max((j for j in range(i - 1) if ws[j].lower() in _SUBJECT_LEADS),
                        default=None)
            # ("explaining why the loader needs a lock" is an action with a clause in it,
            # not a statement about the loader)
            # ("… after a comma when one has an and": a verb inside a clause a
            # subordinator opens has that clause's subject, not the title's)
            if start is not None and i - start >= 2 and not any(
                    x.lower() in _WH for x in ws[:start]) and not any(
                    x.lower() in words().subordinators for x in ws[start:i]):
                return ws[start:i]
    return ws


def _asks(ws: list[str], i: int) -> bool:
    """Whether ws[i] opens a question word's clause: "why float8 needs …", never the
    modifier of "the who sentences"."""
    return ws[i].lower() in _WH and not _after_article(ws, i)


def _after_article(ws: list[str], i: int) -> bool:
    """Whether ws[i] follows "the", "a" or "an": a clause word there modifies a noun."""
    return i > 0 and ws[i - 1].lower() in ("the", "a", "an")


def _wh_clause_end(ws: list[str]) -> bool:
    """ "… told as what they are", "… see how it works": a question word's clause ends on
    its own subject and verb, which are no dangling words."""
    if len(ws) < 3 or ws[-1].lower() not in words().auxiliaries:
        return False
    if ws[-3].lower() in _WH and ws[-2].lower() in _SUBJECT_PRONOUNS:
        return True
    # ("… where a reference was", "… what the loader is": its subject a noun with its article)
    low = [w.lower() for w in ws[-5:-1]]
    at = next((i for i in range(len(low) - 2) if low[i] in _WH and low[i + 1] in _ARTICLES), None)
    return at is not None and all(w not in words().function for w in low[at + 2:])


_ARTICLES = frozenset("a an the its their this that".split())


_SUBJECT_PRONOUNS = frozenset("they it we you he she i this that these those".split())


def is_tail_word(word: str) -> bool:
    """A word no name may end on: a function word or a particle ("split X off")."""
    low = word.lower().strip(",;:")
    return low in words().function or low in words().particles or low in _open_ends()


@functools.cache
def _open_ends() -> frozenset[str]:
    return frozenset(_load("language.toml")["readings"]["open_ends"])


@functools.cache
def _open_pairs() -> frozenset[str]:
    return frozenset(_load("language.toml")["readings"]["open_pairs"])


@functools.cache
def _name_tails() -> frozenset[str]:
    return frozenset(_load("language.toml")["readings"]["name_tails"])


_ITEM = r"[\w./'+-]+(?:\s[\w./'+-]+){0,3}"
# "A, B, C and D …": a list of short items, whose commas are no clause breaks.
_LIST = re.compile(rf"{_ITEM}(?:,\s{_ITEM})+,?\s(?:and|or)\s")
LIST_WORDS = 16  # a list said whole, up to this many words


def trim(text: str, limit: int = 6, lists: bool = False, why: bool = False,
         alone: bool = False) -> str:
    """Cut to the first clause, then to `limit` words at a natural break; never ends on a
    function word. No ellipsis: a name must read as a complete phrase. With `lists`, an
    object that is a list ("source, mixing, packing and checkpoint extension points") is
    kept whole up to `LIST_WORDS`, never cut to its first item. With `why` (an effect
    told in a sentence, not a name), a closing purpose clause a few words over is kept;
    with `alone` too (an effect said by itself, no item of a list), so is a closing list
    of two ("global avg losses and global max losses")."""
    if lists and _LIST.match(text) and len(text.split()) <= LIST_WORDS:
        clause = re.split(r"\s*(?:;|\s[-–—]+\s|:\s|\.\s|…)", text, maxsplit=1)[0].strip()
        if _LIST.match(clause):
            return clause.strip(" ,;:-")
    first = _first_clause(text)
    if (len(first.split()) >= 2 or len(text.split()) <= 1) and not (
            why and len(text.split()) <= limit and _result_closes(first, text)):
        text = first
    ws = text.split()
    full = list(ws)  # (what a cut took: see _objectless)
    # "batch invariant configs should have max …" names "batch invariant configs".
    aux = next((i for i in range(2, len(ws)) if ws[i].lower() in words().auxiliaries), None)
    if aux and not any(x.lower() in words().subordinators or x.lower() in _WH
                       or (base_verb(x) or x.lower()) in words().clause_verbs
                       for x in ws[:aux]) and \
            not re.search(r"\bthe way\b", " ".join(ws[:aux]), re.I):
        # (not "… contiguous when they are views", nor "the way scale is calculated":
        # that clause belongs)
        ws = ws[:aux]
        # "a sentence whose point was …": the relative clause goes whole, not to "whose point"
        ws = ws[:next((i for i in range(2, len(ws)) if ws[i].lower() == "whose"), len(ws))]
    ws = _subject(ws)
    whole = len(ws)
    if len(ws) > limit and not (why and (_purpose_fits(ws, limit)
                                         or alone and _list_fits(ws, limit))):
        low = [x.lower() for x in ws]
        w = words()
        # "the computed in grad placements": a participle after an article waits for its
        # noun (here a name whose first word reads as "in"); no cut comes between them
        apart = {i for i in range(2, len(ws)) if low[i - 2] in ("the", "a", "an")
                 and re.fullmatch(r"[a-z]+ed", low[i - 1])}
        # ("setting X to False": the value a thing is set to is no place to cut before)
        apart |= {i for i in range(2, len(ws) - 1)
                  if low[i] == "to" and _VALUE.fullmatch(low[i + 1])}
        # ("the who sentences": a clause word after an article is a noun's modifier)
        cut = next((i for i in range(2, limit + 1) if low[i] in w.clause and i not in apart
                    and not _after_article(low, i)), None)
        for group in (w.breaks, {"and", "or"}):  # a cut keeps three words or none is made
            if cut is None:
                cut = next((i for i in range(limit, 2, -1) if low[i] in group
                            and i not in apart), None)
        if cut and low[cut] in ("by", "for") and re.fullmatch(r"[a-z]+ed", low[cut - 1]) \
                and cut > 2:
            # "a theme named" waits for its "by", "DTensors in vLLM required" for its "for":
            # the participle goes with it
            cut -= 1
        kept = ws[: cut or limit]
        if kept[-1].lower() == "to" and len(ws) > len(kept) and _VALUE.fullmatch(ws[len(kept)]):
            kept = ws[: len(kept) + 1]  # one word over: what it is set to is the point
        # A cut inside a "why …" or "how …" clause leaves it without its end ("explaining
        # why float8 needs"): a name a few words over the limit is kept whole instead. So
        # is one noun phrase with no break to cut at: its last word is its noun ("the
        # legacy checkpoint utils import path", never "… utils import").
        if not (len(ws) <= limit + 3 and any(_asks(kept, i) for i in range(1, len(kept)))
                or cut is None and len(ws) <= limit + 2
                and not is_tail_word(ws[limit - 1]) and not is_tail_word(ws[limit])):
            ws = kept
    # A statement's passive tail ("… from the sources said") ends no phrase; "what the
    # title said" keeps its verb.
    passive = not any(x.lower() in _WH or x.lower() in ("that", "who") for x in ws)
    while len(ws) > 1 and not _wh_clause_end(ws) and not (
            len(ws) == whole and phrasal_end(ws)) and (
            is_tail_word(ws[-1]) or ws[-1].lower().endswith(("'s", "’s")) or
            not any(c.isalnum() for c in ws[-1]) or (
            len(ws) < whole and ws[-1].lower() in words().adjectives) or (
            len(ws) > 2 and ws[-2].lower() in ("and", "or") and base_verb(ws[-1])
            and base_verb(ws[-3]) != ws[-3].lower()) or (  # ("tests for save and load")
            passive and len(ws) > 2 and ws[-1].lower() in _name_tails()) or (
            len(ws) < whole and " ".join(ws[-2:]).lower() in _open_pairs())):
        ws.pop()
        if ws[-1].lower() in ("and", "or"):
            ws.pop()
    if len(ws) < whole:
        ws = _listless(_mannerless(_purposeless(_participleless(ws, full))))
    ws = _objectless(ws, full)
    if len(ws) == 1 and is_tail_word(ws[0]):
        return ""  # "for" is no name at all
    return " ".join(ws).strip(" ,;:-")


def _participleless(ws: list[str], full: Sequence[str]) -> list[str]:
    """A cut that leaves a participle after its noun without what it governs ("a title
    with a phrase ending" of "… ending on its first word") goes back to the phrase before
    it: "a title"."""
    # (only "a phrase ending": "with padding on …", "with rowwise scaling for …" and "to
    # use packing for …" name things, kept)
    if len(ws) < 4 or not re.fullmatch(r"[a-z]{3,}ing", ws[-1]) or \
            _cut_next(ws, full) not in words().breaks or \
            ws[-3].lower() not in ("a", "an", "the") or \
            ws[-2].lower() in words().function or base_verb(ws[-2]):
        return ws
    back = next((j for j in range(len(ws) - 2, 1, -1) if ws[j].lower() in words().breaks),
                None)
    return ws[:back] if back else ws


def to_verb(ws: Sequence[str], i: int) -> bool:
    """Whether `ws[i:i + 2]` is "to" and a verb's base form: a purpose ("to avoid a
    recompile"), not a place ("to routed experts")."""
    return i + 1 < len(ws) and ws[i].lower() == "to" and \
        base_verb(ws[i + 1]) == ws[i + 1].lower()


def _purposeless(ws: list[str]) -> list[str]:
    """A cut name ending on "to <verb>" lost what the verb acts on ("IntxOpaqueTensor to
    replace"): the purpose goes with it, and any function word left at the end."""
    if len(ws) > 2 and to_verb(ws, len(ws) - 2):
        ws = ws[:-2]
        while len(ws) > 1 and is_tail_word(ws[-1]):
            ws = ws[:-1]
    return ws


def _cut_next(ws: Sequence[str], full: Sequence[str]) -> str:
    """The first word a cut took ("" when `ws` is no cut of `full`), in lower case."""
    return full[len(ws)].lower() if len(ws) < len(full) and list(full[:len(ws)]) == \
        list(ws) else ""


def _objectless(ws: list[str], full: list[str]) -> list[str]:
    """A name cut after a gerund that lost its object ("… without changing", "… by
    exposing") is said without the two: `full` is what was cut from. After "by" only when
    a word of the object went ("by warning in X" is whole; "by exposing is causal in X":
    an auxiliary there was a name's first word)."""
    nxt = _cut_next(ws, full)
    cut_object = bool(nxt) and (nxt not in words().function or nxt in words().auxiliaries)
    if len(ws) > 3 and ws[-1].lower().endswith("ing") and base_verb(ws[-1]) and nxt and (
            ws[-2].lower() in ("without", "after", "before", "while") or
            ws[-2].lower() == "by" and cut_object):
        return ws[:-2]
    return ws


def _listless(ws: list[str]) -> list[str]:
    """A cut inside a list ("e2e example with HF model, MoE" of "…, MoE and torchao
    NVFP4") says a list with no end: the name stops before its first comma (not one
    between two modifiers of a noun, "on-device, parallelized kernel", nor one before a
    second action, "X, add Y", which names are made of elsewhere)."""
    if any(w.lower() in ("and", "or") for w in ws):
        return ws
    for i, w in enumerate(ws[:-1]):
        if i and w.endswith(",") and not is_modifier(ws[i + 1]) and not base_verb(ws[i + 1]):
            return [*ws[:i], w.rstrip(",")]
    return ws


def _mannerless(ws: list[str]) -> list[str]:
    """A cut name whose "by …" has a verb's bare form ("CI timeout issue by properly tear"
    of "… by properly tear down for X"): the how was broken before the cut made it worse,
    and the name stands without it."""
    low = [x.lower() for x in ws]
    for i in range(2, len(ws) - 1):
        if low[i] in ("by", "via"):
            j = i + 1
            while j < len(ws) - 1 and (low[j] in words().adverbs or low[j].endswith("ly")):
                j += 1
            if base_verb(low[j]) == low[j] or j > i + 1 and not low[j].endswith("ing"):
                return ws[:i]  # ("by properly tear": an adverb before it, so a verb)
    return ws


LIST_SLACK = 2  # words a told effect may run over its limit to say a closing list whole


def _list_fits(ws: list[str], limit: int) -> bool:
    """An effect that runs over `limit` by a few words of a closing list ("train state to
    include global avg losses and global max losses"): cut at its "and", it would say one
    item of two as if it were all. Not a second doing ("X and propagate Y", "works with
    compile and use pytest")."""
    joins = [i for i, x in enumerate(ws) if x.lower() in ("and", "or")]
    # (an "and" closing the words has no second doing after it)
    return len(ws) <= limit + LIST_SLACK and len(joins) == 1 \
        and 2 <= joins[0] <= min(limit, len(ws) - 2) \
        and base_verb(ws[joins[0] + 1]) != ws[joins[0] + 1].lower()


def _result_closes(first: str, text: str) -> bool:
    """Whether all a title says after its first clause is its result (", enabling X"),
    one clause with no break of its own."""
    rest = text[len(first):]
    return closing_result(text) and rest.startswith(",") and \
        _first_clause(rest[1:].strip()) == rest[1:].strip()


def closing_result(text: str) -> bool:
    """Whether a text's last comma opens its result ("X, enabling Y"): no list item."""
    m = re.search(r",\s+(\w+)\s+[^,]+$", text)
    return m is not None and m.group(1).lower() in _load("language.toml")["readings"]["results"]


def _purpose_fits(ws: list[str], limit: int) -> bool:
    """A name that runs over `limit` only by its closing purpose clause ("marking input
    tokens as dynamic to avoid a recompile"): the clause is its why, so it is kept."""
    extra = int(_load("language.toml")["readings"]["purpose_words"])
    at = next((i for i in range(len(ws) - 2, 1, -1) if to_verb(ws, i)), None)
    # The last "to <verb>" is the purpose; a "to" before it is a place ("tokens to routed
    # experts"). Not "X when Y to Z", nor "to Y when Z" or "to Y and Z".
    return at is not None and at <= limit and len(ws) <= limit + extra and \
        not any(x.lower() in words().clause or x.lower() in ("and", "or")
                for x in ws[1:at] + ws[at + 1:])


_LEADS = frozenset("a an the no some all each more less only better other another both "
                   "not".split())


def as_name(phrase: str) -> str:
    """A phrase as a name: no leading "to" or "for" ("to Add" -> "Add"), and not a lone
    verb or generic word ("update", "add" name nothing): "" then."""
    ws = phrase.split()
    while len(ws) > 1 and ws[0].lower() in words().function and ws[0].lower() not in _LEADS:
        ws.pop(0)
    if len(ws) == 1 and (is_tail_word(ws[0]) or ws[0].lower() in words().generic
                         or base_verb(ws[0]) == ws[0].lower()):
        return ""
    return " ".join(ws)


def shorten(text: str, limit: int) -> str:
    """At most `limit` characters, cut at a word boundary and never on a function word.
    A single word longer than the limit is not a name anyone can say: "" comes back."""
    if len(text) <= limit:
        return text
    ws = text[: limit + 1].split()[:-1] if text[limit:limit + 1] != " " else text[:limit].split()
    # A cut inside what follows a preposition keeps half a thing ("sharding for routed",
    # of "for routed experts"; "global amax of columnwise", of "… of columnwise RHT"): the
    # phrase goes whole.
    # Not "to be", a purpose (see _purposeless), nor inside a "why …" clause.
    at = next((i for i in range(len(ws) - 2, max(1, len(ws) - 4), -1)
               if (ws[i].lower() in words().breaks or ws[i].lower() == "of")
               and not to_verb(ws, i)), None)
    if at is not None and not any(w.lower() in _WH for w in ws[:at]):
        ws = ws[:at]
    while ws and is_tail_word(ws[-1]):
        ws.pop()
    ws = _purposeless(ws)
    return " ".join(ws).rstrip(",;:")


def expand_term(word: str) -> str | None:
    """What an acronym stands for, from the lexicon ("AOT" -> "ahead-of-time")."""
    return words().expand.get(word) or words().expand.get(case_word(word))
