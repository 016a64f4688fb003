"""Areas in the repository's own taxonomy.

Order of evidence for one change: the ordered `[areas] rules` from config (first match
wins), then path rules from the repository's `.github/labeler.yml` and `CODEOWNERS`,
then the first non-generic title tag, then a known area of the day named as a word in
the title, then the most-touched directory. Path rules are decided per file (first
matching rule for each file) and the change takes its files' majority area.

Areas are identified with case and separators folded; labels that classify a change
(`bug`, `triaged`) are never areas; the display name comes from area_names.py.
"""

from __future__ import annotations

import fnmatch
import re
from collections import Counter
from collections.abc import Sequence

from ..config import AreaRule, AreasConfig
from ..models import Change
from .area_names import display_names, fold, is_type_label
from .globs import glob_match
from .text import title_tags, weak_tag

# --------------------------------------------------------------------------- repo files

_BRANCH_KEYS = frozenset({"head-branch", "base-branch"})


def _key_value(body: str) -> tuple[str, str | None] | None:
    """`key: value` with the key optionally quoted, or None when `body` is no such pair.

    A scan, not a regex: the lazy-key regex this replaces took quadratic time on a long
    line of spaces, and labeler.yml is written by whoever lands a commit."""
    quote = body[:1] if body[:1] in ("'", '"') else ""
    if quote:
        end = min((i for i in (body.find("'", 1), body.find('"', 1)) if i != -1), default=-1)
        if end <= 1 or body[end] != quote:
            return None
        key, after = body[1:end], body[end + 1 :].lstrip()
        if not after.startswith(":"):
            return None
        after = after[1:]
        if after and not after[0].isspace():
            return None
    else:
        colon = body.find(":")
        while colon != -1 and not (
            colon > 0 and (colon + 1 == len(body) or body[colon + 1].isspace())
        ):
            colon = body.find(":", colon + 1)
        if colon == -1 or "'" in body[:colon] or '"' in body[:colon]:
            return None
        key, after = body[:colon], body[colon + 1 :]
    return key, (after.lstrip() if after else None)


def _strip_comment(line: str) -> str:
    quote: str | None = None
    for i, ch in enumerate(line):
        if ch in "'\"":
            quote = None if quote == ch else (quote or ch)
        elif ch == "#" and quote is None and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip()
    return line.rstrip()


def _scalars(value: str) -> list[str]:
    value = value.strip()
    if value.startswith("[") and value.endswith("]"):
        items = value[1:-1].split(",")
    else:
        items = [value]
    return [v.strip().strip("'\"") for v in items if v.strip().strip("'\"")]


def parse_labeler(text: str) -> list[AreaRule]:
    """Path rules from `.github/labeler.yml`, actions/labeler v4 and v5 syntax.

    A small parser for the subset labeler uses: top-level label keys, lists of globs,
    `any:`/`all:` (v4), `changed-files:` with `any-glob-to-any-file:` and friends (v5).
    Branch conditions and negated globs (`!x`) are skipped: they never name a path area.
    """
    rules: list[AreaRule] = []
    label: str | None = None
    skip_indent: int | None = None
    for raw in text.splitlines():
        line = _strip_comment(raw.replace("\t", "  "))
        if not line.strip() or line.lstrip().startswith("---"):
            continue
        indent = len(line) - len(line.lstrip())
        if skip_indent is not None:
            if indent > skip_indent:
                continue
            skip_indent = None
        body = line.strip()
        if indent == 0 and not body.startswith("-"):
            pair = _key_value(body)
            label = pair[0].strip() if pair else None
            if pair and pair[1] and label:
                rules += _globs(label, _scalars(pair[1]))
            continue
        if label is None:
            continue
        item = body[1:].strip() if body.startswith("-") else body
        pair = _key_value(item)
        if pair:
            key = pair[0].strip()
            if key in _BRANCH_KEYS:
                skip_indent = indent
                continue
            if pair[1]:
                rules += _globs(label, _scalars(pair[1]))
            continue
        rules += _globs(label, _scalars(item))
    return rules


def _globs(label: str, values: list[str]) -> list[AreaRule]:
    return [AreaRule("path", v, label) for v in values if not v.startswith("!")]


