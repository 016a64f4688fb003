"""One error hierarchy. Each message names what failed, with which input, and the fix.

The CLI prints `mergecast: <message>` on one line and exits with `exit_code`:
2 for bad input the user can correct, 1 for other failures.
"""

from __future__ import annotations


class MergecastError(Exception):
    exit_code = 1


class InputError(MergecastError):
    """Bad input the user can fix: a path, a flag, a file's contents."""

    exit_code = 2


class ConfigError(InputError):
    """mergecast.toml is missing a key, has a wrong type, or an unknown value."""


class SourceError(InputError):
    """A source (git, a gh export, the GitHub API) could not be read."""


class GitError(SourceError):
    pass


class GhJsonError(SourceError):
    pass


class GitHubError(MergecastError):
    """The GitHub API failed in a way that is not the user's input."""


class AuthError(GitHubError):
    exit_code = 2


class RateLimitError(GitHubError):
    pass


class StoreError(MergecastError):
    """The SQLite store cannot be opened, migrated or written."""


class AnalysisError(MergecastError):
    pass


class WritingError(MergecastError):
    pass


class FactCheckError(WritingError):
    """A script says something the digest does not support."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []


class LLMError(WritingError):
    pass


class LLMBudgetError(LLMError):
    """The episode's LLM time budget ([llm] max_seconds) is spent: stop asking."""


class EmptyWindowError(MergecastError):
    """Nothing happened in the window; not a failure (exit 0) unless --allow-empty."""

    exit_code = 0


class VoiceError(MergecastError):
    pass


class PublishError(MergecastError):
    pass


class LockError(MergecastError):
    pass
