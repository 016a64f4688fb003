"""Checks over our own source: no shell=True, git calls guard user input."""

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "mergecast"


def _python_files():
    return sorted(SRC.rglob("*.py"))


def test_no_shell_true_anywhere():
    offenders = []
    for path in _python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                for kw in node.keywords:
                    if kw.arg == "shell" and not (isinstance(kw.value, ast.Constant)
                                                  and kw.value.value is False):
                        offenders.append(f"{path.relative_to(SRC)}:{node.lineno}")
                if isinstance(node.func, ast.Attribute) and node.func.attr in ("system", "popen") \
                        and isinstance(node.func.value, ast.Name) and node.func.value.id == "os":
                    offenders.append(f"{path.relative_to(SRC)}:{node.lineno} os.{node.func.attr}")
    assert offenders == []


def test_no_mock_patch_of_our_own_code_in_tests():
    tests = Path(__file__).resolve().parent
    hits = [str(p.relative_to(tests)) for p in tests.rglob("*.py")
            if p.name != Path(__file__).name and re.search(
                r"mock\.patch|monkeypatch\.setattr\(\s*['\"]?mergecast",
                p.read_text(encoding="utf-8"))]
    assert hits == []


_SUBPROCESS = {"run", "Popen", "call", "check_call", "check_output"}


def _functions(tree: ast.AST) -> list[ast.FunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]


def _is_list_expr(node: ast.expr, fn: ast.FunctionDef) -> bool:
    """A list display, a list concatenation, or a name only ever assigned such lists."""
    if isinstance(node, ast.List | ast.ListComp):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _is_list_expr(node.left, fn) and _is_list_expr(node.right, fn)
    if isinstance(node, ast.Name):
        params = [a for a in fn.args.args if a.arg == node.id and a.annotation is not None]
        if params:
            return ast.unparse(params[0].annotation).startswith(("list[", "Sequence["))
        values = [a.value for a in ast.walk(fn) if isinstance(a, ast.Assign | ast.AnnAssign)
                  and a.value is not None and any(isinstance(t, ast.Name) and t.id == node.id
                                                  for t in (a.targets if isinstance(a, ast.Assign)
                                                            else [a.target]))]
        return bool(values) and all(_is_list_expr(v, fn) for v in values)
    return False


def test_every_subprocess_call_passes_an_argument_list():
    offenders, calls = [], 0
    for path in _python_files():
        for fn in _functions(ast.parse(path.read_text(encoding="utf-8"))):
            for node in ast.walk(fn):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and isinstance(node.func.value, ast.Name)
                        and node.func.value.id == "subprocess" and node.func.attr in _SUBPROCESS):
                    calls += 1
                    argv = node.args[0] if node.args else next(
                        (k.value for k in node.keywords if k.arg == "args"), None)
                    if argv is None or not _is_list_expr(argv, fn):
                        offenders.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert calls >= 5  # the check found the calls it is meant to check
    assert offenders == []


def _user_supplied(node: ast.expr) -> bool:
    """A git argument built from a variable, not one of our own `--option=...` flags."""
    if isinstance(node, ast.Constant):
        return False
    if isinstance(node, ast.JoinedStr):
        head = node.values[0] if node.values else None
        return not (isinstance(head, ast.Constant) and str(head.value).startswith("-"))
    if isinstance(node, ast.Starred):
        return not (isinstance(node.value, ast.Name) and node.value.id.isupper())  # *LOG_ARGS
    return True


