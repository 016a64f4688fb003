"""Plan one theme: its concept name, who and how big, the effects its titles tell, and the
problem, benefit and details its descriptions give (the day's plan is plan.py). Pure: no
wording, no I/O."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Sequence

from ..analysis.headlines import single_headline
from ..analysis.language import base_verb, kind_of, words
from ..analysis.naming import is_activity
from ..analysis.scope import scope_of, work_of
from ..analysis.text import split_identifier
from ..models import (
    Action,
    Change,
    Claim,
    Continuity,
    Digest,
    Ref,
    State,
    Theme,
    ThemePlan,
)
from .bodies import best, claims, steps
from .changes import (
    DOER,
    action,
    actions,
    area_name,
    content_words,
    is_revert,
    repeats,
    restates,
    says_something,
    stems,
    told_stems,
    unheard_subject,
)
from .clauses import clauses
from .cues import cues
from .kinds import tells_old_state
from .rewrite import SELF_NAMES
from .sentences import measured

BODY_PRS = 3  # descriptions read per theme, base change first
STEPS = 3  # steps of a change's listed description told at most (see bodies.steps)
SAID_AGAIN = 0.6  # share of a sentence's stems found in one kept before it: said again
SAID_AGAIN_WORDS = 8  # ... counted for a sentence of this many stems or more
# Words a single change's doing may run to as its theme's name: the name then says it
# once, where a cut name ("making the test runner warn") is followed by the whole doing
WHOLE_NAME = 12

Accept = Callable[[str, Ref], bool]


# What a change calls itself ("The change …", "The fix …"): never a subject to introduce.
_CALLED = frozenset(w.lower() for w in SELF_NAMES) | {"diff", "fix", "update"}


def theme_plan(d: Digest, by_sha: dict[str, Change], t: Theme, index: int,
               accept: Accept, undone: frozenset[int] = frozenset()) -> ThemePlan:
    changes = [c for n in t.prs if (c := d.change(n)) is not None]
    changes += [by_sha[s] for s in t.commits if s in by_sha]
    states = {c.state for c in changes}
    status = ("landed" if states and states <= {State.MERGED, State.LANDED}
              else "opened" if states == {State.OPEN}
              else "pushed" if State.OPEN in states else "posted")
    members = set(t.stack.members) if t.stack and t.stack.members else set(t.prs)
    order = ([n for n in t.stack.members] if t.stack and t.stack.members else []) + \
        [n for n in sorted(t.prs) if not (t.stack and n in t.stack.members)]
    told = [c for n in order if (c := d.change(n)) is not None] + \
        [by_sha[s] for s in t.commits if s in by_sha]
    # A change reverted for good did nothing that still stands: its revert chain tells it.
    effects = tuple(a for c in told if not is_revert(c) and says_something(action(c))
                    and c.number not in undone
                    and (c.number is None or c.number in members) for a in actions(c))
    related = tuple(action(c) for c in told if c.number is not None
                    and c.number not in members and not is_revert(c))
    found: list[Claim] = []
    listed: list[Action] = []
    # (a bot's description is another project's release notes: nothing of this change)
    described = [c for c in told if c.body and not c.bot and c.number not in undone]
    for c in described[:BODY_PRS]:
        ref = Ref(pr=c.number, sha=c.sha)
        main = action(c)
        title = content_words(main.obj)
        whole = stems(c.title)  # (a sentence saying the whole title again says nothing new)
        # Said once: a sentence or a listed step that only repeats the title is dropped.
        found += [x for x in claims(c.body, ref, accept=accept)
                  if x.text not in {f.text for f in found}
                  and not repeats(content_words(x.text), title, 0.6)
                  and not repeats(told_stems(x.text, c), whole, 0.75)
                  and not _does_title(x.text, main, whole)]
        # (a related change's steps are no steps of the theme's work: "PR 2486 also adds X"
        # came before "Related: PR 2486 turns on Y")
        # (a step saying the title again takes no place of the three a change's list gives)
        listed += [a for a in steps(c.body, ref, limit=STEPS + 2)
                   if not repeats(content_words(a.obj), title, 0.8)
                   and not _same_act(a, main) and (c.number is None or c.number in members)
                   ][:STEPS]
    # A sentence an earlier episode said of this work is not said again the next day.
    found = [x for x in found if not _said_before(x.text, t.continues)]
    # A step the titles or a kept sentence already tell ("updates to latest action
    # versions" after "bumping GitHub actions … to latest versions") is said once; one
    # whose words are only spread over several ("adds the 2D 32x1 kernel", its "32x1" in
    # a sentence on speed) is not told by any.
    before = [stems(s) for s in (*(c.title for c in told), *(x.text for x in found))]
    listed = [a for a in listed if not any(repeats(stems(a.obj), b, 0.75) for b in before)]
    # The problem and the benefit are the base change's, and about the theme: a sentence
    # sharing no word with the theme's name or titles (another fix the PR also made), or
    # for the benefit with the problem it answers, is not. "The problem it tackles" credits
    # the base change, so its problem shares a word with that change's own title or the
    # name: an aside sharing "move" with only a later part's title is no problem of it.
    about = stems(" ".join([t.headline, *(c.title for c in told)]))
    first = described[0] if described else None
    base = [x for x in found if first and x.ref == Ref(pr=first.number, sha=first.sha)]
    # (a name's parts count: "BaseCheckpointManager" names checkpoints)
    own = stems(_parts(" ".join([t.headline, first.title]))) if first else set()
    # A description opening on the state before its change is about that change whatever
    # words it uses ("The current validation requires GPUs" opens "Add dry run mode").
    brought = action(first) if first else None
    problem = best([x for i, x in enumerate(base) if (stems(x.text) & own
                    or i == 0 and tells_old_state(x.text))
                    and not (brought and _limit_of_new(x.text, brought))], "problem")
    about |= stems(problem.text) if problem else set()
    # A measured gain in the base change's description ("about 4x faster") is its own,
    # whatever words it uses.
    benefit = best([x for x in base if stems(x.text) & about or measured(x.text)],
                   "benefit")
    # Details: what the base change's description adds, and whatever a later part's says
    # (its own problem or benefit is a detail of that part, told under its number; one
    # that is off the theme's topic is said plainly, without "The problem:").
    # (a generic subject, "The logic …", is heard only as that word in the theme's
    # name, its titles or the sentences before)
    details = _once(tuple(c for i, c in enumerate(found) if c not in (problem, benefit)
                          and not unheard_subject(c.text, about | stems(" ".join(
                              x.text for x in found if x is not c)), " ".join(
                              [t.headline, *(x.title for x in told),
                               *(x.text for x in found[:i])]), _CALLED | cues().this_own)),
                    [x for x in (problem, benefit) if x is not None])
    kinds = Counter(k for a in effects if (k := kind_of(a)) not in ("", "change"))
    work = kinds.most_common(1)[0][0] if kinds else "change"
    # Sizes are said only over the whole theme: a change missing from the digest would
    # make any sum a false figure.
    scope = scope_of(told, fix=work == "correctness") \
        if len(told) == len(order) + len(t.commits) else None
    # What the files are outranks what the titles say: "Add performance file to show
    # convergence" touching only docs is documentation work, not performance work.
    work = (work_of(scope) or work) if scope and work != "correctness" else work
    name = _name(t.headline)
    said = _named(name, effects, len(told))
    return ThemePlan(
        index=index, concept=said, short=name if said != name else "", kind=t.kind,
        authors=_who(t) or _commit_authors(t.commits, by_sha), status=status,
        prs=tuple(order), commits=t.commits, stack=t.stack,
        work=work,
        area=area_name(t.areas[0]) if t.areas else None, problem=problem, effects=effects,
        benefit=benefit, details=details, steps=tuple(listed), related=related,
        open_prs=tuple(n for n in order if (c := d.change(n)) and c.state is State.OPEN),
        continues=t.continues, follows=t.follows,
        scope=scope,
    )


def _parts(text: str) -> str:
    """A text with each CamelCase name's words beside it: "BaseCheckpointManager base
    checkpoint manager"."""
    return re.sub(r"\b([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+)\b",
                  lambda m: f"{m.group(1)} {' '.join(split_identifier(m.group(1)))}",
                  text)


