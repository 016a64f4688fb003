"""Text helpers for analysis: body cleaning, title tags, identifier-aware tokens.

PR bodies are attacker-controlled and can be huge; every function here works on at most
BODY_LIMIT characters of a body so one pathological PR cannot slow a whole day down.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Set

# Bodies are cut to this many characters before any analysis (cleaning, TF-IDF, stack
# lists). Real descriptions rarely pass 5k; stack lists sit at the top.
BODY_LIMIT = 20_000

# Markup and script schemes in attacker-written titles are never read out as code. Speech
# markup (SSML: <speak>, <break time="30s"/>, <prosody>, vendor tags such as
# <amazon:effect>) is markup too: a title must not be spoken or captioned as tags.
HTML_TAG = re.compile(
    r"<\s*/?\s*(?:[!?]|(?:script|style|i?frame|img|svg|math|a|b|i|u|s|em|strong|div|span|p|br"
    r"|object|embed|form|input|button|body|html|head|meta|link|base|video|audio|source|details"
    r"|summary|code|pre|sub|sup|table|tr|td|th|ul|ol|li|h[1-6]"
    r"|speak|break|prosody|emphasis|say-as|phoneme|voice|mark|lang|w|par|seq|media|desc"
    r"|lexicon|token|[a-z]+:[\w-]+)(?![\w-]))[^<>]*>",
    re.I,
)
SCRIPT_SCHEME = re.compile(r"\b(?:javascript|data|vbscript):\S*", re.I)


def strip_markup(text: str) -> str:
    """`text` without HTML elements and script-scheme links (each tag becomes a space)."""
    return SCRIPT_SCHEME.sub("", HTML_TAG.sub(" ", text))


_TAG = re.compile(r"^\s*\[([^\[\]]{1,40})\]\s*")
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.S)
_FENCE = re.compile(r"^\s*(```|~~~)")
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)|<img\b[^>]*>", re.I)
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_BARE_URL = r"https?://\S+?(?=[.,;:!?]*(?:\s|$))"  # leaves the full stop or comma after it
# "(link)" and "(see link)" go whole
_PAREN_URL = re.compile(r"\s*\((?:\s*(?:see|cf\.?|from|in|via|per|ref|details|context)\b:?)?\s*"
                        r"https?://[^\s()]*\)", re.I)
_URL = re.compile(_BARE_URL, re.I)
# A link a sentence leans on ("the solution in <link> when it lands", "Introduced by
# <link>."): taken out, it leaves a hole mid-sentence, so the sentence goes whole.
_LEANING_WORD = r"\b(?:in|at|from|see|of|via|by|with|on|into|to|per|for|after|like|than|following)"
_LEANING_URL = re.compile(_LEANING_WORD + r"\s+" + _BARE_URL, re.I)
_LEANS_NEXT = re.compile(_LEANING_WORD + r"\s*$", re.I)  # … and the link opens the next line
_OPENS_ON_URL = re.compile(r"^\s*" + _BARE_URL)
# A link that is its sentence's subject ("<link> refactors X but didn't set Y"): taken
# out, the verb is left to the change the body describes, a false claim.
_SUBJECT_URL = re.compile(r"(?:^|(?<=[.!?]\s))\s*https?://\S*[^\s.,;:!?](?=\s+[a-z])")
_HTML_TAG = re.compile(r"</?[a-zA-Z][^>]*>")
_STACK_HEADER = re.compile(
    r"^\s*(Stack from \[ghstack\]|\[//\]: # \(BEGIN SAPLING FOOTER\)|Stack created with \[Sapling\]"
    r"|\*\*Stack\*\*:|Stack PRs:|This stack of pull requests is managed by|"
    r"⚠️ \*Part of a stack created by \[spr\])",
    re.I,
)
_STACK_ITEM = re.compile(r"^\s*[*-]\s+(?:__->__\s+)?(?:\*\*)?#\d+\b|^\s*\*\s+`[^`]+`\s*$")
_CC = re.compile(r"^\s*cc:?\s+@", re.I)
_CHECKLIST = re.compile(r"^\s*[-*]\s+\[[ xX]\]")
_STACK_NOTE = re.compile(r"^\s*\(oldest at bottom\):?\s*$", re.I)
_TABLE = re.compile(r"^\s*>?\s*\|")
_BOILERPLATE = re.compile(
    r"^\s*(Differential Revision|Reviewed By|Pulled By|Pull Request resolved|Approved by|"
    r"ghstack-source-id|ghstack dependencies|X-link|Fixes|Signed-off-by|Co-authored-by|"
    r"Test Plan|Reviewers|Subscribers)\s*:|^\s*imported-using-ghimport",
    re.I,
)
_SECTION_END = re.compile(r"^\s*(#{1,6}\s|[A-Z][A-Za-z ]{2,30}:\s*$)")
_TEST_PLAN = re.compile(r"^\s*(#{1,6}\s*)?Test Plan\b", re.I)
_HEADING_ONLY = re.compile(
    r"^\s*(#{1,6}\s*)?(Summary|Changes|Motivation|Description|Context|Details|Overview)\s*:?\s*$",
    re.I,
)
_AI_NOTE = re.compile(r"^\s*\(?(authored|generated|written) with (an )?ai\b", re.I)
GHSTACK_LOG = "[ghstack-poisoned]"
# A squash merge's body lists the branch's own commits ("* Update", "* lint", ghstack's
# "[ghstack-poisoned]"): a log of throwaway messages, not a description of the change.
_BRANCH_LOG = re.compile(
    rf"^\s*{re.escape(GHSTACK_LOG)}\s*$|^\s*\*\s+(?:"
    r"update|up|push|yolo|bla|init|wip|tmp|nits?|lint(?:er| fix)?|ruff(?: format)?|format(?:ting)?"
    r"|fix(?:es)?(?: (?:lint|ci|tests?|typo|format(?: issue)?|issue))?|refine codes?"
    r"|address (?:review )?comments?|update (?:readme|docs|base)"
    r"|update (?:base for )?update on \".*\"|update [\w./-]+\.[a-z]{2,4})\s*$",
    re.I,
)


# Bracket tags that say how, not where: never an area or a series on their own.
WEAK_TAGS = frozenset(
    {"reland", "wip", "draft", "rfc", "do not merge", "dnm", "easy", "bc-breaking", "be",
     "ez", "trivial", "nfc", "revert", "experimental", "not for land", "skip ci"}
)


def weak_tag(tag: str) -> bool:
    """A tag of `WEAK_TAGS`, numbered or not: "[reland2]" is a second reland, no area."""
    return tag.lower().rstrip("0123456789 ") in WEAK_TAGS


def truncate(body: str) -> str:
    return body[:BODY_LIMIT]


_SHOWN = "\x00"  # where an image stood (sources take control characters out of bodies)
_LEANS = "\x01"  # where a link a sentence leans on stood


_LIST_MARK = r"(?:[*+-]|\d{1,2}[.)])\s"
_LIST_LINE = re.compile(r"^\s*" + _LIST_MARK)
_SENTENCE_END = re.compile(r"[.!?](?=\s)")
# How a sentence leading into code ends: "… configuration, adding". (One ending on a colon
# says its point before the code: "Fold the batch dim into the token dim:".)
_LEAD_IN_END = re.compile(r"\b(?:\w+ing|with|like|as|via|by|run|following)\s*$", re.I)


def _drop_lead_in(out: list[str], picture: bool) -> None:
    """The unfinished sentence that ends a paragraph just above a picture is its caption
    ("Loss curve for 3000 steps", "Green one is vanilla and purple one is balanced"); above
    code, one that leads into it ("… with the train script configuration, adding"). Heard
    without what follows, either points at nothing. A list's items are left alone."""
    end = len(out)
    while end and not out[end - 1].strip():
        end -= 1
    start = end
    while start and out[start - 1].strip():
        start -= 1
    if start == end or _LIST_LINE.match(out[end - 1]):
        return
    text = "\n".join(out[start:end]).rstrip()
    if text.endswith((".", "!", "?")):
        return
    cut = max((m.end() for m in _SENTENCE_END.finditer(text)), default=0)
    if picture or _LEAD_IN_END.search(text[cut:]):
        out[start:end] = text[:cut].split("\n") if cut else []


