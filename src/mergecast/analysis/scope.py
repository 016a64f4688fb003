"""What a theme's files say: how many lines it adds or removes, what share is tests,
documentation or CI configuration, and the main place it touches, said as words ("the loss
compare script", "the compiler toolkit experiment"), never as a path.

Pure: changes in, a Scope out. The word lists are data (data/scope.toml). Every figure is a
sum over files and the fact check sums the same way (`totals`, `rounded`), so a line or file
count said aloud traces back to the input. Nothing is claimed that files cannot show: a file
is called new, old and gone, or renamed only when its source said so (FileChange.status; a
file with no deleted lines may still have existed before), worded by `claims_of`, which the
fact check (writing/sizes.py) reads too.
"""

from __future__ import annotations

import fnmatch
import functools
import re
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from importlib import resources
from typing import Any

from ..models import Change, FileStatus, Scope
from .language import speak_identifier
from .text import stem

TINY = 10  # lines: at or under this (in TINY_FILES at most) a change is "a four-line fix"
TINY_FILES = 4
MOSTLY = 0.1  # the other side at most this share of one side: the change only "adds"
REMOVAL = 3  # removed at least this many times the added lines (and REMOVAL_LINES): removal
REMOVAL_LINES = 40
MAIN_FILE = 0.5  # one file over this share of the lines is where "most of them" are
MAIN_PLACE = 0.6  # one place (a folder or a kind of file) at or over this share
BROAD_FILES = 6
BROAD_PLACES = 3
NAME_WORDS = 4  # a file or folder name of more words than this is not said
DEPTH = 3  # a file's place is told by its folder at this depth at most
KINDS = ("ci", "tests", "docs")  # matched in this order; anything else is code

GONE_LINES = 20  # a deleted file of fewer lines is not worth "the old X goes"
Files = dict[str, tuple[int, int]]  # path -> (added, removed)
Statuses = dict[str, tuple[FileStatus, str | None]]  # path -> (status, previous path)
# What one file's statuses over several changes add up to: added then changed is still new
# to the theme, renamed then changed still renamed; any other mix (added then deleted,
# say) is unknown, and nothing is claimed.
_KEEP = {frozenset({FileStatus.ADDED, FileStatus.MODIFIED}): FileStatus.ADDED,
         frozenset({FileStatus.RENAMED, FileStatus.MODIFIED}): FileStatus.RENAMED}


@functools.cache
def _data() -> Mapping[str, Any]:
    path = resources.files("mergecast.analysis").joinpath("data/scope.toml")
    return tomllib.loads(path.read_text(encoding="utf-8"))


def path_kind(path: str) -> str:
    """ci | tests | docs | code, by the path's folders and file name."""
    parts = path.lower().split("/")
    for kind in KINDS:
        rule = _data()["kinds"][kind]
        if set(parts[:-1]) & set(rule["folders"]) or \
                any(fnmatch.fnmatchcase(parts[-1], g) for g in rule["files"]) or \
                any(fnmatch.fnmatchcase(path.lower(), g) for g in rule.get("paths", ())):
            return kind
    return "code"


def work_of(scope: Scope) -> str | None:
    """The kind of work a scope of one kind of file is ("documentation" for docs only);
    None for code."""
    rule = _data()["kinds"].get(scope.shape)
    return rule.get("work") if rule else None


def is_config(path: str) -> bool:
    """A configuration, build or lock file ([config] files): code a listener would not
    call the work itself."""
    return any(fnmatch.fnmatchcase(path.lower(), g) for g in _data()["config"]["files"])


def files_of(changes: Iterable[Change]) -> Files | None:
    """Lines added and removed per path over `changes`; None when any change's file list
    is unknown or cut short (a sum over part of the files would be a false figure)."""
    out: Files = {}
    for c in changes:
        if c.files is None or c.files_truncated:
            return None
        for f in c.files:
            a, d = out.get(f.path, (0, 0))
            out[f.path] = (a + (f.additions or 0), d + (f.deletions or 0))
    return out


