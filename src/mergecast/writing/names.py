"""Names in a description said as a person says them: a class name as its words
("`InterleavedChatDataLoader`" -> "interleaved chat data loader"), alternatives written
with a slash as alternatives ("CPU/MPS" -> "CPU or MPS"). Names kept whole and what a rate
is per are data: templates/bodies.toml [names] and [alternatives]."""

from __future__ import annotations

import re

from ..analysis.language import base_verb, case_word, words
from .cues import cues

# A class name in a code span ("`InterleavedChatDataLoader`"), or one too long to say, is
# said as its words ("interleaved chat data loader"); a name of two parts ("`TrainSpec`")
# stays as written, and so do the names in bodies.toml [names] inside it ("Hugging Face").
_PASCAL = re.compile(r"(\ban? )?(?:`([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)`|"
                     r"(?<![\w.`])([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]{29,})(?![\w.`]))")
# A part said as a word: an acronym ("QAT", "MXFP8"), a word ("Loader"), a word and its
# width ("Float8", "Int4"); not "To4" and "d" of "To4dTensor", nor the "U" of "UIntX".
_PART = re.compile(r"[A-Z]{2,}\d*(?=[A-Z][a-z]|\d|$)|[A-Z][a-z]+\d*(?![a-z])")
_WIDTH = re.compile(r"[A-Z][a-z]+\d+")


# "CPU/MPS ops", "reads/writes", "gate/up/down projection": alternatives, said "CPU or MPS
# ops"; not a path ("torchtitan/experiments", "a/b.py"), a rate ("tok/s") or a fraction.
_ALTERNATIVES = re.compile(r"(?<![\w/.`-])([A-Za-z][A-Za-z0-9]*)/([A-Za-z][A-Za-z0-9]*)"
                           r"(?:/([A-Za-z][A-Za-z0-9]*))?(?![\w/`-]|\.\w)")
# "per-rank/per-microbatch", "token-in/token-out": alternatives sharing their first word
# (a repository, "peter-evans/create-pull", shares none)
_SHARED_FIRST = re.compile(r"(?<![\w/.`-])([a-z]+)-([a-z0-9]+)/\1-([a-z0-9]+)(?![\w/`-]|\.\w)")
# A dimension ("2D", "3d") is said as a word, and counts nothing ("2D and 3D kernels").
DIMENSION = re.compile(r"[1-4][dD]")
_PLACE_BEFORE = re.compile(r"\b(?:in|into|under|from|at|to|of|on)\s+(?:the\s+)?$", re.I)


def _alternatives(m: re.Match[str]) -> str:
    parts = [p for p in m.groups() if p]
    if any(p.lower() in cues().per for p in parts[1:]) or len(set(parts)) < len(parts):
        return m.group(0)  # "tok/s", "pytorch/pytorch": left for the filters
    if all(p.islower() for p in parts) and (_PLACE_BEFORE.search(m.string[:m.start()]) or not (
            all(base_verb(p) for p in parts) or all(p.endswith("s") for p in parts))):
        # In lower case only verbs ("reads/writes") or plurals ("authors/owners") are
        # alternatives; "actions/checkout" and "models/llama" are a repository and a folder.
        return m.group(0)
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def _name_words(m: re.Match[str]) -> str:
    """"InterleavedHuggingFaceTextDataLoader" -> "interleaved Hugging Face text data
    loader"; a name of fewer than three parts, or one with a part no one says, as it was."""
    article, name, kept = m.group(1) or "", m.group(2) or m.group(3), cues().names
    parts: list[str] = []
    i = 0
    while i < len(name):
        whole = next((k for k in kept if name.startswith(k, i)), None)
        part = _PART.match(name, i)
        if whole is not None:
            parts.append(kept[whole])
            i += len(whole)
        elif part and not (_WIDTH.fullmatch(part.group(0)) and len(part.group(0)) < 4):
            word = part.group(0)
            parts.append(word if word.isupper() or word[1:].isupper() else
                         case_word(word.lower()))
            i = part.end()
        else:
            return m.group(0)
    if len(parts) < 3 or parts[0] == "test":  # a test's name is a label, not a phrase
        return m.group(0)
    if article.strip().lower() in ("a", "an"):  # "a `AffineQuantizedTensor`": "an affine …"
        article = article[0] + ("n " if parts[0][0].lower() in "aeio" else " ")
    return article + " ".join(parts)


def said_names(sentence: str) -> str:
    """`sentence` with its alternatives and class names said as words."""
    sentence = _SHARED_FIRST.sub(r"\1-\2 or \1-\3", sentence)
    return _PASCAL.sub(_name_words, _ALTERNATIVES.sub(_alternatives, sentence))


def coded(word: str, named: bool = False) -> bool:
    """Whether a word is an identifier or a number, not plain speech. With `named` (a
    step of a list, worded like a title), a name the lexicon writes ("AMD", "MXFP8") and a
    dimension ("2D") are words a developer says; in a description's prose they still
    count, since a sentence full of them is most often a log line or a test's result."""
    core = word.strip(".,;:!?")
    if named and (words().case.get(core.lower()) == core or DIMENSION.fullmatch(core)):
        return False
    return re.search(r"[A-Z].*[A-Z]|\d", core) is not None
