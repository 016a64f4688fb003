from mergecast.analysis.text import (
    BODY_LIMIT,
    clean_body,
    issue_refs,
    own_description,
    split_identifier,
    strip_markup,
    strip_tags,
    title_key,
    title_tags,
    tokens,
)

BODY = """<!-- template: describe your change -->
Stack from [ghstack](https://github.com/ezyang/ghstack/tree/0.12.0) (oldest at bottom):

* #501
* __->__ #500

## Summary
The widget cache dropped entries on resize, so reads went to disk.

![screenshot](https://example.com/a.png)

```python
cache.resize(10)
```

    indented_code_line()

| before | after |
| --- | --- |
| 10 ms | 1 ms |

- [x] tests added
- [ ] docs

Test Plan:
pytest test/test_cache.py -k resize

Differential Revision: D12345
cc @bob @carol
"""


def test_clean_body_keeps_only_the_prose():
    cleaned = clean_body(BODY)
    assert cleaned == "The widget cache dropped entries on resize, so reads went to disk."


def test_a_link_ending_a_sentence_leaves_its_full_stop():
    # The link took the full stop with it, and two sentences ran into one: "Fixed upstream
    # Tried the loader again".
    body = "Fixed upstream\nhttps://example.com/pull/5. Tried the loader again,\n" \
           "https://example.com/a?b=1, and https://example.com/c"
    assert clean_body(body) == "Fixed upstream\n. Tried the loader again,\n, and"


def test_a_sentence_that_leans_on_a_link_goes_whole():
    # "The loader would use the solution in when it lands": the link was the sentence's
    # point, and taking it out leaves a hole mid-sentence.
    body = ("The loader retries twice.\n\nThe loader would use the solution in\n"
            "https://example.com/pull/1 when it lands. Introduced by "
            "https://example.com/pull/2. The widget stays.\n\n"
            "- keeps the cache\n- disabled the check, tracking in\nhttps://example.com/3 and\n"
            "https://example.com/4, respectively\n- drops the pool\n\n"
            "1. Patch the widget with https://example.com/pull/5\n2. Run the loader\n\n"
            "The cache holds (see https://example.com/6). The pool drains.")
    assert clean_body(body) == (
        "The loader retries twice.\n\nThe widget stays.\n\n- keeps the cache\n- drops the pool"
        "\n\n2. Run the loader\n\nThe cache holds. The pool drains.")


def test_a_sentence_whose_subject_is_a_link_goes_whole():
    # "<link> refactors the loader but that PR didn't set staging": taken out, the link
    # left "refactors the loader …" to be told as this change's doing.
    body = ("https://example.com/pull/7 refactors the loader to use the pool but that PR "
            "didn't set staging.\nThis PR fixes the staging. https://example.com/pull/8 "
            "moved the widget. The cache holds.\n\nhttps://example.com/pull/10\n\n"
            "The pool drains.")
    assert clean_body(body) == (
        "This PR fixes the staging. The cache holds.\n\nThe pool drains.")


def test_a_caption_goes_with_its_picture():
    # "The problem it tackles: snapshot is an example of the dump when OOM happens" points
    # at a picture the listener never sees; a stated sentence above one stays.
    body = ("The loader kept every batch in memory.\n\n"
            "snapshot is an example of the dump when OOM happens\n\n"
            '<img width="1640" alt="Screenshot"\nsrc="https://example.com/a.png">\n\n'
            "Loss curve for 3000 steps:\n![loss](https://example.com/b.png)\n\n"
            "The dump now lands next to the trace.\n\n![trace](https://example.com/c.png)\n"
            "Peak memory drops. ![plot](https://example.com/d.png) Step time holds.")
    assert clean_body(body) == (
        "The loader kept every batch in memory.\n\n"
        "The dump now lands next to the trace.\n\n"
        "Peak memory drops.  Step time holds.")


def test_a_sentence_leading_into_code_goes_with_it():
    # "… configuration, adding" has lost its end to the code; one ending on a colon has
    # said its point already
    body = ("The plot compares both setups.\nThe run used the train script\n"
            "configuration, adding\n```bash\n--steps 100\n```\n\n"
            "Fold the batch dim into the token dim:\n```text\n[B, L] -> [T]\n```\n")
    assert clean_body(body) == ("The plot compares both setups.\n\n"
                                "Fold the batch dim into the token dim:")


def test_prose_on_either_side_of_code_is_two_paragraphs():
    # Joined, "… fuses this pattern" ran on into the line under the code: "to The pass is
    # registered …", no sentence at all.
    body = ("The pass fuses this pattern\n```\nwidget(a) -- b\n```\nto\n```\n"
            "widget(ab)\n```\nThe pass is registered with the loader.\n")
    paragraphs = [p.replace("\n", " ") for p in clean_body(body).split("\n\n")]
    assert "The pass is registered with the loader." in paragraphs, paragraphs


def test_clean_body_keeps_prose_after_a_test_plan_section():
    body = "Fix it.\n\n## Test Plan\nrun pytest\n\n## Notes\nThe old path stays for now.\n"
    assert clean_body(body) == "Fix it.\n\nNotes\nThe old path stays for now."


def test_clean_body_drops_graphite_sapling_and_spr_blocks():
    body = (
        "Speed up parsing.\n\n"
        "* **#12** <a href=\"https://app.graphite.dev/x\">(View in Graphite)</a>\n"
        "* **#11**\n* `main`\n\nThis stack of pull requests is managed by Graphite.\n"
        "[//]: # (BEGIN SAPLING FOOTER)\nStack created with [Sapling](https://sapling-scm.com).\n"
        "* #9\n* __->__ #8\n\n**Stack**:\n- #7\n- #6 ⬅\n"
    )
    assert clean_body(body) == "Speed up parsing."


