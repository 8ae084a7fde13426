"""Spellbook's end-of-game picture (`Game.summary_picture`), in the frame every game shares
(rulesets/core/summary_picture.py): each player's score by spell and Familiar, then under it the 7
spells with the level each was learned at and the Familiar's stored Materia, from the final public
view; the points as they stood at the end of every round of Days. Labels: `spellbook.summary.*`."""

from __future__ import annotations

from collections.abc import Sequence

from rulesets.core import msg
from rulesets.core.contract import Say
from rulesets.core.drawing import fit_text, font
from rulesets.core.summary import Summary
from rulesets.core.summary_picture import FAINT, INK, draw
from rulesets.spellbook.picture import COLOURS, FAMILIAR_SPACES, _spell_colour, _token

DETAIL = 34


def summary_picture(summary: Summary, names: Sequence[str], say: Say) -> bytes:
    view = summary.view
    spells = list(view.get("spells", []))
    players = {p.get("seat"): p for p in view.get("players", [])}

    def detail(d, seat: int, x: int, y: int, width: int) -> None:
        p = players.get(seat, {})
        learned = p.get("spells", {})
        chip = 62
        for i, spell in enumerate(spells):
            x0 = x + i * (chip + 4)
            colour = COLOURS[_spell_colour(spell, spells)]
            info = learned.get(spell)
            edge = "#8c8c8c" if colour == COLOURS["white"] else colour
            d.rectangle((x0, y, x0 + chip, y + 26), fill=colour if info else "#ffffff", outline=edge, width=2)
            light = _spell_colour(spell, spells) in ("white", "yellow")
            ink = INK if (not info or light) else "#ffffff"
            name = fit_text(d, say(msg(f"spellbook.spell.{spell}.name")), 10, chip - 6)
            d.text((x0 + 3, y + 2), name, font=font(10), fill=ink)
            if info:
                d.text((x0 + 3, y + 12), say(msg("spellbook.summary.level", level=info.get("level", 0))),
                       font=font(11, True), fill=ink)
        fx = x + len(spells) * (chip + 4) + 10
        fam = p.get("familiar", [])
        d.text((fx, y - 2), say(msg("spellbook.summary.familiar", count=len(fam), spaces=FAMILIAR_SPACES)),
               font=font(11), fill=INK)
        for i in range(FAMILIAR_SPACES):
            cx = fx + 6 + i * 13
            if cx + 6 > x + width:
                break
            if i < len(fam):
                _token(d, cx, y + 20, 6, fam[i])
            else:
                d.ellipse((cx - 5, y + 15, cx + 5, y + 25), outline=FAINT)

    return draw(summary, names, say, msg("spellbook.summary.title"), detail, DETAIL)
