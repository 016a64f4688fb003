"""Titles made speakable: tags, prefixes, references, links, paths and code punctuation
removed, identifiers said as words (`torch._native` -> "torch native")."""

from __future__ import annotations

import functools
import re

from ..text import strip_markup
from .paths import (
    ACTION_PATH,
    BUMPED_PATH,
    COMMAND,
    DOC_FILE,
    EXTS,
    FILE_PATH,
    LONE_FILE,
    MOVED_PATH,
    PLACED_FILE,
    PROSE_FILE,
    SHA_RANGE,
    STEM_PAIR,
    WORD_LIST,
    action_path,
    bumped,
    doc_file,
    dot_calls,
    dot_words,
    file_path,
    joined,
    lone_file,
    moved_path,
    placed_file,
    prose_file,
    stem_pair,
    word_list,
)
from .readings import (
    compared,
    defaulted,
    hyphenated,
    is_method,
    said_in_full,
    sized_names,
    typed,
    unowned,
)
from .words import base_verb, case_word, words

URL = re.compile(r"\s*\bhttps?://\S+")
TICKS = re.compile(r"`([^`]*)`")
# A folder in a code span ("Remove `sparsity/prototype/blocksparse`") is one place, never
# the list "sparsity, prototype and blocksparse": said by its last part, as any path is.
_TICKED_FOLDER = re.compile(r"`\.?/?((?:[a-z_][\w-]*/)+[a-z_][\w-]*)/?`")
CALL = re.compile(r"\b([A-Za-z_][\w.]*)\(\)")
EXT = re.compile(r"(?<=\w)" + EXTS, re.I)
# An identifier: snake_case, dotted.names, _private; said as words.
IDENT = re.compile(r"(?<![\w.])(?!(?:e\.g|i\.e|a\.k\.a)\b)_*(?:\d+)?[A-Za-z][A-Za-z0-9]*"
                   r"(?:_+[A-Za-z0-9]+|_*\.+_*[A-Za-z][A-Za-z0-9]*)+_*(?![\w])")
_TAGS = re.compile(r"^\s*(?:\[[^\[\]]{0,40}\]\s*|\([^()]{1,20}\)\s*)+")
# `fix:`, `feat(x)!:`, `RL:`, `components.checkpoint:`, `metal lowbit kernels:`
_PREFIX = re.compile(
    r"^\s*(?:[A-Za-z][\w./-]*(?:\([^()]{0,30}\))?!?|[A-Za-z][\w-]*(?:\s[\w-]+){1,2}):\s+")
# A part number of a series: "1/x", "[2/7]", "(3/n):".
PART = re.compile(r"^\s*(?:[\[(]\d{1,2}\s*/\s*\w{1,2}[\])]|\d{1,2}\s*/\s*(?:[xXnN]\b|\d{1,2}"
                  r"\s*:)|(?:PR|[Pp]art)\s*\d{1,2}\s*/\s*(?:[xXnN]|\d{1,2})\b\s*[-–—:]?)\s*:?\s+")
# ... or after the topic it numbers: "mx cleanup [2/x]: refactor mx gemm".
PART_TOPIC = re.compile(r"\s*[\[(]\s*(?:[Pp]art\s*)?\d{1,2}\s*/\s*(?:[xXnN]|\d{1,2})\s*[\])]"
                         r"(?=\s*:\s)")
# ... or at the end: "Experimental folder deprecation part 2/x", "Move X (3/n)".
_PART_END = re.compile(r"(?:\s+[Pp]art\s*\d{1,2}\s*/\s*(?:[xXnN]|\d{1,2})|\s+\d{1,2}\s*/\s*[xXnN]"
                       r"|\s*[\[(]\s*(?:[Pp]art\s*)?\d{1,2}\s*/\s*(?:[xXnN]|\d{1,2})\s*[\])])\s*$")
