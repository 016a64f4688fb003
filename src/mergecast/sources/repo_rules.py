"""The rule files a repository keeps for itself: which paths are whose (CODEOWNERS) and which
labels paths get (.github/labeler.yml). Read from the checkout; the analysis parses them."""

from __future__ import annotations

from pathlib import Path

_LABELER = (".github/labeler.yml", ".github/labeler.yaml")
_CODEOWNERS = (".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS")  # GitHub's search order


def rule_files(repo: Path, *, labeler: bool, codeowners: bool) -> tuple[str | None, str | None]:
    """The text of the repository's labeler config and owners file, each the first found
    where GitHub looks for it; None for one not asked for, absent or unreadable."""
    return (_first(repo, _LABELER) if labeler else None,
            _first(repo, _CODEOWNERS) if codeowners else None)


def _first(repo: Path, names: tuple[str, ...]) -> str | None:
    for name in names:
        try:
            return (repo / name).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue  # absent or unreadable: the repository simply has no such rules
    return None
