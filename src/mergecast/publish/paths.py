"""Safe names inside the output folder, and text made inert for HTML and XML.

Episode ids and area names come from the store, and area names come from PR labels
and titles (attacker-controlled), so nothing here trusts them: ids must match the
documented shapes in ASCII, area names are slugified to ASCII, and every join is
checked to stay inside OUT after resolution.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlsplit

from ..errors import PublishError

# [0-9], not \d: \d also matches other scripts' digits (look-alikes).
EPISODE_ID = re.compile(r"[0-9]{4}-(?:[0-9]{2}-[0-9]{2}|W[0-9]{2})")

# Characters XML 1.0 forbids (most C0 controls, surrogates, U+FFFE/U+FFFF), plus C1
# controls, which are legal but never meant as text.
_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
# Bidi overrides/embeddings/isolates reorder the text around them (spoofing), and
# zero-width spaces hide inside handles; ZWJ/ZWNJ stay, real scripts need them.
_INVISIBLE = re.compile("[\u202a-\u202e\u2066-\u2069\u200b\u2060\ufeff]")


def clean_text(text: str) -> str:
    """Text safe to put in any page, feed or cue: no forbidden or reordering characters."""
    # XML parsers turn a bare CR into LF, so fold it first: what we write is what is read.
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _INVISIBLE.sub("", _INVALID_XML.sub("", text))


_UNSAFE_URL_CHAR = re.compile(r"[\s\x00-\x1f\x7f<>\"'`\\]")


def safe_url(url: str | None) -> str | None:
    """An http(s) URL with no whitespace or control characters, else None (never `javascript:`)."""
    if not url:
        return None
    url = url.strip()
    if _UNSAFE_URL_CHAR.search(url):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return url


def check_episode_id(episode_id: str) -> str:
    if not EPISODE_ID.fullmatch(episode_id):
        raise PublishError(
            f"expected an episode id as YYYY-MM-DD or YYYY-Www, got {episode_id!r}; "
            "fix or delete that episode in the store"
        )
    return episode_id


def slugify(name: str) -> str:
    """ASCII slug for a URL path segment: 'Dynamo / Inductor' -> 'dynamo-inductor'."""
    ascii_text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:60].strip("-")
    if not slug:
        slug = "area-" + hashlib.sha1(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return slug


def area_slugs(names: Iterable[str]) -> dict[str, str]:
    """A unique slug per area name; names that slugify alike get a short hash suffix."""
    taken: dict[str, str] = {}
    result: dict[str, str] = {}
    for name in sorted(set(names)):
        slug = slugify(name)
        if slug in taken:
            digest = hashlib.sha1(name.encode("utf-8", "surrogatepass")).hexdigest()[:6]
            slug = f"{slug}-{digest}"
        taken[slug] = name
        result[name] = slug
    return result


_SEGMENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def safe_join(root: Path, *parts: str) -> Path:
    """root/parts..., refusing anything that could land outside root."""
    for part in parts:
        for segment in part.split("/"):
            if not _SEGMENT.fullmatch(segment) or ".." in segment:
                raise PublishError(
                    f"refusing to write {'/'.join(parts)!r}: path segment {segment!r} is not "
                    "a plain ASCII name; this is a bug or a hostile episode id"
                )
    # Plain segments cannot climb out; root is a fresh staging folder with no symlinks,
    # so no resolve() (a syscall per level, per episode) is needed.
    return root.joinpath(*parts)
