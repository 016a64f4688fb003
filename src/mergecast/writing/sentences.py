"""One sentence of a PR or commit description, made speakable or refused.

A description is written for reviewers, not listeners. `standalone` keeps a sentence only
if a listener can follow it without the rest of the body: no opening pronoun or
demonstrative that leans on an earlier sentence, no first person (unless it is "This PR
adds …", rewritten around the PR's number by rewrite.py), no code, AI-assistant notes,
internal ids or porting boilerplate. Identifiers are said as words, and what cleaning can repair
("~4x", "w/o", a file named as the place) is repaired; a sentence with code left in it, or
one cleaning broke, is dropped whole, never cut in the middle. The word lists are data:
templates/bodies.toml.
"""

from __future__ import annotations

import re

from ..analysis.language import (
    DOUBLED,
    base_verb,
    case_word,
    has_verb,
    said_in_full,
    speakable,
    third_person,
    words,
)
from ..analysis.naming import is_activity
from ..models import Ref
from .changes import DOER
from .cues import cues
from .leaning import leaning
from .names import coded, said_names
from .rewrite import change_name, fixes_by, object_told, rewrite

MIN_WORDS, MAX_WORDS = 6, 30
# A sentence ends at a full stop before a capital, but not after "e.g." or "vs." ("(e.g.
# PrivateUse1) bypass the policy" is one sentence).
SPLIT = re.compile(r"(?<=[.!?])(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bvs\.)(?<!\betc\.)\s+"
                    r"(?=[A-Z\"'(])")
# "… the field added in #2018." -> "… the field.": where a thing came from is a reviewer's
# pointer, not something a listener can follow (and a number we could not check).
_REF_TAIL = re.compile(r"\s*\((?:see\s+)?#\d+\)|\s+(?:(?:added|introduced|landed|made|done|"
                       r"fixed|reported)\s+)?(?:in|by|from|since|after|via|see)\s+#\d+"
                       r"(?=[.,;]?$)")
# "… mount the cache at `/mnt/hf_cache` read-only": where, as a path, is dropped with its
# preposition; the sentence without it still says what happened.
# A file named as the place ("the kernel in indices.py") goes the same way.
_PLACE = re.compile(r"\s+(?:at|in|under|inside|within)\s+(?:`[^`\s]*/[^`\s]*`|`?[\w-]+"
                    r"\.(?:py|pyi|cpp|cc|cu|cuh|h|hpp|toml|ya?ml|md|sh|json)`?(?=[\s.,;:]))")
_DOTS = re.compile(r"\.\.\.|…")
# "3.5x", "~30%", "faster"; not the "250X" of "MI250X" or the "8x" of "8xH100".
_MEASURED = re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s*(?:x(?![\w-])|×|%)|"
                       r"\b(?:faster|slower|speed-?up)\b", re.I)
# Signs of a sentence cleaning broke or that was never one: a word that needs a next one
# before a comma ("The core functionality is, and …": a link was there), a second sentence
# run in lower case ("… torchtitan changes. also include fp8"), a log line's brackets, a
# table's "wps: 109"; a preposition whose object was a link or a code span ("replaced in due
# to …", "iterating over and pairs"); a heading run into its sentence ("… deterministic The
# six tests …", "Enforced checks A previous release …"); a name speaking could not say
# ("layers.0.attention"), or two names said alike ("superblock supermask and superblock
# supermask").
_BROKEN = re.compile(r"\b(?:in|by|from|at|via)\s+(?:due to|because|since|for|to|so)\b|"
                     r"\b(?:between|of|with|from|into|over)\s+and\s+(?!over\b|without\b)|"
                     r"(?-i:(?<=[a-z])\s+(?:The|This|It|These|We|Removed|Added|Fixed|"
                     r"Updated|Moved|Changed|Renamed)\s|[a-z]\.\d|\d\.[a-z])|\w_\w|"
                     r"\w:\s+(?:None|True|False)\b|\b(\w+ \w+),? (?:and|or) \1\b|"
                     r"(?-i:^[A-Z][a-z]+(?: [a-z]+){1,3} (?:A|An) [a-z])|"
                     r"\b(?:is|are|was|were|the|a|an|of|to|from|by|with|at|into)[,;]|"
                     r"\b(?:the|a|an|of|to|from|by|with|at|into|or|and|be|here)\.$|"
                     r"(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)(?<!\betc)\.\s+[a-z]|[\[\]]|\b[A-Za-z]+:\s*\d",
                     re.I)
