"""Statement subjects: a commit subject that states what is now true ("make demo uses
examples/demo.toml", "A git name written 'Last, First' is said 'First Last'") or sums up
a piece of work under a label ("Skeleton: package layout, data model, config"), read as
such instead of as a "verb object" PR title. Its word lists are data
([statements] in ../data/language.toml)."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Mapping
from typing import Any

from ...models import Action
from ..text import strip_markup
from .titles import _CUT_WORD, _MERGE_SAID, _TAGS, PART, SYMBOL, clean_title
from .words import _load, base_verb, case_word, lower_first, words


@dataclasses.dataclass(frozen=True)
class Part:
    """One part of a subject, spoken: a statement ("make demo uses the demo TOML file"),
    an order ("link themes to earlier episodes") or an item ("lock tests")."""

    kind: str  # statement | order | item
    text: str
    topic: str = ""  # a statement's subject: what it is about


@dataclasses.dataclass(frozen=True)
class Subject:
    """A statement subject: its label (said, "" without one) and its parts, in order."""

    label: str
    parts: tuple[Part, ...]
    file: str = ""  # the label is a file ("redact.py: …"): said as one ("redact module")


@dataclasses.dataclass(frozen=True)
class _Lists:
    present: frozenset[str]
    commands: frozenset[str]
    objects: frozenset[str]
    not_labels: frozenset[str]
    pronouns: frozenset[str]
    openers: frozenset[str]
    relatives: frozenset[str]
    conjunctions: frozenset[str]
    nouns: frozenset[str]
    files: Mapping[str, str]
    folders: Mapping[str, str]
    label_words: int
    statement_words: int
    state: str
    cover: str
    label_frame: str
    work_frame: str
    work_nouns: frozenset[str]
    file_frame: str


@functools.cache
def lists() -> _Lists:
    d: Mapping[str, Any] = _load("language.toml")["statements"]
    return _Lists(present=frozenset(d["present"]), commands=frozenset(d["commands"]),
                  objects=frozenset(d["objects"]), not_labels=frozenset(d["not_labels"]),
                  pronouns=frozenset(d["pronouns"]),
                  openers=frozenset(d["openers"]) | words().subordinators,
                  relatives=frozenset(d["relatives"]),
                  conjunctions=frozenset(d["conjunctions"]), nouns=frozenset(d["nouns"]),
                  files=dict(d["files"]),
                  folders=dict(d["folders"]),
                  label_words=int(d["LABEL_WORDS"]),
                  statement_words=int(d["STATEMENT_WORDS"]), state=str(d["state"]),
                  cover=str(d["cover"]), label_frame=str(d["label_frame"]),
                  work_frame=str(d["work_frame"]), work_nouns=frozenset(d["work_nouns"]),
                  file_frame=str(d["file_frame"]))


_LABEL = re.compile(r"^\s*([^:;|()\[\]{}\"`]{1,80}?):\s+(?=\S)")
_ASIDE = re.compile(r"\s*(?:\([^()]*\)|\[[^\[\]]*\])")
_PARTS = re.compile(r"\s*;\s+|\.\s+(?=[A-Za-z])")
_DASH = re.compile(r"\s+(?:[–—]|--?)\s+")
_ASIDE_MARK = " | "  # (kept by the symbol filter that drops the dashes themselves)
_LONG_DASH = re.compile(r"\s[–—]\s")
_DASH_LABEL = re.compile(r"^\s*([^:;|()\[\]{}\"`]{1,60}?)\s\|\s+(?=\S)")
_FILE = re.compile(r"(?<![\w./-])\.?(?:[\w.-]+/)*?(?:([\w.-]+)/)?([A-Za-z_][\w-]*)"
                   r"\.([A-Za-z]{1,5})(?![\w/])")
_DETERMINERS = frozenset("the a an this these those its their every each no".split())
# Words a statement cut short may end on, dropped ("in the range of [0, 2**32)").
_DANGLING = frozenset("of to for in on at by with from into the a an and or as".split())
_COLONS = re.compile(r"\w:\w")  # "file:line:column" is no word anyone says
_REVERT = re.compile(r"^\s*\[?(?:revert|reland)\b", re.I)


def _file(m: re.Match[str]) -> str:
    """"examples/demo.toml" -> "the demo TOML file", "benchmarks/run.py" -> "the run
    benchmark" (a folder may say what its files are); an unknown suffix is left alone."""
    kind = lists().files.get(m.group(3).lower())
    if kind is None:
        return m.group(0)
    kind = lists().folders.get((m.group(1) or "").lower(), kind)
    return f"the {' '.join(case_word(w) for w in re.split(r'[_-]+', m.group(2)) if w)} {kind}"


