"""The header (round, phase, initiative order) and the places around the Theater: Downtown with its
six dice, the Market row (Buy, Orders, Quick Order), and with the Dark Alley its spaces and special
decks and the prophecy track."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from rulesets.core import msg
from rulesets.core.contract import Say
from rulesets.core.drawing import fit, text, text_width

from ..dark_alley.facts import ALLEY
from ..data import BOARD, COMPONENTS
from . import style
from .style import FAINT, INK, SOFT, WHITE
from .theater import tag

DIE = 40
SETUP_PHASES = ("magician", "start")  # before round 1 (as the status text's heading says)


def header(image: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, w: float, view: dict[str, Any],
           names: Sequence[str], letters: Sequence[str], say: Say) -> None:
    """'Rodada 3/7 — Fase de Alocar Personagens' and the initiative order as numbered discs."""
    if view.get("phase") in SETUP_PHASES:  # there is no round 0: the table is being set up
        rnd = say(msg("trickerion.picture.setup", count=view.get("rounds", 0)))
    else:
        rnd = say(msg("trickerion.picture.round", round=view.get("round", 0), rounds=view.get("rounds", 0)))
    phase = say(msg(f"trickerion.phase.{view.get('phase', 'round')}"))
    text(image, (x, y + 20), rnd, 24, INK, bold=True, anchor="lm")
    px = x + text_width(rnd, 24, True) + 12
    text(image, (px, y + 21), "—", 19, SOFT, bold=True, anchor="lm")
    px += 28
    text(image, (px, y + 21), fit(phase, 19, w * 0.5 - px, True), 19, SOFT, bold=True, anchor="lm")
    order: list[int] = view.get("order") or []
    spaces: list[int] = view.get("spaces") or list(range(1, len(order) + 1))
    if not order:
        return
    label = say(msg("trickerion.picture.initiative"))
    step = 150
    ox = x + w - step * len(order)
    text(image, (ox - 10, y + 20), label, 14, SOFT, bold=True, anchor="rm")
    for i, s in enumerate(order):
        cx = ox + i * step
        num = spaces[i] if i < len(spaces) else i + 1
        text(image, (cx + 6, y + 20), say(msg("trickerion.picture.ordinal", n=num)), 14, INK, bold=True, anchor="lm")
        style.disc(image, d, cx + 42, y + 20, 15, s, letters[s])
        text(image, (cx + 62, y + 20), fit(names[s] if s < len(names) else "?", 14, step - 70, True), 14, INK,
             bold=True, anchor="lm")


def _spaces(image: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, w: float, loc: str,
            spaces: Sequence[dict[str, int]], n: int, occ: dict[str, str], letters: Sequence[str], say: Say) -> None:
    """A place's character spaces in a row, each with its AP modifier."""
    step = w / max(1, len(spaces))
    for i, sp in enumerate(spaces):
        cx = x + step * i + step / 2
        who = occ.get(f"{loc}.{i}")
        text(image, (cx, y), say(msg("trickerion.picture.ap", ap=f"{sp['ap']:+d}")), 11, SOFT, bold=True,
             anchor="mm")
        if who is None:
            style.empty_space(d, cx, y + 22, 14, closed=sp["from_players"] > n)
        else:
            s, c = who.split(":", 1)
            style.character(image, d, cx, y + 22, int(s), letters[int(s)], tag(c, say))


def _die(image: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, face: str | None, say: Say) -> None:
    d.rounded_rectangle((x, y, x + DIE, y + DIE), radius=8, fill=WHITE, outline=INK, width=2)
    cx, cy = x + DIE / 2, y + DIE / 2
    if face is None:
        return
    if face == "X":
        text(image, (cx, cy), "✕", 24, FAINT, bold=True, anchor="mm")
    elif face == "any":
        text(image, (cx, cy), "?", 26, INK, bold=True, anchor="mm")
    elif face in style.CATEGORY:
        style.category_mark(d, cx, cy, 15, face)
    elif face.isdigit():
        style.coin(d, cx, cy, 16)
        text(image, (cx, cy), face, 16, INK, bold=True, anchor="mm")
    else:  # a character the Inn offers
        text(image, (cx, cy - 1), fit(say(msg(f"trickerion.picture.tag.{face}")), 12, DIE - 4, True), 12, INK,
             bold=True, anchor="mm")


def downtown(image: Image.Image, d: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
             view: dict[str, Any], letters: Sequence[str], say: Say) -> None:
    x0, y0, x1, y1 = box
    style.panel(d, box)
    style.title(image, x0 + 10, y0 + 8, say(msg("trickerion.loc.downtown")))
    dice = view.get("dice", {})
    groups = (("residence", ("r0", "r1")), ("inn", ("i0", "i1")), ("bank", ("b0", "b1")))
    gw = (x1 - x0 - 20) / 3
    for g, (key, ids) in enumerate(groups):
        gx = x0 + 10 + g * gw + (gw - 2 * DIE - 6) / 2
        for k, die in enumerate(ids):
            _die(image, d, gx + k * (DIE + 6), y0 + 36, dice.get(die), say)
        text(image, (x0 + 10 + g * gw + gw / 2, y0 + 36 + DIE + 10), fit(say(msg(f"trickerion.picture.{key}")), 11,
             gw - 4), 11, SOFT, anchor="mm")
    spaces = [sp.model_dump() for sp in BOARD.locations["downtown"].spaces]
    _spaces(image, d, x0 + 10, y0 + 112, x1 - x0 - 20, "downtown", spaces, len(view.get("players", [])),
            view.get("occ", {}), letters, say)


