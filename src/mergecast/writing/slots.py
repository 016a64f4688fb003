"""The LLM writer's slots: what it asks a model to word, and what it takes from the answer.

Four kinds of slot, each one short request with a small JSON schema and a token budget
from the slot's expected length (templates/prompts.toml): a theme's explanation (problem,
change, benefit) from its PR titles and cleaned description excerpts; the signal sentence
from the themes' names and kinds of work; the title and the summary from the concept
names. The model is never given PR numbers or handles and never asked for them: the
summary names people through placeholders ({who1}) that mergecast fills.

An answer is read key by key, tolerantly (any JSON object in it, keys in any case), and
each key's sentences are vetted (vetting.py). When anything was wrong the model is asked
once more with the validator's reason; a key right in either answer is taken, and
whatever is still missing is left to the template writer.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
import time
import tomllib
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

from ..analysis.language import clean_title, title_case
from ..analysis.text import clean_body
from ..config import LLMConfig
from ..errors import LLMBudgetError, LLMError, LLMUnavailableError
from ..models import Change, Digest, Plan, ThemePlan
from .factcheck import Facts
from .llm_client import LLMClient
from .llm_request import Reply, Request
from .phrases import Lookup
from .realise import concept
from .titling import TITLE_LIMIT
from .vetting import Vetter, clean, fill, shares_word, source_text, split_sentences
from .who_size import who

TOKENS_PER_WORD = 1.5
TOKENS_PER_KEY = 12  # the key, its quotes and punctuation
TITLES = 8  # PR titles given per theme
BODIES = 3  # descriptions given per theme
EXCERPT = 700  # characters of each description
SENTENCES = 2  # at most this many sentences per key
SUMMARY_WORDS = 45
_FENCE = re.compile(r"<\s*/?\s*untrusted[-_\s]*pr[-_\s]*text[^<>\n]{0,80}>?"
                    r"|untrusted[-_\s]*pr[-_\s]*text", re.I)  # a tag, or its bare name


@functools.cache
def prompts() -> Mapping[str, Any]:
    text = resources.files("mergecast.writing").joinpath("templates/prompts.toml").read_text(
        encoding="utf-8")
    return tomllib.loads(text)


@dataclasses.dataclass(frozen=True)
class Ask:
    """One slot's request, and what its answer is checked against."""

    slot: str  # "theme 1", "signal", "title", "summary"
    label: str  # how warnings name it: 'theme 1 ("convolution tile planning")'
    kind: str  # theme | signal | title | summary
    request: Request
    keys: tuple[str, ...]
    required: tuple[str, ...]
    vetter: Vetter
    placeholders: Mapping[str, str] = dataclasses.field(default_factory=dict)
    index: int = 0  # the theme's place, for theme slots
    names: tuple[str, ...] = ()  # the themes a title must name one of


@dataclasses.dataclass(frozen=True)
class Outcome:
    ask: Ask
    texts: Mapping[str, tuple[str, ...]]  # key -> the model's vetted sentences (() = none)
    failed: Mapping[str, str]  # key -> why the model's text for it was not taken
    error: str  # why no usable answer came at all ("" when one did)
    requests: int
    seconds: float
    tokens: int
    spent: bool = False  # the episode's budget was spent before this slot was answered
    down: bool = False  # the server failed (now or for an earlier slot) before it answered

    @property
    def used(self) -> bool:
        return any(self.texts.values())


def fenced(text: str, limit: int) -> str:
    """Untrusted text for a prompt: no fence markers of its own, cut to `limit`."""
    return _FENCE.sub("[marker removed]", text)[:limit]


def excerpt(body: str, limit: int = EXCERPT) -> str:
    """A description's prose, cut at a sentence end near `limit` characters."""
    text = " ".join(clean_body(body).split())
    if len(text) <= limit:
        return text
    cut = text[:limit]
    end = max(cut.rfind(". "), cut.rfind("! "), cut.rfind("? "))
    return cut[: end + 1] if end > limit // 3 else cut.rsplit(" ", 1)[0] + " …"