# Where a sentence starts (after another's end, a blank line or at a list item) and stops.
_PARAGRAPH_OR_ITEM = r"\n\s*\n|\n(?=\s*" + _LIST_MARK + ")"
_SENTENCE_START = re.compile(r"[.!?][\"')\]]*\s+|" + _PARAGRAPH_OR_ITEM)
_SENTENCE_STOP = re.compile(r"[.!?](?=[\"')\]]*(?:\s|$))|" + _PARAGRAPH_OR_ITEM)


def _drop_leaning(text: str) -> str:
    """`text` without the sentences (or list items) a removed link leaves unfinished."""
    while (i := text.find(_LEANS)) >= 0:
        start = max((m.end() for m in _SENTENCE_START.finditer(text, 0, i)), default=0)
        line = text.rfind("\n", 0, i) + 1
        if start > line and _LIST_LINE.match(text[line:start]):  # "1. " ended no sentence
            start = line
        stop = _SENTENCE_STOP.search(text, i)
        end = len(text) if stop is None else stop.end() if stop.group(0) in ".!?" else stop.start()
        rest = text[end:]
        if stop is None or stop.group(0) in ".!?":
            rest = rest.lstrip(" ")
        elif stop.group(0).count("\n") == 1 and (not start or text[start - 1] == "\n"):
            rest = rest[1:]  # the next list item takes the place of the one dropped
        text = text[:start] + rest
    return text


