"""Answers captured once from a real small model, replayed through the whole LLM writer.

The day is torchtitan's 2026-08-19, rebuilt from the shared history (../shared) the way it
was recorded; the answers (data/llm_answers_torchtitan.json) come back per slot in the order
the model gave them. Skips when ../shared is absent.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from llm_fake_server import Seen
from writing_builders import LLM

from mergecast import pipeline, targets
from mergecast.cli import main
from mergecast.models import Digest
from mergecast.store import Store
from mergecast.writing import WritingWarning, fact_check, fake_llm, write_script

HERE = Path(__file__).parent
RECORDED = json.loads((HERE / "data" / "llm_answers_torchtitan.json").read_text(encoding="utf-8"))
SHARED = HERE.parents[1].parent / "shared"
REPLAY = SHARED / "tools" / "replay-git"
HISTORY = SHARED / "data" / "git" / "pytorch-torchtitan.commits.jsonl"
DAY = dt.date.fromisoformat(RECORDED["day"])


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory) -> tuple[Digest, str]:
    if not (REPLAY.is_file() and HISTORY.is_file()):
        pytest.skip("shared torchtitan history not present")
    base = tmp_path_factory.mktemp("tt")
    subprocess.run([sys.executable, str(REPLAY), str(HISTORY), str(base / "tt-repo"),
                    "--limit", str(RECORDED["replay_limit"])], check=True, capture_output=True)
    db = base / "tt.db"
    done = CliRunner().invoke(main, ["--db", str(db), "ingest", "--repo", str(base / "tt-repo")])
    assert done.exit_code == 0, done.output
    cfg = pipeline.load_config(None, db)
    with Store(db) as store:
        digest = pipeline.digest_for(cfg, store, targets.daily(DAY, cfg).window)
        show = pipeline.show_name_for(cfg, digest.changes)
    return digest, show


def replaying() -> Any:
    """A transport giving each slot its recorded answers in turn (the last one again)."""
    asked: Counter[str] = Counter()

    def answer(body: dict[str, Any]) -> str:
        slot = Seen("/v1/chat/completions", {}, body).slot
        answers = RECORDED["answers"][slot]
        asked[slot] += 1
        return str(answers[min(asked[slot], len(answers)) - 1])
    return fake_llm(answer)


def test_recorded_answers_replay_into_a_script_that_passes_the_fact_check(day):
    digest, show = day
    transport = replaying()
    with pytest.warns(WritingWarning) as caught:
        script = write_script(digest, show=show, day=DAY, writing=pipeline.Config().writing,
                              lexicon={}, llm=LLM, writer="llm", transport=transport,
                              environ={})
    fact_check(script, digest)  # raises on any unsupported sentence
    by_model = [(s.kind, x.text) for s in script.sections for x in s.sentences
                if x.origin == "llm"]
    assert by_model == [("theme", "The new capability supports oversharded QKV heads.")]
    assert script.writer == "llm"
    # What the small model made up never reaches the episode.
    everything = json.dumps(script.to_json())
    # ("muons" is the model's physics; the day's own dist_muon.py may be named, as a place)
    for invented in ("company name", "of muons", "2 years", "60+", "Comedy", "JSON data",
                     "productive", "team of developers"):
        assert invented not in everything, invented
    assert len(transport.calls) == 12  # type: ignore[attr-defined]  # six slots, each retried
    warned = [str(w.message) for w in caught if w.category is WritingWarning]
    assert any(re.search(r'"The 60\+ Most Important Themes in Today\'s Primes" has the number '
                         r'"60"', w) for w in warned), warned