# "Qualcomm AI Engine Direct - Fix x": a vendor or area prefix before a dash.
_DASH_PREFIX = re.compile(r"^\s*([A-Za-z][\w.+-]*(?:\s[\w.+-]+){0,4})\s+[-–—]\s+(?=\S)")
# "Merge pull request #45 from drisspg/add-copy_-dispatch": the branch names the work.
_MERGE = re.compile(r"^Merge (?:pull request|PR) #?\d+ from \S*?/(\S+)\s*$", re.I)
_MERGE_SAID = re.compile(r"^Merge (?:branch )?'?[\w./-]+'?(?: \([^)]{0,40}\))?:\s+(?=\S)", re.I)
# Branch names that say nothing: ghstack's "gh/user/1/head", "main", "patch-1", and the web
# editor's "user-patch-1".
_BRANCH_NOISE = re.compile(r"^(?:head|base|orig|main|master|develop|(?:[\w.]+-)?patch-?\d*|\d+)$",
                           re.I)
# "(#1559)" anywhere: at the end as a squash merge writes it, or inside a label ("Bug Fix
# (#1559): X"), where it would keep the label from being read as one
_PAREN_REF = re.compile(r"\s*\(\s*(?:[\w.-]+/[\w.-]+)?#\d+\s*\)(?=\s*(?:$|:))")
_REF = (r"(?:(?:\b(?:PRs?|pull requests?|issues?)\s*)?(?:[\w.-]+/[\w.-]+)?#\d+"
        r"|\b(?:PRs?|pull requests?|issues?)\s+\d+|\b[\w-]+#\d+)"
        r"(?:\s*(?:,|and|&)\s*#?\d+)*")
# A reference at the end of a clause takes its preposition along ("fix feedback from PR 111").
_TRAILING_PR_REF = re.compile(
    r"\s*\b(?:from|in|see|for|of|after|by|via|and|on|per|like|fixes|closes)\s+" + _REF
    + r"(?=\s*(?:$|[,;:.)]))", re.I)
_PR_REF = re.compile(r"\s*" + _REF + r"(?:['’]s\b)?", re.I)  # ("Port #642's X": X)
_PR_WORD = re.compile(r"\b(?:PRs?|pull|issues?)\b", re.I)
_CALLED_WITH = re.compile(r"(?<=[A-Za-z])\((\d{1,3})\)")
_PARENS = re.compile(r"\s*(?:\([^()]*\)|\[[^\[\]]*\]|\{[^{}]*\})")
_PATH = re.compile(r"(?<![\w.])\.?(?:[\w.-]+/)+([\w.-]*\w)")
# "Re:Run X" runs X again ("re-run X"); "Re: X", a reply's prefix, is only X.
_RE_AGAIN = re.compile(r"^Re:(?:\s+|([A-Za-z][a-z]+)\b)")
# Another try of an internal diff, named by its id before its own title
_RETRY = re.compile(r"^(?:retry|re-?try|re-?land|re-?apply)\s+(?:of\s+)?[DT]\d{6,}"
                    r"\s*[:-]?\s+(?=\S)", re.I)
