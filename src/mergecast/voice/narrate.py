"""Sentence-by-sentence narration: one Sentence.spoken is one synthesis call and one cue.

Cue and chapter times are counted from the samples actually produced, never estimated.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ..errors import VoiceError
from ..models import ESTIMATE_WPM, Chapter, Cue, Script, Section
from . import Progress, Samples, Voice


@dataclass(frozen=True)
class Narration:
    samples: Samples  # mono float32 at sample_rate, pauses included
    sample_rate: int
    cues: tuple[Cue, ...]
    chapters: tuple[Chapter, ...]

    @property
    def duration(self) -> float:
        return self.samples.size / self.sample_rate


def narrate(
    script: Script,
    voice: Voice,
    *,
    sentence_pause: float = 0.3,
    section_pause: float = 0.8,
    links: Mapping[int, str] | None = None,
    progress: Progress | None = None,
) -> Narration:
    """Synthesise every spoken sentence in order, with silence between them; `progress`
    hears (sentences spoken, sentences in all) after each one."""
    rate = voice.sample_rate
    parts: list[Samples] = []
    offset = 0  # samples so far
    cues: list[Cue] = []
    chapters: list[Chapter] = []
    spoken = _spoken(script)
    total = sum(len(sentences) for _, _, sentences in spoken)
    for si, section, sentences in spoken:
        for k, (ti, text, shown) in enumerate(sentences):
            if parts:
                gap = sentence_pause if k else section_pause
                silence = np.zeros(round(gap * rate), dtype=np.float32)
                parts.append(silence)
                offset += silence.size
            if k == 0:
                chapters.append(_chapter(section, offset / rate, links or {}))
            audio = _say(voice, text, si, ti)
            parts.append(audio)
            cues.append(Cue(si, ti, offset / rate, (offset + audio.size) / rate, shown))
            offset += audio.size
            if progress is not None:
                progress(len(cues), total)
    samples = np.concatenate(parts) if parts else np.zeros(0, dtype=np.float32)
    return Narration(samples.astype(np.float32, copy=False), rate, tuple(cues), tuple(chapters))


def estimate(
    script: Script,
    *,
    sentence_pause: float = 0.3,
    section_pause: float = 0.8,
    links: Mapping[int, str] | None = None,
    words_per_minute: float = ESTIMATE_WPM,
) -> tuple[float, tuple[Cue, ...], tuple[Chapter, ...]]:
    """Timings for a text-only episode, from a words-per-minute estimate (no audio exists)."""
    t = 0.0
    first = True
    cues: list[Cue] = []
    chapters: list[Chapter] = []
    for si, section, sentences in _spoken(script):
        for k, (ti, text, shown) in enumerate(sentences):
            if not first:
                t += sentence_pause if k else section_pause
            first = False
            if k == 0:
                chapters.append(_chapter(section, t, links or {}))
            length = len(text.split()) * 60.0 / words_per_minute
            cues.append(Cue(si, ti, round(t, 3), round(t + length, 3), shown))
            t += length
    return round(t, 3), tuple(cues), tuple(chapters)


def _say(voice: Voice, text: str, section: int, sentence: int) -> Samples:
    try:
        audio = voice.synthesize(text)
    except VoiceError:
        raise
    except Exception as exc:  # an engine's own failure: name the sentence, keep the cause
        raise VoiceError(
            f"the {voice.name} voice failed on section {section + 1} sentence {sentence + 1} "
            f"({type(exc).__name__}: {exc}); try another --voice"
        ) from exc
    return np.asarray(audio, dtype=np.float32).reshape(-1)


def _spoken(script: Script) -> list[tuple[int, Section, list[tuple[int, str, str]]]]:
    """Sections with their non-blank spoken sentences: (index, spoken text, page text)."""
    out = []
    for si, section in enumerate(script.sections):
        sentences = [
            (ti, " ".join(s.spoken.split()), " ".join(s.text.split()) or s.spoken.strip())
            for ti, s in enumerate(section.sentences)
            if s.spoken.strip()
        ]
        if sentences:
            out.append((si, section, sentences))
    return out


def _chapter(section: Section, start: float, links: Mapping[int, str]) -> Chapter:
    url = next((links[n] for n in section.cites if n in links), None)
    title = " ".join(section.heading.split()) or section.kind.replace("_", " ").capitalize()
    return Chapter(start=start, title=title, url=url)
