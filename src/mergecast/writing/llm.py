"""The LLM writer: the template writer's plan, with a model wording a few prose slots.

The plan stays rule-built (plan.py): what each theme is, who did it, how big it is, the
PR numbers, counts and ranges. A model is asked, slot by slot (slots.py), for what
templates word least well: each theme's explanation (the problem, what changed, why it
matters), the signal sentence, the title and the summary. Requests run in parallel up to
[llm] parallel, within the episode's time and token budgets. Every sentence the model
writes is vetted (vetting.py) and asked for once more with the reason when it fails;
what still fails is replaced by the template's realisation of that slot, or that one
sentence, never the whole episode, with a warning naming the slot. A server that fails
(llm_client.py) is not asked again: every slot left uses the template's text, with one
warning naming the server, the failure and those slots. The size sentence
("kovacs47 landed an eleven-part stack, PRs 1 through 11") is always the template's.

Each slot prints a progress line when it is done, and the totals (requests, tokens,
seconds) close the run. Sentences keep their origin (`Sentence.origin`), so episode.json
and the page say which ones a model wrote.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import os
import warnings
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor, as_completed

import httpx

from ..config import LLMConfig, WritingConfig
from ..errors import ConfigError
from ..models import Digest, Script, ThemePlan, WriterKind
from . import described, realise
from .length import Line
from .llm_client import LLMClient
from .llm_request import Totals
from .phrases import Lookup
from .slots import Ask, Outcome, answer, asks
from .template import TemplateWriter, Wording, plan_episode, realise_script

LLM = "llm"  # Sentence.origin of a sentence a model wrote


class WritingWarning(UserWarning):
    """A slot of the LLM writer fell back to the template writer's text."""


class WritingProgress(UserWarning):
    """A progress line of the LLM writer (a slot done, the totals): not a problem."""

    label = "llm"  # the CLI prints "mergecast: llm: …" instead of "mergecast: warning: …"


def _warn(message: str) -> None:
    warnings.warn(message, WritingWarning, stacklevel=3)


def _progress(message: str) -> None:
    warnings.warn(message, WritingProgress, stacklevel=3)


class LLMWriter:
    """Writes with an OpenAI-compatible (or Ollama) server, slot by slot."""

    name = WriterKind.LLM

    def __init__(self, llm: LLMConfig, *, transport: httpx.BaseTransport | None = None,
                 environ: Mapping[str, str] = os.environ) -> None:
        self.llm = llm
        self.transport = transport
        self.environ = environ

    def write(self, digest: Digest, *, show: str, day: dt.date, writing: WritingConfig,
              lexicon: Mapping[str, str], weekly: str | None = None) -> Script:
        if weekly is not None:  # recaps are always template-written
            return TemplateWriter().write(digest, show=show, day=day, writing=writing,
                                          lexicon=lexicon, weekly=weekly)
        x, plan = plan_episode(digest, show=show, day=day, writing=writing, lexicon=lexicon)
        if not self.llm.model:
            raise ConfigError("expected a model name, got an empty string in mergecast.toml "
                              "[llm] model; set it, or use --writer template")
        todo = asks(digest, plan, x, self.llm)
        with LLMClient(self.llm, transport=self.transport, environ=self.environ) as client:
            outcomes = _run(client, todo, self.llm.parallel)
            totals, down = client.totals, client.down
        wording = _wording(outcomes)
        script = realise_script(digest, x, plan, writing=writing, wording=wording)
        script = _closing(script, outcomes, wording, totals, down)
        return script


def _run(client: LLMClient, todo: list[Ask], parallel: int) -> list[Outcome]:
    """Every slot's outcome, in `todo` order; a progress line (and a warning for each
    fallback) as each one finishes."""
    done: dict[str, Outcome] = {}
    if not todo:
        return []
    with ThreadPoolExecutor(max_workers=max(1, min(parallel, len(todo))),
                            thread_name_prefix="mergecast-llm") as pool:
        futures = [pool.submit(answer, client, ask) for ask in todo]
        for n, future in enumerate(as_completed(futures), 1):
            outcome = future.result()
            _report(outcome, n, len(todo))
            done[outcome.ask.slot] = outcome
    return [done[ask.slot] for ask in todo]