_LONG_NUMBER = re.compile(r"(?<![\w.])\d{5,}(?![\w.])")
_ARROW = re.compile(r"\s*(?:->|=>|→)\s*")
_QUOTES = re.compile(r"[\"“”‘’]|(?<!\w)'|'(?!\w)")
_FLAG = re.compile(r"(?<![\w-])--?([A-Za-z][\w-]*)(?:=\S*)?")
_CODE = re.compile(r"[{}<>|=\\$@#*]|::|->|//|\(\)|\w\(|\[\w*\]|`|\w\.\.\.?\w")
# No word anyone can say runs past this many letters (identifiers are split first).
LONGEST_WORD = 30
# (A CamelCase class name is said in words however long: "Float8ActInt4WeightQATQuantizer";
# so is a chain of words and hyphens: "inference-performance-hillclimb".)
_CAMEL = r"[A-Z][a-z0-9]+(?:[A-Z]+[a-z0-9]*){2,}(?!\S)"
_HYPHENED = r"[A-Za-z][a-z0-9]{0,29}(?:-[A-Za-z0-9][a-z0-9]{0,29})+(?!\S)"
_LONG_WORD = re.compile(rf"(?<!\S)(?!{_CAMEL}|{_HYPHENED})[^\s]{{{LONGEST_WORD + 1},}}")
_AMPERSAND = re.compile(r"(?<=[a-z]{2})&(?=[a-z]{2})|(?<=\w)\s+&\s+(?=\w)")
# "CP + block_causal + flexattention": a list, said "CP, block causal and flexattention"
_PLUS = re.compile(r"(?<=[\w)])\s+\+\s+(?=\w)")
_DASH = re.compile(r"\s+(?:[–—]+|--)\s+")
# 'Say X as made: "makes cosmetic changes"', 'Write X in capitals: "BMM", not "Bmm"': an
# example quoted after a colon ending a title of three words or more shows what the
# title says; it is not more of its object. (A label's colon, "Docs: "quick start"",
# has fewer words before it.)
_EXAMPLE_TAIL = re.compile(r'^(\S+(?:\s+\S+){2,}?)\s*:\s*["“][^"”]+["”]'
                           r'(?:,\s*not\s+["“][^"”]+["”])?(?=\s*(?:\(#\d+\))?\s*$)')
# A title GitHub cut mid-word ("… and add GB200/GB3… (#2451)"): the cut word is no word
_CUT_WORD = re.compile(r"(?<=[\s/])[^\s/]*\w…(?=\s*(?:\(#\d+\))?\s*$)")
SYMBOL = re.compile(r"[^\w\s\-.,:;!?'\"()\[\]{}<>/\\|=+*&%$#@~^`]")  # emoji, pictographs
# "add add fp8 kernels"; never the "on" of "on on-device", a compound's first part, nor a
# number, which a shape repeats ("a_1_128_w_128_128")
DOUBLED = re.compile(r"\b([^\W\d]\w*)(?:\s+\1\b(?!-))+", re.I)


def speak_identifier(token: str) -> str:
    """An identifier as a person says it: "torch._native" -> "torch native",
    "quantized_moe_ffn" -> "quantized MoE FFN", "a.b.c.state_dict" -> "c state dict"."""
    dotted = [p for p in token.strip("._").split(".") if p.strip("_")]
    if len(dotted) > 1 and dotted[0] in ("self", "cls"):
        dotted = dotted[1:]  # "self.rope_cache" is the module's rope cache, said "rope cache"
    if len(dotted) > 3:
        dotted = dotted[-2:]
    last = dotted[-1].strip("_").split("_") if dotted else []
    if len(dotted) > 1 and 1 < len(last) <= 3 and last[0].lower() in _LEADING_VERBS:
        # "language.is_phrasal": its flag or predicate one compound ("language is-phrasal"),
        # never "language is phrasal", a sentence of its own
        return f"{speak_identifier('.'.join(dotted[:-1]))} {speak_identifier(dotted[-1])}"
    if len(dotted) == 2 and "_" not in token and is_method(dotted[1]):
        # "model.to" is a method: "the model's to method", never "model to for int8 models"
        return f"the {case_word(dotted[0])}'s {dotted[1].lower()} method"
    parts = [p for seg in dotted for p in seg.split("_") if p]
    whole = "".join(parts)
    if len(parts) == 2 and whole.islower() and case_word(whole) != whole:
        return case_word(whole)  # "deep_ep" is the library DeepEP, never "deep EP"
    if len(parts) > 1:  # "…_xbit_weightAppleMac": a part in lowerCamelCase is words too
        parts = [w for p in parts for w in
                 (_LOWER_CAMEL.findall(p) if _LOWER_CAMEL_WORD.fullmatch(p) else [p])]
    if len(parts) > 1 and all(p.isupper() or p.isdigit() for p in parts):
        # "PYTORCH_CUDA_ALLOC_CONF", a constant or an environment variable, is said in
        # words ("PyTorch CUDA alloc conf"), not shouted a word at a time
        parts = [p.lower() if p.isalpha() else p for p in parts]
    said: list[str] = []
    for i, p in enumerate(parts):
        nxt = parts[i + 1] if i + 1 < len(parts) else ""
        if said and re.fullmatch(r"\d", p) and re.fullmatch(r"[A-Za-z]+\d{1,2}", parts[i - 1]) \
                and not nxt[:1].isdigit():
            said[-1] += "." + p  # "qwen3_5" is the model Qwen3.5, not "Qwen3 5"
        else:
            said.append(case_word(p))
    if len(said) == 2 and said[1].lower() in _TRAILING_PREPOSITIONS and said[0].isalpha():
        # "split_from" said "split from" reads as a verb and its preposition ("using split
        # from for eager new group"): written as one compound, it stays one name.
        return "-".join(said)
    if 1 < len(said) <= 4 and said[0].lower() in _LEADING_PREPOSITIONS or \
            1 < len(said) <= 3 and said[0].lower() in _LEADING_VERBS:
        # "in_grad_placements" said "in grad placements" reads as a place ("passes the
        # computed in grad placements"), "from_int4_tensor" as a source, "is_forward" as
        # a verb ("makes is forward default to True"): one compound, a part said as two
        # words too ("is-CUDA-graph-compatible", never "is-CUDA graph-compatible")
        return "-".join(p.replace(" ", "-") for p in said)
    return " ".join(said)


