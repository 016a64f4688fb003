"""What an action is beyond its words: the kind of work it does, the verb it is told with,
and the action said as a name ("Fix NaN in sdpa" -> "fixing NaN in sdpa")."""

from __future__ import annotations

import re

from ...models import Action
from .nouns import made_work
from .words import base_verb, gerund, words


def kind_of(action: Action) -> str:
    """The kind of work an action is: capability, performance, correctness, cleanup or
    infrastructure (tests, CI, docs and builds, whatever the verb); "change" when neither
    the verb nor the object tells, "" for a title without a verb."""
    # ("update rest of tests" is test work: what "the rest of" counts is the thing)
    obj = re.sub(r"^(?:the\s+)?(?:rest|remainder)\s+of\s+", "", action.obj.lower())
    # (a state the thing is in is not what it is: "restore deleted docstring" is docs work)
    first = next((w for w in obj.split()
                  if w not in ("for", "a", "an", "the", "some", "more", "new", "remaining",
                               "other", "deleted", "missing", "broken", "outdated", "stale")),
                 "")
    found = words().objects.get(first) or _tested(obj)
    if found == "performance" and first == "memory" and action.verb in ("add", "enable"):
        found = None  # "Add memory metrics", "Enable memory snapshot": no speed-up
    said = f"{action.obj} {action.qualifier}".lower().split()
    if action.verb not in ("fix", "speed") and any(words().objects.get(w) == "documentation"
                                                   for w in said):
        return "documentation"  # "add memory profiler to README" is documentation work
    if found and action.verb not in ("fix", "speed", "document") and (
            action.verb or found in ("documentation", "infrastructure")):
        return found
    if action.verb == "fix" and first in words().tooling:
        return "infrastructure"  # "fixing lint for models", "fixing CI for wheels"
    if action.verb == "document" or (action.verb in ("change", "bump", "fix") and first in (
            "readme", "docs", "docstring", "typo", "typos")):
        return "documentation"
    return words().kind.get(action.verb, "")


def _tested(obj: str) -> str | None:
    """The kind of "the slice loader test" (a test function named as its test, see
    `said_identifiers`) or "integration tests for X": its head noun's."""
    ws = obj.lower().split()
    head = next((i for i, w in enumerate(ws) if i and w in words().function), len(ws))
    return words().objects.get("test") if ws and ws[head - 1] in ("test", "tests") else None


def said_verb(action: Action, group: bool = False) -> str:
    """The verb an action is told with; in a group, merged verbs take their class's verb,
    unless what it acts on is itself a speed ("optimize FSDP performance" never "speeds up
    FSDP performance")."""
    if group and action.lemma in words().merged and not (action.verb == "speed" and any(
            w.lower() in words().speed_words for w in action.obj.split())):
        return words().say[action.verb]
    return action.lemma


OBJECT_VERBS = frozenset("add introduce implement create expose provide land build write "
                          "integrate".split())


def name_of(action: Action, whole: bool = False) -> str:
    """An action as a name: "Add float8 training" -> "float8 training"; "Fix NaN in sdpa"
    -> "fixing NaN in sdpa"; "Support X" -> "support for X"; "Do not count X" -> "no longer
    counting X"."""
    obj = " ".join(x for x in (action.obj, action.qualifier) if x)
    if not action.lemma:
        return obj
    if action.negated:
        return f"no longer {gerund(action.lemma)} {obj}"
    if action.lemma == "support":
        return f"support {obj}"
    if action.lemma == "make" and (m := re.match(r"it possible to (\S+) ", obj)) and \
            (verb := base_verb(m.group(1))):
        return f"optionally {gerund(verb)} {obj[m.end():]}"  # what it makes possible
    if action.lemma == "make" and made_work(obj.split()):
        return obj  # "cosmetic changes to the loader" names the work; "making …" adds nothing
    if action.lemma in OBJECT_VERBS and not whole:
        first, _, rest = obj.partition(" ")
        return rest if first.lower() in ("a", "an", "the", "some") and rest else obj
    return " ".join(x for x in (action.adverb, gerund(action.lemma), obj) if x)


_WHERE_TO = re.compile(r"\s(?:to|into)\s+(?=\S)")
_FROM = re.compile(r"\s+from\s+\S.*$")
_AFTER_HEAD = re.compile(r"\s+(?:as|for|under|used|in|on|with|of|from)\s.*$")


def moved_name(action: Action, limit: int) -> str | None:
    """A move named with where it goes, the point of it: "porting 2 dtypes unit test files
    to Intel XPU" is cut from what moves, never from where ("porting 2 dtypes unit test
    files" says nothing of the port); None when no place follows the "to"."""
    text = f" {' '.join(x for x in (action.obj, action.qualifier) if x)}"
    places = list(_WHERE_TO.finditer(text))
    if action.verb != "move" or action.negated or not places:
        return None
    thing, place = text[: places[-1].start()].strip(), text[places[-1].start():].strip()
    first = place.split()[1]
    if not thing or len(place.split()) > 5 or "," in place or \
            base_verb(first) == first.lower() or first.endswith("ing"):
        return None  # "to save for backward", "to using exact sizes": a way, not a place
    bare = _FROM.sub("", thing)
    verb = " ".join(x for x in (action.adverb, gerund(action.lemma)) if x)
    head = _AFTER_HEAD.sub("", bare)
    source = thing[len(bare):] if head != bare else ""  # " from C++": where from, if any
    for said in (thing, f"{head}{source}", bare):
        if len(f"{verb} {said} {place}".split()) <= limit + 1:
            return f"{verb} {said} {place}"
    ws = head.split()
    room = limit + 1 - len(f"{verb} {place}".split())
    for i in range(max(0, len(ws) - room), len(ws)):
        # the longest tail that fits, never one that opens on a function word or right
        # after "and" ("tutorial jobs" of "H100 and A100 benchmark and tutorial jobs")
        if ws[i].lower() not in words().function and \
                (not i or ws[i - 1].lower() not in ("and", "or", "nor")):
            return f"{verb} {' '.join(ws[i:])} {place}"
    return None