def _component(image: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, w: float, comp: str | None,
               say: Say, h: float = 24) -> None:
    if comp is None:
        d.rounded_rectangle((x, y, x + w, y + h), radius=6, fill=style.PAPER, outline=FAINT)
        return
    tier = COMPONENTS[comp].tier if comp in COMPONENTS else "basic"
    d.rounded_rectangle((x, y, x + w, y + h), radius=6, fill=WHITE, outline=style.TIER[tier], width=3)
    name, size = style.sized(say(msg(f"trickerion.comp.{comp}")), (12, 11, 10), w - 6)
    text(image, (x + w / 2, y + h / 2), name, size, INK, anchor="mm")


def market(image: Image.Image, d: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
           view: dict[str, Any], letters: Sequence[str], say: Say) -> None:
    x0, y0, x1, y1 = box
    style.panel(d, box)
    style.title(image, x0 + 10, y0 + 8, say(msg("trickerion.loc.market")))
    label_w = 84
    rows = (("buy", view.get("stock", [])), ("orders", view.get("orders", [])))
    tile_w = (x1 - x0 - 30 - label_w) / 4 - 6
    for r, (key, comps) in enumerate(rows):
        ry = y0 + 34 + r * 30
        text(image, (x0 + 10, ry + 12), fit(say(msg(f"trickerion.picture.{key}")), 12, label_w - 4), 12, SOFT,
             anchor="lm")
        for i in range(4):
            comp = comps[i] if i < len(comps) else None
            _component(image, d, x0 + 10 + label_w + i * (tile_w + 6), ry, tile_w, comp, say)
    qy = y0 + 94
    text(image, (x0 + 10, qy + 12), fit(say(msg("trickerion.picture.quick")), 12, label_w + tile_w), 12, SOFT,
         anchor="lm")
    _component(image, d, x0 + 10 + label_w + 3 * (tile_w + 6), qy, tile_w, view.get("quick"), say)
    spaces = [sp.model_dump() for sp in BOARD.locations["market"].spaces]
    _spaces(image, d, x0 + 10, y0 + 140, x1 - x0 - 20, "market", spaces, len(view.get("players", [])),
            view.get("occ", {}), letters, say)


def alley(image: Image.Image, d: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
          view: dict[str, Any], letters: Sequence[str], say: Say) -> None:
    """The Beco Escuro: its four spaces and the four special decks (face down: their sizes)."""
    x0, y0, x1, y1 = box
    style.panel(d, box, fill=style.ALLEY_BG)
    style.title(image, x0 + 10, y0 + 8, say(msg("trickerion.loc.alley")))
    decks: dict[str, int] = view.get("special_decks", {})
    text(image, (x0 + 10, y0 + 40), say(msg("trickerion.picture.special_decks")), 11, SOFT, anchor="lm")
    dw = (x1 - x0 - 20) / max(1, len(decks))
    for i, (loc, n) in enumerate(decks.items()):
        cx = x0 + 10 + dw * i + dw / 2
        half = dw / 2 - 4
        d.rounded_rectangle((cx - half, y0 + 52, cx + half, y0 + 98), radius=5, fill=style.DECK, outline=INK)
        text(image, (cx, y0 + 68), str(n), 16, WHITE, bold=True, anchor="mm")
        label, size = style.sized(say(msg(f"trickerion.picture.deck.{loc}")), (10, 9, 8), 2 * half - 2)
        text(image, (cx, y0 + 87), label, size, style.DECK_INK, anchor="mm")
    _spaces(image, d, x0 + 10, y0 + 140, x1 - x0 - 20, "alley", ALLEY["spaces"], len(view.get("players", [])),
            view.get("occ", {}), letters, say)


def prophecies(image: Image.Image, d: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
               track: dict[str, Any], say: Say) -> None:
    """The prophecy track: the active one (rules this round), the pending ones (next first), the pile."""
    x0, y0, x1, y1 = box
    style.panel(d, box, fill=style.PROPHECY_BG)
    style.title(image, x0 + 10, y0 + 8, say(msg("trickerion.picture.prophecies")))
    text(image, (x1 - 10, y0 + 17), say(msg("trickerion.picture.pile", n=track.get("pile", 0))), 11, SOFT,
         anchor="rm")
    w = x1 - x0 - 20
    y = y0 + 34
    active = track.get("active")
    d.rounded_rectangle((x0 + 8, y, x1 - 8, y + 46), radius=6, fill=WHITE, outline=INK, width=2)
    text(image, (x0 + 16, y + 12), say(msg("trickerion.picture.active")), 11, SOFT, bold=True, anchor="lm")
    name = say(msg(f"trickerion.prophecy.{active}")) if active else say(msg("trickerion.prophecies.none"))
    text(image, (x0 + 16, y + 31), fit(name, 13, w - 12, True), 13, INK, bold=True, anchor="lm")
    y += 54
    text(image, (x0 + 10, y + 6), say(msg("trickerion.picture.pending")), 11, SOFT, bold=True, anchor="lm")
    for i, pid in enumerate(track.get("pending", [])[:4]):
        py = y + 24 + i * 21
        text(image, (x0 + 12, py), f"{i + 1}.", 12, SOFT, bold=True, anchor="lm")
        text(image, (x0 + 30, py), fit(say(msg(f"trickerion.prophecy.{pid}")), 12, w - 24), 12, INK, anchor="lm")
    if track.get("delayed"):
        text(image, (x0 + 10, y1 - 12), fit(say(msg("trickerion.picture.delayed")), 11, w), 11, SOFT, anchor="lm")


def waiting_seat(view: dict[str, Any]) -> list[int]:
    """Whom the table waits on, as the status says it (every unready player while assigning)."""
    if view.get("phase") == "assign":
        return [s for s, p in enumerate(view.get("players", [])) if not p.get("ready")]
    turn = view.get("turn")
    return [turn] if isinstance(turn, int) and view.get("phase") != "over" else []