def _same_act(step: Action, main: Action) -> bool:
    """"expand Triton autotune configs for MoE FP8 rowwise kernels" under the title "Expand
    Triton autotune configs for MoE FP8 kernels" is the title's act told in more detail:
    the same verb on the same thing, up to its first preposition. "PR 12 also expands
    Triton autotune configs" would say it twice."""
    said = content_words(_head(step.obj))
    # "remove LocalMapInnerAttention class" under "Remove LocalMapInnerAttention": the same
    # thing gone, its kind said ("class", "helper") or not
    gone = step.verb in ("remove", "rename", "move")
    if gone:
        said -= words().kind_nouns
    # … and "fix spelling for inpt tensor" under "Spelling fixes" fixes the one thing the
    # title names whole
    title = content_words(main.obj)
    whole = said == title
    # … and "fix int8 unpacked for xnnpack export" under "Fix xnnpack export" is the
    # title's fix, narrowed: "PR 12 also fixes …" would be heard as a second one
    narrowed = len(title) >= 2 and title <= content_words(step.obj)
    return step.lemma == main.lemma and (narrowed or len(said) >= (
        1 if gone or whole else 2) and said <= title)


def _does_title(text: str, main: Action, title: set[str]) -> bool:
    """"PR 2452 implements num_flops_per_token computation for Flux model" under the title
    "Implement the num_flops_per_token calculation … for Flux": the title's act (the same
    verb) on the title's words with a word or two more is the effects line said again.
    Three words more may be news ("… and marks it for a future deprecation")."""
    m = DOER.match(text)
    verb = base_verb(m.group(2)) if m else None
    said = stems(DOER.sub("", text))
    return verb is not None and words().verb_class.get(verb) == main.verb and \
        len(said & title) >= 3 and len(said - title) <= 2


