"""How a few title shapes are read as a person reads them: a reviewer's shorthand said in
full ("fn" -> "a function"), two-word modifiers hyphenated ("on device kernel" ->
"on-device kernel"), "stop X doing Y" said "stop X from doing Y", and "back out X" told as
undoing X. The word lists are data: ../data/language.toml [readings] and [shorthand]."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from .words import VOWEL_LETTERS, _load, base_verb, table, words

_DETERMINERS = frozenset("a an the this that these those its their our your my each every "
                         "no some any one".split())


@dataclass(frozen=True)
class Readings:
    reverts: tuple[str, ...]
    hinder: frozenset[str]
    counted: frozenset[str]
    methods: frozenset[str]
    modifiers: re.Pattern[str] | None
    shorthand: tuple[tuple[re.Pattern[str], str], ...]
    typed: re.Pattern[str]  # "global_valid_tokens: float | None"
    ours: re.Pattern[str]


@functools.cache
def readings() -> Readings:
    r = _load("language.toml")["readings"]
    mods = sorted(r["compound_modifiers"], key=len, reverse=True)
    # (a modifier only before a word that goes on the noun: "run on device" stays)
    modifiers = re.compile(r"(?<![\w-])(" + "|".join(re.escape(m) for m in mods)
                           + r")(?=,?\s+[\w-])", re.I) if mods else None
    return Readings(
        reverts=tuple(r["reverts"]), hinder=frozenset(r["hinder"]),
        counted=frozenset(r["counted"]), methods=frozenset(r["methods"]),
        modifiers=modifiers,
        ours=re.compile(r"\b(?:" + "|".join(map(re.escape, r["ours"])) + r")\b(?=\s+\w)", re.I),
        typed=re.compile(r"^\s*([A-Za-z_][\w.]*)\s*:\s*((?:{t})(?:\[[^\]]*\])?"
                         r"(?:\s*\|\s*(?:{t})(?:\[[^\]]*\])?)+)\s*$".replace(
                             "{t}", "|".join(map(re.escape, r["type_names"])))),
        # (never inside an identifier, a code span or a name hyphenated to capitals: "my_fn",
        # "`fn`", "Quant-LLM"; "model-ckpt-path" is words)
        shorthand=tuple(
            (re.compile(rf"(?<![\w/.`]){re.escape(k)}(?![\w/`]|(?-i:-[A-Z]))", re.I), v)
            for k, v in shorthand_words().items()))


@functools.cache
def shorthand_words() -> dict[str, str]:
    """The reviewer's shorthand and what it says in full, in the order it is applied: one
    list for titles and descriptions."""
    return dict(_load("language.toml")["shorthand"])


def shorthand_rules() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each shorthand's pattern (never inside an identifier or a code span) and what it
    says in full, compiled once for titles and descriptions alike."""
    return readings().shorthand


def unowned(title: str) -> str:
    """"Switch to 2.5.1 for our 2.5 regression tests" -> "… for the 2.5 regression tests":
    the narrator owns none of the project."""
    return readings().ours.sub(lambda m: "The" if m.group(0)[0].isupper() else "the", title)


def said_in_full(text: str) -> str:
    """A title with its shorthand said in full: "Add fn to check X" -> "Add a function to
    check X"; a count noun takes "a" after a verb or a preposition, not after a word that
    already determines it ("as a dep" -> "as a dependency", "new fn" -> "new function").
    A spelled name takes the article its first letter's name takes ("an AQT layout"), and
    a code span written against a word is a word of its own ("Flatten`rl` directory")."""
    parts = QUOTED.split(_SPAN.sub(_spaced_span, text))  # a word quoted is as written
    for i in range(0, len(parts), 2):
        for rx, full in shorthand_rules():
            # (most rules find nothing: one search each, never one per word)
            if rx.search(parts[i]) and not _corrected(rx, full, parts[i]):
                parts[i] = rx.sub(functools.partial(_with_article, full), parts[i])
        parts[i] = spelled_articles(parts[i])
    return "".join(parts)


NEAR_WORDS = 3  # words apart a misspelling and its right spelling are compared


def _corrected(rx: re.Pattern[str], full: str, text: str) -> bool:
    """Whether a text writes a misspelling beside its right spelling ("sparsity instead of
    sparstiy"): it is about the slip, and righting it would say "sparsity instead of
    sparsity". (An abbreviation beside its word, "cfg" and "config", is still said in full,
    and so is a slip with its word far off: "teh weight code is the same".)"""
    ws = text.split()
    slips = [i for i, w in enumerate(ws) if rx.search(w)]
    right = [i for i, w in enumerate(ws) if w.strip(".,;:!?()").lower() == full.lower()]
    return any(len(ws[i]) >= len(full) - 2 and 0 < abs(i - k) <= NEAR_WORDS
               for i in slips for k in right)


_SPAN = re.compile(r"(`+)[^`\n]+\1")


