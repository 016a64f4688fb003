"""Secrets scrubbed by value from anything a server says before we show, store or cache it.

A server can echo our request (the `Authorization` header) in an error page, a JSON
answer or a model's reply. Patterns (`Bearer …`, `ghp_…`) miss a key pasted on its own,
so we scrub by value: every secret this process holds, and every run of MIN_RUN or more
characters of one (a message cut in the middle of a key still carries most of it).

`Secrets` is one set of values; `PROCESS` holds every secret any client of this process
was given (each client adds its own key when it is made), so a GitHub answer is
scrubbed of the LLM key too once that client exists.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

MIN_RUN = 8  # a run this long of a secret is scrubbed; shorter ones are ordinary text
MIN_SECRET = 4  # shorter values are not secrets worth the damage of scrubbing them
MASK = "***"
# Variables that hold secrets whatever the config says: the GitHub token and the default
# API key name of [llm] and [voice.openai].
KNOWN_SECRET_VARS = ("GITHUB_TOKEN", "GH_TOKEN", "OPENAI_API_KEY")
_JSON_ESCAPED = frozenset('"\\/') | frozenset(map(chr, range(32)))


class Secrets:
    """Scrub a set of secret values, and any MIN_RUN-character run of one, from text."""

    def __init__(self, values: Iterable[str | None] = ()) -> None:
        self._values: set[str] = set()
        self._grams: set[str] = set()
        for value in values:
            self.add(value)

    @classmethod
    def from_environ(cls, environ: Mapping[str, str], names: Iterable[str] = (),
                     values: Iterable[str] = ()) -> Secrets:
        """The values of `names` and of KNOWN_SECRET_VARS in `environ`, plus `values`."""
        found = [environ.get(n, "") for n in (*KNOWN_SECRET_VARS, *names) if n]
        return cls([*found, *values])

    @property
    def secrets(self) -> tuple[str, ...]:
        return tuple(sorted(self._values, key=lambda v: (-len(v), v)))

    def __bool__(self) -> bool:
        return bool(self._values)

    def __call__(self, text: str) -> str:
        return self.scrub(text)

    def add(self, value: str | None) -> None:
        if not value or len(value) < MIN_SECRET or value in self._values:
            return
        self._values.add(value)
        if len(value) < MIN_RUN:
            return  # a short secret is only scrubbed whole
        self._grams.update(value[i : i + MIN_RUN] for i in range(len(value) - MIN_RUN + 1))

    def found_in(self, text: str) -> bool:
        """True when `text` holds a secret, or a MIN_RUN-character run of one."""
        return any(v in text for v in self._values) or any(g in text for g in self._grams)

    def scrub(self, text: str) -> str:
        """`text` with every secret and every MIN_RUN+ run of one replaced by MASK."""
        if not self._values:
            return text
        for value in self._values:
            if len(value) < MIN_RUN and value in text:
                text = text.replace(value, MASK)
        if not self._grams or len(text) < MIN_RUN:
            return text
        # Every occurrence of every MIN_RUN-character window of a secret (str.find: fast,
        # and linear in the text); overlapping or touching windows join into one run.
        spans: list[tuple[int, int]] = []
        for gram in self._grams:
            at = text.find(gram)
            while at != -1:
                spans.append((at, at + MIN_RUN))
                at = text.find(gram, at + 1)
        if not spans:
            return text
        spans.sort()
        out: list[str] = []
        done = 0  # text[:done] is already in out
        start, end = spans[0]
        for s, e in spans[1:]:
            if s <= end:
                end = max(end, e)
                continue
            out += [text[done:start], MASK]
            done, start, end = end, s, e
        out += [text[done:start], MASK, text[end:]]
        return "".join(out)

    def scrub_json(self, value: Any, raw: str | None = None) -> Any:
        """Every string (keys too) in a decoded JSON value, scrubbed.

        `raw`, the JSON text `value` was decoded from, lets a clean answer skip the walk:
        when it has no \\u escape and no secret has a character JSON escapes, every
        secret run in a string appears in `raw` as it is.
        """
        if not self._values:
            return value
        if raw is not None and "\\u" not in raw and not self.found_in(raw) \
                and not any(_JSON_ESCAPED.intersection(v) for v in self._values):
            return value
        if isinstance(value, str):
            return self.scrub(value)
        if isinstance(value, list):
            return [self.scrub_json(v) for v in value]
        if isinstance(value, dict):
            return {self.scrub(k): self.scrub_json(v) for k, v in value.items()}
        return value


PROCESS = Secrets()


def remember(value: str | None) -> None:
    """Add a secret this process holds (an API key, a token) to every later scrub."""
    PROCESS.add(value)


def _with(extra: tuple[str | None, ...]) -> Secrets:
    if not any(extra):
        return PROCESS
    both = Secrets(PROCESS._values)
    for value in extra:
        both.add(value)
    return both


def scrub(text: str, *extra: str | None) -> str:
    """`text` scrubbed of every secret this process holds, plus `extra` ones."""
    return _with(extra).scrub(text)


def scrub_json(value: Any, *extra: str | None, raw: str | None = None) -> Any:
    """A decoded JSON value with every string scrubbed the same way (`raw`: its text)."""
    return _with(extra).scrub_json(value, raw)


def excerpt(text: str, limit: int, *extra: str | None) -> str:
    """Server text fit for a one-line message: scrubbed first, then cut (never the reverse:
    a cut secret is no longer found whole); unprintable characters (controls, the ESC of a
    terminal escape, bidi and zero-width marks) dropped, whitespace folded."""
    text = scrub(text, *extra)
    text = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
