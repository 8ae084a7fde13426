"""Colours, sizes and the small pieces every part of Trickerion's pictures draws: player discs, trick
markers, category marks, Fame / coin / Shard icons, panels.

Flat shapes of our own (not the printed art). Every player piece carries its owner's colour *and*
letter, so colour-blind players can tell them apart; categories have a colour and a drawn mark."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from rulesets.core.drawing import fit, palette, text, text_width

INK = "#2b2118"
SOFT = "#6f6252"
FAINT = "#c9bda6"
PAPER = "#f4efe3"
PANEL = "#fbf8f1"
CARD = "#fffdf7"
GOLD = "#e0a526"
LIT = "#f6d36b"
WHITE = "#ffffff"

# Player colours as in the box (blue, red, green, yellow), with the ink that reads on each.
PLAYERS = ("#2f6fd0", "#d2392f", "#2e9a46", "#e9b91c")
ON_PLAYER = (WHITE, WHITE, WHITE, INK)

# Trick categories: colours far from the players' (corners of markers sit next to them).
CATEGORY = {"spiritual": "#8a55b8", "mechanical": "#707c88", "optical": "#17a9b8", "escape": "#e8781e"}
TIER = {"basic": "#b98b5a", "advanced": "#8f9aa6", "superior": "#d4a72c"}

FAME, COIN, SHARD = "#c23b3b", "#e6b422", "#4aa3df"
COIN_RIM, COIN_LINE, SHARD_LINE = "#8a6a10", "#a88414", "#d6ecfa"
THEATER_BG, ALLEY_BG, PROPHECY_BG = "#f7efe6", "#efe9f3", "#eef3f7"
DECK, DECK_INK = "#4b3a5c", "#e6dcef"
OK, MISSING = "#2f8f4e", "#c0392b"
# The Symbol markers' suits (the rulebook calls a symbol "Espadas": the four card suits).
SUITS = ("♠", "♥", "♣", "♦")


def _wash(c: str, k: float = 0.8) -> str:
    r, g, b = (int(c[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{int(v + (255 - v) * k):02x}" for v in (r, g, b))


TINTS = tuple(_wash(c) for c in PLAYERS)  # a pale wash of each player's colour (the weekday they hold)

# Every colour the pictures use, for the fixed palette the PNG is encoded with (fast, and the same
# colours in every picture); anti-aliased edges fall on the steps towards the inks and backgrounds.
PALETTE = palette(
    [INK, SOFT, FAINT, PAPER, PANEL, CARD, GOLD, LIT, WHITE, *PLAYERS, *TINTS, *CATEGORY.values(), *TIER.values(),
     FAME, COIN, SHARD, COIN_RIM, COIN_LINE, SHARD_LINE, THEATER_BG, ALLEY_BG, PROPHECY_BG, DECK, DECK_INK, OK,
     MISSING],
    towards=[INK, WHITE, PAPER])


def tint(seat: int) -> str:
    return TINTS[seat % len(TINTS)]


def letters(names: Sequence[str]) -> list[str]:
    """Each player's letter: the initial of their name, or their seat number if initials clash."""
    initials = [next((ch.upper() for ch in n if ch.isalnum()), "") for n in names]
    if len(set(initials)) == len(initials) and all(initials):
        return initials
    return [str(i + 1) for i in range(len(names))]


def colour(seat: int) -> str:
    return PLAYERS[seat % len(PLAYERS)]


def on_colour(seat: int) -> str:
    return ON_PLAYER[seat % len(ON_PLAYER)]


def panel(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], fill: str = PANEL,
          outline: str = FAINT, width: int = 1, radius: int = 8) -> None:
    d.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


def title(image: Image.Image, x: float, y: float, s: str, size: int = 17, fill: str = INK) -> None:
    text(image, (x, y), s, size, fill, bold=True)


def disc(image: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, r: float, seat: int, letter: str,
         size: int | None = None) -> None:
    """A player's piece: a disc of their colour with their letter."""
    d.ellipse((x - r, y - r, x + r, y + r), fill=colour(seat), outline=INK, width=1)
    text(image, (x, y), letter, size or max(9, int(r * 1.15)), on_colour(seat), bold=True, anchor="mm")


def character(image: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, seat: int, letter: str,
              tag: str, r: float = 14) -> None:
    """A character disc with its kind underneath ("Mág", "Ger"…); the magician's disc is larger."""
    disc(image, d, x, y, r, seat, letter)
    if tag:
        w = max(2 * r, text_width(tag, 9, True) + 8)
        d.rounded_rectangle((x - w / 2, y + r - 3, x + w / 2, y + r + 10), radius=4, fill=WHITE, outline=INK)
        text(image, (x, y + r + 4), tag, 9, INK, bold=True, anchor="mm")


def empty_space(d: ImageDraw.ImageDraw, x: float, y: float, r: float = 14, closed: bool = False) -> None:
    """A free character space (dashed look: a faint ring); `closed`: not used at this player count."""
    d.ellipse((x - r, y - r, x + r, y + r), fill=PAPER, outline=FAINT, width=2)
    if closed:
        d.line((x - r * 0.7, y - r * 0.7, x + r * 0.7, y + r * 0.7), fill=FAINT, width=2)
        d.line((x - r * 0.7, y + r * 0.7, x + r * 0.7, y - r * 0.7), fill=FAINT, width=2)


