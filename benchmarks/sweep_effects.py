"""Effect fidelity of a sweep (issue 16 item 2: every fact stays true): does an effect
told from a title still say what the title said?

`benchmarks/sweep.py` calls `measure(script, digest)` for each written day and prints
`table(report(...))` at the end. For every change a sentence cites and tells (the
sentence says two of the title's words in a row, function words aside), it counts:

- lost words: the title's content words (after tags, "prefix:" and "Vendor - " prefixes,
  references, function words, common verbs and generic words) that the telling sentence
  does not say ("CUDAGraph support for SimpleFSDP" told as "adds support for SimpleFSDP"
  loses "CUDAGraph");
- cut objects: the longest run of the title said word for word stops on a function word
  or a question word while the title goes on ("explaining why float8"), the title's
  opening verb is said as "to <verb>" the title never had ("turning to explain …"), or a
  "don't" is not said at all ("don't swallow X" told as "turning to swallow X").

The detectors use their own small word lists and stemming, not the writer's, so a
word list the writer shares with its judge cannot hide a loss.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from mergecast.analysis.language import shorthand_words
from mergecast.models import Digest, Script

# Function words and question words, independent of the writer's lists.
_FUNCTION = frozenset(
    """a an the and or but nor of to for in on at by with from via into onto as when while
    that which so if than vs per its it their this these those our your my is are be being
    was were been has have had do does did not no after before over under between without
    within during until unless because through across against about off up out down away
    also only more less very just all any some each both other another again still even then
    once why how what whether where who new don doesn isn aren didn won t""".split())
_QUESTION = frozenset("why how what whether where who which that".split())
# Verbs a title opens with, which the writer may say with a synonym ("Implement" ->
# "adds"); generic words that name nothing on their own. Neither is a lost word.
_VERB_WORDS = (
    """add adds added adding allow apply avoid bump change clean convert create delete disable
    don't drop enable ensure expose fix fixed fixes fixing handle implement improve introduce
    keep let make mark merge migrate move pass port prevent refactor register remove rename
    replace restore reuse revert reland rewrite run set skip split stop support switch teach
    track turn update upgrade use wire wrap provide build write integrate resolve correct
    address patch repair optimize optimise accelerate speed test document bump land bring
    initialize init reenable re-enable unskip relocate restructure reorganize cleanup tidy
    used log
    should must can will would may might need needs""".split())
_GENERIC = frozenset(
    """minor misc various small some stuff things nit nits wip followup follow-up issue issues
    bug bugs support re non un enablement implementation improvement improvements fixes
    refactor refactoring cleanup cleanups update updates""".split())
_FILE_TYPES = frozenset("py pyi toml yaml yml md rst txt json cfg ini sh cpp cc cu cuh h hpp "
                        "ipynb".split())
_TAGS = re.compile(r"^\s*(?:\[[^\[\]]*\]\s*|\([^()]{1,20}\)\s*)+")
_PREFIX = re.compile(r"^\s*[A-Za-z][\w./-]*(?:\([^()]*\))?!?:\s+")
_VENDOR = re.compile(r"^\s*[A-Za-z][\w.+-]*(?:\s[\w.+-]+){0,4}\s+[-–—]\s+")
_REFS = re.compile(r"\(?\s*(?:[\w.-]+/[\w.-]+)?#\d+\s*\)?|https?://\S+|\b[0-9a-f]{12,}\b")
_PARENS = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*|\d+[A-Za-z][A-Za-z0-9]*")
_SPLIT_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def title_words(title: str) -> list[str]:
    """A title's words as said, lower case, without tags, prefixes and references;
    identifiers split at `_`, `.`, `/` (`loss_compare.py` -> loss, compare)."""
    t = re.sub(r'^(?:revert|reland)\s*:?\s*"?', "", title.strip(), flags=re.I)
    t = re.sub(r"^merge (?:pull request|pr) #?\d+ from \S*/", "", t, flags=re.I)
    for _ in range(3):
        t = _VENDOR.sub("", _PREFIX.sub("", _TAGS.sub("", t)), count=1)
    t = _PARENS.sub(" ", _REFS.sub(" ", t))  # an aside in brackets is no effect
    out = []
    for tok in _TOKEN.findall(t):
        low = tok.lower()
        if low not in _FILE_TYPES:
            out.append(low)
    return out


def stem(word: str) -> str:
    """A crude stem, enough to match "unified" with "unifying" and "separate" with
    "separating"."""
    w = re.sub(r"i(?:es|ed)$", "y", word.lower().removesuffix("'s"))
    for suffix in ("ing", "ed", "es", "s"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            if suffix in ("ing", "ed") and w[-1] == w[-2] and w[-1] not in "aeiousl":
                w = w[:-1]  # logging -> log, dumpped -> dump
            break
    w = w.rstrip("e") if len(w) > 3 else w
    return w[:-1] + "y" if w.endswith("i") and len(w) > 3 else w


_VERBS = frozenset(stem(w) for w in _VERB_WORDS)


def content_words(title: str) -> list[str]:
    """The words of a title that carry its meaning: not function words, not a verb the
    writer may rephrase, not generic."""
    return list(dict.fromkeys(
        w for w in title_words(title)
        if w not in _FUNCTION and stem(w) not in _VERBS and w not in _GENERIC and len(w) > 1))


def said_words(text: str) -> list[str]:
    """A sentence's words, lower case; CamelCase kept whole and split both."""
    out = []
    for tok in _TOKEN.findall(text):
        out.append(tok.lower())
        parts = _SPLIT_CAMEL.split(tok)
        if len(parts) > 1:
            out.extend(p.lower() for p in parts)
    # A reviewer's shorthand said in full ("perf" as "performance") is not lost.
    full = set(out)
    out.extend(k.lower() for k, v in shorthand_words().items()
               if k.isalpha() and set(v.lower().split()) <= full)
    return out


