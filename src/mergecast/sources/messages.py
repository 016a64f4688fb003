r"""Pure parsers for commit messages: PR numbers, trailers, reverts, relands, bots.

Every function takes text and returns models; none raises on odd input (the fuzz
tests hold them to that). Cheap `in` tests guard each regex because these run once
per commit on histories of tens of thousands of commits. A message is written by
whoever lands the commit, so no pattern here may backtrack more than linearly: values
are taken greedily to the end of the line and stripped in code, never by a lazy `.*?`
followed by `\s*$` (quadratic on a line of spaces).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from ..models import Person, Revert, Trailer
from ._clean import clean_login, clean_name

# Trailer keys real histories use, matched case-insensitively wherever they start a line
# (pytorch puts `Pull Request resolved:` and `Approved by:` in mid-message paragraphs).
KNOWN_TRAILERS = (
    "Pull Request resolved", "Pull-Request", "Pull-Request-resolved", "Approved by",
    "ghstack dependencies", "ghstack-source-id", "Differential Revision", "Co-authored-by",
    "Signed-off-by", "Reviewed-by", "Reviewed By", "Pulled By", "Acked-by", "Tested-by",
    "Reported-by", "Suggested-by", "Helped-by", "Assisted-by", "stack-info", "Fixes",
    "Closes", "Resolves", "fbshipit-source-id", "Change-Id",
)
_KNOWN_RE = re.compile(
    r"^(" + "|".join(re.escape(k) for k in KNOWN_TRAILERS) + r"):[ \t]*(\S[^\n]*)",
    re.IGNORECASE | re.MULTILINE,
)
# A git-style trailer token in the message's last paragraph (`Change-Id: …`, `Fixes: …`).
_TOKEN_RE = re.compile(r"^([A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*):[ \t]*(\S.*)")

DEFAULT_BOTS = ("dependabot", "renovate", "github-actions", "pytorchupdatebot", "pre-commit-ci")

_SUBJECT_PR = re.compile(r"\(#(\d{1,9})\)\s*$")
_MERGE_PR = re.compile(r"^Merge pull request #(\d{1,9}) from ")
_CUT_TITLE = re.compile(r"^(.*?)…\s*((?:\s\(#\d{1,9}\))?)$")
_PR_URL = re.compile(
    r"^Pull[ -]Request(?:[ -]resolved)?:\s*<?https?://[^/\s]+/([^/\s]+/[^/\s]+)/pull/(\d{1,9})",
    re.IGNORECASE | re.MULTILINE,
)
_GITLAB_MR = re.compile(r"^See merge request \S+!(\d{1,9})\s*$", re.MULTILINE)
# (also how analysis/reverts.py reads a PR body: one pattern for both)
REVERTS_SHA = re.compile(r"This reverts commit ([0-9a-f]{7,40})", re.I)
_REVERTED_BY = re.compile(
    r"Reverted https?://[^/\s]+/([^/\s]+/[^/\s]+)/pull/(\d{1,9}) on behalf of "
    r"https?://[^/\s]+/([^\s/]+)/?(?: due to ([^\r\n]*))?"
)
_REVERTS_PR = re.compile(  # (also a summary's item: "- Reverts #2935 which changed …")
    r"^(?:[-*] )?Reverts? (?:PR:? )?(?:https?://[^/\s]+/[^/\s]+/[^/\s]+/pull/(\d{1,9})|(?:[\w.-]+/[\w.-]+)?#(\d{1,9}))",
    re.MULTILINE,
)
_QUOTED_REVERT = re.compile(r'^Revert "', re.MULTILINE)
_HASH_PR = re.compile(r"\(#(\d{1,9})\)")
_COMMENT_LINK = "([comment]("
_RELAND = re.compile(r"\bre-?land(?:ed|ing|s)?\b|\[re-?land\w*\]", re.IGNORECASE)
_NOREPLY = "@users.noreply.github.com"


@dataclass(frozen=True)
class ParsedMessage:
    title: str
    body: str
    number: int | None
    # The PR a `Pull Request resolved:` line in the body names when it is not `number`
    # (the subject's): the caller warns, the subject's number is kept.
    body_number: int | None
    trailers: tuple[Trailer, ...]
    revert: Revert | None
    reland: bool
    co_authors: tuple[Person, ...]


def split_message(message: str) -> tuple[str, str]:
    """Subject (first paragraph on one line, as `git log %s` shows it) and body."""
    text = message.replace("\r\n", "\n").strip("\n")
    head, _, body = text.partition("\n\n")
    return " ".join(head.split("\n")).strip(), body.strip("\n")


def parse_message(message: str, slug: str | None = None) -> ParsedMessage:
    """Everything mergecast reads from one commit message."""
    title, body = split_message(message)
    number, body_number = pr_numbers(title, body, slug)
    if (cut := _CUT_TITLE.match(title)) and body.startswith("…"):
        # GitHub cut a long title at "…" and opens the body on the rest ("…aselines"):
        # the title is whole again, its "(#N)" kept at the end
        rest, _, body = body[1:].partition("\n\n")
        gap = " " if rest[:1].isspace() else ""  # "… time" went on after a space
        title = f"{cut.group(1)}{gap}{' '.join(rest.split())}{cut.group(2) or ''}"
        body = body.strip("\n")
    if _MERGE_PR.match(title) and (said := _merged_title(body)) is not None:
        # GitHub's merge commit names the branch in its subject and the PR's own title on
        # the body's first line: the title says what was merged ("Add GPTQQuantizer")
        title, body = said, body.partition("\n")[2].strip("\n")
    trailers = parse_trailers(body)
    # A co-author is credited by a whole `Name <email>` outside quoted text: a bot's quoted
    # release notes ("<details>… Co-authored-by: Tonye Jack <a href=…") credit someone
    # else's commit, in a name cut off mid-tag. Each person once.
    own = parse_trailers(_QUOTED.sub("", body)) if "<details" in body or "\n>" in body \
        else trailers
    co = tuple(dict.fromkeys(p for t in own if t.key.lower() == "co-authored-by"
                             if (p := _co_author(t.value)) is not None))
    return ParsedMessage(
        title=title,
        body=body,
        number=number,
        body_number=body_number,
        trailers=trailers,
        revert=parse_revert(title, body),
        reland=is_reland(title),
        co_authors=co,
    )


def _merged_title(body: str) -> str | None:
    """The PR title on a merge commit's body's first line; None when there is none (an
    empty body, or one opening on a trailer)."""
    first = body.partition("\n")[0].strip()
    return first if first and not _KNOWN_RE.match(first) and len(first) <= 300 else None


def pr_number(subject: str, body: str = "", slug: str | None = None) -> int | None:
    """The PR a commit landed: `(#123)`, `Pull Request resolved:` trailer, merge, GitLab MR."""
    return pr_numbers(subject, body, slug)[0]


def pr_numbers(subject: str, body: str = "", slug: str | None = None,
               ) -> tuple[int | None, int | None]:
    """(the PR a commit landed, the different PR its body's trailer names, if any).

    The subject's `(#N)` wins: GitHub appends it when it squash-merges, while the body
    of a squash merge is the PR author's own text, so a `Pull Request resolved: …/999999`
    line there must not move the change to another PR. The trailer decides only when
    the subject carries no number (commits pushed by import tools).
    """
    trailer = None
    if "ull" in body and "equest" in body:
        found = [
            int(m.group(2))
            for m in _PR_URL.finditer(body)
            if slug is None or m.group(1).lower() == slug.lower()
        ]
        if found:
            trailer = found[-1]
    if subject.endswith(")"):
        m = _SUBJECT_PR.search(subject)
        if m:
            number = int(m.group(1))
            return number, trailer if trailer not in (None, number) else None
    if trailer is not None:
        return trailer, None
    return _other_number(subject, body), None


def _other_number(subject: str, body: str) -> int | None:
    """A merge commit's or GitLab merge request's number."""
    if subject.startswith("Merge pull request #"):
        m = _MERGE_PR.match(subject)
        if m:
            return int(m.group(1))
    if "See merge request" in body:
        mr = _GITLAB_MR.findall(body)
        if mr:
            return int(mr[-1])
    return None


def parse_trailers(body: str) -> tuple[Trailer, ...]:
    """Known trailers anywhere at a line start, plus git-style trailers in the last paragraph."""
    if ":" not in body:
        return ()
    text = body.replace("\r\n", "\n")
    found: dict[int, Trailer] = {m.start(): _trailer(m) for m in _KNOWN_RE.finditer(text)}
    tail_at = text.rstrip("\n").rfind("\n\n")
    pos = tail_at + 2 if tail_at >= 0 else 0
    tail: list[tuple[int, re.Match[str] | None]] = []
    for line in text[pos:].split("\n"):
        if line.strip():
            tail.append((pos, _TOKEN_RE.match(line) or _KNOWN_RE.match(line)))
        pos += len(line) + 1
    if tail and all(m for _, m in tail):
        for at, m in tail:
            if m and at not in found:
                found[at] = _trailer(m)
    return tuple(found[k] for k in sorted(found))


def _trailer(m: re.Match[str]) -> Trailer:
    return Trailer(m.group(1), m.group(2).rstrip())


def format_trailers(trailers: Iterable[Trailer]) -> str:
    """The inverse of `parse_trailers` for well-formed trailers: one `Key: value` a line."""
    return "\n".join(f"{t.key}: {t.value}" for t in trailers)


def parse_revert(subject: str, body: str = "") -> Revert | None:
    """What a revert undoes: sha, PR, reason and who, from the forms real histories use."""
    reverted_by = _REVERTED_BY.search(body) if "on behalf of" in body else None
    says_sha = "This reverts commit" in body
    if not (subject.startswith("Revert") or reverted_by or says_sha):
        return None
    if subject.startswith("Revert") and not (
        subject.startswith(("Revert ", 'Revert"')) or reverted_by or says_sha
    ):
        return None  # "Reverting…", "Revertible…" are not reverts
    title = None
    pr = None
    if subject.startswith('Revert "'):
        inner = subject[len('Revert "'):]
        end = inner.rfind('"')
        title = inner[:end] if end > 0 else inner
        m = _SUBJECT_PR.search(title)
        if m:
            pr = int(m.group(1))
    sha_m = REVERTS_SHA.search(body) if says_sha else None
    reason = by = None
    if reverted_by:
        pr = int(reverted_by.group(2))
        by = clean_login(reverted_by.group(3))
        if reverted_by.group(4):
            reason = _without_comment_link(reverted_by.group(4)).strip() or None
    if pr is None and "Revert" in body:
        found = list(_REVERTS_PR.finditer(body))
        # (one revert of two PRs, "- Reverts #3107 …" "- Reverts #3178 …", is no revert of
        # the first alone: it is told by its title)
        m = found[0] if len(found) == 1 else None
        if m:
            pr = int(m.group(1) or m.group(2))
        else:
            pr = _quoted_revert_pr(body)
    return Revert(sha=sha_m.group(1) if sha_m else None, pr=pr, reason=reason, by=by, title=title)


def _without_comment_link(reason: str) -> str:
    """The reason without pytorchbot's trailing ` ([comment](URL))`."""
    text = reason.rstrip()
    if not text.endswith("))"):
        return reason
    # The link holds no ")": it starts after the last ")" before the closing "))".
    at = text.find(_COMMENT_LINK, text.rfind(")", 0, len(text) - 2) + 1)
    return text[:at] if at != -1 else reason


def _quoted_revert_pr(body: str) -> int | None:
    """The PR in the first `Revert "Title (#N) …"` line of a body: the first `(#N)` that a
    closing quote follows on the same line."""
    for start in _QUOTED_REVERT.finditer(body):
        end = body.find("\n", start.end())
        line = body[start.end() : end if end != -1 else len(body)]
        closing = line.rfind('"')
        m = _HASH_PR.search(line, 0, max(closing, 0))
        if m:
            return int(m.group(1))
    return None


def is_reland(subject: str) -> bool:
    """`Reland …`, `[reland]`, `Re-land …`, or a revert of a revert; not a revert of a reland."""
    if subject.startswith('Revert "Revert '):
        return True
    if subject.startswith("Revert"):
        return False
    return ("land" in subject or "LAND" in subject) and bool(_RELAND.search(subject))


def login_from_email(email: str | None) -> str | None:
    """GitHub's noreply addresses carry the login: `123+octocat@users.noreply.github.com`."""
    if not email or not email.lower().endswith(_NOREPLY):
        return None
    local = email[: -len(_NOREPLY)]
    return clean_login(local.rpartition("+")[2])


_QUOTED = re.compile(r"<details\b.*?(?:</details>|\Z)|^>[^\n]*$", re.S | re.M | re.I)
_AT_LOGIN = re.compile(r"@([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))")  # "Co-authored-by: @octocat"
_WHOLE_IDENT = re.compile(r"[^<>\n]*<[^<>\s]+@[^<>\s]+>")


def _co_author(value: str) -> Person | None:
    """A Co-authored-by value as a Person: a whole `Name <email>` or an `@login`; None for
    anything else (a name cut off mid-tag, "Tonye Jack <a")."""
    text = value.strip()
    if m := _AT_LOGIN.fullmatch(text):
        return Person(login=clean_login(m.group(1)))
    return person_from_ident(text) if _WHOLE_IDENT.fullmatch(text) else None


def person_from_ident(ident: str) -> Person:
    """`Name <email>` (as in Co-authored-by) to a Person."""
    text = ident.strip()
    lt = text.rfind("<")
    if not text.endswith(">") or lt == -1 or ">" in text[lt + 1 : -1] \
            or "\n" in text[:lt].strip():
        return Person(name=text or None)
    name, email = clean_name(text[:lt]) or None, text[lt + 1 : -1].strip() or None
    return Person(login=login_from_email(email), name=name, email=email)


def is_bot(person: Person, extra: Iterable[str] = ()) -> bool:
    """`[bot]` suffix, or a name, login or email local part in the bot list."""
    names = [x for x in (person.login, person.name) if x]
    if person.email:
        local = person.email.lower().partition("@")[0]
        names.append(local.rpartition("+")[2])
    bots = frozenset(b.lower() for b in (*DEFAULT_BOTS, *extra))
    return any(bot_name(n, bots) for n in names)


def bot_name(name: str | None, bots: Collection[str]) -> bool:
    """Whether a login, name or email local part is a bot's: it ends in "[bot]", is in
    `bots` (lower case), or begins with an entry ending in "*" (a family of accounts,
    "generatedunixname*": one per tool)."""
    low = (name or "").strip().lower()
    if not low:
        return False
    return low.endswith("[bot]") or low in bots or low.removesuffix("[bot]") in bots or \
        any(b.endswith("*") and low.startswith(b[:-1]) for b in bots if len(b) > 1)