@functools.lru_cache(maxsize=50_000)
def read_subject(title: str) -> Subject | None:
    """The title as a statement subject, or None for an ordinary title ("Add X", "fix:
    Y", "mxfp8 moe: enable ep=1"), which actions.py reads as verb, object and qualifier.

    "Label: a, b; c" is a summary under a label; a title whose words carry a finite verb
    after a noun phrase ("make demo uses X", "X is said Y", "A and B are verbs …") is a
    statement. Asides in brackets are dropped, parts split at semicolons and sentence
    ends, and whatever follows a dash is an aside too. A label that only says the kind
    of work ("docs:") or is a verb ("publish:") is told only before a statement."""
    # (a word GitHub cut off, "… selected by ScaledDotProductionAt…", is no word)
    text = " ".join(SYMBOL.sub(" ", _DASH.sub(_ASIDE_MARK, _CUT_WORD.sub(
        "", strip_markup(title)))).split())
    if _REVERT.match(text):
        return None
    text = _TAGS.sub("", PART.sub("", _MERGE_SAID.sub("", text)))
    for _ in range(3):  # nested asides: "(a (b) c)"
        text = _ASIDE.sub("", text)
    label, file, rest, kind_only = "", "", text, False
    # "briefing truth — evidence-backed duplicates, …": a long dash can end a label too
    # (a hyphen cannot: "Vendor Name - Fix x" is a vendor prefix, read as a title).
    m = _LABEL.match(text) or (_DASH_LABEL.match(text) if _LONG_DASH.search(title) else None)
    if m and (found := _label(m.group(1))) is not None:
        rest = text[m.end():]
        if _FILE.fullmatch(raw := m.group(1).strip()):
            file = _FILE.sub(_file, raw).removeprefix("the ")
        label, kind_only = found
    # After a dash, or a colon inside a part, comes an aside or an example.
    chunks = [c.split(_ASIDE_MARK.strip(), 1)[0].split(": ", 1)[0]
              for c in _PARTS.split(rest)]
    parts = tuple(p for c in chunks for p in _part(c))
    if not parts:
        return None
    if kind_only or not (label or file):
        # Without a label only a statement makes the subject one; a title opening on a
        # statement is told by it.
        return Subject("", parts) if parts[0].kind == "statement" else None
    if len(parts) == 1 and (parts[0].kind == "order" or parts[0].kind == "item" and (
            len(chunks) > 1 or ", " not in rest or _done(parts[0].text) or
            not names_work(label))):
        # "float8: enable on ROCm", "metal lowbit kernels: optimized X, Y and Z", "metal
        # lowbit ops: ci", "SAM2: more export, small perf improvements": an area and one
        # order or thing, read as a title
        return None
    return Subject(label=label, parts=parts, file=file)


def _label(raw: str) -> tuple[str, bool] | None:
    """A label as said and whether it only says the kind of work ("docs", "publish"),
    or None when the words before the colon are no label (a sentence, a long phrase)."""
    ws = clean_title(raw).split()
    if ws and ws[0].lower() in ("the", "a", "an"):
        ws = ws[1:]  # ("The writer's second pass —" is a three-word label)
    if not ws or len(ws) > lists().label_words or _finite(ws) is not None or \
            re.search(r"\d", raw) and not re.search(r"[A-Za-z]\d|\d[A-Za-z]", raw) or \
            re.search(r"\d\s*/\s*\w", raw) or sum(c.isalpha() for c in "".join(ws)) < 3:
        return None  # ("Issue 18 items 5, 7-10:", "PR2/N —": a reference or a part number)
    if _FILE.fullmatch(raw.strip()):
        return "", False
    if re.search(r"\w_\w", raw):
        return "", True  # "test_pipeline: …" names a place: told only before a statement
    if _imperative(ws):
        return None  # "Fix build error: …" is an order, read as a title
    if raw.strip().lower() in lists().not_labels:
        return "", True
    # "Hardening, first part": the work is hardening
    said = lower_first(clean_title(raw.split(",", 1)[0]))
    said = re.sub(r"^(?:the|a|an)\s+", "", said)  # "The daily job" is "the daily job work"
    return (said, False) if said else None


