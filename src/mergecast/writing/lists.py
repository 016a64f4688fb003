"""Spoken lists of objects: what items share said once ("training and inference to the
quantize API", "the old widget and loader, along with related code", "widget and loader
graph passes"), and the list itself, with "as well as" before a last item of its own "and"."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from ..analysis.language import closing_result, looks_plural, plural, to_verb, words
from .names import DIMENSION
from .numbers import join_words
from .phrases import phrases, said


@functools.cache
def count_nouns() -> frozenset[str]:
    return frozenset(phrases()["effects"]["count_nouns"])


@functools.cache
def _places() -> frozenset[str]:
    return words().breaks | frozenset(phrases()["effects"]["place_openers"])


def factor(objs: Sequence[str]) -> str:
    """A list with its shared opening said once: ["planned tiles for depthwise filters",
    "planned tiles for dilated windows"] -> "planned tiles for depthwise filters and dilated
    windows"; so is a shared ending (see _tail_once)."""
    objs = [o for o in objs if o]
    if len(objs) == 1 and "," in objs[0] and not re.search(r"\b(?:and|or)\b", objs[0]) \
            and not closing_result(objs[0]):  # ("X, enabling Y" is a result, no list)
        return " and ".join(objs[0].rsplit(", ", 1))  # a title's own list: "A, B, C and D"
    split = [o.split() for o in objs]
    if common := shared_head(split):
        head = " ".join(split[0][:common])
        rests = [s[common:] for s in split]
        # (an "a" before kinds said once goes: "a remove X and Y graph pass" is several)
        n = _ending(rests)
        if split[0][0].lower() in ("a", "an") and n and (kinds := _noun_once(
                [r[:len(r) - n] for r in rests], rests[0][len(rests[0]) - n:], counted=True)):
            return " ".join([*split[0][1:common], kinds])
        return f"{head} {_tail_once(rests) or spoken_list([' '.join(r) for r in rests])}"
    return _tail_once(split) or spoken_list(objs)


def shared_head(split: Sequence[list[str]]) -> int:
    """How many opening words a list's items share that are said once before them; 0 when
    the items are no list under one head."""
    common = 0
    if len(split) > 1:
        while all(len(s) > common + 1 for s in split) and \
                len({s[common].lower() for s in split}) == 1:
            common += 1
    # A rest that ends another ("utils import path", "import path") says a thing twice
    # once the head goes ("… checkpoint utils import path and import path"): the head
    # gives back words until every rest names its own thing.
    while common and _ends_another([s[common:] for s in split]):
        common -= 1
    # A head that is itself a list ("inference mode and rank 3+" and "… rank 3") would
    # join the tails to its last item: "inference mode and rank 3+ and 3"
    if common and {w.lower() for w in split[0][:common]} & {"and", "or"}:
        common = 0
    # Rests that go on unlike each other ("to intx folder" and "used by int4 to the int4
    # module") are no list under one head: "packing format to intx folder and used by …"
    if common and split[0][common - 1].lower() not in words().function and \
            len({s[common].lower() in words().function for s in split}) > 1:
        common = 0
    # An article alone is said once only when no item before the last has a phrase of
    # its own: after "a hook to reduce copies and retry budget" the budget is reduced
    article = common == 1 and split[0][0].lower() in ("the", "a", "an") and \
        not {w.lower() for x in split[:-1] for w in x} & words().breaks
    return common if common >= 2 or article else 0


def _tail_once(split: Sequence[list[str]]) -> str:
    """A list whose items all end alike, that ending said once: on one place (["training to
    the quantize API", "inference to the quantize API"] -> "training and inference to the
    quantize API"), one "and …" ("A and related code", "B and related code" -> "A and B,
    along with related code") or one noun ("a remove graph pass", "identity graph pass" ->
    "remove and identity graph passes"). Of three or more, the items sharing a place are
    told together before the rest. "" unless each item is a short thing of its own."""
    if len(split) < 2:
        return ""
    n = _ending(split)
    said_tail = split[0][len(split[0]) - n:]
    tail = [w.lower() for w in said_tail]
    heads = [s[:len(s) - n] for s in split]
    if len(tail) >= 3 and tail[0] == "and" and _short(heads):
        return f"{spoken_list([' '.join(h) for h in heads])}, {said('along_with')} " + \
            " ".join(said_tail[1:])
    if (noun := _noun_once(heads, said_tail)) is not None:
        return noun
    # (the shared tail opens on its preposition, and no item says more than a few words
    # before it: "a hook for reads to the cache" is no list of things going there)
    while n >= 2 and split[0][-n].lower() not in _places():
        n -= 1
    if n >= 2 and _short([s[:-n] for s in split]):
        return f"{spoken_list([' '.join(s[:-n]) for s in split])} {' '.join(split[0][-n:])}"
    return _some_share(split)


