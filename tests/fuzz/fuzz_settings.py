"""Per-test example budgets relative to the loaded profile (see conftest.py)."""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st


def examples(weight: float) -> settings:
    """`weight` x the profile's max_examples, never fewer than 10."""
    return settings(max_examples=max(10, int(settings().max_examples * weight)))


# Text that breaks parsers: every category, plus the characters hostile input favours.
NASTY = st.sampled_from(list(
    "\x00\x01\x07\x08\x0b\x0c\x1b\x7f\x85\x9f\r\n\t \u00a0\u200b\u200c\u200d\u2028\u2029"
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff\ufffe\uffff\ud800\udfff"
    "<>&\"'`]/\\#*_~|[](){}!:;,.-+=@$%^?🚀👩‍💻é日本"
))
WORDS = st.sampled_from([
    "<script>", "</script>", "javascript:", "]]>", "<![CDATA[", "&amp;", "&lt;", "&#0;",
    "-->", "<!--", "```", "~~~", "    ", "* #12", "- #7", "__->__", "(#123)", "#45",
    "Stack from [ghstack](https://github.com/ezyang/ghstack)", "Pull Request resolved: ",
    "https://github.com/o/r/pull/9", "Co-authored-by: ", "Signed-off-by: ", "Revert \"",
    "This reverts commit ", "(1/3)", "[2/5]", "Part 2 of 3", "3/4:", "**#10**",
    "This stack of pull requests is managed by Graphite", "Test Plan:", "cc @x", "| a |",
    "![i](x.png)", "<img src=x onerror=alert(1)>", "[l](javascript:alert(1))", "ghstack",
    "99999999", "1e9", "2026-08-11", "3x", "~5", "10ms", "PR #12", "C++", "API", "torch.compile",
])
HOSTILE_TEXT = st.lists(
    st.one_of(st.text(max_size=12), NASTY, WORDS), max_size=30
).map("".join)
