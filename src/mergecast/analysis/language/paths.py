"""How a title's paths, files and slashes are said: a document by its name, a lone source
file with its kind, a folder as its words, an action by its own name, and "a/b" as a list
only when it is one ("bf16/fp16", "cpu/gpu"; never "torchao/dtypes package")."""

from __future__ import annotations

import re

from .words import base_verb, case_word, has_verb, plural, table, words

EXTS = (r"\.(?:py|pyi|toml|ya?ml|md|rst|txt|json|cfg|ini|sh|cpp|cc|cu|cuh|h|hpp|c|in|"
        r"lock|gz|ipynb|cff|mm|metal|bzl|cmake|so(?:\.\d+)*)\b")


# "a/b": a list of two things, a folder, or (before "package", after the same folder
# twice) a path; see word_list.
WORD_LIST = re.compile(r"(?<![\w./])([a-z][a-z0-9]*(?:/[a-z][a-z0-9]*){1,3})(?![\w./])")
_PLACE = re.compile(r"\b(?:of|in|into|from|under|inside|within|at)\s+(?:the\s+)?$", re.I)
_TO_PLACE = re.compile(r"\bto\s+$", re.I)  # "add X to sparse/prototype": a folder
_CONTAINER = re.compile(r"\s+(?:package|module|folder|directory|dir|subfolder|namespace)s?\b",
                        re.I)

DOC_FILE = re.compile(r"(?<![\w./])([A-Za-z][\w-]*)\.(?:md|rst)\b")
# Files that are documents by their own name ("README.md" is the README).
_DOC_NAMES = frozenset("readme changelog contributing license code_of_conduct security "
                       "notice authors history".split())


def doc_file(m: re.Match[str]) -> str:
    """"fsdp.md" -> "fsdp doc": a markdown file is a document, not the thing it is about
    ("Update fsdp.md" updates the FSDP doc, not FSDP)."""
    stem = m.group(m.lastindex or 1)
    return stem if stem.lower() in _DOC_NAMES else f"{stem} doc"


FILE_PATH = re.compile(r"(?<![\w./])\.?/?((?:[\w-]+/)+)([\w-]+)" + EXTS, re.I)


def file_path(m: re.Match[str]) -> str:
    """"docs/reference.md" -> "reference": a file under generic folders is said by its
    name; any other path is left to the word-list and path rules."""
    folders = m.group(1).strip("/").split("/")
    if _PLACE.search(m.string[:m.start()]):  # "into common/linear.py" names a place
        return m.group(0)
    if not all(f.lower() in words().generic_areas for f in folders):
        return m.group(0)
    doc = m.group(0).lower().endswith((".md", ".rst"))  # "docs/datasets.md": the doc
    return doc_file(m) if doc else m.group(2)


# A source file's stem and its extension, said as what it is (see _file_said)
_SOURCE_FILE = r"([A-Za-z][\w-]*)\.(py|sh|cu|cuh|cpp|cc|c|h|hpp|metal)(?![\w.])"
# "simplify train.py", "Rename a.py to b.py": a title whose object is one source file
LONE_FILE = re.compile(r"^([A-Za-z][a-z]+)\s+(?:the\s+)?" + _SOURCE_FILE)


def lone_file(m: re.Match[str]) -> str:
    """"simplify train.py" -> "simplify the train module": without its kind, the file is
    heard as a word ("simplifying train"); the noun is the scope data's for its extension."""
    said = _file_said(m.group(2), m.group(3))
    return f"{m.group(1)} {said}" if base_verb(m.group(1)) and said else m.group(0)


def _file_said(stem: str, ext: str) -> str | None:
    """A file as what it is: "train", "py" -> "the train module"; None for a kind of file
    the scope data does not name."""
    noun = table("scope.toml", "ext_nouns").get(ext.lower())
    if not noun:
        return None
    test = re.fullmatch(r"(?i)test_(\w+)|(\w+)_test", stem)
    if test is not None and (test.group(1) or "").lower() not in words().test_tools:
        # "the fused rms norm tests"; "test_runner.py" is the test runner module
        stem, noun = test.group(1) or test.group(2), "tests"
    if noun.split()[-1].lower() in re.split(r"[_-]+", stem.lower()):
        return f"the {stem}"  # "marlin_kernel_nm.cu": no "kernel … kernel"
    return f"the {stem} {noun}"


# A command line ("python download.py v2 / v3", "pip install x"): code, never said
COMMAND = re.compile(r"\b(?:python3?|torchrun|bash|sh)\s+(?:-\S+\s+)*[\w./-]+\.(?:py|sh)\b"
                     r"|\b(?:pip3?|uv|conda)\s+install\b")


