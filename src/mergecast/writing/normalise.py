"""Pronunciation normaliser: page text in, text a speech engine reads well out.

Driven by a lexicon (templates/lexicon.toml plus mergecast.toml [lexicon]) and a few rules
for things no lexicon can list: URLs, durations, "3x", long PR numbers and handles with digits.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import tomllib
import unicodedata
from collections.abc import Mapping
from importlib import resources
from typing import Any

from ..analysis.text import strip_markup
from ..dates import spoken_date
from .numbers import digit_groups, number_words

_MD_LINK = re.compile(r"\[([^\]]+)\]\((?:[^)\s]+)\)")
_URL = re.compile(r"(?:https?://|www\.)[^\s<>()\"']*[^\s<>()\"'.,;:!?]")
_STRAY = re.compile(r"[<>\[\]{}|\\^`=]+")
_MARKUP = re.compile(r"`+|\*\*|__|(?m:^#+\s*)|(?<!\w)\*(?=\w)|(?<=\w)\*(?!\w)")
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_DURATION = re.compile(
    r"\bP(?=\d|T\d)(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?\b"
)
_TIMES = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)[x×](?!\w)")
# "1x32", "128x128x64": a shape or block size, said "one by thirty-two"
_SHAPE = re.compile(r"(?<![\w.])\d+(?:[x×]\d+)+(?![\w.])")
_APPROX = re.compile(r"~\s*(?=\d)")
_HASH_PR = re.compile(r"(?<=\bPR )#(?=\d)|(?<=\bPRs )#(?=\d)")
_HASH_NUM = re.compile(r"(?<![\w&])#(?=\d)")
_LONG_NUMBER = re.compile(r"(?<![\w.,])\d{5,}(?![\w]|[.,]\d)")
_MIXED = re.compile(r"(?<![\w.])(?=[A-Za-z0-9]*[A-Za-z])(?=[A-Za-z0-9]*\d)[A-Za-z0-9]+(?![\w])")
_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)")
_RUNS = re.compile(r"[A-Za-z]+|\d+")
# "Llama3.1", "Qwen3.5", "k2.7": a name and its dotted version, said apart ("Llama 3.1"), the
# version as a decimal; read as one token the name took its first digit ("Llama three.1")
_VERSIONED = re.compile(r"(?<![\w.])([A-Za-z]+)(\d+(?:\.\d+)+)(?![\w])")
# "1.7B", "13.4rc1": a decimal with letters after it, said apart ("1.7 B", "13.4 rc1"), the
# letters then spelled like any others
_DECIMAL_TAIL = re.compile(r"(?<![\w.])(\d+\.\d+)([A-Za-z]+\d*)(?!\w|\.\w)")
_UNDERSCORE = re.compile(r"(?<=\w)_(?=\w)")
# camelCase and PascalCase compounds are read as their words: "ChainMap" -> "Chain Map".
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z]{2})")
_COMPOUND = re.compile(r"(?<![\w'])[A-Za-z]*[a-z][A-Z][A-Za-z]*(?![\w'])"
                       r"|(?<![\w'])[A-Z]{2,}[a-z]{3,}[A-Za-z]*(?![\w'])")
_ASIDE = re.compile(r"\s*\(([^()]{1,60})\)")
# "Xingchen Song(宋星辰)": a name written again in a script the English voice cannot say
_UNSPOKEN_ASIDE = re.compile(r"\s*\([\s\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+\)")
_SYMBOLS = (
    (re.compile(r"\s*(?:->|=>|→)\s*"), " to "),
    (re.compile(r"\s*<-\s*"), " from "),
    (re.compile(r"\bC\+\+"), "C plus plus"),
    # "FSDP+TP+EP+compile": a combination, each part said ("FSDP plus TP plus …")
    (re.compile(r"(?<=[A-Za-z0-9])\+(?=[A-Za-z])"), " plus "),
    # "2+4 bit", "Comms + titan", "subclass +torch compile": a sum or a pairing
    (re.compile(r"(?<=\d)\+(?=\d)|\s+\+\s+|(?:(?<=\s)|^)\+(?=[A-Za-z])"), " plus "),
    (re.compile(r"\s*&\s*"), " and "),
    # "expandable_segments:True", "key:value": a setting's value, said after its name
    (re.compile(r"(?<=[A-Za-z]):(?=[A-Za-z])"), " "),
    (re.compile(r"(?<=[A-Za-z]) ?% ?(?=[A-Za-z])|(?<=[A-Za-z]) % (?=\w)"), " mod "),
    (re.compile(r"(?<=\d)\s*%"), " percent"),
    # "~identical", "~same": nearly so; "~4x", "~ 30 s": about that much
    (re.compile(r"(?<![\w~])~(?=[a-z]{3,}\b)"), "nearly "),
    (re.compile(r"\s*~\s*"), " about "),
    # "save / load", "loss / grad norms": a spaced slash between two words pairs them
    # (an unspaced one is a path or a list, dealt with before the script is written).
    (re.compile(r"(?<=[\w)]) / (?=[A-Za-z])"), " and "),
)


@functools.cache
def default_lexicon() -> Mapping[str, str]:
    """The shipped lexicon (templates/lexicon.toml [words])."""
    words = _shipped().get("words", {})
    return {str(k): str(v) for k, v in words.items()}


@functools.cache
def _shipped() -> Mapping[str, Any]:
    text = resources.files("mergecast.writing").joinpath("templates/lexicon.toml").read_text(
        encoding="utf-8"
    )
    return tomllib.loads(text)


@functools.cache
def _units() -> tuple[re.Pattern[str], Mapping[str, str]]:
    """A number and its unit ("20min", "3.5 GB", "1,024 MB", "60 GB/s"), and the units'
    names (templates/lexicon.toml [units])."""
    spec = _shipped().get("units", {})
    names = {str(k): str(v) for k, v in spec.get("names", {}).items()}
    longest = sorted(names, key=len, reverse=True)
    spaced = "|".join(re.escape(u) for u in longest if u not in spec.get("against", ()))
    joined = "|".join(re.escape(u) for u in longest)
    return re.compile(rf"(?<![\w.,])(\d{{1,3}}(?:,\d{{3}})+|\d+(?:\.\d+)?)"
                      rf"(?:\s({spaced})|({joined}))(/s)?(?![\w/])"), names


def _unit(m: re.Match[str]) -> str:
    value, unit = m.group(1).replace(",", ""), _units()[1][m.group(2) or m.group(3)]
    if "." in value:
        said = f"{_decimal(*value.split('.'))} {unit}s"
    else:
        said = f"{number_words(int(value))} {unit}" + ("" if int(value) == 1 else "s")
    return said + (" per second" if m.group(4) else "")


def merged_lexicon(overrides: Mapping[str, str]) -> dict[str, str]:
    """Defaults plus [lexicon]; an empty override keeps the word as written."""
    lex = dict(default_lexicon())
    for word, say in overrides.items():
        if say:
            lex[word] = say
        else:
            lex.pop(word, None)
    return lex


@functools.lru_cache(maxsize=32)
def _lexicon_pattern(keys: tuple[str, ...]) -> re.Pattern[str] | None:
    if not keys:
        return None
    alternatives = "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True))
    # ("FSDP2": a name in capitals before its version number is the name said, then the
    # number: "F S D P two")
    # ("ncclCommSplit": a name written small before a capitalised word is said, then the
    # word: "nickel Comm Split")
    # (an article before the name is taken with it: "an str" is said "a string")
    return re.compile(rf"(?:(?<![\w.])([Aa]n?) )?(?<![\w.])(?P<key>{alternatives})"
                      rf"(?:(?![\w])|(?<=[A-Z])(?=\d)|(?<=[a-z])(?=[A-Z][a-z]))")


def _said_word(lex: Mapping[str, str], m: re.Match[str]) -> str:
    """A lexicon word as said, with the article before it made to fit how it is said."""
    said = lex[m.group("key")]
    if not (article := m.group(1)):
        return said
    if article[0] == "A" and m.string[:m.start()].rstrip()[-1:] not in ("", ".", "!", "?", ":"):
        return f"{article} {said}"  # ("type A API": a name, not an article)
    # (imported here: phrases.py reads the shipped lexicon through this module)
    from .phrases import vowel_sound
    first = said.split(" ", 1)[0]
    vowel = vowel_sound(first, spelled=len(first) == 1 and first.isupper())
    return f"{article[0]}{'n' if vowel else ''} {said}"


@functools.lru_cache(maxsize=32)
def _inner_pattern(keys: tuple[str, ...]) -> re.Pattern[str] | None:
    """The lexicon's names with a capital inside ("RoPE", "MoE") where they end or open a
    longer name ("iRoPE", "ComplexRoPE", "MoEConfig"), which would be split at their
    capitals."""
    inner = [k for k in keys if k.isalpha() and re.search(r"[a-z][A-Z]", k)]
    if not inner:
        return None
    alternatives = "|".join(re.escape(k) for k in sorted(inner, key=len, reverse=True))
    return re.compile(rf"(?<=[A-Za-z])(?:{alternatives})(?![a-z])"
                      rf"|(?<![\w.])(?:{alternatives})(?=[A-Z][a-z])")


def _inner(lex: Mapping[str, str], m: re.Match[str]) -> str:
    said = lex[m.group(0)]
    return f" {said}" if m.start() and m.string[m.start() - 1].isalpha() else f"{said} "


# "torch 2.7+", "gfx942+", "rank 3+": a version and any later one, a count and any more
_AT_LEAST = re.compile(r"(?<![\w.])(\d+(?:\.\d+)+|[A-Za-z]+\d+|\d+)\+(?![\w+])")


def _at_least(m: re.Match[str]) -> str:
    number = m.group(1)
    return f"{number} or {'more' if number.isdigit() else 'later'}"


def _decimal(whole: str, frac: str) -> str:
    return number_words(int(whole)) + " point " + " ".join(number_words(int(d)) for d in frac)


def _duration(m: re.Match[str]) -> str:
    parts = []
    for value, unit in zip(m.groups(), ("day", "hour", "minute", "second"), strict=True):
        if value is None:
            continue
        if "." in value:
            whole, frac = value.split(".")
            parts.append(f"{_decimal(whole, frac)} {unit}s")
        else:
            n = int(value)
            parts.append(f"{number_words(n)} {unit}" + ("" if n == 1 else "s"))
    return " ".join(parts) if parts else m.group(0)


def _times(m: re.Match[str]) -> str:
    value = m.group(1)
    if "." in value:
        whole, frac = value.split(".")
        return f"{_decimal(whole, frac)} times"
    return f"{number_words(int(value))} times"


def _shape(m: re.Match[str]) -> str:
    return " by ".join(number_words(int(n)) for n in re.split("[x×]", m.group(0)))


def _speakable_token(m: re.Match[str]) -> str:
    """b7r2n -> "B seven R two N"; kovacs47 -> "kovacs forty-seven"."""
    token = m.group(0)
    if _ORDINAL.fullmatch(token):
        return token
    said = []
    for run in _RUNS.findall(token):
        if run.isdigit():
            # (digits led by a zero are read one by one: "tushar00jain" is "zero zero")
            said.append(number_words(int(run)) if len(run) <= 3 and not (
                run.startswith("0") and len(run) > 1) else " ".join(
                number_words(int(d)) for d in run))
        else:
            said.append(_letters(run))
    return " ".join(said)


# "Qwen3-14B", "fp8-e4m3": a hyphen beside a name with a number in it parts two things said
# apart ("Qwen three fourteen B"), never one word ("Qwen three-fourteen B"); "1-2" and
# "GPT-OSS" keep theirs
_HYPHENED = re.compile(r"(?<![\w-])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+(?![\w-])")


def _numbered(part: str) -> bool:
    return any(c.isdigit() for c in part) and any(c.isalpha() for c in part)


def _unhyphened(m: re.Match[str]) -> str:
    parts = m.group(0).split("-")
    out = parts[0]
    for before, part in zip(parts, parts[1:], strict=False):
        out += (" " if _numbered(before) or _numbered(part) else "-") + part
    return out


# A word written small with no vowel ("nn", "sgd"): not after a hyphen, dot or apostrophe,
# where it is part of a name ("howardzhang-cv") or a path
_VOWELLESS = re.compile(r"(?<![\w'’.-])[b-df-hj-np-tv-xz]{2,4}(?![\w'’-])")


def _spelled(m: re.Match[str]) -> str:
    """ "bmm" -> "B M M"; the words of templates/lexicon.toml [letters] are said whole."""
    word = m.group(0)
    return word if word in _shipped().get("letters", {}).get("words", ()) else \
        " ".join(word.upper())


def _letters(run: str) -> str:
    """A run of one or two letters is spelled ("k" -> "K", "py" -> "P Y"), and so are up
    to five capitals with no vowel to say them by ("MXFP" -> "M X F P"); a longer one is a
    word."""
    if len(run) <= 2 or run.isupper() and len(run) <= 5 and not set(run) & set("AEIOUY"):
        return " ".join(run.upper())
    return run


def _versioned(m: re.Match[str]) -> str:
    return f"{_letters(m.group(1))} {m.group(2)}"


def _iso_date(m: re.Match[str]) -> str:
    try:
        return spoken_date(dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3))))
    except ValueError:
        return m.group(0)


def _unsaid(ch: str) -> bool:
    """Emoji, pictographs, private-use and unassigned code points: nothing to pronounce."""
    return unicodedata.category(ch) in ("So", "Sk", "Co", "Cn", "Cs", "Cf") or (
        "\ufe00" <= ch <= "\ufe0f"
    )


def _tidy(text: str) -> str:
    text = re.sub(r"\(\s*\)", "", text)
    text = re.sub(r"\s+([,.;:!?])", r"\1", text)
    text = re.sub(r"([,;:])(?=[,.;:])", "", text)
    return re.sub(r"\s{2,}", " ", text).strip()


def normalise(text: str, lexicon: Mapping[str, str]) -> str:
    """Page text as it should be read aloud. `lexicon` holds the [lexicon] overrides."""
    lex = merged_lexicon(lexicon)
    text = _MD_LINK.sub(r"\1", text)
    text = _URL.sub("", text)
    text = strip_markup(text)
    text = "".join(" " if _unsaid(ch) else ch for ch in text)
    text = _MARKUP.sub("", text)
    text = _ISO_DATE.sub(_iso_date, text)
    text = _DURATION.sub(_duration, text)
    text = _APPROX.sub("about ", text)
    text = _TIMES.sub(_times, text)
    text = _SHAPE.sub(_shape, text)
    text = _units()[0].sub(_unit, text)
    text = _HASH_PR.sub("", text)
    text = _HASH_NUM.sub("number ", text)
    pattern = _lexicon_pattern(tuple(lex))
    if pattern is not None:
        text = pattern.sub(lambda m: _said_word(lex, m), text)
    if (inner := _inner_pattern(tuple(lex))) is not None:
        text = inner.sub(lambda m: _inner(lex, m), text)
    text = _AT_LEAST.sub(_at_least, text.replace("\u2011", "-"))  # (a non-breaking hyphen)
    for rx, repl in _SYMBOLS:
        text = rx.sub(repl, text)
    text = _ASIDE.sub(r", \1,", _UNSPOKEN_ASIDE.sub("", text))  # "(FSDP)": an aside
    text = _LONG_NUMBER.sub(lambda m: digit_groups(m.group(0)), text)
    text = _VERSIONED.sub(_versioned, text)
    text = _DECIMAL_TAIL.sub(r"\1 \2", text)
    text = _MIXED.sub(_speakable_token, _HYPHENED.sub(_unhyphened, text))
    text = _VOWELLESS.sub(_spelled, text)
    text = _COMPOUND.sub(lambda m: _CAMEL.sub(" ", m.group(0)), text)
    text = _UNDERSCORE.sub(" ", text)
    text = _STRAY.sub(" ", text)
    return _tidy(text)