def _request(kind: str, slot: str, system: str, user: str, llm: LLMConfig) -> Request:
    spec = prompts()[kind]
    keys = tuple(spec["keys"])
    chars = {"title": 90, "summary": 400}.get(kind, 320)
    schema = {"type": "object", "additionalProperties": False, "required": list(keys),
              "properties": {k: {"type": "string", "maxLength": chars} for k in keys}}
    budget = math.ceil(spec["words"] * TOKENS_PER_WORD) + TOKENS_PER_KEY * len(keys) + 8
    return Request(({"role": "system", "content": system}, {"role": "user", "content": user}),
                   schema, max_tokens=min(budget, llm.max_tokens),
                   name=f"mergecast_{slot.replace(' ', '_')}")


def _members(d: Digest, t: ThemePlan) -> list[Change]:
    """The theme's own changes in the order they are told (not related ones)."""
    related = {a.ref.pr for a in t.related if a.ref is not None}
    found = [c for n in t.prs if n not in related and (c := d.change(n)) is not None]
    return found + [c for c in d.changes if c.sha and c.sha in t.commits and c.number is None]


def asks(digest: Digest, plan: Plan, x: Lookup, llm: LLMConfig) -> list[Ask]:
    """Every slot of a daily episode the model is asked to word, themes first."""
    p = prompts()
    system = p["system"]
    facts: Facts = x.facts
    day_text = source_text([c.title for c in digest.changes] + [t.concept for t in plan.themes]
                           + [a for t in plan.themes if (a := t.area)]
                           + [clean_body(c.body) for c in digest.changes])
    out: list[Ask] = []
    for t in plan.themes:
        name = concept(x, t)
        changes = _members(digest, t)
        items = []
        for i, c in enumerate(changes[:TITLES], 1):
            body = excerpt(c.body) if c.body and i <= BODIES else ""
            items.append(p["theme"]["pr"].format(item=i, title=fenced(clean_title(c.title), 200),
                                                 body=fenced(body, EXCERPT + 20) + "\n"
                                                 if body else ""))
        user = p["theme"]["prompt"].format(
            index=t.index, concept=fenced(name, 120), work=x.pick("work", t.work),
            area=p["theme"]["area"].format(area=fenced(t.area, 60)) if t.area else "",
            prs="\n".join(items))
        source = source_text([name, t.area or ""] + [c.title for c in changes]
                             + [clean_title(c.title) for c in changes]
                             + [clean_body(c.body) for c in changes])
        slot = f"theme {t.index}"
        out.append(Ask(slot, f'{slot} ("{name}")', "theme",
                       _request("theme", slot, system, user, llm),
                       tuple(p["theme"]["keys"]), tuple(p["theme"]["required"]),
                       Vetter(facts, source, tuple(n for c in changes if (n := c.number))),
                       index=t.index))
    if not plan.themes:
        return out
    named = [(t, concept(x, t)) for t in plan.themes]
    themes = {
        "signal": "\n".join(p["signal"]["theme"].format(
            concept=fenced(n, 120), work=x.pick("work", t.work)
            + (f" in {fenced(t.area, 60)}" if t.area else "")) for t, n in named),
        "title": "\n".join(p["title"]["theme"].format(concept=fenced(n, 120))
                           for _, n in named[:2]),
        "summary": "\n".join(p["summary"]["theme"].format(concept=fenced(n, 120),
                                                          who=f"{{who{i}}}")
                             for i, (_, n) in enumerate(named[:2], 1)),
    }
    for kind in ("signal", "title", "summary"):
        user = p[kind]["prompt"].format(themes=themes[kind])
        holders = {f"who{i}": who(t) for i, (t, _) in enumerate(named[:2], 1)} \
            if kind == "summary" else {}
        out.append(Ask(kind, kind, kind, _request(kind, kind, system, user, llm),
                       tuple(p[kind]["keys"]), tuple(p[kind]["required"]),
                       Vetter(facts, day_text), placeholders=holders,
                       names=tuple(n for _, n in named[:2])))
    return out


# ------------------------------------------------------------------ answers


