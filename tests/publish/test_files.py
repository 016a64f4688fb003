"""episode.json: the coverage ledger, duplicate evidence and revert chains."""

import dataclasses
import json

from publish_fakes import DAY0, make_episode

from mergecast.models import ChainStep, Duplicate, LedgerEntry, Ref, RevertChain
from mergecast.publish.content import Urls
from mergecast.publish.files import episode_json


def test_episode_json_carries_coverage_evidence_and_chains():
    ledger = (
        LedgerEntry(101, None, "Faster builds", "https://github.com/acme/widgets/pull/101",
                    "faster builds", True, "ada", "author"),
        LedgerEntry(106, None, "Bump numpy", "javascript:alert(1)", "CI", False, "", "bot"),
        LedgerEntry(None, "c" * 40, "Tidy", None, "Other changes", False, "bob", "author email"),
    )
    dup = Duplicate((101, 107), "both say they fix #77", "issue", ("#77",))
    chain = RevertChain(Ref(90), "Speed up the loader", "ada",
                        (ChainStep("revert", Ref(108), "cy", "flaky", True),))
    ep = dataclasses.replace(make_episode(DAY0), ledger=ledger, duplicates=(dup,),
                             chains=(chain,))
    data = json.loads(episode_json(ep, Urls("https://x.org/"), None))
    coverage = data["coverage"]
    assert coverage["text"] == ep.coverage == "3 changes: 1 told, 2 listed"
    assert (coverage["changes"], coverage["told"]) == (3, 1)
    assert coverage["ledger"][1]["url"] is None  # no script scheme ever becomes a link
    assert coverage["ledger"][2] == {"number": None, "sha": "c" * 40, "title": "Tidy",
                                     "url": None, "group": "Other changes", "told": False,
                                     "author": "bob", "credit": "author email"}
    assert data["duplicates"] == [{"prs": [101, 107], "why": "both say they fix #77",
                                   "evidence": "issue", "shared": ["#77"]}]
    assert data["chains"][0]["steps"][0] == {"kind": "revert", "ref": {"pr": 108, "sha": None},
                                             "by": "cy", "reason": "flaky", "in_window": True}
