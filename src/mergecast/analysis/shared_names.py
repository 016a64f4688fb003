"""A theme named by the words its titles share: the longest phrase most of them hold, led
by a tag they all carry (`fused_jit` -> "fused just-in-time kernels"), or that tag with
a word most titles share."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from .language import (
    base_verb,
    case_word,
    clean_title,
    expand_term,
    lower_first,
    plural,
    sentence_case,
    singular,
    split_prefix,
    trim,
    unnumbered,
    words,
)
from .naming import MAX_WORDS, fold, in_area, same_stem, usable_area, with_kind
from .text import STOPWORDS, title_tags, title_words, weak_tag

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


def shared_name(titles: Sequence[str], areas: Sequence[str],
                 day: Mapping[str, int], share: float = 0.4) -> str | None:
    counts: Counter[tuple[str, ...]] = Counter()
    surface: dict[tuple[str, ...], str] = {}
    seqs: list[list[str]] = []
    # A "config migration: smoothquant" topic counts as words here: it is often the very
    # thing the titles share.
    cleaned = [sentence_case(clean_title(re.sub(r"^([\w -]{3,30}):\s", r"\1 ",
                                                unnumbered(t)))) for t in titles]
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
    need = max(2, math.ceil(len(titles) * share))
    area_names = {fold(a) for a in areas}
    all_tags = _shared_tags(titles)
    w = words()
    kinds = [w.kind[w.nouns[t.lower()]] for t in all_tags if t.lower() in w.nouns]
    if kinds and kinds[0] in w.kind_names:
        # "[cleanup] …" x3 -> "Float8 clean-up"; "[Bugfix] … vLLM …" x2 -> "vLLM fixes"
        area = usable_area(areas)
        named = [surface[g] for g, n in counts.most_common() if len(g) == 1 and
                 n == len(titles) and surface[g] != g[0] and g[0] not in w.nouns]
        thing = area if area and fold(area) in {fold(x) for x in named} else \
            next(iter(named), area)
        return f"{thing} {w.kind_names[kinds[0]]}" if thing else None
    tags = [t for t in all_tags if fold(t) not in area_names and t.lower() not in w.nouns]
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
                else usable_area(areas)
            lead = lead or (whole if whole and fold(whole) not in fold(text) else None)
            text = plural(text) if _several(phrase, seqs) else text
        if found := trim(f"{lead} {text}" if lead else text, MAX_WORDS):
            return found
    word = best(lambda n: n == 1)
    if word is not None and re.fullmatch(r"[a-z]{3,}ed", word[0]):
        word = None  # "torchtitan fused": a participle shared names no thing
    if word is not None and (after := _same_next(word[0], seqs)) and \
            fold(after) not in area_names:  # (never "the build workflows in Workflows")
        # ("token groups" and "token group padding" share a noun, one written plural: the
        # name holds it, "MXFP8 training token groups", never a lone "token")
        surface[word] = f"{surface[word]} {after}"
    if tag and word is not None and word[0] not in tag.lower():
        return trim(f"{surface[word]} {tag}" if _goes_before(word[0], tag, seqs)
                    else f"{tag} {surface[word]}", MAX_WORDS)
    area = usable_area(areas)
    if word is None or word[0] in words().nouns:
        return in_area(surface[word], area) if word is not None and area and \
            fold(word[0]) not in fold(area) else None  # "SPMD types enablement"
    if counts[word] < len(titles):
        return None
    # A word every title names, qualified by the area unless it holds it ("Float8Linear"),
    # and told with the kind of work most titles do ("Qualcomm quantizer fixes").
    # ("QAT" holds Quantization: said in full, "Quantization quantization-aware training")
    spelled = area is not None and fold(area) in fold(expand_term(surface[word]) or "")
    holds = area is not None and (fold(area) in fold(word[0]) or fold(word[0]) in fold(area)
                                  or spelled)
    qualified = area is not None and not holds
    if re.fullmatch(r"[a-z]{4,}ing", word[0]) and any(
            ws[i] == word[0] and ws[i + 1] not in words().function
            for ws in seqs for i in range(len(ws) - 1)):
        return None  # "contributing guidelines": a noun's modifier, no "contributing" work
    if base_verb(word[0]):  # "Models generate": a kind of work after it reads as a verb
        # ("Quantization quantize")
        return in_area(surface[word], area) if area and qualified and \
            not same_stem(word[0], area) else None
    # Alone, only a word written as a name ("PyTorch", "NVFP4") names a thing.
    if qualified or word[0] != surface[word] or any(c.isdigit() for c in word[0]):
        thing = with_kind(surface[word], titles) or \
            (surface[word] if qualified or spelled else None)
        if thing == surface[word] and area and qualified and \
                _goes_before(word[0], area, seqs):
            return f"{thing} {area}"
        return in_area(thing, area) if thing and area and qualified else thing
    return None


def _goes_before(word: str, lead: str, seqs: Sequence[Sequence[str]]) -> bool:
    """Whether the word goes before the tag or area that leads the name: as the titles say
    it, or as an adjective does ("configurable Module", never "Module configurable")."""
    return _said_before(word, lead, seqs) or word in words().adjectives or \
        re.fullmatch(r"[a-z]{3,}[ai]ble", word) is not None


def _said_before(word: str, lead: str, seqs: Sequence[Sequence[str]]) -> bool:
    """Whether a title says the word right before the tag or area that would lead the name:
    "INT8 quantization on Intel XPU" names "Intel XPU", never "XPU Intel"."""
    return any(list(ws[i:i + 2]) == [word, lead.lower()] for ws in seqs
               for i in range(len(ws) - 1))


# A shared phrase ending "more X" or "less X" ends on an adjective: no name.
_DEGREE = frozenset({"more", "less", "most", "least"})


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
    # (a head noun most of the phrase's own titles put after it is its head, even when
    # fewer titles than `need` write the phrase: "low precision attention" x2, "… fp8" x1)
    found = [w for w, k in after.items() if k >= need and w in words().whole_nouns or (
        _head(w) and k >= 2 and k == max(after.values()) and k * 2 > sum(after.values()))]
    return found[0] if len(found) == 1 else None


def _head(word: str) -> bool:
    """A word that may end a name as its head noun: "low precision attention" (in three
    titles of four that say "low precision"); no verb, function word or number."""
    return word.isalpha() and len(word) > 2 and word not in STOPWORDS and \
        word not in words().function and \
        not base_verb(word)


def _same_next(word: str, seqs: Sequence[Sequence[str]]) -> str | None:
    """The noun every title puts right after `word`, written singular in some and plural
    in others ("token groups", "token group padding"): said plural; None when any title
    says another word there, or none."""
    after = [ws[ws.index(word) + 1] if word in ws[:-1] else "" for ws in seqs if word in ws]
    if len(after) < 2 or not all(after):
        return None
    one = {singular(w) for w in after}
    if len(one) != 1 or len(set(after)) < 2 or (noun := one.pop()) in STOPWORDS or \
            base_verb(noun) == noun:
        return None
    return next(w for w in after if w != noun)  # (as the titles write it: "indices")


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
    sets = [[t for t in title_tags(x) if not weak_tag(t)] for x in titles]
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
