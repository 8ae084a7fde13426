"""A player's own board, from their own view (`Game.view(state, seat)`): their band as the group sees
it, then what only they see in full — the assignment cards in hand (special cards by name) and the card
under each character, the tricks with what they need, and the Workshop's component spaces."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from rulesets.core import msg
from rulesets.core.contract import Say
from rulesets.core.drawing import canvas, fit, text

from ..data import BOARD, COMPONENTS, TRICKS
from . import players, style
from .style import FAINT, INK, SOFT, WHITE
from .theater import tag

WIDTH = 1280
SECTION_H = 150
TRICKS_H = 186


def draw(view: dict[str, Any], seat: int, names: Sequence[str], say: Say) -> Image.Image | None:
    people = view.get("players", [])
    if not 0 <= seat < len(people):
        return None
    p = people[seat]
    letters = style.letters([names[s] if s < len(names) else str(s + 1) for s in range(len(people))])
    height = 10 + players.BAND_H + 2 * SECTION_H + TRICKS_H + 10
    image, d = canvas(WIDTH, height, style.PAPER)
    order = view.get("order") or []
    spaces = view.get("spaces") or []
    position = spaces[order.index(seat)] if seat in order and order.index(seat) < len(spaces) else None
    players.band(image, d, 10, 10, WIDTH - 20, seat, p, names, letters, say, active=view.get("turn") == seat,
                 position=position)
    y = 10 + players.BAND_H
    _cards(image, d, 10, y, WIDTH - 20, p, seat, letters, say)
    y += SECTION_H
    _tricks(image, d, 10, y, WIDTH - 20, p, seat, view, say)
    y += TRICKS_H
    _workshop(image, d, 10, y, WIDTH - 20, p, say)
    return image


def _section(image: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, w: float, key: str, say: Say,
             h: float = SECTION_H) -> None:
    style.panel(d, (x, y, x + w, y + h - 8))
    style.title(image, x + 12, y + 8, say(msg(key)), size=15)


def _cards(image: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, w: float, p: dict[str, Any], seat: int,
           letters: Sequence[str], say: Say) -> None:
    """The assignment cards in hand (how many of each, how many already under a character), and the
    card under each character."""
    _section(image, d, x, y, w, "trickerion.picture.hand", say)
    hand: dict[str, int] = p.get("hand", {})
    plan: dict[str, str] = p.get("plan", {})
    cx = x + 12
    for card, n in hand.items():
        used = sum(1 for v in plan.values() if v == card)
        place = players.card_place(p, card)
        special = card != place
        d.rounded_rectangle((cx, y + 34, cx + 120, y + 132), radius=8, fill=style.ALLEY_BG if special else WHITE,
                            outline=INK, width=2)
        label = say(msg(f"trickerion.card.{card}")) if special else say(msg(f"trickerion.picture.place.{place}"))
        for k, part in enumerate(_two_lines(label, 12, 108)):
            text(image, (cx + 60, y + 50 + k * 16), part, 12, INK, bold=True, anchor="mm")
        if special:
            text(image, (cx + 60, y + 84), fit(say(msg(f"trickerion.picture.place.{place}")), 10, 108), 10, SOFT,
                 anchor="mm")
        text(image, (cx + 60, y + 104), f"×{n}", 16, INK, bold=True, anchor="mm")
        text(image, (cx + 60, y + 123), fit(say(msg("trickerion.picture.under", count=used)), 10, 112), 10, SOFT,
             anchor="mm")
        cx += 128
        if cx + 120 > x + w * 0.62:
            break
    # the card under each character (the player's own plan)
    px = x + w * 0.62 + 10
    text(image, (px, y + 40), say(msg("trickerion.picture.plan")), 12, SOFT, bold=True, anchor="lm")
    pick = p.get("pick")
    for i, c in enumerate(players.team(p)):
        rx, ry = px + (i // 4) * 230, y + 62 + (i % 4) * 20
        style.disc(image, d, rx + 8, ry, 8, seat, letters[seat], size=9)
        card = plan.get(c)
        where = say(msg(f"trickerion.picture.place.{players.card_place(p, card)}")) if card else "—"
        if card and card != players.card_place(p, card):
            where = say(msg(f"trickerion.card.{card}"))
        line = f"{tag(c, say)}: {where}"
        text(image, (rx + 22, ry), fit(line, 12, 200, c == pick), 12, INK, bold=c == pick, anchor="lm")


def _two_lines(s: str, size: int, width: float) -> list[str]:
    words, first = s.split(), ""
    while words and style.font_w(f"{first} {words[0]}".strip(), size) <= width:
        first = f"{first} {words.pop(0)}".strip()
    rest = " ".join(words)
    return [first or fit(s, size, width, True)] + ([fit(rest, size, width, True)] if rest and first else [])


def _tricks(image: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, w: float, p: dict[str, Any], seat: int,
            view: dict[str, Any], say: Say) -> None:
    """Each trick: what it yields, the components it needs (✓ when the Workshop has them), the AP
    to prepare it, its markers on the card and in the Theater."""
    _section(image, d, x, y, w, "trickerion.picture.tricks", say, TRICKS_H)
    comps: dict[str, int] = p.get("components", {})
    tricks = p.get("tricks", [])
    if not tricks:
        text(image, (x + 14, y + 50), say(msg("trickerion.picture.no_tricks")), 13, SOFT, anchor="lm")
    tw = (w - 24 - 3 * 8) / 4
    for i, o in enumerate(tricks[:4]):
        t = TRICKS[o["t"]]
        tx, ty = x + 12 + i * (tw + 8), y + 32
        players.trick_tile(image, d, tx, ty, tw, 60, seat, o, say)
        for k, (comp, need) in enumerate(list(t.components.items())[:4]):
            have = comps.get(comp, 0)
            ly = ty + 74 + k * 18
            ok = have >= need
            d.ellipse((tx + 4, ly - 6, tx + 16, ly + 6), fill=style.OK if ok else style.MISSING)
            text(image, (tx + 10, ly), "✓" if ok else "✗", 9, WHITE, bold=True, anchor="mm")
            line = say(msg("trickerion.picture.need", comp=say(msg(f"trickerion.comp.{comp}")), have=have, need=need))
            text(image, (tx + 22, ly), fit(line, 11, tw - 26), 11, INK, anchor="lm")
        in_theater = sum(m.get("n", 1) for card in view.get("row", []) if card
                         for m in card.get("m", {}).values() if m["seat"] == seat and m["sym"] == o["sym"])
        facts = say(msg("trickerion.picture.trick_facts", ap=t.prepare_ap, markers=t.markers, theater=in_theater))
        text(image, (tx + 4, ty + 74 + 4 * 18), fit(facts, 10, tw - 8), 10, SOFT, anchor="lm")


def _workshop(image: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, w: float, p: dict[str, Any],
              say: Say) -> None:
    """The component spaces: 6 regular stacks, and with the Manager his 2 multi-component spaces
    (a stack there counts one more: the count shown is the one the rules use)."""
    _section(image, d, x, y, w, "trickerion.picture.workshop", say)
    comps: dict[str, int] = p.get("components", {})
    multi = [m for m in p.get("multi", []) if m]
    regular = [c for c in comps if c not in multi]
    slots = BOARD.workshop["component_slots"]
    tw = (w - 24) / (slots + 2) - 8
    for i in range(slots):
        comp = regular[i] if i < len(regular) else None
        _stack(image, d, x + 12 + i * (tw + 8), y + 40, tw, comp, comps.get(comp or "", 0), say)
    if "manager" in p.get("specs", []) or multi:
        mx = x + 12 + slots * (tw + 8)
        text(image, (mx, y + 20), fit(say(msg("trickerion.picture.manager_slots")), 11, 2 * tw), 11, SOFT, bold=True,
             anchor="lm")
        slots_m = p.get("multi", [None, None])
        for k in range(BOARD.workshop["multi_slots"]):
            comp = slots_m[k] if k < len(slots_m) else None
            _stack(image, d, mx + k * (tw + 8), y + 40, tw, comp, comps.get(comp or "", 0), say, multi=True)


def _stack(image: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, w: float, comp: str | None, n: int,
           say: Say, multi: bool = False) -> None:
    d.rounded_rectangle((x, y, x + w, y + 90), radius=8, fill=WHITE if comp else style.PAPER,
                        outline=style.GOLD if multi else (INK if comp else FAINT), width=3 if multi else 2)
    if comp is None:
        return
    tier = COMPONENTS[comp].tier
    d.rounded_rectangle((x + 6, y + 6, x + w - 6, y + 18), radius=4, fill=style.TIER[tier])
    text(image, (x + w / 2, y + 42), str(n), 26, INK, bold=True, anchor="mm")
    text(image, (x + w / 2, y + 74), fit(say(msg(f"trickerion.comp.{comp}")), 11, w - 6), 11, INK, anchor="mm")