_LOWER_CAMEL_WORD = re.compile(r"[a-z][a-z0-9]*(?:[A-Z][a-z]+){2,}")
_LOWER_CAMEL = re.compile(r"^[a-z][a-z0-9]*|[A-Z][a-z]+")
# ("multiple_of", "channels_in" read right as words: "multiple of", "channels in")
_TRAILING_PREPOSITIONS = frozenset("from to for as".split())
_LEADING_PREPOSITIONS = frozenset("from to for as in on of by with into".split())
# (a flag's name opening on a verb: "is_causal", "has_bias", "use_cpp")
_LEADING_VERBS = frozenset("is are was has have use uses should can does must needs".split())


# "skip test_slice_int4wo for ROCm": a test function, named as a person names a test
_TEST_NAME = re.compile(r"(?<![\w.])(?:(the|a|an|this|its|one)\s+)?test_+([A-Za-z0-9]\w*)"
                        r"(?!\w|\.\w)", re.I)  # (a full stop may end the sentence)


def said_identifiers(text: str) -> str:
    """Every identifier in `text` said as words; a test function as its test: "fix
    test_bf16_round" -> "fix the BF16 round test"."""
    text = IDENT.sub(lambda m: speak_identifier(m.group(0)) + _flag(m), _TEST_NAME.sub(
        _test_name, text))
    return _UNDERSCORED.sub(r"\1\2", text)


_SWITCH = re.compile(r"_(?:enabled|disabled)$", re.I)
_END = re.compile(r"\s*(?:[.;:)]|$)")


def _flag(m: re.Match[str]) -> str:
    """ "dp_enabled" ending a title is a flag: "fix missing dp_enabled" fixes "the missing
    DP enabled flag", never "the missing DP enabled", a thing with no noun. (Before more
    words, "remove X_enabled from the AC path", the words after it say what it is.)"""
    return " flag" if _SWITCH.search(m.group(0)) and _END.match(m.string, m.end()) else ""


# A name whose only underscores open or close it ("quantize_", "__init__"): its word.
_UNDERSCORED = re.compile(r"(?<![\w.])_+([A-Za-z][A-Za-z0-9]*)_*(?![\w])"
                          r"|(?<![\w.])([A-Za-z][A-Za-z0-9]*)_+(?![\w])")