def cut_reason(title: str, sentence: str) -> str | None:
    """Why the title's said part is cut mid-phrase, or None."""
    tw, sw = title_words(title), said_words(sentence)
    if not tw:
        return None
    # (a title's first word is a verb when the detector knows it or a determiner or a
    # question word follows it: "Group the optimizer", "explain why …")
    verb = stem(tw[0]) in _VERBS or (len(tw) > 1 and tw[1] in _QUESTION | {"the", "a", "an"})
    if verb and len(tw) > 2 and f"to {tw[0]}" in " ".join(sw) and \
            f"to {tw[0]}" not in " ".join(tw):
        return f"'{tw[0]}' said as 'to {tw[0]}'"
    negated = re.search(r"\b(?:don'?t|do not|never|no longer)\b", title, re.I)
    if negated and not re.search(r"\b(?:not|no longer|never|stops?|stopping|n't)\b",
                                 sentence, re.I):
        return "lost its 'not'"
    said = " " + " ".join(sw) + " "
    best = (0, 0)  # (length, end) of the longest run of title words said in order
    for i in range(len(tw)):
        for j in range(len(tw), i + best[0], -1):
            if f" {' '.join(tw[i:j])} " in said:
                best = max(best, (j - i, j))
                break
    length, end = best
    gone = {stem(w) for w in tw[end:]} - {stem(w) for w in sw}
    if not gone - {stem(w) for w in _FUNCTION}:
        return None  # what follows the run is said too, only not word for word
    if length >= 2 and end < len(tw) and tw[end - 1] in (_FUNCTION | _QUESTION) and \
            any(w not in _FUNCTION for w in tw[end:]):
        return f"stops on {tw[end - 1]!r}"
    if length >= 2 and any(w in _QUESTION for w in tw[max(0, end - 3):end]) and \
            end < len(tw) and tw[end - 1] not in _FUNCTION:
        return "a clause without its verb"
    return None


def _meaning(ws: Sequence[str]) -> list[str]:
    return [stem(w) for w in ws if w not in _FUNCTION]


