"""The Theater: performance cards with their slot grid, markers and link circles, and the weekday
track (who holds each day, who stands backstage, who performs)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from rulesets.core import msg, seat
from rulesets.core.contract import Say
from rulesets.core.drawing import canvas, fit, text, text_width

from ..data import CARDS, DAYS, TRICKS
from ..rules import OFF_SLOT, corner, kind, links_of, slot_number
from ..state import Card
from . import style
from .style import FAINT, GOLD, INK, LIT, SOFT, WHITE

CARD_W, CARD_H = 160, 262
DX, DY, HALF = 70, 62, 28  # slot spacing and a marker's half-diagonal, at scale 1


def slot_centre(x: float, y: float, slot: str, s: float) -> tuple[float, float]:
    col, row = (int(v) for v in slot.split("."))
    return x + CARD_W * s / 2 + (col - 0.5) * DX * s, y + 70 * s + row * DY * s


def corners(m: dict[str, Any]) -> list[str]:
    """The category each tip of a marker shows (up, right, down, left)."""
    own = TRICKS[m["t"]].category
    return [corner(own, m["d"], direction) for direction in range(4)]


def formed_links(card: dict[str, Any]) -> set[int]:
    model = Card.model_validate(card)
    return {li for slot in model.m for li in links_of(model, slot)}


def draw_card(image: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, index: int, card: dict[str, Any],
              letters: Sequence[str], say: Say, s: float = 1.0, spots: Sequence[tuple[str, int, int]] = (),
              leaving: str | None = None) -> None:
    """One performance card at (x, y), scale `s`. `spots`: (slot, direction, links) a marker may be
    set up at — then every free slot shows its number (the buttons' numbers) and each direction
    the links it would form; `leaving`: the slot a rescheduled marker leaves (drawn faded)."""
    data = CARDS[card["id"]]
    w, h = CARD_W * s, CARD_H * s
    style.panel(d, (x, y, x + w, y + h), fill=style.CARD, outline=INK, width=2 if spots else 1, radius=int(10 * s))
    # header: the card's number (as the buttons say it), its theater and id
    r = 12 * s
    d.ellipse((x + 6 * s, y + 6 * s, x + 6 * s + 2 * r, y + 6 * s + 2 * r), fill=INK)
    text(image, (x + 6 * s + r, y + 6 * s + r), str(index + 1), int(15 * s), WHITE, bold=True, anchor="mm")
    venue = say(msg(f"trickerion.picture.venue.{data.theater}"))
    text(image, (x + 12 * s + 2 * r, y + 8 * s), fit(venue, int(11 * s), w - 18 * s - 2 * r, True), int(11 * s), INK,
         bold=True)
    text(image, (x + 12 * s + 2 * r, y + 23 * s), data.id, int(10 * s), SOFT)
    marks = card.get("m", {})
    lit = formed_links(card)
    free_numbers = bool(spots)
    # the slots (empty diamonds) and the markers on them
    for slot in data.slots:
        cx, cy = slot_centre(x, y, slot, s)
        hh = HALF * s
        m = marks.get(slot)
        if m is None or slot == leaving:
            d.polygon([(cx, cy - hh), (cx + hh, cy), (cx, cy + hh), (cx - hh, cy)], fill=style.PAPER, outline=FAINT,
                      width=2)
            if free_numbers and m is None or slot == leaving:
                text(image, (cx, cy - (HALF * s * 0.2 if spots else 0)), str(slot_number(card["id"], slot)),
                     int(18 * s), INK if spots else SOFT, bold=True, anchor="mm")
        if m is not None and slot != leaving:
            style.marker(image, d, cx, cy, hh, m["seat"], letters[m["seat"]], m["sym"], corners(m), m.get("n", 1))
    # link circles between neighbouring slots (drawn over the markers' tips, which touch them)
    for li, link in enumerate(data.links):
        (ax, ay), (bx, by) = (slot_centre(x, y, sl, s) for sl in link.between)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        rr = 8 * s
        if li in lit:
            d.ellipse((mx - rr - 2, my - rr - 2, mx + rr + 2, my + rr + 2), fill=LIT, outline=GOLD, width=3)
        else:
            d.ellipse((mx - rr, my - rr, mx + rr, my + rr), fill=WHITE, outline=SOFT, width=1)
        if link.shard:
            style.shard(d, mx, my, rr * 0.8)
    # where the marker being placed may go: under each slot's number, per direction the links it would form
    by_slot: dict[str, list[tuple[int, int]]] = {}
    for slot, direction, links in spots:
        by_slot.setdefault(slot, []).append((direction, links))
    for slot, options in by_slot.items():
        cx, cy = slot_centre(x, y, slot, s)
        line = "  ".join(say(msg(f"trickerion.dir.{direction}")) + str(links) for direction, links in sorted(options))
        size = int(10 * s)
        while size > 7 and text_width(line, size, True) > HALF * s * 1.5:
            size -= 1
        text(image, (cx, cy + HALF * s * 0.45), line, size, INK, bold=True, anchor="mm")
    off_slot = marks.get(OFF_SLOT)
    if off_slot is not None:  # a guest marker beside the slots (a special card's effect)
        ox, oy = x + w - 18 * s, y + 24 * s
        style.marker(image, d, ox, oy, 14 * s, off_slot["seat"], letters[off_slot["seat"]], off_slot["sym"],
                     corners(off_slot))
    # the performer's bonus printed at the bottom
    b = data.bonus
    label = say(msg("trickerion.picture.bonus"))
    text(image, (x + 8 * s, y + h - 16 * s), label, int(11 * s), SOFT, anchor="lm")
    style.yields(image, d, x + 12 * s + text_width(label, int(11 * s)), y + h - 16 * s, b.fame, b.coins, b.shards,
                 size=int(13 * s))


def draw_days(image: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, w: float, view: dict[str, Any],
              letters: Sequence[str], say: Say) -> None:
    """The weekday track: each day's holder, backstage spaces and performance space."""
    occ: dict[str, str] = view.get("occ", {})
    days: list[int | None] = view.get("days", [None] * len(DAYS))
    col = w / len(DAYS)
    for i, day in enumerate(DAYS):
        cx = x + col * i + col / 2
        holder = days[i] if i < len(days) else None
        top = y
        box = (x + col * i + 3, top, x + col * (i + 1) - 3, top + CARD_H)
        style.panel(d, box, fill=style.PANEL if holder is None else style.tint(holder), outline=FAINT)
        text(image, (cx, top + 14), say(msg(f"trickerion.picture.day.{day.key}")), 15, INK, bold=True, anchor="mm")
        ap = say(msg("trickerion.picture.ap", ap=f"{day.backstage_ap:+d}"))
        text(image, (cx, top + 32), fit(ap, 11, col - 10), 11, SOFT, bold=True, anchor="mm")
        if day.yield_:
            mods = say(msg("trickerion.picture.yield_mod", y=f"{day.yield_:+d}"))
            text(image, (cx, top + 47), fit(mods, 10, col - 10), 10, SOFT, anchor="mm")
        # backstage
        text(image, (cx, top + 64), fit(say(msg("trickerion.picture.backstage")), 11, col - 8), 11, SOFT,
             anchor="mm")
        spaces = [f"theater.{i}.b{k}" for k in range(day.backstage_spaces)]
        gap = (col - 12) / max(1, len(spaces))
        for k, key in enumerate(spaces):
            sx, sy = x + col * i + 6 + gap * k + gap / 2, top + 90
            _occupant(image, d, sx, sy, occ.get(key), letters, say)
        # the performance space (magicians only)
        py = top + 124
        performer = occ.get(f"theater.{i}.p")
        d.rounded_rectangle((x + col * i + 8, py, x + col * (i + 1) - 8, py + 82), radius=8, fill=WHITE,
                            outline=INK if performer else FAINT, width=2)
        text(image, (cx, py + 12), fit(say(msg("trickerion.picture.performs")), 10, col - 22), 10, SOFT, anchor="mm")
        _occupant(image, d, cx, py + 42, performer, letters, say, r=17)
        if holder is not None:
            who = say(msg("trickerion.picture.holder", player=seat(holder)))
            text(image, (cx, top + CARD_H - 22), fit(who, 12, col - 10, True), 12, INK, bold=True, anchor="mm")


def _occupant(image: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, who: str | None,
              letters: Sequence[str], say: Say, r: float = 14) -> None:
    if who is None:
        style.empty_space(d, x, y, r)
        return
    s, c = who.split(":", 1)
    seat = int(s)
    style.character(image, d, x, y, seat, letters[seat], tag(c, say), r=r)


def tag(char: str, say: Say) -> str:
    """A character's short kind label ("Mág", "Ger", "Apr 2")."""
    k = kind(char)
    if k == "apprentice":
        return say(msg("trickerion.picture.tag.apprentice_n", n=int(char[1:])))
    return say(msg(f"trickerion.picture.tag.{'magician' if k == 'magician' else char}"))


def legend(image: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, say: Say, size: int = 12) -> float:
    """The four categories' marks and names in a row (the colours of the markers' tips); returns the end x."""
    for cat in style.CATEGORY:
        style.category_mark(d, x + 8, y, 8, cat)
        name = say(msg(f"trickerion.cat.{cat}"))
        text(image, (x + 20, y), name, size, INK, anchor="lm")
        x += 34 + text_width(name, size, False)
    return x


SCALE = 1.7  # the private card picture: one card, big enough to read each slot and tip on a phone


def placement(view: dict[str, Any], index: int, names: Sequence[str], say: Say) -> Image.Image | None:
    """The card a marker is being set up on (`view["placing"]`), big, with every free slot numbered
    as the buttons number them and, at each direction offered, the links the marker would form."""
    row = view.get("row", [])
    if not 0 <= index < len(row) or row[index] is None:
        return None
    people = view.get("players", [])
    letters = style.letters([names[s] if s < len(names) else str(s + 1) for s in range(len(people))])
    placing = view.get("placing") or {}
    mine = placing.get("card") == index
    spots = [tuple(sp) for sp in placing.get("spots", [])] if mine else []
    w, h = int(CARD_W * SCALE) + 330, int(CARD_H * SCALE) + 24
    image, d = canvas(w, h, style.PAPER)
    draw_card(image, d, 12, 12, index, row[index], letters, say, s=SCALE, spots=spots,
              leaving=placing.get("leaving") if mine else None)
    x = int(CARD_W * SCALE) + 30
    y = 20
    if mine:
        trick = say(msg(f"trickerion.trick.{placing['t']}"))
        cat = TRICKS[placing["t"]].category
        text(image, (x, y + 10), say(msg("trickerion.picture.placing")), 13, SOFT, bold=True, anchor="lm")
        style.category_mark(d, x + 12, y + 40, 12, cat)
        text(image, (x + 30, y + 40), fit(trick, 16, w - x - 40, True), 16, INK, bold=True, anchor="lm")
        style.marker(image, d, x + 40, y + 104, 34, placing["seat"], letters[placing["seat"]], placing["sym"],
                     [corner(cat, 0, k) for k in range(4)])
        explained = say(msg("trickerion.picture.own_corner", category=say(msg(f"trickerion.cat.{cat}"))))
        for k, part in enumerate(_wrap(explained, 12, w - x - 96)[:3]):
            text(image, (x + 86, y + 88 + k * 17), part, 12, INK, anchor="lm")
        y += 160
        for line in ("trickerion.picture.how_numbers", "trickerion.picture.how_links",
                     "trickerion.picture.how_match"):
            for part in _wrap(say(msg(line)), 12, w - x - 14):
                text(image, (x, y), part, 12, INK, anchor="lm")
                y += 17
            y += 8
    y = max(y + 8, h - 150)
    text(image, (x, y), say(msg("trickerion.picture.categories")), 12, SOFT, bold=True, anchor="lm")
    for k, cat in enumerate(style.CATEGORY):
        style.category_mark(d, x + 10, y + 24 + k * 24, 9, cat)
        text(image, (x + 26, y + 24 + k * 24), say(msg(f"trickerion.cat.{cat}")), 12, INK, anchor="lm")
    return image


def _wrap(s: str, size: int, width: float) -> list[str]:
    """Greedy word wrap by rendered width."""
    lines: list[str] = []
    line = ""
    for word in s.split():
        trial = f"{line} {word}".strip()
        if line and text_width(trial, size, False) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + ([line] if line else [])