_LITERAL = re.compile(r"""\[\s*["'][^\]]*["']\s*\]|\[\s*-?[\d.]+\s*,[\d.,\s-]*\]""")
_INTERVAL = re.compile(r"\b((?:in|within|into)\s+)\[\s*(-?\d+(?:\.\d+)?)\s*,\s*"
                       r"(-?\d+(?:\.\d+)?)\s*\]")
_BRACKETED = re.compile(r"(^|\s)\[([^\[\]:]{1,60})\]")  # a log line's "[W x:12]" stays
# "~4x", ">5%" and "a + b" are said in words: "about 4x", "more than 5%", "a plus b".
_SYMBOLS = re.compile(r"(?<!\S)(?:~|[<>]=?)(?=\d)|\s\+\s")
_SAID_SYMBOL = {"~": "about ", "+": " plus ", ">": "more than ", "<": "less than ",
                ">=": "at least ", "<=": "at most "}


def _bracketed(m: re.Match[str]) -> str:
    """"Per [GitHub's announcement]" -> the link's words; "[dp8, ep4]" -> nothing."""
    text = m.group(2).strip()
    if text.lower() in ("link", "here", "this", "this pr", "pr"):
        return ""  # a link's placeholder: what it stood for is gone ("is, and" is then caught)
    return m.group(1) + text if re.fullmatch(r"[A-Za-z' ]+", text) else ""


def _rewritten(sentence: str) -> str:
    """The few first-person turns with a plain rewrite ("we plan to X" -> "the plan is to
    X"; any other "we" drops the sentence later) and a reviewer's shorthand said in full
    ("w/o" -> "without", "and/or" -> "or")."""
    for rx, said in cues().rewrites:
        sentence = rx.sub(said, sentence)
    sentence = said_in_full(sentence)  # as a title says it: "LR" opens "Learning rate …"
    # "Before this nccl2 produced nothing": the state before this change ("without this"
    # may stand for a thing said before, and leans)
    return _BEFORE_THIS.sub(lambda m: f"{m.group(1)} this change, ", sentence)


# (never a type or a value after its name: "args: ModelArgs for consistency", "x: None")
_RUN_ON = re.compile(r"(?<=\w):\s+(?![A-Z][a-z]+[A-Z]|(?:None|True|False)\b|\d)"
                     r"(?:\S+\s+){0,2}[^\s:]+\.$")
_BEFORE_THIS = re.compile(r"^(before|prior to) this(?:\s+(?:fix|patch|update))?\b(?!\s+(?:"
                          r"change|PR|commit|diff|pull request)\b)\s*,?\s*", re.I)


_HOLE = re.compile(r"\b(?:of|for|in|on|with|from|by|the|a|an)\s+"
                   r"(?:should|would|could|will|can|must|might|may)\b", re.I)
_KEYS = re.compile(r"\w:,")  # "tokens:, labels:": keys of a literal, the values cut out
# ", delete it at Y": a comma, then a verb's plain form and its object, an order
_ORDER = re.compile(r",\s+(?:so\s+)?([a-z]+)\s+(?:it|them|the|this|these|those|its|their)\b")
# A numbered item named inside a sentence, after a word ("eliminate (2) by"); markers of
# an inline list ("two fixes: (1) X, (2) Y") come after punctuation or in twos.
_ITEM_REF = re.compile(r"(\S)\s\((?:\d|[a-h]|i{1,3}|iv)\)(?=[\s,.;:])")


_SEE_TAIL = re.compile(r"(?:,|\s[-–—]+)\s+(?:please\s+)?(?:see|refer to|check out|cf\.)\s[^.;]*\.$",
                       re.I)


def main_words(ws: list[str]) -> list[str]:
    """The words before a clause of their own opens ("no-op" of "no-op when no nodes are
    tagged")."""
    m = cues().clause_opener.search(" ".join(ws))
    return " ".join(ws)[:m.start()].split() if m else ws


