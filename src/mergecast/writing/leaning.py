"""Whether a sentence leans on one said before it: an opening pronoun or demonstrative, a
pronoun with nothing before it to stand for, a condition or pointer whose clause was said
elsewhere. The template writer keeps only sentences that stand alone; the LLM writer's
vetting refuses a model's sentence by the same rule."""

from __future__ import annotations

import re

from ..analysis.language import base_verb, words
from .cues import cues

_DEMONSTRATIVE = re.compile(r"\bthis\s+(?!change\b)[a-z]+", re.I)  # "that" is mostly relative


def leaning(sentence: str) -> str:
    """The word by which `sentence` leans on one said before it ("It", "This", "Also",
    "they" with no plural noun before it, "this abstract class"), or "" when it stands
    alone. The LLM writer's vetting refuses a model's sentence by the same rule."""
    ws = sentence.split()
    if not ws:
        return ""
    if _bare(first := ws[0].strip(",")) in cues().leans:
        return first  # ("It'll run X": a contraction leans as its pronoun does)
    if said := _unresolved(ws):
        return said
    for w in ws[1:3]:  # "Now it will be the default": what "it" is was said elsewhere
        if _bare(w.strip(",")) in _SUBJECT_PRONOUN:
            return w.strip(",")
    if (m := _FRONTED.match(sentence)) and not _EXPLETIVE.match(sentence[m.end():].strip()):
        # "For a single layer, it got slower": "it" is not the layer
        return m.group(1) or m.group(2)
    for m in _DEMONSTRATIVE.finditer(sentence):
        if m.start() > 0:
            return m.group(0)  # "this abstract class" points at something said before
    if bare := _BARE_DEMONSTRATIVE.search(sentence):
        return bare.group(0).strip()  # "PR 12 fixes this.": what "this" is was said before
    if ellipsis := _ELLIPSIS.search(sentence):
        return ellipsis.group(0).strip()  # "PR 507 prints a warning if not.": if not what?
    return ""


def _bare(word: str) -> str:
    """A word without a contraction's tail, in lower case: "It'll" -> "it"."""
    return re.split(r"['’]", word.lower(), maxsplit=1)[0]


_SUBJECT_PRONOUN = frozenset("it they these those".split())
# A place or a case said first, then the main clause's subject as a pronoun: it stands for
# something said before, not for the phrase ("When the cache fills, it …" may).
_FRONTED = re.compile(r"^(?:For|On|In|With|At|Under|Without|During|Across)\s[^,]{1,60},\s+"
                      r"(it|they|these|those)\b"
                      # … its comma left out: "In the current implementation it seems …"
                      r"|^(?:For|On|In|With|Under|During)\s+(?:the|a|an|this|our)\s+"
                      r"(?:[\w-]+\s+){0,3}?[\w-]+\s+(it|they)\s+(?=(?:is|was|are|were|"
                      r"will|would|can|could|seems|seem|does|did|has|had|may|might)\b)")
_PLURAL_PRONOUN = frozenset("they them their theirs these those".split())
_SINGULAR_PRONOUN = frozenset(("it", "its"))
# "makes it possible to", "it is worth noting that": an "it" that stands for the clause
# after it, not for a thing said before.
_EXPLETIVE = re.compile(r"^(?:(?:is|was|will be|would be|becomes|became|'s)\s+)?(?:\w+\s+)?"
                        r"(?:possible|impossible|easier|easy|harder|hard|simpler|simple|"
                        r"safer|safe|cheaper|faster|clearer|necessary|unnecessary|useful|"
                        r"difficult|feasible|worth|straightforward|convenient|important)"
                        r"\s+(?:to|for|that)\b"
                        r"|^(?:seems|turns out|makes sense|appears)\b(?!\s+to\b)",
                        re.I)
# "This", "that", "these" or "those" standing for a noun ("PR 12 fixes this.", "Without
# this, …", "because of that"), not opening a noun phrase or a clause.
# A condition whose clause was said before ("… if not.", "…, if so, …", "or not"), and a
# pointer at what the reader saw before ("As seen, …", "as mentioned,").
_ELLIPSIS = re.compile(r"\b(?:if|or|whether)\s+(?:not|so)(?=[.,;:!?]|$)|"
                       # "PR 12 passes the scales' precision instead.": instead of what?
                       r"^(?!.*\b(?:instead of|rather than|supersed|replac)).*\binstead(?=\.$)|"
                       r"\bas (?:seen|shown|mentioned|you can see|we can see)"
                       r"(?=[.,;:!?]|\s+(?:above|below|before|earlier|here)\b|$)", re.I)
_BARE_DEMONSTRATIVE = re.compile(r"\b(?:this|that|these|those)(?=[.,;:!?]|$)|"
                                 r"\b(?:of|with|without|for|about|like|from|after|before|"
                                 r"since|because)\s+(?:this|that)\s+(?=(?:is|was|are|were|"
                                 r"will|would|can|could|has|had|does|did|only|also|"
                                 r"should|might|may)\b)", re.I)


def _noun(word: str) -> bool:
    """Whether a word can be the thing a pronoun stands for: a name, or a word that is
    not a function word, a verb form or an adverb."""
    low = word.lower().strip(",.;:()\"'")
    if not low[:1].isalpha() or low in words().function or low in cues().leans or \
            low in words().finite or low in words().adverbs or low.endswith("ly"):
        return False
    return word[:1].isupper() or base_verb(low) is None


def _plural_noun(word: str, before: str) -> bool:
    """Whether a word ending in "s" is a plural noun: no verb form, or one after a
    determiner or a gerund modifying it ("the counts", "records training counts"); never
    after a noun, where it is as often the verb ("the loader counts them twice"); never a
    function word or an adverb ("is", "across", "always")."""
    if word.lower() in words().function or word.lower() in words().adverbs:
        return False
    if not base_verb(word):
        return True
    low = before.lower().strip(",;:")
    return low in _DETERMINERS or low.endswith("ing") and len(low) > 4 and \
        low not in words().function


_DETERMINERS = frozenset("the all its their these those some many both".split())


def _unresolved(ws: list[str]) -> str:
    """A pronoun needs something before it in the same sentence to stand for: a plural noun
    for "they" ("Reduction kernels …, so they …"), any noun for "it" ("The cache grows
    until it …"). "PR 12 compiles them" and "PR 12 makes it more clear" lean on a sentence
    we did not keep. The pronoun that has none, or ""."""
    start = 2 if " ".join(ws[:2]).startswith(("PR ", "The commit")) else 0  # the change
    for i, w in enumerate(ws):
        low = w.lower().strip(",.;:")
        if low in _PLURAL_PRONOUN:
            found = any(x.lower().rstrip(",;:").endswith("s") and x[:1].isalpha()
                        and _plural_noun(x.rstrip(",;:"), before)
                        for before, x in zip(ws[:i - 1], ws[1:i], strict=True)
                        if x.lower() not in cues().leans)
            if not found:
                return w.strip(",.;:")
        elif low in _SINGULAR_PRONOUN and i > 0 and not (
                low == "it" and _EXPLETIVE.match(" ".join(ws[i + 1:i + 5]))) and \
                not any(_noun(x) for x in ws[start:i]):
            return w.strip(",.;:")
    return ""