# A source file in a description's prose ("because train.py reads every shard"), with the
# word before it: said as what it is, never its bare stem ("because train reads …").
PROSE_FILE = re.compile(r"(?:\b([A-Za-z]+)\s+)?(?<![\w./-])" + _SOURCE_FILE +
                        r"(?=(\s+[A-Za-z]+)?)")
_MANY = frozenset("different separate multiple several many other".split())
# Words after a file that go on from it as a name ("superseded by x.py instead")
_GOES_ON = frozenset({"instead", "plus", "too", "alone", "again"})


def prose_file(m: re.Match[str]) -> str:
    """"because train.py" -> "because the train module"; "the train.py", "different
    train.py" -> "the train module", "different train modules"."""
    before, said = m.group(1), _file_said(m.group(2), m.group(3))
    after = (m.group(4) or "").strip().lower()
    if said is None or after and (after.rstrip("s") == said.split()[-1].rstrip("s") or not (
            after in words().function or after in _GOES_ON or has_verb([after])
            or base_verb(after) == after or after.endswith(("ing", "ly")))):
        # ("the widget.py module", "model.py config files": the file names a kind or a
        # thing already; said as its words, as before)
        return m.group(0)
    if before is None:
        return said[0].upper() + said[1:] if m.start() == 0 else said
    if before.lower() in _MANY:  # "different train.py": different train modules
        return f"{before} {plural(said.removeprefix('the '))}"
    if before.lower() in words().name_modifiers:  # ("the train.py": one article)
        return f"{before} {said.removeprefix('the ')}"
    return f"{before} {said}"


# A file named after a preposition or "and" anywhere in a title ("Move X out of sentences.py into
# leaning.py"): said as what it is, never a bare word ("out of sentences into leaning")
PLACED_FILE = re.compile(r"\b(from|into|in|to|of|for|and|or)\s+(?:the\s+)?" + _SOURCE_FILE)


def placed_file(m: re.Match[str]) -> str:
    """"into leaning.py" -> "into the leaning module" (see lone_file)."""
    said = _file_said(m.group(2), m.group(3))
    return f"{m.group(1)} {said}" if said else m.group(0)


# A version bump of a package named by its owner ("Bump actions/checkout from 4 to 5",
# "Update foo/bar from 1.2 to 1.3"); not "Update trainer/generator to the new API", a list.
BUMPED_PATH = re.compile(r"^((?:Bump|Pin|Unpin)\s+(?:the\s+)?|(?:Update|Upgrade)\s+(?:the\s+)?"
                         r"(?=[\w./-]+\s+from\b))(?:[\w.-]+/)+([\w.-]+)"
                         r"(?=\s+(?:from|to|in|requirement)\b)", re.I)


# A GitHub action named by its owner ("tj-actions/changed-files", "actions/checkout",
# "pypa/gh-action-pypi-publish"): said by its own name, never as a list of two things.
ACTION_PATH = re.compile(r"(?<![\w./-])(?:[\w.-]*actions|[\w.-]+(?=/[\w.-]*action))/([\w.-]+)",
                         re.I)


def action_path(m: re.Match[str]) -> str:
    """"tj-actions/changed-files" -> "the changed-files action"."""
    name = m.group(1)
    if "action" in name.lower():
        return name
    the = "" if re.search(r"\bthe\s+$", m.string[:m.start()], re.I) else "the "
    return f"{the}{name} action"


# A thing moved between folders under its own name ("Move torchao/_models to
# benchmarks/_models"): said once, with where it goes from and to, never "moves models".
MOVED_PATH = re.compile(r"(?<![\w./])\.?/?((?:[\w-]+/)+)([\w.-]*\w)/?\s+(to|into)\s+"
                        r"\.?/?((?:[\w-]+/)+)\2/?(?![\w./])")


def moved_path(m: re.Match[str]) -> str:
    """"torchao/_models to benchmarks/_models" -> "_models from torchao to benchmarks"."""
    def folder(path: str) -> str:
        return " ".join(p.strip("_") for p in path.strip("/").split("/"))
    return f"{m.group(2)} from {folder(m.group(1))} {m.group(3)} {folder(m.group(4))}"


SHA_RANGE = re.compile(r"\s+from\s+[0-9a-f]{7,40}\s+to\s+[0-9a-f]{7,40}\b")


def bumped(m: re.Match[str]) -> str:
    parts = m.group(0)[len(m.group(1)):].split("/")
    if all(p.lower() in words().case for p in parts):
        return m.group(0)  # "Bump bf16/fp16 to fp32": terms the lexicon knows, a list
    return m.group(1) + m.group(2)