def test_clean_body_drops_a_squash_merges_branch_log():
    body = ("* Update\n\n* up\n\n* Update regression_test.yml\n\n"
            "* Update base for Update on \"Add NVFP4 QAT\"\n\n* fix lint\n\n"
            "* Adds NVFP4 training support to the QAT flow\n")
    assert clean_body(body) == "* Adds NVFP4 training support to the QAT flow"
    assert clean_body("Adds NVFP4 QAT.\n\n[ghstack-poisoned]\n") == "Adds NVFP4 QAT."


def test_clean_body_drops_the_commit_subjects_of_a_ghstack_squash_log():
    # The base commit's subject is another PR's title; the indented list is this one's.
    body = ("* Delete deprecated BlockSparseLayout and related code\n\n"
            "- Remove TensorCoreTiledLayout from all public exports\n\n[ghstack-poisoned]\n")
    assert clean_body(body) == "- Remove TensorCoreTiledLayout from all public exports"
    assert clean_body("* Delete the old layout\n") == "* Delete the old layout"


def test_clean_body_reads_full_width_punctuation_as_ascii():
    assert clean_body("The map is loaded from the index， which names the shard（two）.") == \
        "The map is loaded from the index, which names the shard (two)."


def test_clean_body_truncates_huge_bodies():
    assert len(clean_body("word " * (BODY_LIMIT))) <= BODY_LIMIT


def test_identifiers_split_on_underscore_dot_and_camel_case():
    assert split_identifier("TORCH_NCCL_ASYNC_ERROR") == ["torch", "nccl", "async", "error"]
    assert split_identifier("ProcessGroupNCCL") == ["process", "group", "nccl"]
    assert split_identifier("torch.cuda.graph") == ["torch", "cuda", "graph"]
    toks = tokens("getBackendOptions returns the splits")
    assert "getbackendoptions" in toks and "backend" in toks and "option" in toks
    assert "split" in toks and "the" not in toks


def test_title_tags_and_stripping():
    assert title_tags("[c10d][nccl2] Fix abort") == ["c10d", "nccl2"]
    assert strip_tags("[c10d][nccl2] Fix abort") == "Fix abort"
    assert title_tags("Fix [inner] thing") == []


def test_issue_refs_take_fix_keywords_and_issue_urls_not_bare_numbers():
    body = "Fixes #1200. See https://github.com/acme/widgets/issues/77 and also #555."
    assert issue_refs(body) == {1200, 77}


def test_speech_markup_is_markup():
    # issue 15 item 18: SSML in a title must not reach the voice or the captions as tags
    text = ('Fix <speak><break time="30s"/><prosody rate="x-slow">slow</prosody> '
            '<say-as interpret-as="digits">12</say-as><amazon:effect name="whispered">hi'
            '</amazon:effect><mstts:express-as style="sad">x</mstts:express-as></speak> now')
    assert " ".join(strip_markup(text).split()) == "Fix slow 12 hi x now"
    assert strip_markup("List<int> stays") == "List<int> stays"  # code, not a tag


def test_clean_body_keeps_a_reference_that_opens_a_line():
    # "#3595 is …" names a PR; only "# Title" and "##Title" are headings.
    assert clean_body("#3595 is merged to wrong base\n## Notes\nKept.") == \
        "#3595 is merged to wrong base\nNotes\nKept."


STACK_LOG = (
    "* Remove the observed tensor\n\nSummary:\nDelete the observed tensor class.\n\n"
    "[ghstack-poisoned]\n\n* Remove unified.py (Quantizer ABCs)\n\nSummary:\n"
    "Delete the trivial Quantizer base classes.\n\n[ghstack-poisoned]\n\n* Update\n\n"
    "[ghstack-poisoned]\n")


def test_own_description_keeps_the_section_a_ghstack_log_names_as_the_title():
    own = own_description(STACK_LOG, "Remove unified.py (Quantizer ABCs) (#4264)")
    assert clean_body(own) == "Delete the trivial Quantizer base classes."
    single = "Summary:\nRemove the tutorial folder.\n\n[ghstack-poisoned]\n"
    assert clean_body(own_description(single, "Remove tutorials")) == "Remove the tutorial folder."


def test_own_description_keeps_nothing_it_cannot_tell_is_this_changes():
    # Two messages, neither under the title: either may be the PR below in the stack.
    assert own_description(STACK_LOG, "Remove something else") == ""
    # One message under another subject: ghstack kept the first commit's subject.
    one = "* Delete layout A\n\n- Delete layout B's dispatch\n\n[ghstack-poisoned]\n"
    assert clean_body(own_description(one, "Delete layout B")) == "- Delete layout B's dispatch"
    # ... unless that subject is another change's title, whose message it is.
    assert own_description(one, "Delete layout B", {title_key("Delete layout A (#4143)")}) == ""


def test_own_description_drops_another_changes_title_from_a_log_of_subjects():
    titles = {title_key("[dtypes] Delete layout A"), title_key("Delete layout B")}
    log = "* Delete layout A\n\n* add layout B tests\n"
    assert clean_body(own_description(log, "Delete layout B", titles)) == "* add layout B tests"
    assert own_description(log, "Delete layout B") == log


def test_own_description_leaves_a_written_list_and_plain_prose_alone():
    titles = {title_key("Add a flag"), title_key("Document it")}
    for body in ("* Add a flag\n* Document it\n", "Adds a flag. Document it."):
        assert own_description(body, "Add a thing", titles) == body