def _ending(split: Sequence[list[str]]) -> int:
    """How many last words every item shares, each keeping one of its own."""
    n = 0
    while len(split) > 1 and all(len(s) > n + 1 for s in split) and \
            len({s[-1 - n].lower() for s in split}) == 1:
        n += 1
    return n


def _short(heads: Sequence[list[str]]) -> bool:
    return all(0 < len(h) <= 3 and not {w.lower() for w in h} & (words().breaks | {"and", "or"})
               for h in heads)


def _noun_once(heads: Sequence[list[str]], tail: list[str], counted: bool = False
               ) -> str | None:
    """Items naming things of one kind ("a remove detach graph pass", "identity view graph
    pass"): their names, then the kind, in the plural when an item said "a" or the kind is
    counted ([effects] count_nouns): "the broken and slow tests" are two, where "the broken
    and slow test" may be one. A noun of neither kind ([effects] mass_nouns) stays with
    each item."""
    at = next((k for k, w in enumerate(tail) if k and w.lower() in _places()), None)
    if at is not None and not {w.lower() for w in tail[:at]} & words().function:
        # "2D and 3D quantize kernels for AMD": the kind said once, then where it goes
        kinds = _noun_once(heads, tail[:at], counted)
        return f"{kinds} {' '.join(tail[at:])}" if kinds is not None else None
    if not tail or {w.lower() for w in tail} & words().function or not tail[-1].isalpha() \
            or not tail[-1].islower():
        return None
    opened = {h[0].lower() for h in heads if h}
    counted = counted or bool(opened & {"a", "an"}) or tail[-1] in count_nouns()
    if not counted and not looks_plural(tail[-1]) and not tail[-1].endswith("ing") and \
            tail[-1] not in phrases()["effects"]["mass_nouns"]:
        return None
    bare = [h[1:] if h and h[0].lower() in ("a", "an", "the") else h for h in heads]
    # (a head opening on a number counts the kind: "2 dtypes and 2 test unit test files")
    # (a dimension is no count: "2D and 3D quantize kernels")
    if not _short(bare) or any({w.lower() for w in h} & words().function or h[0][0].isdigit()
                               and not DIMENSION.fullmatch(h[0]) for h in bare):
        return None
    kind = [*tail[:-1], plural(tail[-1]) if counted and not looks_plural(tail[-1])
            else tail[-1]]
    article = "the " if opened == {"the"} else ""
    return f"{article}{spoken_list([' '.join(h) for h in bare])} {' '.join(kind)}"


def _some_share(split: Sequence[list[str]]) -> str:
    """Of three or more items, two or more that end on one place ("… before scheduling")
    said together, that place once, before the others."""
    if len(split) < 3:
        return ""
    ends: dict[str, list[int]] = {}
    for i, s in enumerate(split):
        at = next((j for j in range(len(s) - 2, 0, -1) if s[j].lower() in _places()), 0)
        if at:
            ends.setdefault(" ".join(s[at:]).lower(), []).append(i)
    shared = max(ends.values(), key=len, default=[])
    if not 2 <= len(shared) < len(split):
        return ""
    told = _tail_once([split[i] for i in shared])
    rest = [" ".join(s) for i, s in enumerate(split) if i not in shared]
    return spoken_list([told, *rest]) if told else ""


def _ends_another(rests: Sequence[list[str]]) -> bool:
    low = [[w.lower() for w in r] for r in rests]
    return any(i != j and len(a) < len(b) and b[-len(a):] == a
               for i, a in enumerate(low) for j, b in enumerate(low))


def spoken_list(items: Sequence[str]) -> str:
    """A spoken list; when an item has its own "and" or comma, the last joins with "as
    well as" ("… as done, never as going further and only after an effect" ran the two
    into one), and so it does between an item with a purpose and a last item of one word
    ("cutedsl to quantize 2d tensors and docstrings" would quantize the docstrings too; "a
    hook to reduce copies and a retry budget" and items of the same shape keep "and")."""
    # (a last item of one word has no purpose of its own: only the others are looked at)
    if len(items) > 1 and (any(" and " in i or ", " in i for i in items) or
                           len(items[-1].split()) == 1 and any(
                               to_verb(ws, j) for ws in (i.split() for i in items[:-1])
                               for j in range(len(ws)))):
        return ", ".join(items[:-1]) + f", {said('last_with_and')} " + items[-1]
    return join_words(list(items))
