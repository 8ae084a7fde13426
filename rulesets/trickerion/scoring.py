"""Pontuação final after the last round: 1 Fame per Shard, per 3 coins, 2 per apprentice, 3 per
specialist, each category capped at 20; ties go to the player ahead in initiative order."""

from __future__ import annotations

from rulesets.core import FinalScore, ScoreLine, SeatScore, msg, seat

from . import hooks
from .data import BOARD
from .state import State

S = BOARD.scoring


def lines(state: State, s: int) -> list[ScoreLine]:
    p = state.p[s]
    cap = S["cap"]
    out = [ScoreLine(label=msg("trickerion.score.fame"), points=p.fame)]
    items = [
        ("shards", p.shards, p.shards * S["per_shard"]),
        ("coins", p.coins, p.coins // S["coins_per_fame"]),
        ("apprentices", len(p.apps), len(p.apps) * S["per_apprentice"]),
        ("specialists", len(p.specs), len(p.specs) * S["per_specialist"]),
    ]
    keys = [key for key, _c, _p in items]
    for m in hooks.active(state):
        keys = m.base_score_items(state, keys)
    for key, count, points in (x for x in items if x[0] in keys):
        out.append(ScoreLine(label=msg(f"trickerion.score.{key}", count=count), points=min(cap, points)))
    for m in hooks.active(state):
        out += m.score_lines(state, s)
    return out


def final(state: State) -> FinalScore:
    seats = [SeatScore(seat=s, total=sum(x.points for x in ls), lines=ls)
             for s, ls in ((s, lines(state, s)) for s in range(state.n))]
    best = max(x.total for x in seats)
    tied = [x.seat for x in seats if x.total == best]
    winner = min(tied, key=state.order.index)
    notes = [msg("trickerion.score.tiebreak")]
    if len(tied) > 1:
        notes.append(msg("trickerion.score.tie_won", players=[msg("trickerion.seat", player=seat(t)) for t in tied],
                         winner=seat(winner)))
    return FinalScore(seats=seats, winners=[winner], end_reason="rounds", notes=notes)
