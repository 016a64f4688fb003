"""The licence check of `make lint`: mergecast's installed runtime dependencies against
tools/licences.toml, and the worker boundary in mergecast's own imports.

1. Every distribution mergecast needs at run time (its requirements, followed through
   theirs, as installed here) has a licence the policy knows: a `core` licence, or a
   `worker` one for a distribution listed under [worker] distributions. A missing or
   unknown licence fails too: nobody has looked at it yet.
2. Only the [worker] modules import those distributions, and no other mergecast module
   imports the worker modules: GPL code is loaded by the voice worker process alone.

    python tools/licences.py [--list]
"""

from __future__ import annotations

import argparse
import ast
import importlib.metadata as md
import re
import sys
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
POLICY = ROOT / "tools" / "licences.toml"
PACKAGE = ROOT / "src" / "mergecast"


@dataclass(frozen=True)
class Policy:
    core: frozenset[str]
    worker: frozenset[str]
    worker_distributions: frozenset[str]  # canonical names
    worker_modules: frozenset[str]
    aliases: Mapping[str, str]

    @classmethod
    def load(cls, path: Path = POLICY) -> Policy:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        return cls(frozenset(data["licences"]["core"]), frozenset(data["licences"]["worker"]),
                   frozenset(canonicalize_name(d) for d in data["worker"]["distributions"]),
                   frozenset(data["worker"]["modules"]), dict(data["aliases"]))


# ---- 1. the installed runtime dependencies


def runtime_closure(root: str = "mergecast") -> tuple[dict[str, md.Distribution], list[str]]:
    """The installed distributions `root` needs at run time (no extras), by canonical
    name; and the requirements that are not installed."""
    found: dict[str, md.Distribution] = {}
    missing: list[str] = []
    todo: list[tuple[str, frozenset[str]]] = [(root, frozenset())]
    while todo:
        name, extras = todo.pop()
        key = canonicalize_name(name)
        if key in found and not extras:
            continue
        try:
            dist = found.get(key) or md.distribution(name)
        except md.PackageNotFoundError:
            missing.append(name)
            continue
        found[key] = dist
        for line in dist.requires or ():
            req = Requirement(line)
            wanted = [{"extra": e} for e in extras] or [{"extra": ""}]
            if req.marker is None or any(req.marker.evaluate(env) for env in wanted):
                todo.append((req.name, frozenset(req.extras)))
    found.pop(canonicalize_name(root), None)
    return found, missing


def declared(dist: md.Distribution, aliases: Mapping[str, str]) -> str | None:
    """A distribution's licence as an SPDX expression: License-Expression, else a short
    License field, else its licence classifiers (joined with AND)."""
    meta = dist.metadata
    expression = meta.get("License-Expression")
    if expression:
        return expression.strip()
    field = (meta.get("License") or "").strip()
    if field and "\n" not in field and len(field) <= 60:
        return aliases.get(field, field)
    classifiers = [c for c in meta.get_all("Classifier") or () if c.startswith("License ::")]
    ids = sorted({aliases.get(c, c) for c in classifiers})
    return " AND ".join(ids) if ids else None


def satisfies(expression: str, allowed: frozenset[str]) -> bool:
    """Whether an SPDX expression can be met with `allowed` licences: every side of an
    AND, either side of an OR ("X WITH exception" counts as X)."""
    tokens = re.findall(r"\(|\)|[^\s()]+", expression)
    pos = 0

    def expr() -> bool:
        nonlocal pos
        ok = term()
        while pos < len(tokens) and tokens[pos].upper() == "OR":
            pos += 1
            ok = term() or ok
        return ok

    def term() -> bool:
        nonlocal pos
        ok = atom()
        while pos < len(tokens) and tokens[pos].upper() == "AND":
            pos += 1
            ok = atom() and ok
        return ok

    def atom() -> bool:
        nonlocal pos
        if pos >= len(tokens):
            return False
        token = tokens[pos]
        pos += 1
        if token == "(":
            ok = expr()
            pos += 1  # ")"
        else:
            ok = token in allowed
        if pos < len(tokens) and tokens[pos].upper() == "WITH":
            pos += 2
        return ok

    return expr() and pos == len(tokens)


def licence_problems(dists: Mapping[str, md.Distribution], policy: Policy) -> list[str]:
    problems = []
    for key in sorted(dists):
        dist = dists[key]
        name = f"{dist.metadata['Name']} {dist.version}"
        expression = declared(dist, policy.aliases)
        if expression is None:
            problems.append(f"{name} declares no licence; read its licence and add the SPDX "
                            "id it means to [aliases] in tools/licences.toml")
        elif satisfies(expression, policy.core):
            continue
        elif satisfies(expression, policy.core | policy.worker):
            if key not in policy.worker_distributions:
                problems.append(
                    f"{name} is {expression}: it may run only in the voice worker process; "
                    "list it under [worker] distributions and import it only from the worker "
                    "modules, or choose a library under a core licence")
        else:
            problems.append(f"{name} is {expression}, which tools/licences.toml does not "
                            "allow; choose another library, or argue it in docs/licensing.md "
                            "and add the licence there")
    return problems


# ---- 2. the worker boundary in mergecast's own imports


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, package: Path = PACKAGE) -> Iterator[tuple[int, list[str]]]:
    """(line, absolute module names) of every import statement in a module, including
    importlib.import_module("...") with a literal name. `from a import b` names a, then
    a.b (b may be a module)."""
    module = module_name(path, package)
    is_package = path.name == "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield node.lineno, [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = module.split(".")[: len(module.split(".")) - node.level + is_package]
                base = ".".join([*here, *([base] if base else [])])
            yield node.lineno, [base, *(f"{base}.{a.name}" for a in node.names if a.name != "*")]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and not node.args[0].value.startswith(".")):
            yield node.lineno, [node.args[0].value]


def top_modules(distributions: Iterable[str]) -> set[str]:
    """The importable top-level names of the given distributions."""
    wanted = set(distributions)
    return {module for module, dists in md.packages_distributions().items()
            if any(canonicalize_name(d) in wanted for d in dists)}


def boundary_problems(policy: Policy, package: Path = PACKAGE) -> list[str]:
    gpl = top_modules(policy.worker_distributions)
    problems = []
    for path in sorted(package.rglob("*.py")):
        if module_name(path, package) in policy.worker_modules:
            continue
        for line, names in imports(path, package):
            where = f"{path.relative_to(package.parent)}:{line}"
            for name in names:
                if name.split(".")[0] in gpl:
                    problems.append(f"{where} imports {name}, which only the voice worker may "
                                    "load (tools/licences.toml [worker]); ask the worker instead")
                elif any(name == m or name.startswith(m + ".") for m in policy.worker_modules):
                    problems.append(f"{where} imports {name}, a module of the voice worker's "
                                    "process; talk to it through mergecast.voice.process")
                else:
                    continue
                break  # one problem per import statement
    return sorted(problems)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--list", action="store_true", help="print every dependency's licence")
    args = parser.parse_args(argv)
    policy = Policy.load()
    dists, missing = runtime_closure()
    if args.list:
        for key in sorted(dists):
            d = dists[key]
            print(f"{d.metadata['Name']:<22} {d.version:<14} {declared(d, policy.aliases)}")
    problems = [f"{name} is required but not installed; run `make lint` after "
                "`pip install -e .`" for name in missing]
    problems += licence_problems(dists, policy) + boundary_problems(policy)
    for problem in problems:
        print(f"licences: {problem}", file=sys.stderr)
    if not problems:
        print(f"licences: {len(dists)} runtime dependencies checked; GPL code only in the "
              "voice worker")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