def _imperative(ws: list[str]) -> bool:
    """Words opening on a verb's base form: an order ("link themes to …")."""
    low = ws[0].lower()
    return base_verb(low) == low and low not in words().function and \
        low not in words().adjectives


def names_work(label: str) -> bool:
    """Whether a label names the work ("skeleton", "cross-day memory") rather than the
    place it is in ("SAM2", "VLM", "RL": the area already says that)."""
    return all(re.fullmatch(r"[a-z][a-z'-]*", w) for w in label.split())


def _part(chunk: str) -> list[Part]:
    """A chunk as a part (none when it opens on a word that needs an antecedent or on a
    conjunction); an order followed by a list ("redact before cutting, partial token
    runs") is the order and the list's items; a statement longer than a breath ends at
    its first comma after the verb ("X is stripped, so each part …")."""
    said = clean_title(_FILE.sub(_file, chunk.strip(" ,."))).replace(": ", " ")
    # "make fqn_matches_fqn_config public": after the command, an identifier said as
    # words is no subject and verb
    command = not re.match(r"\s*\S+\s+\S*\w_\w", chunk)
    ws = said.split()
    s = lists()
    if not ws or ws[0].lower() in s.pronouns | s.openers or _COLONS.search(said):
        return []  # "its own test module": whose, a listener cannot tell
    if (i := _finite(ws, command)) is not None:
        if len(ws) > s.statement_words:  # cut at a comma, else an "and", after the verb
            cut = next((j + 1 for j in range(i + 1, len(ws)) if ws[j].endswith(",")),
                       next((j for j in range(i + 3, len(ws)) if ws[j] == "and"), None))
            if cut is not None:
                said, ws = " ".join(ws[:cut]).rstrip(","), ws[:cut]
        while ws[-1].lower() in _DANGLING:  # "… in the range of" lost its end
            ws = ws[:-1]
        return [Part("statement", " ".join(ws).rstrip(","), topic=" ".join(ws[:i]))]
    if any(w.lower().strip(",") in s.pronouns for w in ws):
        return []  # "the collect module alone builds them": them, a listener cannot tell
    aux = [w for w in ws[1:] if w.lower() in words().auxiliaries]
    if len(ws) >= 3 and _imperative(ws) and not aux:
        # ("lock tests" may be a noun phrase; "cleanup used as a verb is …" a statement)
        return [Part("order", said)]
    # An item with an auxiliary is a statement not read as one ("a server that fails once
    # is not asked"): "covers" would make it a thing; it is not told.
    return [] if aux else [Part("item", said)]


def _finite(ws: list[str], command: bool = True) -> int | None:
    """Where the finite verb after a subject stands, or None: "make demo uses X" -> 2,
    "the name is said …" -> 2; an order ("Add X") and a noun phrase have none. After a
    relative clause ("a server that fails once is …") the main verb is the second."""
    low = [w.lower().strip(",") for w in ws]
    if len(low) > 3 and low[2] in lists().present and low[2].endswith("s") and (
            command and low[0] in lists().commands and low[1].isalpha() or
            _imperative(ws) and low[3] in lists().objects):
        return 2  # "make lint runs vulture", "init gitignore keeps the file's mode"
    if _imperative(ws) or low[0] in words().finite or \
            low[0].endswith("ing") and base_verb(low[0]):
        return None  # ("Have agents run perf runs …", "adding X so Y" are orders too)
    relative = False
    for i in range(1, min(len(low), 10)):
        if ws[i - 1].endswith(","):
            continue  # "A, B and C are …": the verb is after the list, not inside it
        if low[i - 1] in lists().conjunctions:
            return None  # "X so tiktoken doesn't error": a verb of the clause, none before
        if low[i - 1] in lists().relatives:
            relative = True
        if relative and (low[i] in words().auxiliaries or low[i] in lists().present or
                         low[i].endswith("s") and base_verb(low[i])):
            relative = False  # "relations that are true": the clause's verb, not the main
            continue
        if low[i] in words().auxiliaries and i + 1 < len(low) and not (
                low[i] in ("is", "was") and _verb_s(low[i + 1])) or _present(low, i):
            # ("… precedence in AQT is checks": a code word, not a verb)
            # "one scrubber for every secret the process holds" is a noun phrase: a
            # determiner inside the words before the verb opens a relative clause; "A, B,
            # C owns" without an "and" is no subject.
            # ("a semicolon before an order ends …": after a preposition it is its object)
            listed = sum(x.endswith(",") for x in ws[:i]) >= 2 and "and" not in low[:i]
            clause = any(x in _DETERMINERS and low[k] not in words().function
                         for k, x in enumerate(low[1:i], 0))
            return None if listed or clause else i
    return None