def _test_name(m: re.Match[str]) -> str:
    after = [w.lower().strip(".,;:") for w in m.string[m.end():].split()[:2]]
    if m.group(2).lower() in words().test_tools:
        return m.group(0)  # "test_runner"
    said = speak_identifier(m.group(2))
    before = m.string[:m.start()].split()
    # after a verb, a preposition or nothing it takes "the"; after its own modifier
    # ("internal test_x") it has one already
    article = m.group(1) or ("the" if not before or base_verb(before[-1]) or
                             before[-1].lower() in words().function else "")
    if article.lower() in ("a", "an"):  # "a overlap …" is no English
        article = article[0] + ("n" if said[:1].lower() in "aeiou" else "")
    if after[1:2] and after[1] in ("test", "tests") and after[0] in _TEST_KINDS:
        return f"{article} {said}".lstrip()  # "a test_x integration test": "an x integration test"
    if {"test", "tests"} & set(after):
        return m.group(0)  # "test_generate features test" says "test" already
    return f"{article} {said} test".lstrip()


_TEST_KINDS = frozenset("integration unit regression smoke e2e end-to-end parity".split())


# A code span opening on one, or with one between spaces inside ("finfo(dtype).max / 1.0"),
# is an expression; so is an annotation ("args: ModelArgs")
_OPERATOR = re.compile(r"\s*[%*+=<>|&^~/]|.*\S\s[%*+/<>=-]=?\s\S|\w+\s*:\s*[\w.\[\]|]+\s*$")


def speakable(text: str) -> str | None:
    """A prose sentence with its identifiers said as words, or None when code is left that
    no person would read out (an assignment, a call with arguments, a flag, braces)."""
    if any(_OPERATOR.match(m.group(1)) for m in TICKS.finditer(text)):
        return None  # "eliminates `% seq_len`": an expression, no name to say
    text = TICKS.sub(r"\1", text)
    text = CALL.sub(r"\1", text)
    if COMMAND.search(text) or _FLAG.search(text) or _CODE.search(text) or \
            re.search(r"\w/\w|/\w+\.\w|\w/(?!\S)", text):  # (a folder: "checkpoint/ dir")
        return None
    text = dot_words(EXT.sub("", PROSE_FILE.sub(prose_file, text)))
    text = said_identifiers(text)
    return None if _LONG_WORD.search(text) else text


def _unprefixed(title: str) -> str:
    """A title without its "area:" prefix. A prefix that is itself an order ("Fix red CI:
    numa + H100 breaks") is the title's action when what follows has no verb of its own;
    before one ("Fix CI: synchronize X") it is only a label."""
    m = _PREFIX.match(title)
    if m is None:
        return title
    label, rest = title[:m.end()].strip(" :").split(), title[m.end():].split()
    # (nor has a gerund with a verb after it: "Fix X docs: Loading Y is off" says what
    # was wrong, where "Update docs: adding a section" says what is done)
    if len(label) > 1 and base_verb(label[0]) and rest and (not base_verb(rest[0]) or (
            rest[0].lower().endswith("ing") and any(w.lower() in words().finite
                                                    for w in rest[1:]))):
        return title
    return title[m.end():]


def split_prefix(title: str) -> tuple[str | None, str]:
    """A leading "Vendor Name - " prefix and the rest; (None, title) when there is none."""
    m = _DASH_PREFIX.match(title)
    if not m or base_verb(m.group(1).split()[0]) or len(title[m.end():].split()) < 2:
        return None, title
    return m.group(1), title[m.end():]


def unnumbered(title: str) -> str:
    """A title without the part number that opens it or follows its topic."""
    return PART.sub("", PART_TOPIC.sub("", title))