# Punctuation of a CJK input method typed into English prose ("index， which maps"): said
# and shown as the ASCII mark and its space.
_FULL_WIDTH = re.compile(r"\s*（|[，。：；！？）][ \t]*")
_ASCII = dict(zip("，。：；！？）", ",.:;!?)", strict=True))


def _ascii_mark(m: re.Match[str]) -> str:
    mark = m.group(0).strip()
    if mark == "（":
        return " ("
    word_next = m.string[m.end():m.end() + 1].isalnum()
    return _ASCII[mark] + (" " if word_next else "")


def clean_body(text: str) -> str:
    """The prose a person wrote: drop stack blocks, boilerplate, code, tables and images."""
    text = _HTML_COMMENT.sub("", truncate(text).replace("\r\n", "\n"))
    text = _FULL_WIDTH.sub(_ascii_mark, text)
    text = _IMAGE.sub(_SHOWN, text)  # (an <img> tag may span lines)
    out: list[str] = []
    # ghstack's squash log opens with its base commit, often another PR's title ("* Delete
    # deprecated BlockSparseLayout" in the body of the PR deleting QDQLayout): a bullet at
    # the margin there is a commit message, never this change's own step.
    ghstack_log = GHSTACK_LOG in text
    in_fence = led = False
    in_test_plan = False
    in_stack = False
    prev_blank = True
    prev_code = False
    for line in text.split("\n"):
        if _FENCE.match(line):
            if not in_fence:
                _drop_lead_in(out, picture=False)
                led = bool(out) and out[-1].rstrip().endswith(":")
            in_fence = not in_fence
            # The prose on either side of a code block are two paragraphs: joined, "… the
            # following pattern" ran on into the line under the block ("to The pass is …").
            # A colon that led into it reads on as before ("… from the docstrings: Failing
            # job." is cut at its colon as a run-on).
            if not led:
                out.append("")
            continue
        if in_fence:
            continue
        stripped = line.strip()
        if stripped == _SHOWN:
            _drop_lead_in(out, picture=True)
            continue
        if in_test_plan:
            if _SECTION_END.match(line) and not _TEST_PLAN.match(line):
                in_test_plan = False
            else:
                continue
        if _TEST_PLAN.match(line):
            in_test_plan = True
            continue
        if _STACK_HEADER.match(line):
            in_stack = True
            continue
        if in_stack:
            if not stripped or _STACK_ITEM.match(line) or _STACK_NOTE.match(line):
                continue
            in_stack = False
        is_code = (line.startswith("    ") or line.startswith("\t")) and (prev_blank or prev_code)
        prev_code = is_code and bool(stripped)
        prev_blank = not stripped
        if is_code:
            continue
        if (
            _STACK_ITEM.match(line) or _CC.match(line) or _CHECKLIST.match(line)
            or _TABLE.match(line) or _BOILERPLATE.match(line) or _HEADING_ONLY.match(line)
            or _AI_NOTE.match(line) or _BRANCH_LOG.match(line)
            or (ghstack_log and line.startswith("* "))
        ):
            continue
        line = line.replace(_SHOWN, "")
        line = _LINK.sub(r"\1", line)
        line = _LEANING_URL.sub(_LEANS, _PAREN_URL.sub("", line))
        if out and _LEANS_NEXT.search(out[-1]):
            line = _OPENS_ON_URL.sub(_LEANS, line)
        line = _URL.sub("", _SUBJECT_URL.sub(_LEANS, line))
        line = _HTML_TAG.sub("", line)
        # "#3595 is merged to wrong base" opens on a reference, not a heading.
        line = re.sub(r"^\s*#{1,6}(?!\d)\s*", "", line)
        out.append(line.rstrip())
    cleaned = _drop_leaning("\n".join(out))
    cleaned = re.sub(r"\n{3,}", "\n\n", cleaned)
    return cleaned.strip()


_SQUASH_SUBJECT = re.compile(r"^\* (.+)$", re.M)


