"""The published episode.mp3: the rendered audio, tagged again with what only the publisher
knows (the show's title, its cover art, the episode page), so a downloaded file shows the
same show, art and chapters as the feed."""

from __future__ import annotations

import io

from PIL import Image

from ..models import Episode
from ..voice.mp3 import strip_id3
from ..voice.process import tagged  # mutagen (GPL) writes it, in the voice worker

ART_SIZE = 600  # embedded art: enough for a lock screen, small enough for every episode
TAGS_VERSION = "1"  # bump when published tags change, so every episode is tagged again


def cover_art(image: bytes) -> bytes:
    """A square ART_SIZE JPEG of the show's cover (centre-cropped if it is not square)."""
    with Image.open(io.BytesIO(image)) as src:
        picture = src.convert("RGB")
    side = min(picture.size)
    left, top = (picture.width - side) // 2, (picture.height - side) // 2
    picture = picture.crop((left, top, left + side, top + side))
    picture = picture.resize((ART_SIZE, ART_SIZE), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    picture.save(out, format="JPEG", quality=85, optimize=True)
    return out.getvalue()


def published_mp3(data: bytes, episode: Episode, *, show: str, art: bytes, page_url: str) -> bytes:
    """`data` (a rendered episode.mp3) with its tag replaced by the published one."""
    return tagged(
        strip_id3(data), episode.script, episode.audio.chapters, episode.audio.duration_seconds,
        show=show, cover_jpeg=art, page_url=page_url,
    )
