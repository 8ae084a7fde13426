"""Spellbook's table picture, from `Game.view(state, None)`: the Altar, the bag, and for each
player their pool, their Familiar (14 spaces, points) and the 7 spells with the level each
was learned at; in solo, the opponent's track. Labels: `spellbook.picture.*` through `say`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulesets.core import msg
from rulesets.core.contract import Say
from rulesets.core.drawing import canvas, encode, fit_text, font

WIDTH = 860
COLOURS = {
    "red": "#c9372c", "purple": "#7b3f9e", "green": "#2f8f4e", "black": "#2a2a2a",
    "white": "#f7f7f2", "blue": "#2d68b2", "yellow": "#e2b420",
}
ORDER = ["red", "purple", "green", "black", "white", "blue", "yellow"]
INK = "#2b2118"
FAINT = "#b9ad97"
PANEL = "#fbf8f1"
FAMILIAR_SPACES = 14
TRACK_SPACES = 17


def _token(d, x: int, y: int, r: int, kind: str) -> None:
    """A Materia: a disc of its colour with its rune (circle, triangle, square) on it."""
    colour, _, rune = kind.partition("_")
    fill = COLOURS.get(colour, "#888888")
    d.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=INK, width=1)
    mark = INK if colour in ("white", "yellow") else "#ffffff"
    s = r * 0.45
    if rune == "circle":
        d.ellipse((x - s, y - s, x + s, y + s), outline=mark, width=2)
    elif rune == "triangle":
        d.polygon([(x, y - s), (x - s, y + s * 0.8), (x + s, y + s * 0.8)], outline=mark, width=2)
    elif rune == "square":
        d.rectangle((x - s * 0.85, y - s * 0.85, x + s * 0.85, y + s * 0.85), outline=mark, width=2)


def _tokens(d, x: int, y: int, kinds: Sequence[str], r: int = 11, gap: int = 4, limit: int = 20) -> int:
    for i, kind in enumerate(kinds[:limit]):
        _token(d, x + r + i * (2 * r + gap), y + r, r, kind)
    return x + len(kinds[:limit]) * (2 * r + gap)


def _spell_colour(spell: str, spells: Sequence[str]) -> str:
    return ORDER[spells.index(spell)] if spell in spells and spells.index(spell) < len(ORDER) else "black"


def draw(view: dict[str, Any], names: Sequence[str], say: Say) -> bytes:
    players = view.get("players", [])
    solo = view.get("solo")
    spells = list(view.get("spells", []))
    row_h = 138
    height = 96 + row_h * len(players) + (70 if solo else 0) + 10
    image, d = canvas(WIDTH, height)
    # -- header: Altar, bag, whose Day and which phase
    d.rectangle((10, 10, WIDTH - 10, 86), fill=PANEL, outline=FAINT)
    d.text((22, 16), say(msg("spellbook.picture.altar")), font=font(18, True), fill=INK)
    altar = view.get("altar", [])
    _tokens(d, 22, 44, altar, r=13, gap=5, limit=14)
    bag = say(msg("spellbook.picture.bag", count=view.get("bag", 0)))
    d.text((WIDTH - 24, 18), bag, font=font(15), fill=INK, anchor="ra")
    current = view.get("day_player")
    phase = view.get("phase") or ""
    if view.get("over"):
        status = say(msg("spellbook.picture.over"))
    else:
        phase_name = say(msg(f"spellbook.phase.{phase}")) if phase else ""
        who = names[current] if isinstance(current, int) and current < len(names) else "?"
        status = f"{who} · {phase_name}"
    d.text((WIDTH - 24, 44), fit_text(d, status, 16, 300, True), font=font(16, True), fill=INK, anchor="ra")
    # -- one band per player
    y = 96
    for p in players:
        seat = p.get("seat", 0)
        playing = seat == current and not view.get("over")
        d.rectangle((10, y, WIDTH - 10, y + row_h - 8), fill=PANEL, outline=INK if playing else FAINT,
                    width=3 if playing else 1)
        who = names[seat] if seat < len(names) else f"#{seat + 1}"
        d.text((22, y + 8), fit_text(d, who, 17, 300, True), font=font(17, True), fill=INK)
        # pool
        pool = p.get("pool", [])
        d.text((330, y + 10), f"{len(pool)}/9", font=font(14), fill=INK)
        _tokens(d, 372, y + 6, pool, r=10, gap=3, limit=9)
        # familiar: 14 spaces, filled in order, points = lowest visible value
        fam = p.get("familiar", [])
        fx, fy = 22, y + 38
        for i in range(FAMILIAR_SPACES):
            x0 = fx + i * 27
            d.rectangle((x0, fy, x0 + 24, fy + 24), outline=FAINT, fill="#ffffff")
            if i < len(fam):
                _token(d, x0 + 12, fy + 12, 10, fam[i])
        points = say(msg("spellbook.points", count=p.get("familiar_points", 0)))
        d.text((fx + FAMILIAR_SPACES * 27 + 6, fy + 3), points, font=font(15, True), fill=INK)
        # the 7 spells: learned ones show their level (3-5) and the rune of their token
        learned = p.get("spells", {})
        sx, sy, sw = 22, y + 72, (WIDTH - 44) // max(1, len(spells) or 7)
        for i, spell in enumerate(spells or [""] * 7):
            x0 = sx + i * sw
            colour = COLOURS[_spell_colour(spell, spells)] if spell else FAINT
            info = learned.get(spell) if spell else None
            edge = "#8c8c8c" if colour == COLOURS["white"] else colour
            d.rectangle((x0, sy, x0 + sw - 6, sy + 52), fill=colour if info else "#ffffff", outline=edge, width=2)
            ink = INK if (not info or _spell_colour(spell, spells) in ("white", "yellow")) else "#ffffff"
            label = say(msg(f"spellbook.spell.{spell}.name")) if spell else "?"
            d.text((x0 + 5, sy + 4), fit_text(d, label, 12, sw - 14), font=font(12), fill=ink)
            if info:
                d.text((x0 + 5, sy + 22), f"{info.get('level', '')}", font=font(22, True), fill=ink)
                rune = info.get("rune", "")
                _token(d, x0 + sw - 20, sy + 36, 8, f"{_spell_colour(spell, spells)}_{rune}")
        y += row_h
    # -- solo: the opponent's track and bottom area
    if solo:
        d.rectangle((10, y, WIDTH - 10, y + 62), fill=PANEL, outline=FAINT)
        d.text((22, y + 6), say(msg("spellbook.picture.opponent")), font=font(15, True), fill=INK)
        track = solo.get("track", [])
        for i in range(TRACK_SPACES):
            x0 = 22 + i * 27
            d.rectangle((x0, y + 30, x0 + 24, y + 54), outline=FAINT, fill="#ffffff")
            if i < len(track):
                _token(d, x0 + 12, y + 42, 10, track[i])
        # its points, and where they come from ("0 + 0" alone did not say)
        track_points, bottom = solo.get("track_points", 0), len(solo.get("bottom", []))
        d.text((WIDTH - 24, y + 8), say(msg("spellbook.picture.opponent_points", track=track_points, bottom=bottom)),
               font=font(13), fill=INK, anchor="ra")
        d.text((22 + TRACK_SPACES * 27 + 8, y + 32), say(msg("spellbook.points", count=track_points + bottom)),
               font=font(15, True), fill=INK)
    return encode(image)
