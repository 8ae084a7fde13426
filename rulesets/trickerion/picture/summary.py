"""Trickerion's end-of-game picture (`Game.summary_picture`), in the frame every game shares
(rulesets/core/summary_picture.py): each player's final Fame as a bar of where it came from — the Fame
of the game by source (ledger.py: the start, Propaganda, the tricks' Rendimentos, links, the performer's
card and Specialist bonuses, wages unpaid, the Dark Alley's cards, powers and prophecies), then the
end-of-game scoring by category (PT p.20: Shards, coins, apprentices, specialists, special cards in
hand, level-3 tricks' bonuses) — with the magician, the Specialists and the tricks under it, and the
Fame at the end of every round as a chart. Drawn from the Summary alone: the final scores and the final
public view. Labels: `trickerion.picture.final.*` and the score lines' `<key>.sum`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from rulesets.core import msg
from rulesets.core.contract import Say, ScoreLine, SeatScore
from rulesets.core.drawing import fit_text, font
from rulesets.core.summary import Summary
from rulesets.core.summary_picture import INK, draw

from ..data import MAGICIANS
from ..ledger import SOURCES
from . import style

FAME_LINE = "trickerion.score.fame"  # the Fame on the track when the game ended: the sources split it
DETAIL = 34  # two lines: the magician and the Specialists, then the tricks


def breakdown(score: SeatScore, sources: dict[str, int] | None) -> SeatScore:
    """The seat's score as the picture shows it: the Fame of the game by source, when the view has them
    and they add up to it, then each end-of-game category once (a category scored twice, such as two
    level-3 tricks' bonuses, is summed) under its short name."""
    fame = sum(line.points for line in score.lines if line.label.key == FAME_LINE)
    split = sources is not None and sum(sources.get(k, 0) for k in SOURCES) == fame
    lines = [ScoreLine(label=msg(f"trickerion.picture.final.{k}"), points=sources[k])
             for k in SOURCES if split and sources.get(k)]  # type: ignore[union-attr]
    merged: dict[str, int] = {}
    for line in score.lines:
        if not (split and line.label.key == FAME_LINE):
            merged[line.label.key] = merged.get(line.label.key, 0) + line.points
    lines += [ScoreLine(label=msg(f"{key}.sum"), points=points) for key, points in merged.items()]
    return SeatScore(seat=score.seat, total=score.total, lines=lines)


def _player(view: dict[str, Any], seat: int) -> dict[str, Any]:
    players = view.get("players") or []
    return players[seat] if seat < len(players) else {}


def summary_picture(summary: Summary, names: Sequence[str], say: Say) -> bytes:
    view = summary.view
    sources = view.get("fame_from") or []
    seats = [breakdown(s, sources[s.seat] if s.seat < len(sources) else None) for s in summary.score.seats]
    shown = summary.model_copy(update={"score": summary.score.model_copy(update={"seats": seats})})

    def detail(d: ImageDraw.ImageDraw, seat: int, x: int, y: int, width: int) -> None:
        p = _player(view, seat)
        first = []
        mag = p.get("magician")
        if mag:
            style.category_mark(d, x + 6, y + 7, 6, MAGICIANS[mag].category)
            first.append(say(msg(f"trickerion.magician.{mag}")))
        specs = [say(msg(f"trickerion.char.{c}")) for c in p.get("specs") or []]
        if specs:
            first.append(say(msg("trickerion.picture.final.specialists", names=", ".join(specs))))
        indent = 18 if mag else 0
        d.text((x + indent, y), fit_text(d, " · ".join(first), 12, width - indent), font=font(12, True), fill=INK)
        tricks = [say(msg(f"trickerion.trick.{o['t']}")) for o in p.get("tricks") or []]
        line = say(msg("trickerion.picture.final.tricks", names=", ".join(tricks))) if tricks else \
            say(msg("trickerion.picture.final.no_tricks"))
        d.text((x, y + 16), fit_text(d, line, 12, width), font=font(12), fill=INK)

    return draw(shown, names, say, msg("trickerion.picture.final.title"), detail, DETAIL,
                points="trickerion.picture.final.fame", per_round=msg("trickerion.picture.final.per_round"),
                seat_colours=style.PLAYERS)
