"""The one language module: titles read as names and actions, identifiers said as words.

The analysis stage (theme names) and the writer (effects, explanations, titles) both read
PR text through here, so a title is cleaned, a verb recognised and an identifier spoken
the same way everywhere. The word lists are data: ../data/language.toml (verb classes,
function words, inflection) and ../data/lexicon.toml (acronym expansions and casing).

Titles are untrusted: nothing here follows them. Cleaning drops tags, conventional-commit
and vendor prefixes, PR references (a number the briefing says must come from the
digest's structure), links, paths and code punctuation, and says identifiers as words.
"""

from .actions import one_fault, parse_title
from .kinds import kind_of, moved_name, name_of, said_verb
from .orders import parse_actions, pronoun, told_of_one
from .readings import said_in_full, shorthand_words, the_documents
from .statements import covers, is_stated, says_how_it_goes, stated_topic
from .titles import (
    DOUBLED,
    clean_title,
    speak_identifier,
    speakable,
    split_prefix,
    unnumbered,
)
from .trimming import (
    as_name,
    closing_result,
    expand_term,
    is_modifier,
    is_tail_word,
    shorten,
    title_case,
    to_verb,
    trim,
)
from .words import (
    VOWEL_LETTERS,
    as_written,
    base_verb,
    case_word,
    gerund,
    has_verb,
    is_finite,
    is_phrasal,
    looks_plural,
    lower_first,
    plural,
    sentence_case,
    singular,
    third_person,
    verb_class,
    words,
)

__all__ = [
    "DOUBLED", "VOWEL_LETTERS",
    "as_name", "as_written", "base_verb", "case_word", "clean_title", "closing_result", "covers",
    "expand_term",
    "gerund", "has_verb", "is_finite", "is_modifier", "is_phrasal", "is_stated",
    "is_tail_word", "kind_of",
    "looks_plural", "lower_first", "moved_name", "name_of", "one_fault",
    "parse_actions", "parse_title", "plural", "pronoun",
    "said_verb", "says_how_it_goes", "sentence_case", "shorten", "said_in_full",
    "shorthand_words",
    "the_documents",
    "speak_identifier",
    "singular", "speakable", "split_prefix", "stated_topic",
    "third_person", "title_case", "to_verb", "told_of_one", "trim", "unnumbered", "verb_class",
    "words",
]
