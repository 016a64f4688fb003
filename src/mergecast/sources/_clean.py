"""Untrusted text made plain once, at the source boundary.

Titles, bodies, labels, names and logins come from strangers. Before anything else
sees them we drop characters that are never meant as text: NUL and other C0/C1
controls (except newline and tab), terminal escape sequences, bidi overrides,
embeddings and isolates (they reorder what a reader sees: "Trojan Source"),
zero-width spaces and BOMs (they hide inside handles), lone surrogates and the
U+FFFE/U+FFFF non-characters. Zero-width joiners stay only between non-ASCII
characters: emoji sequences and several scripts need them. HTML is NOT escaped
here: each output (page, feed, cue) escapes for its own syntax.
"""

from __future__ import annotations

import re

_UNWANTED = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 (but \t \n) and C1 controls; \r folds below
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidi marks, overrides, isolates
    "\u200b\u2060-\u2064\ufeff"  # zero-width space, word joiner, invisible operators, BOM
    "\ud800-\udfff\ufffe\uffff]"  # lone surrogates, non-characters
)
_LINE = re.compile(r"\r\n?")
# Terminal escape sequences (colours, cursor moves) whole, not just their ESC byte.
_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-_])")
# ZWJ/ZWNJ are meaningful inside emoji sequences and some scripts, never next to ASCII.
_STRAY_JOINER = re.compile(r"(?<=[\x00-\x7f])[\u200c\u200d]+|[\u200c\u200d]+(?=[\x00-\x7f])")
# GitHub logins: ASCII letters, digits and single hyphens; apps end in "[bot]".
_LOGIN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?")
_NOT_LOGIN = re.compile(r"[^A-Za-z0-9]+")
# OWNER/NAME as GitHub spells repositories (the CLI's --repo-name alphabet).
_SLUG = re.compile(r"[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}")
# A one-line field longer than this is cut: GitHub caps titles at 256 characters, but a
# commit subject or an export can carry a megabyte on one line.
LINE_LIMIT = 1_000


def clean_text(text: str) -> str:
    """`text` with control, bidi and zero-width characters removed; CRLF becomes LF."""
    text = _ANSI.sub("", _LINE.sub("\n", text))
    return _STRAY_JOINER.sub("", _UNWANTED.sub("", text))


def clean_line(text: str) -> str:
    """A one-line field (title, label, name): cleaned, whitespace runs folded to a space,
    at most LINE_LIMIT characters."""
    return " ".join(clean_text(text[: LINE_LIMIT * 4]).split())[:LINE_LIMIT].rstrip()


# "Wang, Chuanqi": a company directory's "Last, First". Said as written it sounds like two
# people ("Also today, Wang, Chuanqi landed …"); people say "Chuanqi Wang".
_WORD = r"[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)*"
_LAST_FIRST = re.compile(rf"({_WORD}), ({_WORD})")
_NOT_FIRST = frozenset({"Inc", "Ltd", "Llc", "Corp", "Co", "Jr", "Sr"})  # "Acme, Inc"


def clean_name(text: str) -> str:
    """A person's name as a one-line field, in the order people say it."""
    name = clean_line(text)
    if (m := _LAST_FIRST.fullmatch(name)) and m.group(2) not in _NOT_FIRST:
        return f"{m.group(2)} {m.group(1)}"
    return name


def clean_login(login: str | None) -> str | None:
    """A GitHub login in GitHub's own alphabet, or None.

    A real login always matches and passes unchanged; anything else (markup, spaces,
    option-like "--x=y") is reduced to its letters and digits joined by hyphens, so a
    handle can never carry markup or start with '-'.
    """
    if not login:
        return None
    login = clean_line(login)
    if _LOGIN.fullmatch(login):
        return login
    bot = login.endswith("[bot]")
    core = _NOT_LOGIN.sub("-", login.removesuffix("[bot]")).strip("-")[:39].strip("-")
    if not core:
        return None
    return core + "[bot]" if bot else core


def clean_slug(slug: str | None) -> str | None:
    """An OWNER/NAME taken from untrusted text (a PR's url), cleaned; None unless what is
    left is a plain OWNER/NAME (no escapes, bidi controls, markup or `..` parts)."""
    if not slug:
        return None
    slug = clean_line(slug)
    if not _SLUG.fullmatch(slug) or any(part.strip(".") == "" for part in slug.split("/")):
        return None
    return slug