def statuses_of(changes: Iterable[Change]) -> Statuses:
    """Each path's status over `changes` (see _KEEP), and a renamed file's old path."""
    seen: dict[str, set[FileStatus]] = {}
    before: dict[str, str] = {}
    for c in changes:
        for f in c.files or ():
            seen.setdefault(f.path, set()).add(f.status)
            if f.previous_path:
                before.setdefault(f.path, f.previous_path)
    out: Statuses = {}
    for path, kinds in seen.items():
        kind = next(iter(kinds)) if len(kinds) == 1 else _KEEP.get(frozenset(kinds))
        if kind is not None and kind is not FileStatus.UNKNOWN:
            out[path] = (kind, before.get(path) if kind is FileStatus.RENAMED else None)
    return out


def is_new_thing(change: Change, name: str) -> bool:
    """Whether a title that only names a thing ("8-bit Adam", "bitwise loss compare
    script") brings that thing in: its source marks files added, they hold more than
    MAIN_FILE of the change's lines, and one of them is named by a word of `name`. Only
    then may the writer say the change "adds" it rather than being about it."""
    files = change.files
    if not files or change.files_truncated:
        return False
    added = [f for f in files if f.status is FileStatus.ADDED]
    total = sum((f.additions or 0) + (f.deletions or 0) for f in files)
    if not added or total == 0 or \
            sum(f.additions or 0 for f in added) <= MAIN_FILE * total:
        return False
    said = {stem(w) for w in re.findall(r"[a-z][a-z0-9]{2,}", name.lower())}
    return any(stem(part) in said for f in added
               for part in re.split(r"[/_.\-]+", f.path.lower()) if len(part) > 2)


def _name(path: str) -> str:
    """A file's place without its article ("loss compare script"); "" for a package's
    __init__ (adding or deleting one is no new or removed package) or an unsayable name."""
    if path.rpartition("/")[2].lower() == "__init__.py":
        return ""
    place = file_place(path)
    if not place.startswith("the ") or place.split()[-1].lower() in _data()["claims"]["plural"]:
        return ""  # "a new float8 docs", "the old loss tests goes": not said
    return place.removeprefix("the ")


def new_claim(path: str) -> str:
    """An added file said as new: "a new loss compare script"; "" when unsayable."""
    return str(_data()["claims"]["new"]).format(name=name) if (name := _name(path)) else ""


def gone_claim(path: str) -> str:
    """A deleted file said as gone: "the old flux loader goes"."""
    return str(_data()["claims"]["gone"]).format(name=name) if (name := _name(path)) else ""


def renamed_claim(path: str, before: str | None) -> str:
    """A renamed file said as renamed, when both names are sayable and sound different."""
    old, new = file_place(before or ""), file_place(path)
    if not old or not new or old == new:
        return ""
    return str(_data()["claims"]["renamed"]).format(old=old, new=new)


def claims_of(changes: Iterable[Change]) -> frozenset[str]:
    """Every new, gone and renamed claim the files of `changes` support, as said."""
    out = set()
    for path, (kind, before) in statuses_of(changes).items():
        out.add(new_claim(path) if kind is FileStatus.ADDED else gone_claim(path)
                if kind is FileStatus.DELETED else renamed_claim(path, before)
                if kind is FileStatus.RENAMED else "")
    return frozenset(out - {""})


def claim_markers() -> dict[str, str]:
    """Each claim's fixed words ("a new ", "the old ", " is renamed to "), which the fact
    check finds in a sentence and then asks to be part of a supported claim."""
    out = {}
    for kind in ("new", "gone", "renamed"):
        template = _data()["claims"][kind]
        words = [p for p in str(template).replace("}", "{").split("{")[::2] if p.strip()]
        out[kind] = max(words, key=len)
    return out


def totals(changes: Iterable[Change]) -> tuple[int, int, int] | None:
    """(lines added, lines removed, files) over `changes`, or None when unknown."""
    files = files_of(changes)
    if files is None:
        return None
    return sum(a for a, _ in files.values()), sum(d for _, d in files.values()), len(files)