def parse_codeowners(text: str) -> list[AreaRule]:
    """Path rules from CODEOWNERS, most specific first (CODEOWNERS: the last match wins).

    The area is the first owning team's name (`@org/team` -> team), else the pattern's
    last plain path component.
    """
    rules: list[AreaRule] = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("\\#") else raw
        parts = line.split()
        if len(parts) < 2 or line.startswith("["):
            continue
        pattern, owners = parts[0], parts[1:]
        teams = [o.split("/", 1)[1] for o in owners if o.startswith("@") and "/" in o]
        plain = [p for p in pattern.strip("/").split("/") if p and not any(c in p for c in "*?[")]
        area = teams[0] if teams else (plain[-1] if plain else None)
        if not area:
            continue
        rules.extend(AreaRule("path", g, area) for g in _codeowners_globs(pattern))
    rules.reverse()
    return rules


def _codeowners_globs(pattern: str) -> list[str]:
    anchored = pattern.startswith("/")
    p = pattern.strip("/")
    if not anchored and "/" not in p:
        p = "**/" + p
    if pattern.endswith("/"):
        return [p + "/**"]
    if any(c in p.rsplit("/", 1)[-1] for c in "*?["):
        return [p]
    return [p, p + "/**"]  # a file, or a directory and everything below it


def path_rules_from_repo(labeler_yml: str | None, codeowners: str | None) -> list[AreaRule]:
    """Path rules from the repository's own files, labeler first (it names labels)."""
    return parse_labeler(labeler_yml or "") + parse_codeowners(codeowners or "")


# --------------------------------------------------------------------------- assignment


def _from_rule(rule: AreaRule, m: re.Match[str] | None, fallback: str) -> str:
    found = fallback
    if m is not None and "area" in m.groupdict() and m.group("area"):
        found = m.group("area")
    if rule.area:
        # replace, not format(): the group is attacker-controlled text
        return rule.area.replace("{area}", found)
    return found


def _label_area(label: str, rules: Sequence[AreaRule]) -> str:
    """A labeler label in the config's terms: `module: dynamo` -> `dynamo`."""
    for rule in rules:
        if rule.kind == "label":
            m = re.search(rule.pattern, label)
            if m:
                return _from_rule(rule, m, label)
    return label


def _path_area(change: Change, rules: Sequence[AreaRule]) -> str | None:
    votes: Counter[str] = Counter()
    order: dict[str, int] = {}
    files = change.files or ()
    # The owners file lists every folder: a change that edits it beside code of its own
    # ("Remove the dtypes package" drops its owners line too) is that code's
    if any(not _owners_file(f.path) for f in files):
        files = tuple(f for f in files if not _owners_file(f.path))
    for f in files:
        for i, rule in enumerate(rules):
            if glob_match(rule.pattern, f.path):
                area = rule.area or rule.pattern
                votes[area] += 1
                order.setdefault(area, i)
                break
    if not votes:
        return None
    return min(votes, key=lambda a: (-votes[a], order[a]))


def _owners_file(path: str) -> bool:
    return path.rsplit("/", 1)[-1] == "CODEOWNERS"


_SERIES_TAG = re.compile(r"^\s*\d+\s*/\s*(?:\d+|[a-z])\s*$", re.I)  # [2/5], [10/x]
_GENERIC_DIRS = frozenset("src lib libs test tests python csrc include source sources".split())


# "[Recreate of 2753]", "[cherry-pick for #1234]", "[reland]": a note on the change's
# history, never the place it works in.
_NOTE_TAG = re.compile(r"^(?:recreate|reland|revert|redo|resubmit|cherry[- ]?pick|"
                       r"follow[- ]?up|backport)\b|\b(?:of|for|from)\s+#?\d+\s*$", re.I)


def _tags(change: Change) -> list[str]:
    return [t for t in title_tags(change.title)
            if not weak_tag(t) and not _SERIES_TAG.match(t) and not is_type_label(t)
            and not _NOTE_TAG.search(t)]


def _config_area(change: Change, rules: Sequence[AreaRule]) -> str | None:
    for i, rule in enumerate(rules):
        if rule.kind == "label":
            for label in change.labels:
                m = None if is_type_label(label) else re.search(rule.pattern, label)
                if m and not is_type_label(named := _from_rule(rule, m, label)):
                    return named
        elif rule.kind == "title":
            m = re.search(rule.pattern, change.title)
            if m:
                return _from_rule(rule, m, m.group(0))
        elif rule.kind == "tag":
            for tag in _tags(change):
                wanted = rule.pattern.lower().strip("[]")
                if rule.pattern == "*" or fnmatch.fnmatch(tag.lower(), wanted):
                    return _from_rule(rule, None, tag)
        elif rule.kind == "path" and change.files:
            paths = [r for r in rules[i:] if r.kind == "path"]
            area = _path_area(change, paths)
            if area:
                return area
    return None


