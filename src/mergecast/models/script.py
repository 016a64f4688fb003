"""What the writer says and what the voice makes of it: sections, sentences, cues, chapters."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from ..codec import to_dict
from .changes import WriterKind


@dataclass(frozen=True)
class Sentence:
    text: str  # as shown on the page
    spoken: str  # as read aloud (after the pronunciation normaliser)
    cites: tuple[int, ...] = ()
    origin: str = "template"  # template | llm: which writer made this sentence


SECTION_KINDS = ("intro", "signal", "theme", "area", "duplicates", "reverts", "notes", "outro")


@dataclass(frozen=True)
class Section:
    kind: str  # one of SECTION_KINDS
    heading: str
    sentences: tuple[Sentence, ...]

    @property
    def text(self) -> str:
        return " ".join(s.text for s in self.sentences)

    @property
    def spoken(self) -> str:
        return " ".join(s.spoken for s in self.sentences)

    @property
    def cites(self) -> tuple[int, ...]:
        seen: dict[int, None] = {}
        for s in self.sentences:
            for n in s.cites:
                seen.setdefault(n, None)
        return tuple(seen)


@dataclass(frozen=True)
class Script:
    show: str
    date: dt.date
    title: str
    summary: str
    writer: WriterKind
    sections: tuple[Section, ...]

    @property
    def transcript(self) -> str:
        return "\n\n".join(s.text for s in self.sections)

    @property
    def words(self) -> int:
        return sum(len(s.spoken.split()) for s in self.sections)

    def to_json(self) -> dict[str, Any]:
        """The documented `mergecast script --json` shape."""
        return {
            "show": self.show,
            "date": self.date.isoformat(),
            "title": self.title,
            "summary": self.summary,
            "writer": self.writer,
            "sections": [
                {
                    "kind": s.kind,
                    "heading": s.heading,
                    "text": s.text,
                    "spoken": s.spoken,
                    "cites": list(s.cites),
                    "sentences": [to_dict(x) for x in s.sentences],
                }
                for s in self.sections
            ],
            "transcript": self.transcript,
            "words": self.words,
        }


@dataclass(frozen=True)
class Cue:
    """One spoken sentence's place in the audio, measured from samples."""

    section: int  # index into Script.sections
    sentence: int  # index into Section.sentences
    start: float  # seconds
    end: float
    text: str


@dataclass(frozen=True)
class Chapter:
    start: float
    title: str
    url: str | None = None


# Text-only episodes (voice "none") have no audio to measure: their timings are estimated
# at the writing stage's own speaking-speed default, and their transcript says so.
ESTIMATE_WPM = 150.0


@dataclass(frozen=True)
class Audio:
    """What the voice stage made for one script."""

    duration_seconds: float
    cues: tuple[Cue, ...]
    chapters: tuple[Chapter, ...]
    audio_bytes: int | None = None  # None: text-only episode (voice "none")
    audio_sha256: str | None = None
    voice: str = "none"