# ------------------------------------------------------------------------------------------ icons


def star(d: ImageDraw.ImageDraw, x: float, y: float, r: float, fill: str = FAME) -> None:
    """Fame."""
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * 0.45
        pts.append((x + rr * math.cos(a), y + rr * math.sin(a)))
    d.polygon(pts, fill=fill, outline=INK)


def coin(d: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    d.ellipse((x - r, y - r, x + r, y + r), fill=COIN, outline=COIN_RIM, width=2)
    d.ellipse((x - r * 0.5, y - r * 0.5, x + r * 0.5, y + r * 0.5), outline=COIN_LINE, width=1)


def shard(d: ImageDraw.ImageDraw, x: float, y: float, r: float, fill: str = SHARD) -> None:
    d.polygon([(x, y - r), (x + r * 0.62, y - r * 0.2), (x + r * 0.35, y + r), (x - r * 0.35, y + r),
               (x - r * 0.62, y - r * 0.2)], fill=fill, outline=INK)
    d.line((x, y - r, x, y + r), fill=SHARD_LINE, width=1)


def yields(image: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, fame: int, coins: int, shards: int,
           size: int = 13, signed: bool = True) -> float:
    """'+2★ +1● +1◆' as icons and numbers, left to right from (x, y-centre); returns the end x."""
    r = size * 0.55
    for n, icon in ((fame, star), (coins, coin), (shards, shard)):
        if not n:
            continue
        s = f"{n:+d}" if signed else str(n)
        text(image, (x, y), s, size, INK, bold=True, anchor="lm")
        x += font_w(s, size) + 2 + r
        icon(d, x, y, r)
        x += r + 6
    return x


def font_w(s: str, size: int, bold: bool = True) -> float:
    return text_width(s, size, bold)


def sized(s: str, sizes: Sequence[int], width: float, bold: bool = False) -> tuple[str, int]:
    """The largest of `sizes` at which `s` fits `width` (else the smallest, with an ellipsis)."""
    for size in sizes:
        if text_width(s, size, bold) <= width:
            return s, size
    return fit(s, sizes[-1], width, bold), sizes[-1]


def category_mark(d: ImageDraw.ImageDraw, x: float, y: float, r: float, cat: str) -> None:
    """A category as a coloured disc with a white mark: spiritual a crescent, mechanical a gear,
    optical an eye, escape a chain link."""
    d.ellipse((x - r, y - r, x + r, y + r), fill=CATEGORY[cat], outline=INK)
    m = r * 0.55
    if cat == "spiritual":
        d.ellipse((x - m, y - m, x + m, y + m), fill=WHITE)
        d.ellipse((x - m * 0.45, y - m * 1.05, x + m * 1.15, y + m * 0.75), fill=CATEGORY[cat])
    elif cat == "mechanical":
        d.regular_polygon((x, y, m * 1.05), 8, fill=WHITE)
        d.ellipse((x - m * 0.4, y - m * 0.4, x + m * 0.4, y + m * 0.4), fill=CATEGORY[cat])
    elif cat == "optical":
        d.ellipse((x - m * 1.1, y - m * 0.6, x + m * 1.1, y + m * 0.6), fill=WHITE)
        d.ellipse((x - m * 0.4, y - m * 0.4, x + m * 0.4, y + m * 0.4), fill=INK)
    else:
        w = max(1, int(r / 5))
        d.ellipse((x - m * 1.1, y - m * 0.55, x + m * 0.2, y + m * 0.55), outline=WHITE, width=w)
        d.ellipse((x - m * 0.2, y - m * 0.55, x + m * 1.1, y + m * 0.55), outline=WHITE, width=w)


# ------------------------------------------------------------------------------------------ trick markers


def marker(image: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, h: float, seat: int, letter: str,
           suit: int, corners: Sequence[str], stacked: int = 1) -> None:
    """A trick marker set up on a slot: a diamond of its owner's colour with the owner's letter and
    the trick's suit; its four tips (up, right, down, left) coloured by the category each shows."""
    tips = [(x, y - h), (x + h, y), (x, y + h), (x - h, y)]
    d.polygon(tips, fill=colour(seat), outline=INK)
    k = 0.38  # how far along the edges a tip's colour reaches
    for i, (tx, ty) in enumerate(tips):
        a, b = tips[(i - 1) % 4], tips[(i + 1) % 4]
        edge_a = (tx + (a[0] - tx) * k, ty + (a[1] - ty) * k)
        edge_b = (tx + (b[0] - tx) * k, ty + (b[1] - ty) * k)
        d.polygon([(tx, ty), edge_a, edge_b], fill=CATEGORY[corners[i]], outline=INK)
    ink = on_colour(seat)
    size = max(9, int(h * 0.5))
    text(image, (x - h * 0.2, y), letter, size, ink, bold=True, anchor="mm")
    text(image, (x + h * 0.24, y + 1), SUITS[suit % 4], size, ink, bold=True, anchor="mm")
    if stacked > 1:
        text(image, (x, y + h * 0.48), f"×{stacked}", max(8, int(h * 0.34)), ink, bold=True, anchor="mm")
