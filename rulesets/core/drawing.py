"""The drawing toolkit every game's pictures share: fonts, a canvas, text that fits, PNG encoding.

A game draws its pictures (`Game.picture`, `Game.seat_picture`) as pure functions of a view, in
its own folder; this module holds only what is common to them. No text lives here: every label a
picture shows comes from `locales/` through the `say` function the caller passes.

Fonts: DejaVu Sans (fonts/, Bitstream Vera licence in fonts/LICENSE-DejaVu.txt) renders Portuguese
and most players' names; Pillow's built-in font cannot. What it cannot draw (most emoji, as the 🤖
before a bot's name; CJK) `fit` and `fit_text` leave out rather than draw as empty boxes.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
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


@lru_cache(maxsize=4096)
def _mask(s: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    f = font(size, bold)
    left, top, right, bottom = f.getbbox(s, anchor=anchor)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), s, font=f, fill=255, anchor=anchor)
    return mask, left, top


def text(image: Image.Image, xy: tuple[float, float], s: str, size: int, fill: str, bold: bool = False,
         anchor: str = "la") -> None:
    """Draw `s` like ImageDraw.text, from a cache of rendered labels.

    Rasterising a string is most of a picture's cost (~0.15 ms a label; a Trickerion table has
    a few hundred), and the same labels come back in every picture of a game (names, places,
    tricks): pasting a cached mask is about 15 times faster."""
    if not s:
        return
    mask, left, top = _mask(s, size, bold, anchor)
    image.paste(fill, (round(xy[0]) + left, round(xy[1]) + top), mask)


@lru_cache(maxsize=4096)
def text_width(s: str, size: int, bold: bool = False) -> float:
    return font(size, bold).getlength(s)


_ABSENT = "\U0010fffd"  # a private-use code point no font here draws: its picture is the missing-glyph box


def _picture(s: str, bold: bool) -> tuple[tuple[int, int], int, int, bytes]:
    mask, left, top = _mask(s, 20, bold, "la")
    return mask.size, left, top, mask.tobytes()


@lru_cache(maxsize=4096)
def _has_glyph(ch: str, bold: bool) -> bool:
    """Whether the font draws `ch` as itself rather than as its missing-glyph box. Pillow does not say
    which characters a font covers, so the two pictures are compared."""
    return _picture(ch, bold) != _picture(_ABSENT, bold)


@lru_cache(maxsize=4096)
def drawable(s: str, bold: bool = False) -> str:
    """`s` without the characters the font cannot draw: a name's emoji drawn as an empty box reads as a
    fault ("🤖 Bot Difícil 1" is drawn "Bot Difícil 1"). A name of nothing else becomes "?"."""
    if s.isascii():
        return s
    kept = "".join(ch for ch in s if _has_glyph(ch, bold))
    if kept == s:
        return s
    return " ".join(kept.split()) or "?"


def fit(s: str, size: int, width: float, bold: bool = False) -> str:
    """Shorten `s` with an ellipsis until it fits `width` pixels (cached widths); what the font cannot
    draw is left out (`drawable`)."""
    s = drawable(s, bold)
    if text_width(s, size, bold) <= width:
        return s
    f = font(size, bold)
    lo, hi = 0, len(s)  # the longest prefix that fits with its ellipsis, by bisection
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if f.getlength(s[:mid] + "…") <= width:
            lo = mid
        else:
            hi = mid - 1
    return s[:lo].rstrip() + "…"


def fit_text(d: ImageDraw.ImageDraw, text: str, size: int, width: int, bold: bool = False) -> str:
    """Shorten `text` with an ellipsis until it fits `width` pixels; what the font cannot draw is left
    out (`drawable`)."""
    text = drawable(text, bold)
    f = font(size, bold)
    if d.textlength(text, font=f) <= width:
        return text
    while text and d.textlength(text + "…", font=f) > width:
        text = text[:-1]
    return text + "…"


def palette(colours: Iterable[str], towards: Iterable[str] = (), steps: Sequence[float] = (0.25, 0.5, 0.75)
            ) -> Image.Image:
    """A fixed palette (a 1x1 "P" image) for `png`: the picture's own colours, plus steps from each
    towards each colour of `towards` (the inks and backgrounds anti-aliased edges blend into).
    At most 256 entries, the listed colours first."""
    def rgb(c: str) -> tuple[int, int, int]:
        c = c.lstrip("#")
        return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)

    base = [rgb(c) for c in dict.fromkeys(colours)]
    entries = list(base)
    for c in base:
        for target in (rgb(t) for t in towards):
            entries += [tuple(round(a + (b - a) * k) for a, b in zip(c, target, strict=True)) for k in steps]
    entries = list(dict.fromkeys(entries))[:256]
    image = Image.new("P", (1, 1))
    flat = [v for e in entries for v in e]
    image.putpalette(flat + flat[-3:] * (256 - len(entries)))
    return image


def png(image: Image.Image, colors: int = 64, fixed: Image.Image | None = None) -> bytes:
    """Palette PNG: flat board-game colours compress to a few tens of KB.

    Pictures are drawn inside the command that makes a move, before the mover's next prompt goes
    out, so their cost is felt on every press. Without a `fixed` palette, the fast octree quantizer
    without Pillow's extra `optimize` pass takes ~17 ms on an 860x520 table instead of ~70 ms
    (median cut + optimize), for a file about 5% larger. With a `fixed` palette (see `palette`)
    each pixel only looks up its nearest entry: about 6x faster than the octree on a 1280 px
    table, and zlib's level 3 instead of 6 halves the write for a file ~25% larger (figures:
    `boardgamesbot bench`)."""
    out = io.BytesIO()
    rgb = image.convert("RGB")
    if fixed is not None:
        rgb.quantize(palette=fixed, dither=Image.Dither.NONE).save(out, format="PNG", compress_level=3)
    else:
        rgb.quantize(colors=colors, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(out, format="PNG")
    return out.getvalue()


def encode(image: Image.Image, max_bytes: int = MAX_BYTES, fixed: Image.Image | None = None) -> bytes:
    """The PNG within `max_bytes`: never expected to shrink, but the promise holds anyway."""
    data = png(image, fixed=fixed)
    while len(data) > max_bytes and image.width > 200:
        image = image.resize((image.width * 3 // 4, image.height * 3 // 4))
        data = png(image, fixed=fixed)
    return data