def own_description(body: str, title: str, titles: Set[tuple[str, ...]] = frozenset()) -> str:
    """The part of a squash log that is this change's own. A ghstack log ("* subject", its
    message, "[ghstack-poisoned]", again for every commit of the branch) carries the
    messages of the PRs below it in the stack too: the section whose subject is the title
    is this change's; failing that, the only one with a message. With several messages and
    none named as the title, none is known to be this change's, so none is kept. A plain
    log of subjects ("* add tests" set apart by blank lines) loses only the subjects that
    are other changes' `titles` (as title_key gives them). Any other body is kept whole."""
    own = title_key(title)
    others = titles - {own}
    if GHSTACK_LOG not in body:
        if not others or not _subjects_only(body):
            return body
        return _SQUASH_SUBJECT.sub(lambda m: "" if title_key(m.group(1)) in others
                                   else m.group(0), body)
    marks = list(_SQUASH_SUBJECT.finditer(body))
    # A branch of one commit is squashed to that commit's message, with no subject line.
    sections = [(own, body[:marks[0].start() if marks else len(body)])]
    sections += [(title_key(m.group(1)), body[m.end():marks[i + 1].start()
                                              if i + 1 < len(marks) else len(body)])
                 for i, m in enumerate(marks)]
    said = [(subject, text) for subject, text in sections if subject not in others
            and clean_body(text.replace(GHSTACK_LOG, "")).strip()]
    for subject, text in said:
        if subject == own:
            return text
    return said[0][1] if len(said) == 1 else ""


def title_key(title: str) -> tuple[str, ...]:
    """A title's words, lower case, without its tags and its "(#123)"."""
    return tuple(re.findall(r"\w+", strip_tags(re.sub(r"\s*\(#\d+\)\s*$", "", title)).lower()))


def _subjects_only(body: str) -> bool:
    """Squash logs set each subject apart with a blank line; a list a person wrote
    ("* Add a flag" over "* Document it") runs line after line and is a description."""
    lines = [ln for ln in body.strip().split("\n") if not _BOILERPLATE.match(ln)
             and not ln.startswith("---")]
    said = [ln for ln in lines if ln.strip()]
    return bool(said) and all(ln.startswith("* ") for ln in said) and not any(
        a.startswith("* ") and b.startswith("* ") for a, b in zip(lines, lines[1:], strict=False))


def title_tags(title: str) -> list[str]:
    """Leading bracket tags: "[c10d][nccl2] Fix x" -> ["c10d", "nccl2"]."""
    tags: list[str] = []
    rest = title
    while True:
        m = _TAG.match(rest)
        if not m:
            return tags
        tags.append(m.group(1).strip())
        rest = rest[m.end():]


def strip_tags(title: str) -> str:
    """The title without its leading bracket tags."""
    rest = title
    while True:
        m = _TAG.match(rest)
        if not m:
            return rest.strip()
        rest = rest[m.end():]


_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_.]*[A-Za-z0-9]|[A-Za-z]")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")

STOPWORDS = frozenset(
    """a an and are as at be been but by can do does for from has have in into is it its
    of on or that the this these those to was were will with when which while not no so
    than then there their they we our you your i he she them if else also only just all
    any each more most such via per about after before over under out up down new use
    used using uses make makes made add adds added fix fixes fixed support supports
    remove removes removed update updates updated change changes changed allow allows
    pr prs summary test tests testing should would could may might now still already
    one two three get set what why how where who because since same other another
    instead rather like ensure ensures let lets both some many much very never always
    ever""".split()
)


def split_identifier(word: str) -> list[str]:
    """TORCH_NCCL_ASYNC -> torch nccl async; ProcessGroupNCCL -> process group nccl."""
    parts: list[str] = []
    for piece in re.split(r"[_.]+", word):
        parts.extend(p.lower() for p in _CAMEL.findall(piece))
    return parts


def stem(word: str) -> str:
    """A plural's singular, close enough to match a word with its plural ("kernels")."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


@functools.lru_cache(maxsize=200_000)
def _word_terms(word: str) -> tuple[str, ...]:
    parts = split_identifier(word)
    out: list[str] = []
    if len(parts) > 1 and "." not in word:
        out.append(word.lower())  # the compound itself is the most specific term
    for p in parts:
        if len(p) < 2 or p in STOPWORDS or p.isdigit():
            continue
        out.append(stem(p))
    return tuple(out)


def tokens(text: str) -> list[str]:
    """Content tokens: identifiers split on _ . and camelCase, plus the whole compound."""
    out: list[str] = []
    for word in _IDENT.findall(text):
        out.extend(_word_terms(word))
    return out


_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+./-]*[A-Za-z0-9+]|[A-Za-z0-9]")


def title_words(title: str) -> list[str]:
    """Surface words of a title without tags, keeping identifiers whole (for headlines)."""
    return _WORD.findall(strip_tags(title))


_ISSUE_REF = re.compile(
    r"(?:\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)\s*:?\s+(?:#|https?://github\.com/"
    r"[\w.-]+/[\w.-]+/issues/)(\d+))|(?:https?://github\.com/[\w.-]+/[\w.-]+/issues/(\d+))",
    re.I,
)


def issue_refs(text: str) -> frozenset[int]:
    """Issues a body points at: `Fixes #N` and issue URLs (not bare #N, which may be PRs)."""
    found: set[int] = set()
    for m in _ISSUE_REF.finditer(truncate(text)):
        found.add(int(m.group(1) or m.group(2)))
    return frozenset(found)

