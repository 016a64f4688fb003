"""Plain language from PR text: titles as verb phrases, bodies as short spoken sentences.

PR titles and bodies are untrusted. Nothing here follows them; it only keeps short prose
sentences without code, paths, links or markup, and drops anything that talks to a reader.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..analysis.text import strip_markup

_TAGS = re.compile(r"^\s*(?:\[[^\]]{1,40}\]\s*|[A-Za-z0-9_./-]{1,30}:\s+)+")
_TRAILING_REF = re.compile(r"\s*\((?:#\d+|\w+/\w+#\d+)\)\s*$")
_PATH = re.compile(r"(?<![\w])(?:[\w.-]+/)+([\w-]+)(?:\.\w{1,5})?")
_CALL = re.compile(r"\b([A-Za-z_][\w.]*)\(\)")
_TICKS = re.compile(r"`([^`]*)`")
_EXT = re.compile(r"(?<=\w)\.(?:py|pyi|toml|ya?ml|md|rst|txt|json|cfg|sh|cpp|cu|cuh|h|hpp|ipynb)\b",
                  re.I)
_SNAKE = re.compile(r"(?<![\w.])([A-Za-z][A-Za-z0-9]*(?:[_.][A-Za-z0-9]+)*_[A-Za-z0-9]+"
                    r"(?:[_.][A-Za-z0-9]+)*)"
                    r"(?!\w|\.\w)")
_VERB_S = (
    "add adjust align allow avoid bump cache change check clarify clean convert create define "
    "delete deprecate disable document drop enable ensure expand expose extend fold generate give "
    "guard handle honor implement improve inline introduce keep let log lower make mark merge "
    "migrate move optimize pass port preserve prevent propagate raise record reduce refactor "
    "register reland remove rename reorder replace respect restore return reuse revert rewrite "
    "route run set show simplify skip speed split start stop support teach tighten track turn "
    "unify update upgrade use validate wire wrap trace emit lift hoist bind cast fuse shard link "
    "decompose annotate deduplicate specialize unroll vectorize warn evict pin ship trim strip "
    "swap flag map tag cap"
).split()
_IRREGULAR = {"fix": "fixes", "pass": "passes", "patch": "patches", "switch": "switches",
              "teach": "teaches", "catch": "catches", "push": "pushes", "do": "does",
              "go": "goes", "apply": "applies", "unify": "unifies", "simplify": "simplifies",
              "clarify": "clarifies", "copy": "copies", "retry": "retries", "dedupe": "dedupes"}
_SMALL = frozenset("a an and as at but by for from in into nor of on or over per the to via vs "
                   "with".split())
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|me|my|we|we're|we've|us|our)\b", re.I)
_ADDRESSING = re.compile(
    r"\b(?:you|your|ignore|instruction|instructions|prompt|podcast|episode|assistant|listeners?|"
    r"LLM|model|claim|say|announce|pretend|system)\b", re.I)
_CODEY = re.compile(r"[`{}\[\]<>|=\\$@#*]|::|->|\(\)|\b\w+_\w+\b|\b\w+\.\w+\(|/\w|\w/|https?:"
                    r"|\w\.(?:py|pyi|toml|ya?ml|md|json|cpp|cu|sh)\b"
                    r"|\.\w{1,4}\b\s")
_SECTION_END = re.compile(
    r"(?im)^\s*(?:#+\s*)?(?:test plan|testing|tests?|stack from ghstack|differential revision|"
    r"cc|pull request resolved|reviewed by|approved by|fixes|checklist|benchmarks?|"
    r"results|repro|reproduction)\b.*$")
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def _clean_body(text: str) -> str:
    """The analysis stage's clean_body when it is there, else a local equivalent."""
    try:
        from ..analysis.text import clean_body
    except ImportError:
        return _fallback_clean(text)
    return _fallback_clean(clean_body(text))