def _fragment(low: list[str]) -> bool:
    """A note, not a sentence: "Adding stable benchmarks and generate for llama3." (a
    gerund with no verb after it), "Explicitly pass torch includes to X." (an order after
    its adverb), "Where to put the dtype API." (a question's stem)."""
    first, rest = low[0], low[1:]
    # ("Updating now that a new version has been released": the verb is the clause's)
    if is_activity(first) and not has_verb(main_words(rest)):
        return True
    if first in words().adverbs and rest and (base_verb(rest[0]) == rest[0] or _order_word(rest)):
        return True
    for i, w in enumerate(low[:-1]):
        # "X landed upstream so just adding code to use it": a note's gerund after "so",
        # with no verb to finish the clause
        if w == "so" and (j := i + 1 + (low[i + 1] in words().adverbs)) < len(low) and \
                is_activity(low[j]) and not has_verb(low[j + 1:]):
            return True
    return first in _WH_STEMS and bool(rest) and rest[0] == "to"


def _order_word(ws: list[str]) -> bool:
    """Whether a word no lexicon knows is an order's verb: a plain word right before an
    article ("Only accumulate the counter …"), as no noun or adjective stands there."""
    return len(ws) > 1 and ws[1] in ("the", "a", "an") and ws[0].isalpha() and \
        ws[0] not in words().function | words().adverbs and \
        not ws[0].endswith(("s", "ed", "ing"))


_WH_STEMS = frozenset({"where", "how", "what", "which", "why"})
# A label of up to three words before a capital ("Previous flow: The …"): a heading written
# into the sentence, never a word of it.
# "On max_entries: the old ring buffer …" is one too, whatever follows: said, it would
# sound like the episode's own "On <area>:" roundups.
# ("Previous flow (inline config, broken _owner): The …": its aside is the label's too)
LABEL = re.compile(r"^(?:[A-Z][\w-]*(?:\s+[\w-]+){0,2}(?:\s*\([^()]{0,60}\))?:\s+(?=[A-Z`])|"
                   r"(?:On|For|About|Regarding)\s+[`\w.-]+(?:\s+[`\w.-]+)?:\s+(?=\S))")


# A short sentence ending on a pronoun leans on the sentence before it for what it means.
# ("… after registering them" holds what "them" is: only "working on it" and the like.)
_LEANING_END = re.compile(r"\s(?:on|with|about|at|into|onto)\s(?:it|this|that)\.$", re.I)
SHORT_LEANING = 8
_CUT_EXAMPLE = re.compile(r",?\s+(?:e\.g\.|i\.e\.|eg\.|such as|for example|for instance|"
                          r"including)[.:]?$", re.I)


