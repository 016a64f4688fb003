"""One error hierarchy. Each message names what failed, with which input, and the fix.

The CLI prints `mergecast: <message>` on one line and exits with `exit_code`:
0 for a quiet window, 2 for bad input the user can correct, 1 for other failures.

    MergecastError                  exit 1
    ├── InputError                  exit 2: a flag, a path, a file's contents
    │   ├── ConfigError             mergecast.toml
    │   └── SourceError             git, a gh export, the GitHub API
    │       ├── GitError
    │       ├── GhJsonError
    │       └── GitHubError         exit 1: the API failed, not the user's input
    │           ├── AuthError       exit 2: the token is missing or rejected
    │           └── RateLimitError
    ├── StoreError
    ├── WritingError
    │   ├── FactCheckError
    │   └── LLMError
    │       ├── LLMBudgetError
    │       └── LLMUnavailableError
    ├── VoiceError
    ├── PublishError
    ├── LockError
    └── EmptyWindowError            exit 0: nothing happened, so no episode
"""

from __future__ import annotations


class MergecastError(Exception):
    """Every error mergecast raises on purpose; anything else is a bug."""

    exit_code = 1


class InputError(MergecastError):
    """Bad input the user can fix: a path, a flag, a file's contents."""

    exit_code = 2


class ConfigError(InputError):
    """mergecast.toml is missing a key, has a wrong type, or an unknown value."""


class SourceError(InputError):
    """A source (git, a gh export, the GitHub API) could not be read."""


class GitError(SourceError):
    """git is missing, or the folder or ref given is not a readable repository."""


class GhJsonError(SourceError):
    """A `gh pr list --json` export is unreadable, not JSON, or not PR records."""


class GitHubError(SourceError):
    """The GitHub API failed in a way that is not the user's input."""

    exit_code = 1


class AuthError(GitHubError):
    """GitHub rejected the token, or a private repository needs one."""

    exit_code = 2


class RateLimitError(GitHubError):
    """GitHub's rate limit ran out and waiting for it would take too long."""


class StoreError(MergecastError):
    """The SQLite store cannot be opened, migrated or written."""


class WritingError(MergecastError):
    """No script could be written for the digest."""


class FactCheckError(WritingError):
    """A script says something the digest does not support."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []


class LLMError(WritingError):
    """The LLM server failed or answered with something unusable."""


class LLMBudgetError(LLMError):
    """The episode's LLM time or token budget ([llm] max_seconds, max_episode_tokens) is
    spent: stop asking."""


class LLMUnavailableError(LLMError):
    """The LLM server is down or refusing (unreachable, silent, an error status after
    every form of the request): stop asking it for this episode."""


class EmptyWindowError(MergecastError):
    """Nothing happened in the window; not a failure (exit 0) unless --allow-empty."""

    exit_code = 0


class VoiceError(MergecastError):
    """The voice backend is missing, failed, or had nothing to say."""


class PublishError(MergecastError):
    """A file mergecast writes (the site, episode media, mergecast.toml) cannot be written."""


class LockError(MergecastError):
    """Another mergecast run holds the store or the site folder."""
