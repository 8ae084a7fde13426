"""A PNG of the table for the group's status message, drawn from the PUBLIC view only.

`draw(game, view, names, lang)` receives `Game.view(state, None)` — what the group may see —
never the state, so a picture cannot leak hidden information. Each game that wants a
picture registers a drawer here (`DRAWERS`); a game without one gets a text-only status.
The status message is redrawn only when the public view (or the names, or the language)
changed: play.py compares a fingerprint before calling `draw`.

Fonts: DejaVu Sans (fonts/, Bitstream Vera licence in fonts/LICENSE-DejaVu.txt) renders
Portuguese and most players' names; Pillow's built-in font cannot.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

FONTS = Path(__file__).parent / "fonts"
MAX_BYTES = 100_000

Drawer = Callable[[dict[str, Any], Sequence[str], str], Image.Image]
DRAWERS: dict[str, Drawer] = {}


def register(game: str) -> Callable[[Drawer], Drawer]:
    def deco(fn: Drawer) -> Drawer:
        DRAWERS[game] = fn
        return fn

    return deco


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size)


def can_draw(game: str) -> bool:
    _load_drawers()
    return game in DRAWERS


def draw(game: str, view: dict[str, Any], names: Sequence[str], lang: str) -> bytes | None:
    """The PNG bytes (< 100 KB), or None when the game has no drawer."""
    _load_drawers()
    drawer = DRAWERS.get(game)
    if drawer is None:
        return None
    image = drawer(view, names, lang)
    data = encode(image)
    while len(data) > MAX_BYTES and image.width > 200:  # never expected; keeps the promise anyway
        image = image.resize((image.width * 3 // 4, image.height * 3 // 4))
        data = encode(image)
    return data


def encode(image: Image.Image) -> bytes:
    """Palette PNG: flat board-game colours compress to a few tens of KB.

    Drawn inside the command that makes a move, before the mover's next prompt goes out, so
    its cost is felt on every press: the fast octree quantizer without Pillow's extra
    `optimize` pass takes ~17 ms on an 860x520 table instead of ~70 ms (median cut +
    optimize), for a file about 5% larger (measured by `boardgamesbot bench`)."""
    out = io.BytesIO()
    image.convert("RGB").quantize(colors=64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE) \
        .save(out, format="PNG")
    return out.getvalue()


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


_loaded = False


def _load_drawers() -> None:
    """Import the per-game drawers once (they register themselves)."""
    global _loaded
    if not _loaded:
        _loaded = True
        from workers.tables import picture_spellbook  # noqa: F401