def _report(o: Outcome, n: int, total: int) -> None:
    label = o.ask.label
    if o.spent or o.down:  # one warning for all of them, at the end
        why = "the budget is spent" if o.spent else "the server failed"
        _progress(f"[{n}/{total}] {label}: the template's ({why})")
        return
    if not o.used:
        _warn(f"the LLM slot {label} fell back to the template writer's text: {o.error}")
    else:
        for key, why in o.failed.items():
            _warn(f"the LLM slot {label}: its {key} sentence is the template writer's: {why}")
    plural = "" if o.requests == 1 else "s"
    taken = sum(len(v) for v in o.texts.values())
    if o.used:
        what = f"{taken} sentence{'' if taken == 1 else 's'} from the model" \
            if o.ask.kind in ("theme", "signal", "summary") else "from the model"
    else:
        what = "the template's"
    _progress(f"[{n}/{total}] {label}: {what} ({o.requests} request{plural}, "
              f"{o.tokens:,} tokens, {o.seconds:.1f} s)")


# ------------------------------------------------------------------ the model's wording


def _wording(outcomes: list[Outcome]) -> Wording:
    themes: dict[int, dict[realise.Slot, realise.Slot]] = {}
    signal: Callable[[Lookup], Line | None] | None = None
    title = summary = None
    for o in outcomes:
        if not o.used:
            continue
        if o.ask.kind == "theme":
            themes[o.ask.index] = _theme_slots(o)
        elif o.ask.kind == "signal":
            signal = functools.partial(_signal_line, o)
        elif o.ask.kind == "title":
            title = o.texts["title"][0]
        elif o.ask.kind == "summary":
            summary = " ".join(o.texts["summary"])
    return Wording(themes, signal, title, summary,
                   WriterKind.LLM if any(o.used for o in outcomes) else WriterKind.TEMPLATE)


def _signal_line(o: Outcome, x: Lookup) -> Line | None:
    line = x.line(o.texts["signal"][0], origin=LLM, expand=False)
    if line is None:
        _warn(f"the LLM slot {o.ask.label}: its sentence is the template writer's: it repeats "
              "an opening the episode has used twice")
    return line


def _theme_slots(o: Outcome) -> dict[realise.Slot, realise.Slot]:
    """A theme's slots the model's explanation replaces: its problem, its change (which
    then also replaces what the template folds into the size sentence, what descriptions
    list and the extra details) and its benefit."""
    out: dict[realise.Slot, realise.Slot] = {}
    t = o.texts
    if t.get("change"):
        out[realise.size] = functools.partial(realise.size, fold_effects=False)
        out[realise.effects] = _model(o, "change", realise.effects)
        out[described.listed] = out[described.details] = _nothing
    if t.get("problem"):
        out[described.problem] = _model(o, "problem", described.problem)
    if t.get("benefit"):
        out[described.benefit] = _model(o, "benefit", described.benefit, optional=True,
                                      weight=-5)
    return out


def _nothing(x: Lookup, t: ThemePlan) -> list[Line]:
    return []


def _model(o: Outcome, key: str, template: realise.Slot, optional: bool = False,
           weight: int = 0) -> realise.Slot:
    def slot(x: Lookup, t: ThemePlan) -> list[Line]:
        lines = [x.line(s, o.ask.vetter.cites, optional=optional, weight=weight, origin=LLM)
                 for s in o.texts[key]]
        kept = [ln for ln in lines if ln is not None]
        if len(kept) < len(lines):
            _warn(f"the LLM slot {o.ask.label}: its {key} sentence is the template writer's: "
                  "it repeats an opening the episode has used twice")
            return template(x, t)
        return kept
    return slot


def _closing(script: Script, outcomes: list[Outcome], wording: Wording,
             totals: Totals, down: str) -> Script:
    """The script, marked as the template writer's when nothing of the model's was kept;
    one warning for the slots left to the template because the server failed or the
    budget was spent (`down`: the server's first failure); and the totals line."""
    by_model = sum(1 for s in script.sections for x in s.sentences if x.origin == LLM)
    extras = [n for n, v in (("title", wording.title), ("summary", wording.summary)) if v]
    if not by_model and not extras:
        script = dataclasses.replace(script, writer=WriterKind.TEMPLATE)
    sentences = sum(len(s.sentences) for s in script.sections)
    stopped = [o for o in outcomes if o.spent or o.down]
    if stopped:
        why = down if any(o.down for o in stopped) else stopped[0].error
        _warn(f"{why}; so {', '.join(o.ask.slot for o in stopped)} "
              f"{'uses' if len(stopped) == 1 else 'use'} the template writer's text")
    fell = [o.ask.slot for o in outcomes if not o.used]
    back = f"; fell back: {', '.join(fell)}" if fell else ""
    kept = " and ".join(extras)
    _progress(f"{len(outcomes) - len(fell)} of {len(outcomes)} slots from the model "
              f"({by_model} of {sentences} sentences{', ' + kept if kept else ''}){back}; "
              f"{totals.describe()}")
    return script


__all__ = ["LLMWriter", "WritingProgress", "WritingWarning"]
