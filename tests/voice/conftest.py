from __future__ import annotations

import datetime as dt

import pytest

from mergecast.models import Script, Section, Sentence


def make_script(
    *sections: tuple[str, list[str]], cites: dict[str, tuple[int, ...]] | None = None
) -> Script:
    """Sections as (heading, [spoken sentences]); page text = spoken text."""
    cites = cites or {}
    return Script(
        show="demo-show",
        date=dt.date(2026, 3, 14),
        title="Guards & <stacks>",
        summary="A short summary of the day.",
        writer="template",
        sections=tuple(
            Section(
                kind="theme",
                heading=heading,
                sentences=tuple(Sentence(s, s, cites.get(s, ())) for s in sentences),
            )
            for heading, sentences in sections
        ),
    )


@pytest.fixture(scope="session")
def piper_voice():  # type: ignore[no-untyped-def]
    from mergecast.voice.piper import PiperBackend

    return PiperBackend(deterministic=True)


@pytest.fixture(scope="session")
def script_maker():  # type: ignore[no-untyped-def]
    return make_script


@pytest.fixture(scope="session")
def short_script() -> Script:
    return make_script(
        ("Welcome", ["Welcome to the show."]),
        ("Dynamo guards", ["A stack of four PRs rewrites guards.", "It is faster now."]),
        ("Wrap up", ["See you tomorrow."]),
        cites={"A stack of four PRs rewrites guards.": (7, 8), "It is faster now.": (9,)},
    )
