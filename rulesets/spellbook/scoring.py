"""Fim da Partida (p.9): each learned spell's points at its token's level, the Familiar's
lowest visible value, the variable spells; ties go to more spells, then more pool materia,
then are shared. Solo: against the opponent's track + bottom area; a tie means nobody wins."""

from __future__ import annotations

from rulesets.core import FinalScore, RivalScore, ScoreLine, SeatScore, msg
from rulesets.spellbook.data import (
    FAMILIAR,
    FAMILIAR_SPACES,
    NCOL,
    NRUNE,
    SPELL_COLOUR,
    SPELLS,
    TRACK,
    TRACK_SPACES,
)
from rulesets.spellbook.state import SEATS, SPELL_NAMES, State

# Points by the Materia stored on the Familiar and by those placed on the solo track (data.py's
# spaces), the last entry for a full one: the judgement reads them for every simulated position.
FAMILIAR_POINTS = [*FAMILIAR.spaces, FAMILIAR.full]
TRACK_POINTS = [*TRACK.spaces, TRACK.full]


def familiar_points(stored: int) -> int:
    """The Familiar's lowest visible value with `stored` Materia on it."""
    return FAMILIAR_POINTS[min(stored, FAMILIAR_SPACES)]


def track_points(placed: int) -> int:
    """The solo track's points with `placed` Materia on it."""
    return TRACK_POINTS[min(placed, TRACK_SPACES)]


def seat_lines(st: State, p: int) -> list[ScoreLine]:
    pl = st.players[p]
    lines = []
    for c in range(NCOL):
        if pl.lv[c]:
            spell = st.spells[c]
            lines.append(ScoreLine(label=msg("spellbook.score.spell", spell=SPELL_NAMES[spell], level=pl.lv[c]),
                                   points=SPELLS[spell].points_at(pl.lv[c])))
    lines.append(ScoreLine(label=msg("spellbook.score.familiar", count=len(pl.fam)),
                           points=familiar_points(len(pl.fam))))
    lines += bonus_lines(st, p)
    return lines


def seat_points(st: State, p: int) -> int:
    """The total of seat_lines without building them (the AI evaluates thousands of positions)."""
    pl = st.players[p]
    spells = sum(SPELLS[st.spells[c]].points_at(pl.lv[c]) for c in range(NCOL) if pl.lv[c])
    return spells + familiar_points(len(pl.fam)) + sum(b[3] for b in bonuses(st, p))


def bonuses(st: State, p: int) -> list[tuple[str, int, int, int]]:
    """The variable spells' end-game points: (spell, level, count, points)."""
    pl = st.players[p]
    out = []
    level = st.has(p, "knowledge")
    if level:  # Conhecimento: per other learned spell (level 4: by that spell's final level)
        mine = SPELL_COLOUR["knowledge"]
        others = [pl.lv[c] for c in range(NCOL) if c != mine and pl.lv[c]]
        if level == 3:
            pts = len(others)
        elif level == 4:
            pts = sum(2 if lv >= 4 else 1 for lv in others)
        else:
            pts = 2 * len(others)
        out.append(("knowledge", level, len(others), pts))
    if st.has(p, "feast") == 5:  # Banquete 5: +1 per different colour on the Familiar
        colours = len({k // NRUNE for k in pl.fam})
        out.append(("feast", 5, colours, colours))
    if st.has(p, "communion") == 4:  # Comunhão 4: +1 per stored materia with the card's rune
        rune = pl.tok[SPELL_COLOUR["communion"]] % NRUNE
        same = sum(1 for k in pl.fam if k % NRUNE == rune)
        out.append(("communion", 4, same, same))
    return out


def bonus_lines(st: State, p: int) -> list[ScoreLine]:
    out = []
    for spell, level, count, points in bonuses(st, p):
        params = {"level": level, "count": count} if spell == "knowledge" else {"count": count}
        out.append(ScoreLine(label=msg(f"spellbook.score.{spell}", **params), points=points))
    return out


def track_score(st: State) -> int:
    """The solo opponent's total (opponent_score's, without building its lines)."""
    return track_points(len(st.opp)) + len(st.bottom)


def opponent_score(st: State) -> RivalScore:
    lines = [ScoreLine(label=msg("spellbook.score.track", count=len(st.opp)), points=track_points(len(st.opp))),
             ScoreLine(label=msg("spellbook.score.bottom", count=len(st.bottom)), points=len(st.bottom))]
    return RivalScore(label=msg("spellbook.score.opponent"), total=sum(x.points for x in lines), lines=lines)


def final_score(st: State) -> FinalScore:
    seats = []
    for p in range(len(st.players)):
        lines = seat_lines(st, p)
        seats.append(SeatScore(seat=p, total=sum(x.points for x in lines), lines=lines))
    reason = st.ending or "unfinished"
    if st.solo:
        rival = opponent_score(st)
        me = seats[0].total
        notes = [msg("spellbook.score.solo_tie")] if me == rival.total else []
        return FinalScore(seats=seats, winners=[0] if me > rival.total else [], end_reason=reason,
                          rivals=[rival], notes=notes)
    winners, notes = tie_break(st, seats)
    return FinalScore(seats=seats, winners=winners, end_reason=reason, notes=notes)


def tie_break(st: State, seats: list[SeatScore]):
    best = max(s.total for s in seats)
    tied = [s.seat for s in seats if s.total == best]
    notes = []
    if len(tied) > 1:
        learned = {p: sum(1 for lv in st.players[p].lv if lv) for p in tied}
        most = max(learned.values())
        tied = [p for p in tied if learned[p] == most]
        notes.append(msg("spellbook.score.tie_spells", players=[_name(p) for p in tied], count=most))
        if len(tied) > 1:
            pools = {p: len(st.players[p].pool) for p in tied}
            most = max(pools.values())
            tied = [p for p in tied if pools[p] == most]
            notes.append(msg("spellbook.score.tie_pool", players=[_name(p) for p in tied], count=most))
            if len(tied) > 1:
                notes.append(msg("spellbook.score.tie_shared"))
    return tied, notes


def _name(p: int):
    return msg("spellbook.seat", player=SEATS[p])
