"""A change as the plan reads it: its title's actions (each citing it), whether they tell
a listener anything, its area as said, and the content words by which a description is
matched against what a theme has already said."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from ..analysis.language import (
    base_verb,
    case_word,
    has_verb,
    parse_actions,
    parse_title,
    singular,
    words,
)
from ..analysis.scope import is_new_thing
from ..models import Action, Change, Ref


def area_name(name: str) -> str:
    """An area as it is said: folder areas by their last part, so no path is read aloud."""
    name = name.strip("/").rsplit("/", 1)[-1] or name
    if not name.islower():
        # the analysis (or a rule) already cased it; an author's Title Case tag still
        # writes a known short form as it is written ("[Tp Test]" is "TP Test")
        return " ".join(said if w.istitle() and (said := case_word(w.lower())) != w.lower()
                        else w for w in name.split())
    cased = " ".join(case_word(w) for w in name.split())
    if cased != name or any(c.isdigit() for c in name) or \
            all(w in words().case for w in name.split()):
        first, _, rest = cased.partition(" ")
        if rest and first.isalpha() and first.islower() and first not in words().case:
            return f"{first.capitalize()} {rest}"  # "quantize_vit": "Quantize ViT"
        return cased
    return name.upper() if len(name) <= 3 else name[:1].upper() + name[1:]


def is_revert(c: Change) -> bool:
    # (a reland is work back: told as a step of its revert chain when the digest has one,
    # else as any other change)
    return c.revert is not None or c.title.lower().lstrip("[ ").startswith("revert")


def action(c: Change) -> Action:
    return dataclasses.replace(parse_title(c.title), ref=Ref(pr=c.number, sha=c.sha))


def actions(c: Change) -> tuple[Action, ...]:
    """Every action a change's title says that tells something ("Deduplicate X and add
    tests for them": two), each citing the change; told side by side, in title order."""
    ref = Ref(pr=c.number, sha=c.sha)
    return tuple(dataclasses.replace(_brought(c, a), ref=ref) for a in parse_actions(c.title)
                 if says_something(a))


def _brought(c: Change, a: Action) -> Action:
    """A title that names a thing its change brings in as new files is told as adding it
    ("adds 8-bit Adam"), never as being about it."""
    return dataclasses.replace(a, verb="add", lemma="add") if not a.lemma and a.obj and \
        is_new_thing(c, a.obj) else a


def by_change(actions: Sequence[Action]) -> list[tuple[Action, ...]]:
    """Actions side by side that cite one change, together: a title's two actions."""
    out: list[tuple[Action, ...]] = []
    for a in actions:
        if out and a.ref is not None and out[-1][-1].ref == a.ref:
            out[-1] = (*out[-1], a)
        else:
            out.append((a,))
    return out


# "Write mm, ft and pg as MM, FT and PG": once said, both sides are the same words.
_AS_ITSELF = re.compile(r"(?i)^(.+?)\s+(?:as|to|into|with)\s+\1$")


def says_something(a: Action) -> bool:
    """A title of only generic words ("Update", "fix tests") tells a listener nothing, nor
    one whose object becomes itself as said; the page's coverage list still has it."""
    w = words()
    if _AS_ITSELF.match(f"{a.obj} {a.qualifier}".strip()):
        return False
    # (a word ending in -ing is a thing here: "fixing spelling", "fixing caching")
    return any(x.lower() not in w.generic and x.lower() not in w.function
               and (not base_verb(x) or x.lower().endswith("ing")) for x in a.obj.split())


def worth_noting(a: Action) -> bool:
    """What "Worth noting" may say: something, and more than a document touched ("PR 401
    updates README", "a commit updates contributing" is no news)."""
    w = words()
    named = [x.lower() for x in a.obj.split() if x.lower() not in w.function]
    bare = bool(named) and a.verb in ("change", "document") and all(
        w.objects.get(x) == "documentation" or x in w.generic for x in named)
    return says_something(a) and not bare