_NOT_SUBJECT = frozenset(("currently", "only", "now", "still", "also", "today"))


def _limit_of_new(text: str, main: Action) -> bool:
    """"The FlyDSL backend currently supports FLOOR scale only" under "Flydsl mxfp8
    quantize": what the thing a change brings can do only so far is its limit, never the
    problem that prompted it. Of a thing the change works on it is one ("The loader supports
    local files only" under "Add remote files to the loader"), as is a state told in the
    past or anything else said of the new thing ("The NVFP4 op needs a local region")."""
    if main.verb not in ("add", "") or cues().past.search(text) or tells_old_state(text) \
            or not (cues().capability.search(text) and re.search(r"\bonly\b", text, re.I)):
        return False
    subject = []
    for w in text.split():
        if base_verb(w) or w.lower() in words().auxiliaries or w.lower() in _NOT_SUBJECT:
            break
        subject.append(w)
    # (the thing brought: "blorp files", never "to the loader")
    return bool(stems(" ".join(subject)) & stems(_head(main.obj)))


def _head(obj: str) -> str:
    """An object up to its first preposition: "blorp files" of "blorp files to the loader"."""
    return " ".join(itertools.takewhile(lambda w: w.lower() not in words().breaks,
                                        obj.split()))


def _said_before(text: str, earlier: Continuity | None) -> bool:
    """Whether an earlier episode said `text` (inside whatever frame it was said in:
    "The problem: members created …")."""
    core = text.rstrip(".").lower()
    return earlier is not None and any(core in s.lower() for s in earlier.said)


def _once(details: tuple[Claim, ...], kept: list[Claim]) -> tuple[Claim, ...]:
    """The details less one that mostly says again what the problem, the payoff or a
    detail before it says ("The cosine scheduler is a standard for LLM training, and the
    WSD scheduler …" after "The cosine scheduler is widely used in LLM training, while the
    WSD scheduler …")."""
    out: list[Claim] = []
    for c in details:
        said = stems(c.text)  # (a short sentence shares most of its few words by chance)
        if not any(len(said) >= SAID_AGAIN_WORDS and repeats(said, stems(k.text), SAID_AGAIN)
                   or restates(c.text, k.text) for k in [*kept, *out]):
            out.append(c)
    return tuple(out)


def _name(headline: str) -> str:
    """A theme name as the analysis made it; a raw title handed in instead ("Cache: evict
    old entries") is made a name the same way the analysis would."""
    return single_headline(headline) if re.search(r"[:\[\]()`_#]", headline) else headline


def _named(name: str, effects: Sequence[Action], changes: int) -> str:
    """A single change named by its doing cut short ("fixing the incorrect step log") is
    named by the whole of it when that is short ("… for profiler after resuming"): else
    its size sentence says the name again with the rest ("landed a single PR, 293, fixing
    the incorrect step log for profiler after resuming")."""
    if changes != 1 or not effects or not is_activity(name):
        return name
    said = clauses(effects[:1])
    whole = said[0].ing() if len(said) == 1 else ""
    return whole if whole.startswith(f"{name} ") and len(whole.split()) <= WHOLE_NAME else name


def _who(t: Theme) -> tuple[str, ...]:
    """A stack is its owner's; a related fix by someone else grouped with it is not theirs."""
    if t.stack is not None and t.stack.members and t.stack.authors:
        return t.stack.authors
    return t.authors


def _commit_authors(shas: Sequence[str], by_sha: dict[str, Change]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(by_sha[s].author.handle for s in shas if s in by_sha))