def _top_directory(change: Change, own: frozenset[str] = frozenset()) -> str | None:
    weights: Counter[str] = Counter()
    for f in change.files or ():
        folder = _folder(f.path.split("/")[:-1], own)
        if folder:
            weights[folder] += 1 + (f.additions or 0) + (f.deletions or 0)
    if not weights:
        return None
    return _directory_name(min(weights, key=lambda d: (-weights[d], d)), own)


def _folder(parts: list[str], own: frozenset[str]) -> str | None:
    """The first two folders; when the package folder named like the show is one of them
    and the other is generic ("torchao/csrc"), one folder deeper ("torchao/csrc/cuda"). A
    file with no folder of its own below the package ("torchao/utils.py") has none."""
    top = parts[:2]
    if not any(fold(p) in own for p in top):
        return "/".join(top) or None
    for key in (top, parts[:3]):
        if any(_said(p, own) and p.strip("_.").lower() not in _GENERIC_DIRS for p in key):
            return "/".join(key)
    return None


def _said(part: str, own: frozenset[str]) -> bool:
    return bool(part.strip("_.")) and fold(part) not in own


def _directory_name(path: str, own: frozenset[str] = frozenset()) -> str:
    """A directory said as an area: "torchao/prototype" -> "prototype" (a path is not
    speakable, and the top folder is usually the package itself)."""
    parts = [p.strip("_.") for p in path.split("/") if _said(p, own)]
    named = [p for p in parts if p.lower() not in _GENERIC_DIRS] or parts
    return named[-1].replace("_", " ") if named else ""


def own_names(changes: Sequence[Change], show: str) -> frozenset[str]:
    """Folded names the show and its repository go by: an area named so tells the
    show's listener nothing ("On TorchAO:" on the torchao show)."""
    names = {show, *(c.repo.rstrip("/").rsplit("/", 1)[-1] for c in changes if c.repo)}
    return frozenset(fold(n) for n in names if fold(n))


def assign_areas(
    changes: Sequence[Change], areas: AreasConfig, path_rules: Sequence[AreaRule] = (),
    show: str = "",
) -> dict[str, str]:
    """change key -> area display name, for every change an area can be found for.
    An area named like `show` or the changes' repository is no area: the next evidence
    decides."""
    own = own_names(changes, show)

    def other(area: str | None) -> str | None:
        return None if area is None or fold(area) in own else area

    repo_rules = [
        AreaRule("path", r.pattern, _label_area(r.area, areas.rules) if r.area else None)
        for r in path_rules
    ]
    raw: dict[str, str] = {}
    pending: list[Change] = []
    for c in changes:
        area = other(_config_area(c, areas.rules))
        if area is None and c.files:
            area = other(_path_area(c, repo_rules))
        if area is None:
            tags = [t for t in _tags(c) if other(t)]
            area = tags[0] if tags else None
        area = _clean_name(area) if area is not None else None
        if area is None:
            pending.append(c)
        else:
            raw[c.key] = area
    known = {a.lower() for a in raw.values() if len(a) > 2}
    for c in pending:
        words = {w.lower() for w in re.findall(r"[\w.+-]+", c.title)}
        named = sorted(words & known)
        area = named[0] if named else _clean_name(_top_directory(c, own) or "")
        if area:
            raw[c.key] = area
    return display_names(raw, areas.names)


_MARKUP_TAG = re.compile(r"<[^<>]*>")
_UNSAFE = re.compile(r"[^\w .+#/&:'-]+")


def _clean_name(area: str) -> str | None:
    """An area name fit to print and say: labels, tags and folders are attacker-written,
    so markup goes, and a name with no letter or digit ("..", "<>") is no area at all."""
    name = _UNSAFE.sub(" ", _MARKUP_TAG.sub(" ", area))
    name = re.sub(r"\s+", " ", name).strip(" ./:-")
    return name if re.search(r"[^\W_]", name) else None