def _fallback_clean(text: str) -> str:
    text = text.replace("\r\n", "\n")
    text = re.sub(r"(?s)```.*?(?:```|$)", "\n", text)
    text = re.sub(r"(?s)<!--.*?-->", " ", text)
    cut = _SECTION_END.search(text)
    if cut:
        text = text[: cut.start()]
    lines = []
    for line in text.split("\n"):
        if re.match(r"^( {4}|\t)", line) or re.match(r"^\s*[|>]", line):
            lines.append("")
            continue
        line = re.sub(r"^\s*(?:#+|[-*+]|\d+[.)])\s+", "", line)
        line = re.sub(r"^\s*(?:summary|motivation|description|context|overview)\s*:?\s*$", "",
                      line, flags=re.I)
        line = re.sub(r"^\s*(?:summary|motivation)\s*:\s*", "", line, flags=re.I)
        lines.append(line.strip())
    paragraphs = re.split(r"\n\s*\n", "\n".join(lines))
    return "\n\n".join(" ".join(p.split()) for p in paragraphs if p.strip())


_ANAPHORA = frozenset("it its they these those both all that such also so but and then here "
                     "there this stock either neither same".split())


def _rephrase(sentence: str) -> str:
    s = re.sub(r"^(?:This|The) (?:PR|diff|patch|commit)\b", "The change", sentence)
    s = re.sub(r"\bthis (?:PR|diff|patch)\b", "this change", s)
    s = _TICKS.sub(r"\1", s)
    s = re.sub(r"\s+--\s+|\s+—\s+", ", ", s)
    s = re.sub(r"\s*\([^()]{0,60}\)", "", s).strip()
    first = s.split(" ", 1)[0]
    if first.endswith("s") and first[:-1].lower() in _VERB_S + list(_IRREGULAR):
        s = "The change " + s[0].lower() + s[1:]
    elif first.endswith("es") and first[:-2].lower() in _IRREGULAR:
        s = "The change " + s[0].lower() + s[1:]
    return s


def body_sentences(
    body: str, *, accept: Callable[[str], bool] = lambda s: True, limit: int = 3,
    max_words: int = 30,
) -> list[str]:
    """Up to `limit` plain sentences from a PR body: the problem and the change, in order."""
    out: list[str] = []
    for paragraph in _clean_body(body).split("\n\n"):
        for raw in _SENTENCE_SPLIT.split(paragraph):
            s = _rephrase(raw.strip())
            words = s.split()
            if not (6 <= len(words) <= max_words) or s[-1] not in ".!?" or s.endswith("..."):
                continue
            if _CODEY.search(s + " ") or _FIRST_PERSON.search(s) or _ADDRESSING.search(s):
                continue
            if words[0].lower().strip(",") in _ANAPHORA:
                continue  # leans on a sentence we did not keep
            if sum(1 for w in words if re.search(r"[A-Z].*[A-Z]|\d", w)) > len(words) // 3:
                continue  # mostly identifiers and numbers: not plain speech
            if s.endswith("!"):
                s = s[:-1] + "."
            if not accept(s):
                continue
            out.append(s[0].upper() + s[1:])
            if len(out) >= limit:
                return out
    return out


_TOPIC = re.compile(r"^\s*([A-Za-z][A-Za-z -]{1,24}?):\s+(?=\S)")
_NOT_TOPICS = frozenset("feat feature fix bugfix chore docs doc refactor test tests build ci perf "
                        "style revert wip release deps bump merge nit".split())


def split_topic(title: str) -> tuple[str | None, str]:
    """"Cross-day memory: link themes" -> ("cross-day memory", "link themes"); a commit
    subject's leading topic, but not a conventional-commit type such as "fix:"."""
    m = _TOPIC.match(title)
    if not m or m.group(1).strip().lower() in _NOT_TOPICS:
        return None, title
    return _lower_first(m.group(1).strip()), title[m.end():]


def strip_title(title: str) -> str:
    """"[c10d][nccl2] Honor NCCL env controls (#123)" -> "Honor NCCL env controls"."""
    t = _TRAILING_REF.sub("", title.strip())
    t = strip_markup(t)
    t = _TAGS.sub("", t)
    t = re.sub(r"(?<=\")\s*(?:\[[^\]]{1,40}\]\s*)+", "", t)  # Revert "[dynamo] X" -> Revert "X"
    t = _TICKS.sub(r"\1", t)
    t = _CALL.sub(r"\1", t)
    t = re.sub(r"https?://\S+", "", t)
    t = _PATH.sub(r"\1", t)
    # Code said aloud reads badly: "x -> y" is "x to y", "at::optional" is "optional",
    # "info[key]" is "info"; a stray slash ("flow/", "fbcode//ao") is a space.
    t = re.sub(r"\s*(?:->|=>|→)\s*", " to ", t)
    t = re.sub(r"\b(?:[A-Za-z]\w*::)+(\w+)", r"\1", t)
    t = re.sub(r"\s*\[[^\[\]]*\]", "", t)
    t = re.sub(r"(?<=\w)/+(?=\s|$)|(?<=\w)//+(?=\w)", " ", t)
    # File names and snake_case read as words: "test_validate.py" -> "test validate".
    t = _EXT.sub("", t)
    t = _SNAKE.sub(lambda m: re.sub(r"[_.]+", " ", m.group(1)), t)
    return " ".join(t.split()).rstrip(" .;:,")


