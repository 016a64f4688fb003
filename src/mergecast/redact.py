"""Scrub the secrets this process holds out of text that came from a server.

By value, not by pattern: a key without digits or a recognisable prefix looks like any
other word, so the only safe test is "does this text contain (part of) a secret we sent".
Every run of 8 or more characters that also occurs in a secret is replaced, so a server
that echoes a truncated or wrapped key leaks nothing useful either. One Redactor serves
every module that talks to a server (LLM, TTS, GitHub).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

MASK = "***"
RUN = 8  # the shortest piece of a secret that is scrubbed on its own
MIN_SECRET = 4  # shorter values are not secrets worth the damage of scrubbing them

# Variables that hold secrets whatever the config says: the GitHub token and the default
# API key name of [llm] and [voice.openai].
KNOWN_SECRET_VARS = ("GITHUB_TOKEN", "GH_TOKEN", "OPENAI_API_KEY")


class Redactor:
    """Replaces every secret, and every 8+ character run of one, with `***`."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self.secrets = tuple(sorted({s for s in secrets if len(s) >= MIN_SECRET},
                                    key=len, reverse=True))
        self._grams = {s[i:i + RUN] for s in self.secrets for i in range(len(s) - RUN + 1)}

    @classmethod
    def from_environ(cls, environ: Mapping[str, str], names: Iterable[str] = (),
                     values: Iterable[str] = ()) -> Redactor:
        """The values of `names` and of KNOWN_SECRET_VARS in `environ`, plus `values`."""
        found = [environ.get(n, "") for n in (*KNOWN_SECRET_VARS, *names) if n]
        return cls([*found, *values])

    def __bool__(self) -> bool:
        return bool(self.secrets)

    def __call__(self, text: str) -> str:
        if not self.secrets or not text:
            return text
        hit = [False] * len(text)
        for secret in self.secrets:  # whole values: the only check for the short ones
            at = text.find(secret)
            while at >= 0:
                hit[at:at + len(secret)] = [True] * len(secret)
                at = text.find(secret, at + 1)
        for i in range(len(text) - RUN + 1):
            if text[i:i + RUN] in self._grams:
                hit[i:i + RUN] = [True] * RUN
        if not any(hit):
            return text
        # one mask per scrubbed stretch, so the length of what was there does not show
        return "".join(MASK if hit[i] else char for i, char in enumerate(text)
                       if not hit[i] or i == 0 or not hit[i - 1])
