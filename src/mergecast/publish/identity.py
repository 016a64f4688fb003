"""The show's feed identity: its podcast:guid and its episodes' GUIDs.

Podcast apps key subscriptions and downloads on these, so they are made once, kept in the
store with the show, and never worked out again from the show's name or base_url:
renaming the show or moving the site changes neither.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit

from ..config import ShowConfig
from ..errors import PublishError
from .paths import slugify

STATE_KEY = "show:feed-identity"
# The namespace Podcasting 2.0 fixes for podcast:guid (UUIDv5 of the feed URL).
PODCAST_GUID_NS = uuid.UUID("ead4c236-bf58-58c6-a2c6-a6b28d128cb6")
_LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1", "0.0.0.0", "")


class StateKeeper(Protocol):
    """Where the identity is kept: the store's small key-value table."""

    def get_state(self, key: str) -> str | None: ...

    def set_state(self, key: str, value: str) -> None: ...


def podcast_guid(feed_url: str) -> str:
    """UUIDv5 of the feed URL without its scheme and trailing slashes, per the spec."""
    bare = feed_url.split("://", 1)[-1].rstrip("/")
    return str(uuid.uuid5(PODCAST_GUID_NS, bare))


def is_local(url: str) -> bool:
    """True for a URL only this machine can reach (loopback, unspecified, `.localhost`)."""
    host = (urlsplit(url).hostname or "").lower()
    return host in _LOCAL_HOSTS or host.endswith(".localhost") or host.startswith("127.")


@dataclass(frozen=True)
class FeedIdentity:
    podcast_guid: str  # the main feed's; the weekly and area feeds' are derived from it
    item_prefix: str  # an episode's GUID is "<item_prefix>:<episode id>"

    def episode_guid(self, episode_id: str) -> str:
        return f"{self.item_prefix}:{episode_id}"

    def feed_guid(self, rel: str) -> str:
        """podcast:guid of the feed at `rel` (relative to the site), fixed by the show's."""
        if rel == "feed.xml":
            return self.podcast_guid
        return str(uuid.uuid5(uuid.UUID(self.podcast_guid), rel))

    def to_json(self) -> str:
        return json.dumps({"podcast_guid": self.podcast_guid, "item_prefix": self.item_prefix},
                          sort_keys=True)

    @classmethod
    def from_json(cls, text: str, where: str) -> FeedIdentity:
        try:
            data = json.loads(text)
            found = cls(str(data["podcast_guid"]), str(data["item_prefix"]))
            uuid.UUID(found.podcast_guid)
        except (ValueError, KeyError, TypeError):
            raise PublishError(
                f"the feed identity kept in {where} is unreadable ({text[:80]!r}); restore the "
                "store from a backup: a new identity would make podcast apps download every "
                "episode again"
            ) from None
        return found


def assign(show: ShowConfig, feed_url: str, site: Path) -> FeedIdentity:
    """A show's identity, made the one time it is first published.

    A site that an earlier mergecast already published (it has a manifest) keeps the GUIDs
    its feed carries, which that version worked out from the feed URL and the show's name.
    A new show's podcast:guid is the UUIDv5 of its feed URL, as Podcasting 2.0 says; a
    local URL (the default) is shared by every new show, so a random part is added there.
    """
    from .site import MANIFEST

    if (site / MANIFEST).is_file():
        guid = podcast_guid(feed_url)
        return FeedIdentity(guid, f"mergecast:{slugify(show.name or show.title or 'show')}")
    seed = feed_url if not is_local(feed_url) else f"{feed_url}#{uuid.uuid4()}"
    guid = podcast_guid(seed)
    return FeedIdentity(guid, f"mergecast:{guid}")


def show_identity(
    keeper: StateKeeper, show: ShowConfig, feed_url: str, site: Path, where: str
) -> FeedIdentity:
    """The identity kept in `keeper`; made and kept there first if the show has none."""
    text = keeper.get_state(STATE_KEY)
    if text is not None:
        return FeedIdentity.from_json(text, where)
    identity = assign(show, feed_url, site)
    keeper.set_state(STATE_KEY, identity.to_json())
    return identity