def _lower_first(text: str) -> str:
    first = text.split(" ", 1)[0]
    if len(first) > 1 and first[0].isupper() and first[1:].islower():
        return text[0].lower() + text[1:]
    return text


def verb_phrase(title: str) -> str:
    """A PR title as what the PR does: "Fix NaN in sdpa" -> "fixes NaN in sdpa"."""
    t = strip_title(title).split(";")[0].strip()
    if not t:
        return "makes a change"
    first, _, rest = t.partition(" ")
    low = first.lower()
    if low in _IRREGULAR:
        verb = _IRREGULAR[low]
    elif low in _VERB_S:
        verb = low + ("es" if low.endswith(("s", "sh", "ch", "x", "z")) else "s")
    elif low.endswith("ing") or low.endswith("ed"):
        return "covers " + _lower_first(t)
    else:
        return "covers " + _lower_first(t)
    return f"{verb} {rest}".strip()


_DOUBLE = frozenset("stop drop wrap skip set let run ship plan pin tag log cap trim strip "
                    "split swap flag map".split())


def gerund_phrase(title: str) -> str:
    """A title as an activity: "Make nccl2 the default" -> "making nccl2 the default"."""
    t = strip_title(title).split(";")[0].strip()
    if not t:
        return ""
    first, _, rest = t.partition(" ")
    low = first.lower()
    if low not in _VERB_S and low not in _IRREGULAR:
        return _lower_first(t)
    if low in _DOUBLE:
        ing = low + low[-1] + "ing"
    elif low.endswith("ie"):
        ing = low[:-2] + "ying"
    elif low.endswith("e") and not low.endswith(("ee", "ye", "oe")):
        ing = low[:-1] + "ing"
    else:
        ing = low + "ing"
    return f"{ing} {rest}".strip()


def noun_phrase(title: str) -> str:
    """A title as a topic for "both tackle …": an activity, no tags."""
    return gerund_phrase(title) or "the same problem"


def title_case(text: str) -> str:
    """Title Case, keeping acronyms, identifiers and small words (except the first)."""
    words = text.split()
    out = []
    for i, w in enumerate(words):
        if any(c.isdigit() for c in w) or any(c.isupper() for c in w[1:]):
            out.append(w)
        elif i and w.lower() in _SMALL:
            out.append(w.lower())
        else:
            out.append("-".join(p if j and p.lower() in _SMALL else p[:1].upper() + p[1:]
                                for j, p in enumerate(w.split("-"))))
    return " ".join(out)


def clean_headline(headline: str) -> str:
    """A headline without tags and without the cut-off tail of a long commit subject:
    "Cross-day memory: link themes and…" -> "Cross-day memory"."""
    text = strip_title(headline)
    if not text.endswith(("…", "...")):
        return text
    text = text.rstrip(".… ")
    head, sep, _ = text.partition(": ")
    if sep and len(head.split()) >= 2:
        return head
    words = text.split()[:-1]  # the last word may be cut in half
    while words and words[-1].lower().rstrip(",;") in _SMALL:
        words.pop()
    return " ".join(words).rstrip(",;:") or head


def headline_text(headline: str) -> str:
    """A theme headline as it is said after "First theme:"."""
    return _lower_first(clean_headline(headline)) or "assorted changes"


def shorten(text: str, limit: int) -> str:
    """Cut at a word boundary to at most `limit` characters, dropping a dangling small word."""
    if len(text) <= limit:
        return text
    words = text[: limit + 1].split()[:-1] if text[limit:limit + 1] != " " else text[:limit].split()
    while words and words[-1].lower() in _SMALL:
        words.pop()
    return " ".join(words).rstrip(",;:")