def rounded(n: int) -> tuple[int, bool]:
    """A line count as a person says it: exact under 100, else to two significant figures
    (890, about 1,900); True when rounding changed it, so it is said with "about"."""
    if n < 100:
        return n, False
    step = 10 ** (len(str(n)) - 2)
    r = (n + step // 2) // step * step
    return r, r != n


def _words(name: str) -> str:
    said = speak_identifier(name.replace("-", "_"))
    return said if 0 < len(said.split()) <= NAME_WORDS else ""


def file_place(path: str) -> str:
    """One file said as a place: scripts/loss_compare.py -> "the loss compare script",
    docs/float8.md -> "the float8 docs"; "" when its name is no words a person would say."""
    data = _data()
    nouns = data["file_nouns"]
    parts = path.split("/")
    folders = [p.lower() for p in parts[:-1]]
    stem, dot, ext = parts[-1].rpartition(".")
    if not dot or not stem:
        stem, ext = parts[-1], ""
    if stem.lower() in ("readme", "__init__"):
        where = _words(parts[-2]) if len(parts) > 1 else ""
        if stem.lower() == "readme":
            return " ".join(["the", *where.split(), nouns["readme"]])
        return f"the {where} {nouns['package']}" if where else ""
    said = _words(stem)
    if not said:
        return ""
    kind = path_kind(path)
    if kind == "tests":
        first, _, rest = said.partition(" ")
        if first.lower() == "test" and rest and rest.split()[-1] not in data["test_tools"]:
            return f"the {rest} {nouns['tests']}"  # test_loss.py: "the loss tests"
        if any(w.lower().startswith("test") for w in said.split()):
            return f"the {said}"  # integration_tests.py, test_runner.py
        noun = nouns["tests"]
    elif kind == "ci":
        noun = nouns["workflows"] if path.lower().startswith(".github/workflows/") \
            else nouns["ci"]
    elif kind == "docs":
        noun = nouns["docs"]
    else:
        noun = next((data["folder_file_nouns"][f] for f in reversed(folders)
                     if f in data["folder_file_nouns"]), data["ext_nouns"].get(ext.lower(), "file"))
    # The noun said once, last: "benchmark_inference.py" in benchmarks/ is "the inference
    # benchmark", model.py is "the model", never "model module" or "benchmark … benchmark".
    # ("marlin_qqq_kernel.cu" is "the marlin qqq CUDA kernel", not "… kernel CUDA kernel";
    # "mx_fp_cutlass_kernels.cu" not "… kernels CUDA kernel")
    head = noun.split()[-1].lower()
    others = [w for w in said.split() if w.lower() not in (noun.lower(), head, head + "s")]
    return " ".join(["the", *others, noun]) if others else f"the {said}"


def folder_place(folder: str) -> str:
    """A folder said as a place: "the compiler toolkit experiment", "the scripts"; "" for
    a top-level folder (the package itself tells a listener nothing) or an unsayable name."""
    data = _data()
    parts = folder.split("/")
    if (named := data["folder_names"].get(parts[-1].lower())) is not None:
        return str(named)
    said = _words(parts[-1])
    if len(parts) < 2 or not said:
        return ""
    noun = data["parent_nouns"].get(parts[-2].lower(), "code")
    return f"the {said} {noun}"


def area(path: str) -> str:
    """Where a file sits, said as a place: its kind for tests, docs and CI configuration,
    else its nearest sayable folder (at most `DEPTH` deep); "" when none is."""
    kind = path_kind(path)
    if kind != "code":
        return str(_data()["places"][kind])
    folders = path.split("/")[:-1][:DEPTH]
    while folders:
        if place := folder_place("/".join(folders)):
            return place
        folders.pop()
    return ""


def scope_of(changes: Iterable[Change], *, fix: bool = False) -> Scope | None:
    """What `changes` touch, or None when their files are unknown or say nothing worth
    hearing (no lines, or nothing but lines spread over places with no name)."""
    changes = list(changes)
    files = files_of(changes)
    if not files:
        return None
    scope = _scope(files, fix)
    return _with_statuses(scope, files, statuses_of(changes)) if scope is not None else None


def _with_statuses(scope: Scope, files: Files, statuses: Statuses) -> Scope:
    """`scope` told with what the sources say of its files: its one named file called new
    when it was added ("a new loss compare script"), and the heaviest deleted file said gone
    ("the old flux loader goes"), else a renamed one said renamed."""
    if not statuses or scope.shape in KINDS:
        return scope
    if scope.place and (named := [p for p in files if file_place(p) == scope.place]):
        kind = statuses.get(named[0], (FileStatus.UNKNOWN, None))[0]
        if len(named) == 1 and kind is FileStatus.ADDED and (said := new_claim(named[0])):
            scope = replace(scope, place=said)
        elif len(named) == 1 and kind is FileStatus.DELETED and scope.shape == "removal" \
                and (said := gone_claim(named[0])):
            return replace(scope, place="", also=said)  # "…, and the old flux loader goes"
    # A file already said as the place is not said again as gone or renamed.
    said_at = {p for p in files if scope.place and file_place(p) == scope.place}
    gone = sorted((p for p, (k, _) in statuses.items() if k is FileStatus.DELETED
                   and p not in said_at and files.get(p, (0, 0))[1] >= GONE_LINES),
                  key=lambda p: (-files[p][1], p))
    for p in gone:
        if said := gone_claim(p):
            return replace(scope, also=said)
    moved = sorted((p for p, (k, _) in statuses.items()
                    if k is FileStatus.RENAMED and p not in said_at),
                   key=lambda p: (-sum(files.get(p, (0, 0))), p))
    for p in moved:
        if said := renamed_claim(p, statuses[p][1]):
            return replace(scope, also=said)
    return scope


def _scope(files: Files, fix: bool) -> Scope | None:
    added = sum(a for a, _ in files.values())
    removed = sum(d for _, d in files.values())
    if added + removed == 0:
        return None
    verb, lines = (("adds", added) if removed <= MOSTLY * added
                   else ("removes", removed) if added <= MOSTLY * removed
                   else ("changes", added + removed))
    measure: Callable[[tuple[int, int]], int] = {
        "adds": lambda f: f[0], "removes": lambda f: f[1], "changes": lambda f: f[0] + f[1],
    }[verb]
    base = Scope("", added, removed, len(files), verb, lines)
    kinds = {path_kind(p) for p in files}
    top = max(files, key=lambda p: (measure(files[p]), p))
    if len(kinds) == 1 and (only := next(iter(kinds))) != "code":
        return replace(base, shape=only, place=_whole_place(files))
    if added + removed <= TINY and len(files) <= TINY_FILES:
        return replace(base, shape="tiny_fix" if fix else "tiny",
                       place=file_place(top) if len(files) == 1 else "")
    if removed >= REMOVAL * added and removed >= REMOVAL_LINES:
        heavy = max(files, key=lambda p: (files[p][1], p))
        place = file_place(heavy) if files[heavy][1] > MAIN_FILE * removed else ""
        return replace(base, shape="removal", place=place)
    if len(files) == 1:
        return replace(base, shape="one_file", place=one) if (one := file_place(top)) else None
    if measure(files[top]) > MAIN_FILE * lines and (place := file_place(top)):
        return replace(base, shape="focused", place=place,
                       alongside=_alongside(kinds, path_kind(top)))
    weights: Counter[str] = Counter()
    for p, f in files.items():
        weights[area(p)] += measure(f)
    named = [a for a, _ in weights.most_common() if a]
    if named and weights[named[0]] >= MAIN_PLACE * lines:
        main = next(p for p in files if area(p) == named[0])
        return replace(base, shape="focused", place=named[0],
                       alongside=_alongside(kinds, path_kind(main)))
    if len(files) >= BROAD_FILES and len(named) >= BROAD_PLACES:
        return replace(base, shape="broad", places=tuple(named[:BROAD_PLACES]))
    return replace(base, shape="spread", alongside=_alongside(kinds, "code"))


def _whole_place(files: Files) -> str:
    """The one place every file of a one-kind change is in: its file, else its folder."""
    if len(files) == 1:
        return file_place(next(iter(files)))
    folders = {p.rpartition("/")[0] for p in files}
    if len(folders) != 1 or "" in folders:
        return ""
    folder = folders.pop()
    # docs/source is no "source code" and .github/workflows no "workflows code": a folder
    # of the kind's own says nothing the kind has not.
    return folder_place(folder) if path_kind(f"{folder}/_") == "code" else ""


def _alongside(kinds: set[str], main: str) -> tuple[str, ...]:
    said = _data()["said"]
    return tuple(str(said[k]) for k in ("tests", "docs", "ci") if k in kinds and k != main)