def _spaced_span(m: re.Match[str]) -> str:
    """A code span written against the word before it ("Flatten`rl` directory") is a
    word of its own."""
    glued = m.start() > 0 and m.string[m.start() - 1].isalpha()
    return (" " if glued else "") + m.group(0)


# A span in quotes ('fix the "Cannot set version" error', 'the terms "args" and …'): a
# message or a term as written, never the text's own words.
QUOTED = re.compile(r'("[^"\n]*"|“[^”\n]*”)')


def _with_article(full: str, m: re.Match[str]) -> str:
    written = m.group(0)
    # "Config Serilization No Deps" stays Title Case; "LR" and "UTs" are a short form's
    # capitals, said "learning rate" and "unit tests" but where a sentence opens
    opens = not m.string[:m.start()].strip() or m.string[:m.start()].rstrip()[-1] in ".!?:"
    capitals = written.removesuffix("s")
    if written[:1].isupper() and (not capitals.isupper() or len(capitals) < 2 or opens):
        full = full[:1].upper() + full[1:]
    if full.lower() not in readings().counted:
        return full
    before = m.string[:m.start()].split()
    prev = before[-1].lower() if before else ""
    # (a verb opens its clause; after a noun it is one too: "vnni check func" is the VNNI
    # check function, not "check a function")
    opens_clause = len(before) < 2 or before[-2].lower() in words().function or \
        before[-2].endswith((",", ";", ":"))
    takes = prev not in _DETERMINERS and (
        base_verb(prev) is not None and opens_clause or prev in words().function)
    return f"a {full}" if takes else full


@functools.cache
def _documents() -> re.Pattern[str]:
    names = "|".join(map(re.escape, _load("language.toml")["readings"]["documents"]))
    return re.compile(rf"(?<![\w./`-])({names})(?![\w./`-])")


def the_documents(text: str, made: bool = False) -> str:
    """"Add float8 to README" -> "add float8 to the README": a repository's one README
    is "the README" as a bare object or after a preposition, not before a noun it names
    ("README typos") nor after a word that already determines it ("our README"). The
    object of a verb that `made` it is a new one ("Add README": "adds a README")."""
    def said(m: re.Match[str]) -> str:
        before = m.string[:m.start()].split()
        after = m.string[m.end():].split()
        prev = before[-1].lower() if before else ""
        nxt = after[0].lower().strip(",.;:") if after else ""
        bare = not nxt or nxt in words().function or m.string[m.end():][:1] in ",.;:)"
        opens = prev == "" and not made or prev in words().function and \
            prev not in _DETERMINERS
        return f"the {m.group(0)}" if bare and opens else m.group(0)
    text = _documents().sub(said, text)
    if (rest := _REST.match(text)) and len(text.split()) > 2:
        # "refactor rest of tinygemm ops": what is left is a known part of a known whole
        told = rest.group(1).lower() in _DETERMINERS
        text = f"the rest of {'' if told else 'the '}{text[rest.start(1):]}"
    # "update main README": the one main README
    return _MAIN_DOCUMENT.sub(lambda m: f"{m.group(1)}the {m.group(2)} ", text)


_REST = re.compile(r"rest of (\S+)", re.I)


_MAIN_DOCUMENT = re.compile(r"(^|\b(?:in|to|of|from|into|on)\s)(main|top-level|root)\s+(?="
                            r"README\b|CHANGELOG\b)")


def is_method(name: str) -> bool:
    """"to" in "model.to": a method named by a function word."""
    return name.lower() in readings().methods


def hyphenated(text: str) -> str:
    """"add on device, parallelized kernel" -> "add on-device, parallelized kernel"."""
    rx = readings().modifiers
    if rx is None:
        return text
    return rx.sub(lambda m: m.group(1).replace(" ", "-"), text)


def hindered(obj: str, lemma: str) -> str:
    """"stop abort killing the process" -> "abort from killing the process": after a
    verb that keeps something from happening, the happening takes "from"."""
    ws = obj.split()
    if lemma not in readings().hinder or "from" in (w.lower() for w in ws):
        return obj
    # (after a word that leads into a noun, or last, "-ing" is the noun: "a shared
    # opening", "the stale opening"; the happening goes on to what it does)
    i = next((i for i in range(1, len(ws) - 1) if ws[i].lower().endswith("ing")
              and len(ws[i]) > 5 and base_verb(ws[i]) is not None
              and ws[i - 1].lower() not in words().function
              and not ws[i - 1].lower().endswith("ed")), None)
    return obj if i is None else " ".join([*ws[:i], "from", *ws[i:]])


def revert_of(text: str) -> tuple[str, str] | None:
    """("back out", "Add fbgemm as a dependency") for "back out Add fbgemm as a
    dependency"; None for any other title."""
    low = text.lower()
    for phrase in readings().reverts:
        if low.startswith(phrase + " ") and len(text) > len(phrase) + 1:
            lemma = "back out" if phrase == "backout" else phrase
            return lemma, text[len(phrase) + 1:].strip()
    return None


