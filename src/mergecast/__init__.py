"""mergecast: a repository's day, told as a short developer briefing podcast."""

__version__ = "0.1.0"