def standalone(raw: str, ref: Ref, first: bool = False, step: bool = False) -> str | None:
    """One candidate sentence made speakable, or None when it cannot stand alone. `first`:
    the description's opening sentence, where "This …" is the change itself; `step`: a
    list item read as a step, worded like a title (see names.coded)."""
    s = " ".join(raw.split()).strip()
    # "across across": a slip of the keys, said once ("had had" is English). Never a hole
    # cleaning left: the words either side of a hole have GAP between them. A name or
    # number written twice ("fp16 fp16") is left to the check below: a log line's.
    s = DOUBLED.sub(lambda m: m.group(0) if m.group(1).lower() in _ENGLISH_DOUBLES
                    or not m.group(1).isalpha() else m.group(1), s)
    s = re.sub(r"\*\*|__", "", s)  # emphasis is not a word
    s = re.sub(r"(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])", r"\1", s)
    # An aside between dashes ("the runtime — streams, sync, pools — through X") goes whole:
    # the sentence around it is the point, and rarely fits a breath with it.
    s = re.sub(r"\s+(?:--|—|–)\s+[^—–]{1,160}?\s+(?:--|—|–)\s+", " ", s)
    s = cues().label.sub("", s)
    s = cues().bare_label.sub("", s)  # "Summary Previously CP forgot …": a heading run in
    s = LABEL.sub("", s)  # "Important trick: Inference …": a label we have no slot for
    if GAP in s or len(refs := _ITEM_REF.findall(s)) == 1 and refs[0][0].isalpha():
        # "In  logic was added": a link was cut out of it; "eliminate (2) by …" points at
        # a numbered item of a list the episode does not read
        return None
    if any((before := s[:m.start()].split()) and before[-1].lower() in cues().located
           for m in _PLACE.finditer(s)):
        return None  # "The manager lives in a/b.py": no place, nothing said
    s = _finished(_rewritten(_REF_TAIL.sub("", _PLACE.sub("", s))))
    if (m := _SPLICED.search(s)) and s.split(" ", 1)[0].lower() not in _LEADS and \
            len(s[: m.start()].split()) >= MIN_WORDS:  # (not "Therefore, this PR moves …")
        # "X is not clear, this change fixes the issue": the fact before the comma stands
        # alone; what the change does after it leans on it ("fixes it") and the title says it
        s = s[: m.start()] + "."
    s = _SEE_TAIL.sub(".", s)  # "… support for inference, see method generate.": a pointer
    if m := cues().lead_in.match(s):  # "As a result, the head was …": the fact stands alone
        s = s[m.end():]
    # "As titled, just needed to add reshape …": what follows leans on the title; it is said
    # only when it reads as what the change does ("As titled, this change adds X").
    titled = cues().titled.match(s)
    s = s[titled.end():] if titled else s
    # "float8_experimental landed …": a name as subject, as if in a code span.
    s = re.sub(r"^(?!self\.)([A-Za-z]\w*(?:_\w+|\.[a-z_]\w+)+)(?=\s)", r"`\1`", s)
    if re.match(r"(?:[a-z]+|`[^`\s]+`|[a-z][\w.]*\(\))\s", s):
        # "increase the cache limit …" (typed in haste) or "`state_dict()` now refreshes
        # …" (a name as subject) is a sentence; its first word is said with a capital.
        s = s[0].upper() + s[1:] if s[0].isalpha() else s
    s = _this_change(s, ref, first)
    s = _CUT_EXAMPLE.sub(".", s)  # "… outputs nothing, e.g." lost its example to cleaning
    if _LEANING_END.search(s) and len(s.split()) <= SHORT_LEANING:
        return None  # "X is now working on it.": what "it" is was said before
    if not s or s[-1] != "." or _DOTS.search(s) or not (s[0].isupper() or s[0].isdigit()
                                                         or s[0] == "`") or \
            re.match(r"(?i)(?:e\.g\.|i\.e\.|for example|for instance)", s):
        return None  # a question, an exclamation, or the tail of a wrapped line
    if (m := re.search(r"\s-\s+([a-z]\w*)", s)) and base_verb(m.group(1)):
        return None  # "plain tensors - fixes by local mapping": a reviewer's shorthand
    if (m := _ORDER.search(s)) and base_verb(m.group(1)) == m.group(1) and \
            has_verb(s[: m.start()].split()) and not base_verb(s.split(" ", 1)[0]):
        # "Torchao plans to deprecate X, delete it at Y." splices an order to the reader
        # onto a fact (an order's own list, "Split X, add it to Y", and "For general use,
        # align the scale …" are read as the change's)
        return None
    if (m := re.search(r";\s+(\w+)[\s.]", s)) and (verb := base_verb(m.group(1))) and \
            (verb == m.group(1).lower() or m.group(1).lower().endswith("ing")):
        # "… have to rely on 2.8; update the decorator …" (an order) or "… was not used;
        # removing." (a note of what the change does): the first clause is the sentence
        s = s[: m.start()] + "."
    elif len(s.split()) > MAX_WORDS and (m := re.search(r";\s", s)) and \
            len(s[: m.start()].split()) >= MIN_WORDS:
        s = s[: m.start()] + "."  # too long to say whole: its first clause stands alone
    s = re.sub(r"\s+(?:--|—|–)\s+", ", ", s)
    s = re.sub(r"\s*\([^()]{0,60}\)", "", s)
    # "Per [GitHub's announcement], …": a link's text is words; "[dp8, ep4]" is an aside;
    # '["norm", "lm_head"]' is a literal the sentence is about, and cannot be said.
    # "always in [0, 1]" is a range: "always in the range 0 to 1"; any other list of
    # numbers is a value the sentence needs, said only with it
    s = _INTERVAL.sub(r"\1the range \2 to \3", s)
    if _LITERAL.search(s):
        return None
    s = _BRACKETED.sub(_bracketed, s).strip()
    s = _SYMBOLS.sub(lambda m: _SAID_SYMBOL[m.group(0).strip()], s)
    s = said_names(s)
    said = speakable(s)
    if said is None or cues().boilerplate.search(said) or cues().addressing.search(said) \
            or _KEYS.search(said) or _HOLE.search(said):
        # (keys: "inputs: tokens:, labels:", their values were code; a hole: "a followup
        # fix of should be safe", the reference it named was cut out)
        return None
    if s[0] == "`" and (said.split(" ", 1)[0].lower() in words().function
                        or base_verb(said.split(" ", 1)[0]) or len(s.split("`")[1]) < 3):
        # "`from_nn_module` is designed …" said "From nn module is …", "`insert_svd_modules_`
        # installed …" said as an order, "`fn` no longer takes …": a riddle
        return None
    said = re.sub(r"(?<![\w-])_+(?=\w)", "", said)  # "_placements" is said "placements"
    # "`freqs_cis` should already be …" said "freqs cis should …": a sentence's first word
    # has its capital, as in any other sentence; a name the lexicon spells keeps its
    # spelling ("vLLM"), and one with no vowel ("nn", "mtp") is letters, all capitals
    head, _, rest = said.partition(" ")
    if (known := case_word(head.lower())) != head.lower():
        head = known
    elif head.isalpha() and not re.search(r"[aeiouy]", head, re.I):
        head = head.upper()
    else:
        head = head[0].upper() + head[1:]
    said = f"{head} {rest}"
    said = rewrite(said, ref, named_next=bool(re.match(r"\w+\s+(?:`|[A-Za-z]\w*_\w)", s)))
    if said is None:
        return None
    if titled and not said.startswith(change_name(ref) + " "):
        return None
    said = fixes_by(said)
    # "… come from the docstrings: Failing job.": the code the colon led into was cut, and a
    # link's words ran on after it
    said = _RUN_ON.sub(".", said)
    # "Every rank therefore added the bias": the fact stands without its "therefore".
    said = cues().inferred.sub("", said)
    if cues().first_person.search(said) or cues().connective.search(said):
        return None
    if leaning(said) or said.split(" ", 1)[0].lower() in words().finite:
        return None  # "Is not in the nightly": the subject was on the line before
    opener, _, after = said.lower().partition(" ")
    if opener in cues().failing and after.split(" ", 1)[0] not in cues().subject_next:
        return None  # "Fails on the pre-fix behaviour": the test's, said without it
    # "As both were doing X.", "If SP is applied, all-gather on the mesh.": no main verb
    if said.split(" ", 1)[0].lower() in _SUBORDINATE and \
            not has_verb(said.partition(",")[2].split()):
        return None
    ws = said.split()
    if _fragment([w.lower() for w in ws]):
        return None
    if not MIN_WORDS <= len(ws) <= MAX_WORDS or ws[-1].rstrip(".").lower() in \
            words().line_joiners:
        return None  # (or cut where a list or a name was: "… device mesh among.")
    named = ws[2:] if said.startswith(("PR ", "The commit ")) else ws  # not the subject
    if sum(1 for w in named if coded(w, step)) > len(named) // 3:
        return None  # mostly identifiers and numbers: not plain speech
    if said.count('"') % 2 or said.count("(") != said.count(")") or " + " in said or \
            re.search(r"(?:^|\s)\d+\s+-\s|^[A-Za-z]\s+-\s", said) or \
            re.search(r"\s[.,;:!?]", said) or _TYPED_TWICE.search(said) or \
            _BROKEN.search(said):
        return None  # "adds Add Add ." is no sentence
    if not has_verb(ws) or _relative_only(said):
        return None  # no verb: a fragment ("Recurrent everywhere with fp32 recurrence")
    # The first word was given its case above ("vLLM has …"); a rewrite may open anew.
    said = _and_between(object_told(said))
    return said if said.startswith(head + " ") else said[0].upper() + said[1:]