def word_list(m: re.Match[str]) -> str:
    parts = m.group(1).split("/")
    if len(parts) > 1 and all(p in words().case for p in parts):
        # "from bf16/fp16/fp32": terms the lexicon knows are a list, never a folder
        return joined([case_word(p) for p in parts])
    generic = words().generic_areas
    if len(parts) == 2 and parts[0] not in generic and parts[1] in generic:
        # "Add torchao/experimental CI test": a package's generic folder, never "torchao
        # and experimental"
        return " ".join(parts)
    if _PLACE.search(m.string[:m.start()]) or (  # "out of torchao/kernel" is a place: a path
            _TO_PLACE.search(m.string[:m.start()]) and all(p.isalpha() and p.islower()
                                                           for p in parts)):
        return " ".join(parts)
    if all(p.islower() for p in parts) and (
            _CONTAINER.match(m.string[m.end():]) or
            len(re.findall(rf"(?<![\w/]){re.escape(parts[0])}/\w", m.string)) > 1):
        # "torchao/dtypes package", "torchao/profiler and torchao/testing": folders, not
        # two things
        return " ".join(parts)
    if all(p.isalpha() and len(p) > 2 for p in parts) or all(
            re.search(r"[a-z]\d", p) for p in parts):
        # "sm89/sm90", "llama3/llama4", "conv2d/conv3d": a name with a number is a model,
        # chip or op, never a folder beside another such
        return joined(parts)
    return parts[-1]


# "conv2d/3d": the second of the pair says the first's stem again ("conv2d and conv3d").
STEM_PAIR = re.compile(r"(?<![\w./])([a-z]+)(\d+[a-z]*)/(\d+[a-z]*)(?![\w./])", re.I)


def stem_pair(m: re.Match[str]) -> str:
    return f"{m.group(1)}{m.group(2)} and {m.group(1)}{m.group(3)}"


def joined(items: list[str]) -> str:
    """Things said as a list: "a, b and c"."""
    return ", ".join(items[:-1]) + " and " + items[-1]

# A word written after a dot: a file type (".toml") or a method (".to", ".item()").
_DOT_WORD = re.compile(r"(?<![\w.])\.([A-Za-z_]\w*)\b")
_FILE_TYPES = frozenset("py pyi toml yaml yml md rst txt json cfg ini sh cpp cu h hpp ipynb "
                        "metadata so".split())
_FILE_TYPE_SAID = {"so": "shared library"}  # ".so files": no one says "so files"
# ".item()": a method called, written as nothing else is
_DOT_CALL = re.compile(r"(?<![\w.])\.([A-Za-z]\w*)\(\)(\s+\w+)?")


def _dot_call(m: re.Match[str]) -> str:
    """".item() issue" -> "item method issue", never "an item issue"; ".item() calls" and
    ".to()" (see _dot_word) say what it is already."""
    word, after = m.group(1), m.group(2) or ""
    if word.lower() in words().function or after.strip().lower() in _CALL_NOUNS:
        return m.group(0)
    # (the method, after a verb or a preposition: "to the compile method"; never a second
    # article, nor one after a noun it belongs to: "output float method")
    before = m.string[:m.start()].split()[-1:]
    bare = before and (before[0].lower() in words().name_modifiers or not (
        before[0].lower() in words().function or base_verb(before[0])))
    return f"{'' if bare else 'the '}{word} method{after}"


_CALL_NOUNS = frozenset(("method", "methods", "call", "calls", "function", "functions"))


def _dot_word(m: re.Match[str]) -> str:
    """".toml" -> "TOML file"; ".to" (a method) -> "the to method"; ".foo" -> "foo"."""
    word = m.group(1).strip("_")
    if word.lower() in _FILE_TYPES:  # ".md files" stays "md files"
        nxt = m.string[m.end():].lstrip()[:4].lower()
        said = _FILE_TYPE_SAID.get(word.lower()) or case_word(word.lower())
        return said + ("" if nxt.startswith("file") else " file")
    if word.lower() not in words().function:
        return word
    before = m.string[:m.start()].split()
    if before and before[-1].lower() in words().name_modifiers:
        return f"{word} method"  # "an unnecessary .to()": the article is there already
    return f"the {word} method"


def dot_calls(text: str) -> str:
    """Each method a text calls with a leading dot said as a method (see _dot_call)."""
    return _DOT_CALL.sub(_dot_call, text)


def dot_words(text: str) -> str:
    """Each word a text writes after a dot said as a file type or a method (see
    _dot_word)."""
    return _DOT_WORD.sub(_dot_word, text)
