import dataclasses

from analysis_builders import REPO, at, files, ghstack, pr, sample, sample_window, window

from mergecast.analysis.digest import build_digest
from mergecast.config import AreasConfig
from mergecast.models import Change, Person, State

BUG = ("The widget cache drops every entry when the window is resized, so each read after "
       "a resize goes to disk. Keep entries whose keys survive the resize.")


def dups(changes, day=10, history=()):
    d = build_digest(changes, window(day), areas=AreasConfig(), history=history)
    return {x.prs: x.why for x in d.duplicates}


def test_two_open_prs_fixing_the_same_bug_across_days():
    mine = pr(500, "[cache] Keep widget cache entries across resize", body=BUG, day=10,
              state=State.OPEN)
    theirs = pr(470, "[cache] Widget cache loses entries on resize", author="bob",
                body=BUG.replace("Keep", "Retain"), day=7, state=State.OPEN)
    found = dups([mine], history=[theirs])
    assert list(found) == [(470, 500)]
    assert found[(470, 500)].startswith("similar problem statements (similarity")
    # once both landed, similar wording is no longer evidence of duplicated effort
    landed = [dataclasses.replace(c, state=State.MERGED) for c in (mine, theirs)]
    assert dups(landed[:1], history=landed[1:]) == {}


def test_same_referenced_issue():
    a = pr(10, "[cache] Handle resize", body="Fixes #77. Resize handling.")
    b = pr(11, "[cache] Do not flush on window change", author="bob",
           body="Closes https://github.com/acme/widgets/issues/77")
    assert dups([a, b]) == {(10, 11): "both say they fix #77"}


def test_same_author_resubmission_and_stack_siblings_are_not_duplicates():
    a = pr(10, "[cache] Keep widget cache entries across resize", body=BUG, state=State.OPEN)
    again = pr(12, "[cache] Keep widget cache entries across resize", body=BUG,
               state=State.OPEN)
    s1 = pr(20, "[cache] Keep entries on resize, part one", author="bob",
            body=ghstack(20, 20, 21) + BUG, state=State.OPEN)
    s2 = pr(21, "[cache] Keep entries on resize, part two", author="bob",
            body=ghstack(21, 20, 21) + BUG, state=State.OPEN)
    found = dups([a, again, s1, s2])
    assert (10, 12) not in found and (20, 21) not in found
    assert {(10, 20), (10, 21), (12, 20)} & set(found)  # cross-author pairs do count


def test_different_areas_are_not_duplicates():
    a = pr(10, "[cache] Keep widget cache entries across resize", body=BUG)
    b = pr(11, "[docs] Keep widget cache entries across resize", author="bob", body=BUG)
    assert dups([a, b]) == {}


def test_real_sample_cross_author_duplicate():
    changes = sample()
    w = sample_window(6)
    today = [c for c in changes if c.active_in(w)]
    history = [c for c in changes if c.created_at and c.created_at < w.since]
    d = build_digest(today, w, areas=AreasConfig(), history=history)
    pairs = {x.prs: x for x in d.duplicates}
    assert (192105, 192280) in pairs and (191948, 192280) in pairs
    for pair in ((192105, 192280), (191948, 192280)):
        assert pairs[pair].evidence == "problem"  # a PR export has no file lists
        assert "nccl2" in pairs[pair].shared
    # same-author resubmissions (#191953/#191985/#192110, #191948/#192105) are never pairs
    assert not pairs.keys() & {(191953, 191985), (191985, 192110), (191948, 192105)}
    # stack siblings never pair
    assert not pairs.keys() & {(192276, 192280), (192280, 192281)}


# --------------------------------------------------------------------------- evidence rules

def export(tmp_path, records, name="prs.json"):
    """Write a `gh pr list --json` export and read it back as the source does."""
    import json

    from mergecast.sources.gh_json import load_gh_json

    path = tmp_path / name
    full = []
    for r in records:
        n = r["number"]
        full.append({"state": "OPEN", "createdAt": "2026-03-10T09:00:00Z", "body": "",
                     "url": f"https://github.com/acme/widgets/pull/{n}", "labels": [], **r})
    path.write_text(json.dumps(full), encoding="utf-8")
    return load_gh_json(path)


def found(changes, day=10, history=()):
    d = build_digest(changes, window(day), areas=AreasConfig(), history=history)
    return {x.prs: x for x in d.duplicates}


def test_two_authors_open_prs_for_one_issue_are_duplicated_effort(tmp_path):
    # the ChainMap-style pair: two people, one issue, two different approaches
    changes = export(tmp_path, [
        {"number": 4301, "author": {"login": "ana"},
         "title": "[dynamo] Support collections.ChainMap lookups through parents",
         "body": "Tracing a chained map lookup graph-broke.\n\nFixes #4242"},
        {"number": 4307, "author": {"login": "ben"},
         "title": "[dynamo] Add ChainMapVariable for chained maps",
         "body": "Adds a variable tracker so chained maps trace.\n\nFixes #4242"},
    ])
    [dup] = found(changes).values()
    assert dup.prs == (4301, 4307)
    assert (dup.evidence, dup.shared, dup.why) == ("issue", ("#4242",), "both say they fix #4242")


