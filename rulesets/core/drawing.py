"""The drawing toolkit every game's pictures share: fonts, a canvas, text that fits, PNG encoding.

A game draws its pictures (`Game.picture`, `Game.seat_picture`) as pure functions of a view, in
its own folder; this module holds only what is common to them. No text lives here: every label a
picture shows comes from `locales/` through the `say` function the caller passes.

Fonts: DejaVu Sans (fonts/, Bitstream Vera licence in fonts/LICENSE-DejaVu.txt) renders Portuguese
and most players' names; Pillow's built-in font cannot.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONTS = Path(__file__).parent / "fonts"
MAX_BYTES = 100_000  # a table picture's default budget (Telegram takes 10 MB; a phone's data plan less)


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size)


def canvas(width: int, height: int, background: str = "#f4efe3") -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), background)
    return image, ImageDraw.Draw(image)


def fit_text(d: ImageDraw.ImageDraw, text: str, size: int, width: int, bold: bool = False) -> str:
    """Shorten `text` with an ellipsis until it fits `width` pixels."""
    f = font(size, bold)
    if d.textlength(text, font=f) <= width:
        return text
    while text and d.textlength(text + "…", font=f) > width:
        text = text[:-1]
    return text + "…"


def png(image: Image.Image, colors: int = 64) -> bytes:
    """Palette PNG: flat board-game colours compress to a few tens of KB.

    Pictures are drawn inside the command that makes a move, before the mover's next prompt goes
    out, so their cost is felt on every press: the fast octree quantizer without Pillow's extra
    `optimize` pass takes ~17 ms on an 860x520 table instead of ~70 ms (median cut + optimize),
    for a file about 5% larger (measured by `boardgamesbot bench`)."""
    out = io.BytesIO()
    image.convert("RGB").quantize(colors=colors, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE) \
        .save(out, format="PNG")
    return out.getvalue()


def encode(image: Image.Image, max_bytes: int = MAX_BYTES) -> bytes:
    """The PNG within `max_bytes`: never expected to shrink, but the promise holds anyway."""
    data = png(image)
    while len(data) > max_bytes and image.width > 200:
        image = image.resize((image.width * 3 // 4, image.height * 3 // 4))
        data = png(image)
    return data