def content_words(text: str) -> set[str]:
    # A fault is one word whatever its name: "an error when X" repeats "a bug when X"; so
    # is a thing written two ways ("bfloat16", "BF16").
    found = {w.lower().strip(",.;:") for w in text.split()
             if w.lower() not in words().function and not w.isdigit() and w != "PR"}
    return {"fault" if w in words().faults else words().same_words.get(w, w) for w in found}


def stems(text: str) -> set[str]:
    """A text's content words, cut to a rough stem ("compiled" ~ "compilation"): no
    function or generic word."""
    w = words()
    found = (singular(x) for x in re.findall(r"[a-z][a-z0-9]+", text.lower()))
    return {x[:6] for x in found if len(x) > 2 and x not in w.function and x not in w.generic
            and base_verb(x) not in ("add", "fix", "update", "change")}


SHORT_DETAIL = 8  # words: a sentence this short has no room to say what its subject is


def unheard_subject(text: str, heard: set[str], said: str = "",
                    own: frozenset[str] = frozenset()) -> bool:
    """"The trigger is the abort hook.": a short sentence about "the trigger" nothing else
    the theme says mentions leaves the listener asking "what trigger?". A generic word
    ("The logic will need several fall back plan.") has no stem to match: it is heard only
    as itself in `said`, or when it is one of `own`, the words a change calls itself by
    ("The change", "The fix")."""
    m = re.match(r"The ([a-z][a-z0-9-]+) (\S+)", text)
    if m is None or len(text.split()) > SHORT_DETAIL:
        return False
    # (a generic word before a noun is its modifier: "The default Triton path is …")
    if (named := stems(m.group(1))) or m.group(1) in own or not has_verb([m.group(2)]):
        return not named <= heard
    return singular(m.group(1)) not in {singular(w) for w in re.findall(r"[a-z][\w-]*",
                                                                        said.lower())}


# "PR 12 enables …", "The commit also adds …": the change told as the doer, its number
# (none for a commit) and its verb
DOER = re.compile(r"^(?:PR (\d+)|The commit)(?: also)? (\w+) ")


def told_stems(text: str, c: Change) -> set[str]:
    """What a sentence says past "PR 12 enables", less the repository's own name: "PR 3176
    enables structured-logging in torchtitan" says no more than its title, "Add structured
    logging and training instrumentation"."""
    return stems(DOER.sub("", text)) - stems(c.repo.replace("/", " "))


def repeats(said: set[str], title: set[str], share: float) -> bool:
    """Whether most of `said` is in `title`; a word typed with one letter left out or
    swapped ("tranpose") is the title's word ("transpose")."""
    found = sum(1 for w in said if w in title or any(_typo_of(w, t) for t in title))
    return bool(said) and found >= share * len(said)


def _typo_of(word: str, right: str) -> bool:
    # (a digit is never a typo: "float4" is no "float8")
    if min(len(word), len(right)) < 5 or abs(len(word) - len(right)) > 1 or word == right \
            or not word.isalpha() or not right.isalpha():
        return False
    if len(word) == len(right):
        odd = [i for i, (a, b) in enumerate(zip(word, right, strict=True)) if a != b]
        return len(odd) == 1 or len(odd) == 2 and odd[1] == odd[0] + 1 and \
            word[odd[0]] == right[odd[1]] and word[odd[1]] == right[odd[0]]
    short, long_ = sorted((word, right), key=len)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def same_doer(text: str, said: str) -> bool:
    """Whether two sentences open on the same PR doing the same ("PR 12 adds …")."""
    a, b = DOER.match(text), DOER.match(said)
    return a is not None and b is not None and a.group(1) is not None and \
        a.groups() == b.groups()


def restates(text: str, said: str) -> bool:
    """"PR 2448 adds a section summarizing the key features of X" after "PR 2448 adds a key
    features section": the same PR doing the same thing, with half the words of the
    shorter sentence, is heard as the line said again, not as news."""
    if not same_doer(text, said):
        return False
    # (past the verb: "deletes the kernel" and "deletes its tests" share only the verb)
    x, y = stems(DOER.sub("", text)), stems(DOER.sub("", said))
    # (and three at least: two sentences about "marlin qqq" may tell two things of it)
    return len(x & y) >= max(3, min(len(x), len(y)) / 2)