def answer(client: LLMClient, ask: Ask) -> Outcome:
    """Ask, read, and ask once more with the reason when anything was wrong."""
    started = time.monotonic()
    texts: dict[str, tuple[str, ...]] = {}
    failed: dict[str, str] = {}
    request, error, requests, tokens, spent, down = ask.request, "", 0, 0, False, False
    for _attempt in range(2):
        try:
            reply = client.chat(request)
        except LLMBudgetError as exc:  # nothing was sent, or it was cut off by the budget
            error, spent = str(exc), not any(texts.values())
            break
        except LLMUnavailableError as exc:
            error, down = str(exc), not any(texts.values())
            break
        except LLMError as exc:
            error, requests = str(exc), requests + 1
            break
        requests += 1
        tokens += reply.prompt_tokens + reply.completion_tokens
        problems = read(ask, reply, texts, failed)
        if not problems:
            break
        error = problems[0]
        request = request.retry(reply, _cut("; ".join(problems), 600))
    if any(texts.values()):
        error = ""
    elif not error:
        error = next(iter(failed.values()), "the answer had nothing to say")
    return Outcome(ask, texts, failed, error, requests, time.monotonic() - started, tokens,
                   spent, down)


def read(ask: Ask, reply: Reply, texts: dict[str, tuple[str, ...]],
         failed: dict[str, str]) -> list[str]:
    """Take what is right in `reply` into `texts` (keys already taken stay); why each other
    key was not taken goes into `failed`. Returns the problems, for a retry."""
    if reply.data is None:
        return [reply.problem or "the answer holds no JSON object"]
    data = {str(k).strip().lower(): v for k, v in reply.data.items()}
    problems: list[str] = []
    for key in ask.keys:
        if key in texts:
            continue
        value = data.get(key)
        if not isinstance(value, str):
            why = f'the answer lacks the key "{key}"' if value is None else \
                f'"{key}" must be a string'
        elif not value.strip():
            why = f'"{key}" is empty' if key in ask.required else ""
            if not why:
                texts[key] = ()  # nothing to say: the template's text, if any, is said
        else:
            said, why = vet(ask, key, value)
            if not why:
                texts[key] = said
        if why:
            failed[key] = why
            problems.append(why)
        else:
            failed.pop(key, None)
    return problems


def vet(ask: Ask, key: str, value: str) -> tuple[tuple[str, ...], str]:
    """The sentences of one key, or why they cannot be said."""
    text = clean(value)
    v = ask.vetter
    if ask.kind == "title":
        title = title_case(text.strip(" .\"'“”"))
        if not 2 <= len(title.split()) or len(title) > TITLE_LIMIT:
            return (), f'the title "{title}" must be 2 words to {TITLE_LIMIT} characters'
        problems = (v.prose(title, statement=False) or _names_none(title, ask.names)
                    or v.grounded(title))
        return ((title,), "") if not problems else ((), problems[0])
    said = split_sentences(text)
    if not said:
        return (), f'"{key}" has no sentence'
    if len(said) > SENTENCES:
        return (), f'"{key}" has {len(said)} sentences; write at most {SENTENCES}'
    if ask.kind == "signal" and len(said) > 1:
        return (), '"signal" must be one sentence'
    if ask.kind == "summary":
        if len(text.split()) > SUMMARY_WORDS:
            return (), f"the summary has {len(text.split())} words; write at most {SUMMARY_WORDS}"
        # The model's own words are prose-checked with the placeholders standing in for
        # people ("Someone"); the filled sentences are then checked against the facts.
        filled, unknown = fill(text, dict(ask.placeholders))
        masked = [re.sub(r"\{[^{}]{0,30}\}", "Someone", s) for s in said]
        found = unknown or [p for s in masked for p in v.prose(s)]
        said = split_sentences(filled)
        found = found or [p for s in said for p in v.grounded(s)]
        return ((), found[0]) if found else (tuple(said), "")
    found = [p for s in said for p in v.sentence(s)]
    return ((), found[0]) if found else (tuple(said), "")


def _names_none(title: str, names: Sequence[str]) -> list[str]:
    """A title names a theme: it shares a word of four letters or more with one of them."""
    if not names or shares_word(title, names):
        return []
    listed = " or ".join(f'"{n}"' for n in names)
    return [f'the title "{title}" names none of the themes; name {listed}']


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


__all__: Sequence[str] = ["Ask", "Outcome", "answer", "asks", "excerpt", "fenced", "prompts"]