@functools.lru_cache(maxsize=50_000)
def clean_title(title: str) -> str:
    """A title without tags, prefixes, PR references, links, paths and code punctuation;
    identifiers said as words."""
    # A dash between words is a clause break ("without EP too — TP gradients lose …"),
    # which SYMBOL would take out and run the two clauses together.
    t = _DASH.sub(" - ", _CUT_WORD.sub("", _EXAMPLE_TAIL.sub(r"\1", strip_markup(title))))
    t = " ".join(SYMBOL.sub(" ", compared(t)).split())
    t = re.sub(r'^(?:Revert|Reland)\s+"(.*)"?$', r"\1", t, flags=re.I)
    t = _MERGE_SAID.sub("", t)  # "Merge h17 (round 5): X" says what it merges: X
    if m := _MERGE.match(t):  # a merge commit says what it merges only in its branch name
        branch = m.group(1).rstrip("/").rsplit("/", 1)[-1]
        t = "" if _BRANCH_NOISE.match(branch) else \
            " ".join(case_word(w) for w in re.split(r"[-_]+", branch) if w)
    t = re.sub(r"^\s*\[?(?:reland|revert)\]?\s*:?\s+", "", t, flags=re.I)
    t = _RETRY.sub("", t)  # "Retry of D58015187 Move X to Y" moves X to Y again
    t = _PART_END.sub("", PART_TOPIC.sub("", _PAREN_REF.sub("", t)))
    for _ in range(3):  # "[BE] fix(ckpt): [x] ..." has several layers of prefix
        before = t
        t = defaulted(typed(_TAGS.sub("", PART.sub("", t))))
        t = _unprefixed(PART.sub("", t))
        t = split_prefix(t)[1]
        if t == before:
            break
    t = _RE_AGAIN.sub(lambda m: f"Re-{m.group(1).lower()}" if m.group(1) else "", t)
    t = _VERB_FLAG.sub(_verb_flag, t)  # "disable-cuda-graphs for X tests": an order
    # "Bump actions/checkout from 4 to 5": a package named by its owner, said by its name
    t = BUMPED_PATH.sub(bumped, t)
    t = ACTION_PATH.sub(action_path, t)  # "tj-actions/changed-files": one action, not two
    t = MOVED_PATH.sub(moved_path, t)
    t = SHA_RANGE.sub("", t)  # "from d6e91a2… to 22103cc…": no one reads out a commit id
    t = unowned(said_in_full(URL.sub("", t)))  # "Add fn to check X", "w/o": said in full
    t = _AMPERSAND.sub(" and ", t)  # "tops&pct" and "iter & data" are two things
    t = _PAIRED.sub(" and ", t)  # "trainer / generator", "channels_out / channels_in"
    if (pluses := len(_PLUS.findall(t))) > 1:
        t = _PLUS.sub(", ", t, count=pluses - 1)  # (count=0 would be all of them)
    t = _PLUS.sub(" and ", t)
    t = _TICKED_FOLDER.sub(lambda m: m.group(1).rsplit("/", 1)[-1], t)
    t = TICKS.sub(r"\1", t)
    t = CALL.sub(r"\1", dot_calls(t))
    if "#" in t or _PR_WORD.search(t):  # the reference patterns are the slow ones
        t = _TRAILING_PR_REF.sub("", t)
        t = _PR_REF.sub("", t)
    t = _ARROW.sub(" to ", t)
    t = sized_names(_CALLED_WITH.sub(r" \1", t))  # "Shard(0)" is said "Shard 0"
    for _ in range(3):  # an aside inside an aside ("(was 'QAT (x)' -> 'y')") goes whole
        t, inner = _PARENS.subn("", t)
        if not inner:
            break
    t = re.sub(r"[()\[\]{}<>]", " ", t)  # whatever brackets are left are unbalanced
    t = DOC_FILE.sub(doc_file, t)
    # "docs/reference.md" is the file reference, never the word list "docs and reference".
    t = FILE_PATH.sub(file_path, t)
    t = LONE_FILE.sub(lone_file, t)
    t = PLACED_FILE.sub(placed_file, t)
    t = dot_words(EXT.sub("", t))
    t = _FLAG.sub(lambda m: m.group(1).replace("-", " "), t)
    # "trainer/generator/controller" is a list of words; "torchao/csrc/x" is a path.
    t = WORD_LIST.sub(word_list, STEM_PAIR.sub(stem_pair, t))
    t = _NAME_LIST.sub(lambda m: joined(m.group(0).split("/")), t)  # "H100/A100": both
    t = _PATH.sub(_path_end, t)
    t = re.sub(r"\b(?:[A-Za-z]\w*::)+(\w+)", r"\1", t)  # torchao::parallel_for -> parallel_for
    t = t.replace("/", " ")  # whatever slashes are left: "flow/", "fbcode//ao"
    t = _LONG_NUMBER.sub("", t)
    t = _NAME_THEN_NOUN.sub(r"\1\3", t)  # "remove_detach_pass graph pass": "pass" once
    t = said_identifiers(t)
    t = re.sub(r"(?<=\w)_+(?!\w)|(?<!\w)_+(?=\w)", "", t)  # copy_ -> copy, _models -> models
    t = _LONG_WORD.sub(" ", t)  # an 80-letter "word" is noise, not a name
    t = _QUOTES.sub("", t)
    t = re.sub(r"[*=#@$\\|~^]+", " ", t)
    t = re.sub(r"(?<!\S)[.,;:!?]+(?!\S)", " ", t)  # stray punctuation: "Add .. cache"
    t = DOUBLED.sub(r"\1", t)  # "add add fp8 kernels"
    return hyphenated(" ".join(t.split()).strip(" .,;:!?-"))