def _git_argv(fn: ast.FunctionDef) -> list[list[ast.expr]]:
    """Each git argv in `fn`: `git(path, ...)` helper calls, and `["git", ...]` lists with
    everything later appended to the same name."""
    found: list[list[ast.expr]] = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "git":
            found.append(list(node.args[1:]))
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.List) and node.value.elts \
                and isinstance(node.value.elts[0], ast.Constant | ast.Name) \
                and getattr(node.value.elts[0], "value", getattr(node.value.elts[0], "id", None)) \
                == "git":
            name = node.targets[0].id if isinstance(node.targets[0], ast.Name) else None
            argv = list(node.value.elts[1:])
            for later in ast.walk(fn):
                if isinstance(later, ast.Call) and isinstance(later.func, ast.Attribute) \
                        and later.func.attr == "append" and isinstance(later.func.value, ast.Name) \
                        and later.func.value.id == name:
                    argv += later.args
                if isinstance(later, ast.AugAssign) and isinstance(later.target, ast.Name) \
                        and later.target.id == name and isinstance(later.value, ast.List):
                    argv += later.value.elts
            found.append(sorted(argv, key=lambda n: (n.lineno, n.col_offset)))
        if isinstance(node, ast.List) and node.elts and isinstance(node.elts[0], ast.Name) \
                and node.elts[0].id == "git":
            found.append(list(node.elts[1:]))
    return found


def test_git_calls_put_user_refs_and_paths_after_end_of_options():
    offenders, checked = [], 0
    for path in _python_files():
        for fn in _functions(ast.parse(path.read_text(encoding="utf-8"))):
            for argv in _git_argv(fn):
                checked += 1
                guarded = False
                for i, arg in enumerate(argv):
                    if isinstance(arg, ast.Constant) and arg.value in ("--end-of-options", "--"):
                        guarded = True
                    elif _user_supplied(arg) and not guarded:
                        after_c = i > 0 and isinstance(argv[i - 1], ast.Constant) \
                            and argv[i - 1].value == "-C"  # the repository folder itself
                        if not after_c:
                            offenders.append(f"{path.relative_to(SRC)}:{arg.lineno} "
                                             f"{ast.unparse(arg)}")
    assert checked >= 6
    assert offenders == []


def test_check_ref_refuses_option_like_and_malformed_refs():
    import pytest

    from mergecast.errors import GitError
    from mergecast.sources.git import check_ref

    for ok in ("main", "refs/heads/main", "v1.0^", "HEAD~2", "feature/x-y", "a1b2c3d"):
        assert check_ref(ok) == ok
    for bad in ("--upload-pack=touch /tmp/x", "-n", "a..b", "a b", "x\x00", "m@{1}", "a:b",
                "x.lock", "x/", "", "*"):
        with pytest.raises(GitError, match="is not a valid git ref"):
            check_ref(bad)


def test_the_git_argument_checker_flags_an_unguarded_ref():
    bad = ast.parse("def f(path, ref):\n    git(path, 'log', ref)\n"
                    "    args = ['git', '-C', str(path), 'log']\n    args.append(ref)\n")
    argvs = _git_argv(_functions(bad)[0])
    assert sorted([ast.unparse(a) for a in argv if _user_supplied(a)] for argv in argvs) == [
        ["ref"], ["str(path)", "ref"]]


def _imports(path: Path) -> set[str]:
    """Every mergecast module `path` imports, as absolute dotted names (TYPE_CHECKING too)."""
    package = ".".join(("mergecast", *path.relative_to(SRC).with_suffix("").parts))
    if path.name != "__init__.py":
        package = package.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(p for p in (base, node.module or "") if p)
            found.add(module)
            found |= {f"{module}.{a.name}" for a in node.names}
    return found


def test_sources_only_yield_changes_and_never_touch_config_store_or_pipeline():
    banned = {f"mergecast.{m}" for m in ("config", "store", "pipeline", "collect", "jobs", "cli")}
    offenders = {str(p.relative_to(SRC)): sorted(_imports(p) & banned)
                 for p in sorted((SRC / "sources").glob("*.py"))}
    assert {k: v for k, v in offenders.items() if v} == {}
    # the check sees imports at all: the pipeline's own module imports the store
    assert "mergecast.store" in _imports(SRC / "collect.py")


def _calls(name: str) -> list[str]:
    return [f"{p.relative_to(SRC)}:{node.lineno}" for p in _python_files()
            for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == name]


def test_one_recipe_writes_every_script_and_builds_every_digest():
    assert [c.split(":")[0] for c in _calls("write_script")] == ["pipeline.py"]
    assert [c.split(":")[0] for c in _calls("build_digest")] == ["pipeline.py"]
