"""One band per player for the table picture: magician and colour, Fame, coins, Shards, the team
(each character and where it stands), tricks with their markers, components."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from rulesets.core import msg
from rulesets.core.contract import Say
from rulesets.core.drawing import fit, text

from ..data import COMPONENTS, DAYS, MAGICIANS, TRICKS
from ..rules import kind
from . import style
from .style import FAINT, INK, SOFT, WHITE
from .theater import tag

BAND_H = 150


def team(p: dict[str, Any]) -> list[str]:
    return ["mag", *p.get("specs", []), *p.get("apps", [])]


def where(p: dict[str, Any], char: str, say: Say) -> str:
    """Where a character stands this round, in a few words: its space, the card under it, or idle."""
    key = p.get("placed", {}).get(char)
    if key is not None:
        return space_label(key, say)
    if char in p.get("idle", []):
        return say(msg("trickerion.picture.idle"))
    card = p.get("plan", {}).get(char)
    if card is not None:
        return say(msg("trickerion.picture.planned", place=say(msg(f"trickerion.picture.place.{card_place(p, card)}"))))
    return ""


def card_place(p: dict[str, Any], card: str) -> str:
    """The location an assignment card sends a character to, as the view says (permanent cards are
    named by it)."""
    return p.get("card_places", {}).get(card, card)


def space_label(key: str, say: Say) -> str:
    parts = key.split(".")
    loc = parts[0]
    if loc == "theater":
        day = say(msg(f"trickerion.picture.day.{DAYS[int(parts[1])].key}"))
        part = "performs" if parts[2] == "p" else "backstage"
        return say(msg("trickerion.picture.at_theater", day=day, part=say(msg(f"trickerion.picture.{part}"))))
    return say(msg(f"trickerion.picture.place.{loc}"))


def band(image: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, w: float, s: int, p: dict[str, Any],
         names: Sequence[str], letters: Sequence[str], say: Say, *, active: bool, position: int | None) -> None:
    h = BAND_H - 8
    edge = style.colour(s)
    style.panel(d, (x, y, x + w, y + h), outline=INK if active else FAINT, width=3 if active else 1)
    d.rounded_rectangle((x, y, x + 12, y + h), radius=6, fill=edge)
    # who: letter, name, magician with its favourite category, initiative, weekday, ready
    style.disc(image, d, x + 42, y + 32, 22, s, letters[s], size=22)
    name = names[s] if s < len(names) else f"#{s + 1}"
    text(image, (x + 74, y + 22), fit(name, 19, 160, True), 19, INK, bold=True, anchor="lm")
    mag = p.get("magician")
    if mag:
        style.category_mark(d, x + 82, y + 48, 8, MAGICIANS[mag].category)
        text(image, (x + 95, y + 48), fit(say(msg(f"trickerion.magician.{mag}")), 13, 140), 13, INK, anchor="lm")
    first = []
    if position is not None:
        first.append(say(msg("trickerion.picture.initiative_n", n=position)))
    if p.get("day") is not None:
        first.append(say(msg(f"trickerion.picture.day.{DAYS[p['day']].key}")))
    cards = sum(p.get("hand", {}).values()) + p.get("hidden_cards", 0)
    lines = [" · ".join(first)] + ([say(msg("trickerion.picture.cards", count=cards))] if cards else [])
    if p.get("poster"):
        lines.append(say(msg("trickerion.picture.poster")))
    for i, line in enumerate(lines):
        text(image, (x + 24, y + 72 + i * 18), fit(line, 13, 214), 13, SOFT, anchor="lm")
    status = "their_turn" if active else "ready" if p.get("ready") else None
    if status:
        line = fit(say(msg(f"trickerion.picture.{status}")), 13, 214, True)
        text(image, (x + 24, y + 74 + len(lines) * 18), line, 13, INK, bold=True, anchor="lm")
    # purse
    px = x + 250
    for i, (icon, n) in enumerate(((style.star, p.get("fame", 0)), (style.coin, p.get("coins", 0)),
                                   (style.shard, p.get("shards", 0)))):
        cy = y + 28 + i * 40
        icon(d, px + 14, cy, 13)
        text(image, (px + 34, cy), str(n), 22, INK, bold=True, anchor="lm")
    text(image, (px + 72, y + 28), say(msg("trickerion.picture.fame")), 11, SOFT, anchor="lm")
    text(image, (px + 72, y + 68), say(msg("trickerion.picture.coins")), 11, SOFT, anchor="lm")
    text(image, (px + 72, y + 108), say(msg("trickerion.picture.shards")), 11, SOFT, anchor="lm")
    # team: each character and where it is
    tx = x + 405
    chars = team(p)
    hires = p.get("hires", [])
    col_w, row_h = 150, 31
    for i, c in enumerate(chars + [f"+{k}" for k in hires]):
        cx, cy = tx + (i // 4) * col_w, y + 20 + (i % 4) * row_h
        if c.startswith("+"):  # hired this round: joins at the end of the round
            d.ellipse((cx - 11, cy - 11, cx + 11, cy + 11), fill=WHITE, outline=style.colour(s), width=3)
            text(image, (cx + 16, cy - 7), fit(say(msg(f"trickerion.picture.tag.{c[1:]}")), 13, col_w - 24, True), 13,
                 INK, bold=True, anchor="lm")
            line, size = style.sized(say(msg("trickerion.picture.hired")), (11, 10, 9), col_w - 20)
            text(image, (cx + 16, cy + 8), line, size, SOFT, anchor="lm")
            continue
        r = 12 if kind(c) == "magician" else 10
        style.disc(image, d, cx, cy, r, s, letters[s], size=11)
        label = tag(c, say)
        spot = where(p, c, say)
        text(image, (cx + 16, cy - 7), fit(label, 13, col_w - 20, True), 13, INK, bold=True, anchor="lm")
        spot, size = style.sized(spot, (12, 11, 10), col_w - 20)
        text(image, (cx + 16, cy + 8), spot, size, INK, anchor="lm")
    # tricks: category, suit, name, level, yields, markers still on the card
    kx = x + 712
    for i, o in enumerate(p.get("tricks", [])[:4]):
        trick_tile(image, d, kx + (i % 2) * 172, y + 6 + (i // 2) * 66, 166, 60, s, o, say)
    if not p.get("tricks"):
        text(image, (kx + 6, y + 30), say(msg("trickerion.picture.no_tricks")), 12, SOFT, anchor="lm")
    # components, as every view counts them
    cx0 = x + 1058
    comps: dict[str, int] = p.get("components", {})
    for i, (comp, n) in enumerate(comps.items()):
        bx, by = cx0 + (i // 4) * 102, y + 8 + (i % 4) * 32
        component_tile(image, d, bx, by, 98, 27, comp, n, say)
    if not comps:
        text(image, (cx0 + 6, y + 30), say(msg("trickerion.picture.no_components")), 12, SOFT, anchor="lm")


def trick_tile(image: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float, s: int,
               o: dict[str, Any], say: Say) -> None:
    t = TRICKS[o["t"]]
    d.rounded_rectangle((x, y, x + w, y + h), radius=6, fill=WHITE, outline=style.CATEGORY[t.category], width=2)
    d.rounded_rectangle((x, y, x + 26, y + h), radius=6, fill=style.CATEGORY[t.category])
    text(image, (x + 13, y + 17), style.SUITS[o["sym"] % 4], 17, WHITE, bold=True, anchor="mm")
    text(image, (x + 13, y + 40), str(t.level), 14, WHITE, bold=True, anchor="mm")
    name, size = style.sized(say(msg(f"trickerion.trick.{o['t']}")), (13, 12, 11), w - 36, True)
    text(image, (x + 32, y + 12), name, size, INK, bold=True, anchor="lm")
    style.yields(image, d, x + 32, y + 32, t.yields.fame, t.yields.coins, t.yields.shards, size=13, signed=False)
    # the markers still on the trick card (ready to be set up in the Theater)
    for k in range(o.get("on", 0)):
        mx = x + 34 + k * 15
        d.polygon([(mx + 6, y + h - 14), (mx + 12, y + h - 8), (mx + 6, y + h - 2), (mx, y + h - 8)],
                  fill=style.colour(s), outline=INK)
    if o.get("eng"):
        text(image, (x + w - 6, y + h - 8), say(msg("trickerion.picture.tag.engineer")), 10, SOFT, bold=True,
             anchor="rm")


def component_tile(image: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float, comp: str,
                   n: int, say: Say) -> None:
    tier = COMPONENTS[comp].tier if comp in COMPONENTS else "basic"
    d.rounded_rectangle((x, y, x + w, y + h), radius=5, fill=WHITE, outline=style.TIER[tier], width=2)
    text(image, (x + 5, y + h / 2), f"{n}×", 14, INK, bold=True, anchor="lm")
    name, size = style.sized(say(msg(f"trickerion.comp.{comp}")), (12, 11, 10), w - 30)
    text(image, (x + 27, y + h / 2), name, size, INK, anchor="lm")