def typed(title: str) -> str:
    """A title that gives an identifier a type ("global_valid_tokens: float | None") said
    as the change that does it: "Make global_valid_tokens float or None", never "float
    None" under a label."""
    m = readings().typed.match(title)
    if not m:
        return title
    types = [t.strip() for t in m.group(2).split("|")]
    return f"Make {m.group(1)} {', '.join(types[:-1])} or {types[-1]}"


_DEFAULT_TO = re.compile(r"^default\s+(?!to\b)(\S.*?)\s+to\s+(\S.*)$", re.I)
_DEFAULT_TO_ONLY = re.compile(r"^default\s+to\s+(\S.*)$", re.I)


def defaulted(title: str) -> str:
    """"default X to True" sets X's default: "Make X default to True"; "default to X"
    makes X default. ("default" is no verb the lexicon knows: as one it would read
    "the default dtype" as an order.)"""
    if m := _DEFAULT_TO.match(title):
        return f"Make {m.group(1)} default to {m.group(2)}"
    if m := _DEFAULT_TO_ONLY.match(title):
        return f"Make {m.group(1)} default"
    return title


# "a_1_128_w_128_128 (DeepSeek) float8 scaling": a name made mostly of sizes, and the
# aside that may say what it is
_CODE_NAME = re.compile(r"(?<![\w.])([A-Za-z0-9]+(?:_[A-Za-z0-9]+){2,})(?![\w.])"
                        r"(?:\s+\(([A-Z][\w-]*(?: [A-Z][\w-]*)?)\))?")


def sized_names(title: str) -> str:
    """A name that is mostly numbers ("a_1_128_w_128_128", block sizes) cannot be said: it
    goes, and a capitalised aside after it names the thing instead ("(DeepSeek) float8
    scaling" -> "DeepSeek float8 scaling"). Numbers alone (a date) are kept."""
    def one(m: re.Match[str]) -> str:
        parts = m.group(1).split("_")
        digits = sum(p.isdigit() for p in parts)
        if digits * 2 < len(parts) or digits == len(parts):
            return m.group(0)
        return m.group(2) or ""
    return " ".join(_CODE_NAME.sub(one, title).split())


# "a AQT layout", "a HTTP endpoint": a short name in capitals with no vowel after its first
# letter is spelled out, and a letter whose name opens on a vowel takes "an"
_SPELLED_AFTER_A = re.compile(rf"\b([Aa]) (?=[{VOWEL_LETTERS}][B-DF-HJ-NP-TV-Z0-9]{{1,5}}s?\b)")


def spelled_articles(text: str) -> str:
    """"a AQT layout" -> "an AQT layout": the article a spelled name takes."""
    return _SPELLED_AFTER_A.sub(lambda m: m.group(1) + "n ", text)


# "init when FSDP > n_kv_heads": an operator between two names is said as words
# ([comparisons] in language.toml), never dropped to leave "when FSDP n kv heads"; so is
# a value given to a name ("when ep=1"). (A tag-like "</marker>" is markup for the boundary
# to deal with, not a comparison.)
_COMPARISON = re.compile(r"(</?[A-Za-z][\w-]*>)|(?<=\w)\s*(>=|<=|==|!=|>|<(?!/?[A-Za-z][\w-]*>)"
                         r"|=(?=[\w-]+(?:[\s,;)]|$)))\s*(?=\w)(v?\d+\.\d[\w.]*\b)?")


def compared(text: str) -> str:
    """"when FSDP > n_kv_heads" -> "when FSDP exceeds n_kv_heads"; "torch >= 2.11" -> "torch
    2.11 and later"; "when ep=1" -> "when ep equals 1", "Set X=False" -> "Set X to False"."""
    return _COMPARISON.sub(_compared, text)


@functools.cache
def _comparisons() -> tuple[dict[str, Any], tuple[tuple[re.Pattern[str], str], ...]]:
    """The [comparisons] table, and what "=" is said as after a setter or a default."""
    said = table("language.toml", "comparisons")
    return said, tuple(
        (re.compile(r"\b(?:" + "|".join(said[key]) + r")\s+[\w.]+$", re.I), say)
        for key, say in (("setters", said["set"]), ("bare_after", "")))


def _compared(m: re.Match[str]) -> str:
    if m.group(1):
        return m.group(1)
    said, given = _comparisons()
    if m.group(3) and m.group(2) in said["versions"]:  # "torch >= 2.11": "torch 2.11 and later"
        return " " + said["versions"][m.group(2)].format(v=m.group(3)) + " "
    if m.group(2) == "=":  # ("Set X=False": X is set to False; "default X=32" says 32 bare)
        for before, say in given:
            if before.search(m.string[:m.start()]):
                return f" {say} {m.group(3) or ''}"
    return f" {said[m.group(2)]} {m.group(3) or ''}"