_ENGLISH_DOUBLES = ("that", "had")  # a word written twice on purpose: "had had"
# A word (or number) left twice after mending: no sentence ("adds Add Add .")
_TYPED_TWICE = re.compile(rf"\b(?!(?:{'|'.join(_ENGLISH_DOUBLES)})\b)(\w+)\s+\1\b", re.I)
_NEXT_VERB = re.compile(r", (\w+) ")


def _and_between(sentence: str) -> str:
    """"PR 12 adds a helper, removes the old flag.": things a change does, written as a
    note would, said with the "and" a speaker puts before the last."""
    if (m := DOER.match(sentence)) is None or not _does(m.group(2)):
        return sentence
    verbs = [v for v in _NEXT_VERB.finditer(sentence) if _does(v.group(1))]
    if not verbs:
        return sentence
    last = verbs[-1].start()  # "adds A, fixes B, and removes C"
    return f"{sentence[:last]}, and{sentence[last + 1:]}"


def _does(word: str) -> bool:
    """Whether a word is a verb said of one doer ("removes", never "removed")."""
    return (base := base_verb(word)) is not None and base != word and \
        third_person(base) == word


# A thing, then what it does in a relative clause that runs to the end: "Quick relocation
# of usage to DeepSeek folder, which ended up one folder higher than intended."
_RELATIVE = re.compile(r"^([^,]+),\s+(?:which|that|who)\s+[^,]+$")