def _done(text: str) -> bool:
    """Whether a part opens on a verb's past form ("optimized X, Y and Z"): alone under a
    label, the title's own reading tells it as an order."""
    first = text.split(" ", 1)[0].lower()
    return first.endswith("ed") and base_verb(first) is not None and \
        first not in words().adjectives


def says_how_it_goes(word: str) -> bool:
    """A present-tense verb of how something goes that the verb lexicon does not know
    ("fails", "works", "stops"): after a noun, the clause's own verb."""
    return word.endswith("s") and word in lists().present


def _verb_s(word: str) -> bool:
    """A third-person form of a verb the lexicon knows ("checks", "fixes")."""
    base = base_verb(word)
    return base is not None and base != word and word.endswith("s")


def _present(low: list[str], i: int) -> bool:
    """Whether the word at `i` is a present-tense verb: one the data lists, or a
    third-person form of a verb the lexicon knows before an object ("reads the totals"),
    after a word that can end a noun phrase."""
    s, w = lists(), words()
    word, before = low[i], low[i - 1]
    if before in w.function or before in s.commands:
        return False
    if word in s.present:
        # A verb's base form needs a plural subject ("tests follow", "A and B share"; not
        # "one share helper"); an -s word that may be a noun needs an object after it
        # ("the signal names one area", not "better page names for training").
        if not word.endswith("s"):
            return before.endswith("s") and not before.endswith("ss") or "and" in low[:i]
        # ("the kernel writes out X": a particle after it makes it the verb)
        return i + 1 < len(low) and (word not in s.nouns or low[i + 1] in s.objects or
                                     i + 2 < len(low) and low[i + 1] in _PARTICLES)
    if i + 1 >= len(low) or low[i + 1] not in s.objects and not (
            i + 2 < len(low) and low[i + 1] in _PARTICLES):
        return False
    base = base_verb(word)  # ("Sort imports in …": the second word may be a plural noun)
    if base is not None and base == word:  # "descriptions read more of …"
        return before.endswith("s") and not before.endswith("ss") and word not in w.function
    return i >= 2 and base is not None and word.endswith("s")


def said_list(text: str) -> str:
    """A list of three or more written with commas only ("A, B, C") said as a list ("A, B
    and C"); one comma may be an aside ("a whole run, stage by stage")."""
    if text.count(", ") >= 2 and not re.search(r"\b(?:and|or)\b", text):
        head, _, last = text.rpartition(", ")
        return f"{head} and {last}"
    return text


def covers(action: Action) -> bool:
    """Whether an action is a summary's item ("covers lock tests")."""
    return action.lemma == lists().cover and not action.verb


def is_stated(action: Action) -> bool:
    """Whether an action reports a statement ("notes that …"): said whole, never cut."""
    return action.lemma == lists().state and action.obj.startswith("that ")


def stated_topic(title: str) -> str | None:
    """What a title that is one statement is about: its subject ("Stacks are named by their
    own parts" -> "Stacks"), None for any other title."""
    subject = read_subject(title)
    if subject is None or len(subject.parts) != 1 or subject.parts[0].kind != "statement":
        return None
    ws = subject.parts[0].topic.split()
    while ws and (ws[-1].lower() in words().adverbs or ws[-1].lower() in _WHEN):
        ws.pop()  # "the loader now keeps …" is about the loader
    return " ".join(ws) or None


# Particles that put a verb before its object ("writes out X"); not [inflections] particles,
# whose "in", "on" and "through" are as often prepositions after a plural noun.
_PARTICLES = frozenset("out up down off back away over".split())
_WHEN = frozenset("now already never no longer still".split())  # beside [words] adverbs