def test_vendor_prefixes_are_learned_and_never_make_titles_alike(tmp_path):
    vendor = "Qualcomm AI Engine Direct - "
    history = export(tmp_path, [
        {"number": 100 + i, "author": {"login": f"dev{i}"}, "createdAt": "2026-03-05T09:00:00Z",
         "state": "MERGED", "mergedAt": "2026-03-05T10:00:00Z",
         "title": vendor + t}
        for i, t in enumerate(("Enable the conv2d pass", "Lower layer norm", "Quantize gelu",
                               "Fix the HTP backend build"))
    ], "history.json")
    today = export(tmp_path, [
        {"number": 200, "author": {"login": "ana"}, "title": vendor + "Support int16 matmul"},
        {"number": 201, "author": {"login": "ben"}, "title": vendor + "Support int16 softmax"},
        # the same fix, once with the vendor prefix and once without: near-identical
        {"number": 202, "author": {"login": "cy"},
         "title": vendor + "Fix the quantized layer norm scale"},
        {"number": 203, "author": {"login": "di"}, "title": "Fix the quantized layer norm scale"},
    ], "today.json")
    pairs = found(today, history=history)
    assert set(pairs) == {(202, 203)}
    assert pairs[(202, 203)].evidence == "title"
    assert pairs[(202, 203)].shared == ("fix the quantized layer norm scale",)


def test_an_area_prefix_only_one_title_has_still_names_another_place():
    a = pr(10, "Arm backend: Add int16 support for conv2d", author="ana", state=State.OPEN)
    b = pr(11, "Cortex-M: Add int16 support for conv2d", author="ben", state=State.OPEN)
    assert found([a, b]) == {}


def test_files_evidence_needs_real_overlap_and_a_similar_problem():
    common = files("backends/arm/quantizer.py", "backends/arm/ops/conv.py")
    a = pr(10, "Quantize conv2d weights per channel", author="ana", body=BUG, files=common,
           state=State.OPEN)
    b = pr(11, "Per-channel weights for quantized conv", author="ben",
           body=BUG.replace("Keep", "Retain"), state=State.OPEN,
           files=common + files("backends/arm/test/test_conv.py"))
    [dup] = found([a, b]).values()
    assert dup.evidence == "files"
    assert dup.shared == ("backends/arm/ops/conv.py", "backends/arm/quantizer.py")
    # one shared CMakeLists.txt is no overlap at all
    c = dataclasses.replace(a, files=files("CMakeLists.txt", "backends/arm/a.py"))
    d = dataclasses.replace(b, files=files("CMakeLists.txt", "backends/xnn/b.py"))
    assert found([c, d]) == {}


def test_never_pairs_a_change_with_its_revert_reland_or_the_same_person():
    title = "[cache] Keep widget cache entries across resize with the LRU list"
    original = pr(10, title, author="ana", body=BUG, state=State.OPEN)
    revert = pr(11, f'Revert "{title}"', author="ben", body="Reverted #10 on behalf of ben")
    reland = dataclasses.replace(pr(12, f"Reland {title}", author="cy", body=BUG,
                                    state=State.OPEN), created_at=at(10, 18))
    assert found([original, revert, reland]) == {}
    same_person = Change(repo=REPO, title=title, number=14, body=BUG, state=State.OPEN,
                         created_at=at(10), author=Person(name="Ana", email="ana@acme.dev"))
    ana_named = Change(repo=REPO, title="Other work", number=15, state=State.OPEN,
                       created_at=at(10),
                       author=Person(login="ana", name="Ana", email="ana@acme.dev"))
    assert found([original, same_person, ana_named]) == {}  # ana, under three spellings


def test_landed_pairs_need_a_closing_reference_or_near_identical_titles():
    a = pr(10, "[cache] Keep widget cache entries across resize", body=BUG, author="ana")
    b = pr(11, "[cache] Widget cache loses entries on resize", author="ben",
           body=BUG + "\n\nSee #77 for the report.")
    c = pr(12, "[cache] Do not flush on resize", author="cy", body="Related to #77.")
    assert found([a, b, c]) == {}  # similar problems and a bare shared #77 are not enough
    d = pr(13, "[cache] Keep widget cache entries across a resize", author="di", body=BUG)
    assert {k: v.evidence for k, v in found([a, d]).items()} == {(10, 13): "title"}


def test_a_tracker_many_changes_reference_is_no_evidence():
    topics = ("Evict by size", "Log hit rates", "Warm on start", "Shard the index",
              "Drop the global lock")
    prs = [pr(10 + i, f"[cache] {t}", author=f"dev{i}", body=f"{t} as planned.\n\nFixes #900",
              state=State.OPEN) for i, t in enumerate(topics)]
    assert found(prs) == {}


def test_one_names_the_other_is_a_follow_up_not_a_duplicate():
    a = pr(10, "[cache] Keep widget cache entries across resize", body=BUG, author="ana",
           state=State.OPEN)
    b = pr(11, "[cache] Keep widget cache entries across resize", author="ben",
           body="Follow-up to #10: " + BUG, state=State.OPEN)
    assert found([a, b]) == {}