def _run(title: str, sentence: str) -> int:
    """The most title words a sentence says in the title's order, one after another,
    function words aside: how surely the sentence tells this title (a problem sentence
    from the description shares a word or two, not a run)."""
    tw, sw = _meaning(title_words(title)), _meaning(said_words(sentence))
    best = 0
    for i in range(len(tw)):
        for j in range(len(sw)):
            k = 0
            while i + k < len(tw) and j + k < len(sw) and tw[i + k] == sw[j + k]:
                k += 1
            best = max(best, k)
    return best


@dataclass
class Told:
    title: str
    sentence: str
    lost: list[str]
    cut: str | None


@dataclass
class EpisodeEffects:
    told: list[Told] = field(default_factory=list)
    untold: int = 0  # cited but no sentence shares a third of its words


_TOLD_IN = ("theme", "area", "duplicates", "reverts")


def measure(script: Script, digest: Digest) -> EpisodeEffects:
    """Each cited change's title against the sentence that tells it best."""
    e = EpisodeEffects()
    citing: dict[int, list[str]] = {}
    for section in script.sections:
        if section.kind not in _TOLD_IN:
            continue
        for s in section.sentences:
            if s.text.rstrip(".") == section.heading:
                continue  # "First theme: <name>." names a theme; effects come after it
                # ("Also today, ada landed PR 12, …" under the heading "Also today" tells one)
            for n in s.cites:
                citing.setdefault(n, []).append(s.text)
    for c in digest.changes:
        if c.number is None or c.number not in citing:
            continue
        content = content_words(c.title)
        if not content:
            continue
        best: tuple[int, int, str, list[str]] | None = None
        for text in citing[c.number]:
            said = {stem(w) for w in said_words(text)}
            lost = [w for w in content if stem(w) not in said]
            key = (_run(c.title, text), len(content) - len(lost))
            if best is None or key > best[:2]:
                best = (*key, text, lost)
        assert best is not None
        run, found, text, lost = best
        if found == 0 or run < min(2, len(_meaning(title_words(c.title)))):
            e.untold += 1  # a word in common is another sentence (a problem, a detail)
            continue
        e.told.append(Told(c.title, text, lost, cut_reason(c.title, text)))
    return e


@dataclass
class EffectsReport:
    history: str
    told: int = 0
    untold: int = 0
    with_lost: int = 0
    lost_words: int = 0
    cut: int = 0
    top_lost: list[tuple[str, int]] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)


def report(history: str, episodes: Sequence[EpisodeEffects], examples: int = 8
           ) -> EffectsReport:
    r = EffectsReport(history)
    words: Counter[str] = Counter()
    shown: list[str] = []
    for e in episodes:
        r.told += len(e.told)
        r.untold += e.untold
        for t in e.told:
            if t.lost:
                r.with_lost += 1
                r.lost_words += len(t.lost)
                words.update(t.lost)
            if t.cut:
                r.cut += 1
            if (t.lost or t.cut) and len(shown) < examples:
                why = ", ".join(filter(None, [t.cut, "lost " + " ".join(t.lost)
                                              if t.lost else ""]))
                shown.append(f"{t.title!r} -> {t.sentence!r} ({why})")
    r.top_lost = words.most_common(10)
    r.examples = shown
    return r


def table(r: EffectsReport) -> str:
    lines = [f"effect fidelity for {r.history}:",
             f"  {'titles told (cited and said)':<42} {r.told}",
             f"  {'cited, no sentence tells the title':<42} {r.untold}",
             f"  {'told with lost words':<42} {r.with_lost}",
             f"  {'lost words':<42} {r.lost_words}",
             f"  {'cut objects':<42} {r.cut}",
             f"  {'most lost':<42} " + ", ".join(f"{w} {n}" for w, n in r.top_lost)]
    lines += [f"    e.g. {x}" for x in r.examples]
    return "\n".join(lines)
