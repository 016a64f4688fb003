"""The show's cover: the configured image, checked to be one, or a 1400×1400 PNG drawn with
the show's name (podcast apps require art)."""

from __future__ import annotations

import io
import textwrap
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, UnidentifiedImageError

from ..errors import PublishError

SIZE = 1400
_SUFFIX = {"PNG": ".png", "JPEG": ".jpg"}
_FIX = "point it at a 1400×1400 (or larger, square) PNG or JPEG cover image"


def cover_suffix(image: Path) -> str:
    """The suffix `image` is published under (".png" or ".jpg"), after checking that it is a
    readable PNG or JPEG by its contents: a text file named cover.png is not a cover."""
    where = f"{str(image)!r} in mergecast.toml [show] image"
    if image.suffix.lower() not in (".png", ".jpg", ".jpeg") or not image.is_file():
        raise PublishError(f"expected a PNG or JPEG file, got {where}; {_FIX}")
    try:
        with Image.open(image) as img:
            kind = img.format or ""
            img.verify()  # reads the whole file: a truncated or damaged image fails here
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError,
            ValueError) as exc:
        reason = "not an image" if isinstance(exc, UnidentifiedImageError) else str(exc)
        raise PublishError(f"expected a PNG or JPEG image, got a file that is {reason} "
                           f"for {where}; {_FIX}") from exc
    if kind not in _SUFFIX:
        raise PublishError(f"expected a PNG or JPEG image, got a {kind} image for {where}; {_FIX}")
    return _SUFFIX[kind]
_FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))


Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def _font(size: int, bold: bool = True) -> Font:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in _FONT_DIRS:
        if (folder / name).is_file():
            return ImageFont.truetype(str(folder / name), size)
    # Pillow's bundled scalable font: always there, so the cover never fails.
    return ImageFont.load_default(size=size)


def _fit(draw: ImageDraw.ImageDraw, text: str, width: int) -> tuple[list[str], Font]:
    for size in (190, 160, 130, 110, 90, 72, 60):
        font = _font(size)
        for chars in range(max(4, len(text)), 3, -1):
            lines = textwrap.wrap(text, chars, break_long_words=True) or [""]
            if len(lines) <= 4 and all(draw.textlength(ln, font=font) <= width for ln in lines):
                return lines, font
    font = _font(60)
    return textwrap.wrap(text, 20)[:4] or [""], font


def draw_cover(show_name: str) -> bytes:
    """A deterministic PNG: the same name always gives the same bytes (so it is reused)."""
    img = Image.new("RGB", (SIZE, SIZE), (17, 24, 39))
    draw = ImageDraw.Draw(img)
    # A band of "waveform" bars: reads as audio at thumbnail size.
    bars = 28
    for i in range(bars):
        height = 60 + ((i * 37) % 11) * 28
        x = 140 + i * 40
        draw.rounded_rectangle(
            (x, 1060 - height // 2, x + 22, 1060 + height // 2), radius=11, fill=(56, 189, 248)
        )
    lines, font = _fit(draw, show_name.strip() or "mergecast", SIZE - 240)
    line_h = int(getattr(font, "size", 100) * 1.15)
    y = 620 - (len(lines) * line_h) // 2
    for line in lines:
        draw.text((120, y), line, font=font, fill=(248, 250, 252))
        y += line_h
    draw.text((124, 170), "DEVELOPER BRIEFING", font=_font(54, bold=False), fill=(148, 163, 184))
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()