# A name whose last word is the noun right after it, or one word on ("remove_detach_pass
# graph pass", "fused_kernel Triton kernel"): that word is said once.
_NAME_THEN_NOUN = re.compile(r"\b([A-Za-z]\w*?)_([a-z]+)(\s+(?:(?!(?:with|to|for|in|on|of|from|by|"
                             r"and|or|as|at|into|via)\b)[\w-]+\s+)?\2\b)", re.I)


# A spaced slash pairs two things; its words were said run together ("DDP single-device
# training"). Between two numbers it stays a ratio.
_PAIRED = re.compile(r"(?<=[\w)])\s+/\s+(?=[A-Za-z_])")


# Names with a slash between them ("H100/A100 benchmark jobs", "AWQ/SmoothQuant",
# "Trainium/Inferentia"): a list of things, never a path whose last part alone is said.
# Each opens on a capital; a lower-case part ("Fix/quant", a branch) is no name.
_CAPS = r"[A-Z][A-Za-z0-9]*"
_NAME_LIST = re.compile(rf"(?<![\w./]){_CAPS}(?:/{_CAPS}){{1,3}}(?![\w./])")


# A title opening on a flag's name that is itself an order ("disable-cuda-graphs for
# GraphTrainer PP tests"): three or more parts, the first a verb's base form.
_VERB_FLAG = re.compile(r"^([A-Za-z]+)((?:-[a-z0-9]+){2,})(?=\s)")


def _path_end(m: re.Match[str]) -> str:
    """A path said by its last part; a private one with its parent ("torchao models", not
    any models); the shared start of a name set ("test/x/test_{a, b}") by its folder."""
    last = m.group(1)
    parent = m.group(0)[: -len(last)].strip("./").rsplit("/", 1)[-1].lstrip("_.")
    if last.startswith("_") and parent and parent.lower() not in words().generic_areas:
        return f"{parent} {last.lstrip('_.')}"
    generic = last.endswith("_") and last.strip("_").lower() in words().generic_areas
    return parent if generic and parent else last.lstrip("_.")


def _verb_flag(m: re.Match[str]) -> str:
    verb = m.group(1)
    return f"{verb}{m.group(2).replace('-', ' ')}" if base_verb(verb) == verb.lower() \
        else m.group(0)