def _relative_only(sentence: str) -> bool:
    """Whether a sentence's only verbs are in a relative clause after its subject: no main
    clause, whatever the verb count says."""
    m = _RELATIVE.match(sentence)
    if m is None or DOER.match(sentence):
        return False
    head = [w.lower() for w in m.group(1).split()]
    # (any word that can be a verb may be the main one: "Torchao quantize defaults to
    # filtering …", "The loader read every widget twice, which …")
    return not any(w in words().finite or w not in words().function and base_verb(w)
                   for w in head)


def _finished(sentence: str) -> str:
    """A paragraph's last line often has no full stop ("This will prevent errors when
    later doing git checkout"): a whole sentence gets one; a heading, a label, a table row
    or a line cut off mid-phrase ("…, now that") does not, and is dropped later."""
    ws = sentence.split()
    if not ws or sentence[-1] in ".!?" or not (sentence[-1].isalnum() or sentence[-1] == ")"):
        return sentence
    if re.search(r"[:|*#<>=]", sentence) or ws[-1].lower() in words().function or \
            not has_verb(ws):
        return sentence
    return sentence + "."


def _this_change(sentence: str, ref: Ref, first: bool) -> str:
    """ "This will prevent errors …" opening a description, or "This adds …" anywhere, is
    the change speaking of itself: said as "PR 12 will prevent errors …". Elsewhere "This"
    points at something said before, and the sentence is dropped as leaning."""
    if first and (named := _NAMED_CHANGE.match(sentence)):
        # "Small fix which allows X …" opening a description: "PR 12 allows X …"
        return f"{change_name(ref)} {sentence[named.end():]}"
    m = re.match(r"^This\s+((\w+)(?:\s+[\w-]+)?)\s+", sentence)
    if not m:
        return sentence
    verb, two = m.group(2).lower(), m.group(1).lower()
    if verb in cues().this_does or (first and cues().this_first & {verb, two}):
        return f"{change_name(ref)} {sentence[m.start(1):]}"
    nxt = two.partition(" ")[2]
    if verb in cues().this_own and (nxt in cues().this_does or nxt in words().finite):
        # "This experiment provides …": the change's own experiment, not one said before
        return f"{change_name(ref)}'s {sentence[m.start(1):]}"
    return sentence


# The change named by its kind before what it does: "Small fix which allows …".
_NAMED_CHANGE = re.compile(r"(?:an?\s+)?(?:(?:small|quick|minor|simple|tiny|trivial)\s+)?"
                           r"(?:fix|change|patch|tweak)\s+(?:which|that)\s+(?=[a-z]+s\s)",
                           re.I)
_SUBORDINATE = frozenset("as because since although though whereas unless if".split())
# A comma splice onto the change ("…, this change fixes it"); not after an opening that
# needs the rest as its main clause ("Since X, this change also fixes Y").
_SPLICED = re.compile(r",\s+this (?:change|PR|pull request|diff|patch|commit)\s+[a-z]+", re.I)
_LEADS = _SUBORDINATE | frozenset("on in for with per after before without when where while "
                                  "once until".split())
GAP = "\u27c2"  # where cleaning took a link or mention out: the sentence has a hole


def measured(text: str) -> bool:
    """Whether a sentence states a measured effect ("about 4x", "30%", "faster")."""
    return bool(_MEASURED.search(text))
