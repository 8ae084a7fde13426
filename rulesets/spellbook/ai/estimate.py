"""The evaluation at a cut: each seat's estimated final points, and the solo opponent's.

    final ≈ points now (spells, Familiar, end-game bonuses: scoring.seat_points)
          + the Familiar's points at the space it will reach, not the one it is on (it scores its
            lowest visible space, so a store is worth what it adds at the end)
          + the spells the pool is collecting for (`plans`)
          + the other Materia of the pool (Familiar food, wilds)
          + the Days left × a growth rate, raised by the learned spells: Sacrifício adds to every
            later Morning's income, Oferenda to every Midday's storing (data/ai.yaml)

Days left are exact once the end is triggered (the round is finished); before, the nearest
end in sight: a Familiar filling at its owner's storing rate, a seventh spell, the solo
track's last space — and in solo the player may also fill its Familiar early, when ending
sooner against a lower track scores better.
"""

from __future__ import annotations

import math

from rulesets.spellbook.ai.beliefs import BASE, POINTS, SPELL_BELIEFS, WEIGHTS
from rulesets.spellbook.data import FAMILIAR_SPACES, NCOL, NRUNE, TRACK_SPACES
from rulesets.spellbook.scoring import familiar_points, seat_points, track_points
from rulesets.spellbook.state import DUSK, MIDDAY, MORNING, NIGHT, State

SOLO_TRUST = 0.6  # solo: the share of its own projection a player counts on against the track (solo_lead)
MATERIA_POINT = 0.55  # a Materia's worth, for a spell's extra income or storing after it is learned
COST = 0.6  # what spending one more Materia on a higher level gives up (a Familiar space later)
SURE_NOW = 0.95  # a spell the pool pays for now is nearly points
SURE_LATER = 0.7  # one whose colour is still to be collected
# per spell: points, engine points a Day, income, storing (each by level 3-5), precomputed
_GAIN = {spell: (POINTS[spell], tuple(e + MATERIA_POINT * b for e, b in zip(belief.engine, belief.bonus, strict=True)),
                 belief.income, belief.storing) for spell, belief in SPELL_BELIEFS.items()}
TODAY = {MORNING: (1, 1, 1), MIDDAY: (0, 1, 1), NIGHT: (0, 0, 1), DUSK: (0, 0, 0)}  # phases left today


_ECONOMIES: dict[tuple, tuple[float, float, float, float]] = {}  # by the spells and their levels
_ECONOMIES_KEPT = 100_000  # (a few MB at most; a worker's searches meet far fewer)


def economy(st: State, p: int) -> tuple[float, float, float, float]:
    """Seat p's income per Day, stores per Midday, stores per spare Night, other points per Day.
    Depends only on the spells in the game and the levels p learned them at: kept, since the
    judgement and the evaluation ask for it a dozen times per simulated move."""
    key = (*st.spells, *st.players[p].lv)
    found = _ECONOMIES.get(key)
    if found is None:
        if len(_ECONOMIES) >= _ECONOMIES_KEPT:
            _ECONOMIES.clear()
        found = _ECONOMIES[key] = _economy(st, p)
    return found


def _economy(st: State, p: int) -> tuple[float, float, float, float]:
    pl = st.players[p]
    income, bonus, storing, night, engine = BASE.income, 0.0, BASE.storing, 0.0, 0.0
    for c in range(NCOL):
        lv = pl.lv[c]
        if not lv:
            continue
        b, i = SPELL_BELIEFS[st.spells[c]], lv - 3
        if b.income:
            income = max(income, b.income[i])
        bonus += b.bonus[i]
        if b.storing:
            storing = max(storing, b.storing[i])
        if b.night_storing:
            night = max(night, b.night_storing[i])
        engine += b.engine[i]
    return income + bonus, storing, night, engine


def own_counts(st: State, p: int) -> list[int]:
    own = [0] * NCOL
    for k in st.players[p].pool:
        own[k // NRUNE] += 1
    return own


def _familiar_gain(have: int, more: float) -> float:
    """Familiar points for storing `more` (fractional: interpolated) on top of `have`."""
    more = max(0.0, min(more, FAMILIAR_SPACES - have))
    whole = int(more)
    low = familiar_points(have + whole)
    high = familiar_points(min(FAMILIAR_SPACES, have + whole + 1))
    return low + (high - low) * (more - whole) - familiar_points(have)


def spell_gain(st: State, p: int, spell: str, level: int, wait: float, days: float,
               economy_now: tuple[float, float, float, float]) -> float:
    """What learning `spell` at `level` after `wait` Days adds: its points, and for the Days
    after, its engine and whatever it adds to the Mornings' income or the Middays' storing."""
    points, per_day, income, storing = _GAIN[spell]
    i = level - 3
    rate = per_day[i]
    if income:
        rate += MATERIA_POINT * max(0.0, income[i] - economy_now[0])
    if storing:
        rate += MATERIA_POINT * max(0.0, storing[i] - economy_now[1])
    return points[i] + rate * max(0.0, days - wait - 1)


def days_left(st: State, p: int) -> float:
    today = TODAY.get(st.phase, (1, 1, 1)) if p == st.cur else (0, 0, 0)
    return whole_days(st)[p] + sum(today) / 3


def plan_value(st: State, p: int, spell: str, held: int, days: float,
               eco: tuple[float, float, float, float]) -> float:
    """What `held` Materia of an unlearned spell's colour are worth as that spell to come: nearly
    all of it at a level the pool already pays (held >= level), a share of it (held / level, less
    sure) at a level still to collect — the best of the three levels."""
    best = 0.0
    for level in (3, 4, 5):
        sure = SURE_NOW if held >= level else SURE_LATER * held / level
        best = max(best, sure * spell_gain(st, p, spell, level, 0, days, eco))
    return best


def plans(st: State, p: int, days: float, eco: tuple[float, float, float, float]) -> tuple[float, int]:
    """The plans of seat p's pool — one per unlearned colour it holds, as many as there are
    Nights left, the best first — and how many of its Materia no plan uses."""
    pl = st.players[p]
    own = own_counts(st, p)
    values = sorted(((plan_value(st, p, st.spells[c], own[c], days, eco), min(own[c], 5))
                     for c in range(NCOL) if own[c] and not pl.lv[c] and st.spells[c]), reverse=True)
    nights = max(0, math.ceil(days - 1e-9))
    chosen = values[:nights]
    return sum(v for v, _ in chosen), len(pl.pool) - sum(n for _, n in chosen)


def project(st: State, p: int, whole: float) -> float:
    """Points seat p will still add in `whole` Days after the current one (and what is left of it)."""
    w = WEIGHTS
    today = TODAY.get(st.phase, (1, 1, 1)) if p == st.cur else (0, 0, 0)
    days = whole + sum(today) / 3
    eco = economy(st, p)
    income, storing, night_store, engine = eco
    pl = st.players[p]
    # a Familiar scores its lowest visible space: what counts is the space it will end on
    familiar = _familiar_gain(len(pl.fam), min(len(pl.pool) + income * (whole + today[0]),
                                               w.store_share * storing * (whole + today[1])))
    planned, fodder = plans(st, p, days, eco)
    rate = w.growth + engine + w.income * (income - BASE.income) + w.night_storing * night_store
    return familiar + planned + w.pool * fodder + rate * days


def learn_gain(st: State, p: int, c: int, level: int, days: float | None = None,
               eco: tuple[float, float, float, float] | None = None) -> float:
    """What learning colour c's spell now at `level` adds to the evaluation: the spell, less the
    plan its colour was (estimate.plans) and the other Materia a wild takes. `days` and `eco`:
    seat p's `days_left` and `economy`, when the caller has them already."""
    if days is None:
        days = days_left(st, p)
    if eco is None:
        eco = economy(st, p)
    spell = st.spells[c]
    held = own_counts(st, p)[c]
    now = spell_gain(st, p, spell, level, 0, days, eco)
    return now - plan_value(st, p, spell, held, days, eco) - WEIGHTS.pool * 3 * max(0, level - held)


def feed_pending(st: State) -> bool:
    """Solo: whether the current Day's token for the opponent's track is still to be placed."""
    return st.phase in (MORNING, MIDDAY, NIGHT) or any(t["do"] == "feed_track" for t in st.q)


def whole_days(st: State) -> list[float]:
    """Whole Days each seat still plays after the current Day."""
    n = len(st.players)
    if st.ending:
        # the round ends with the first player's right-hand neighbour: everyone plays as many Days
        # as the first player has once its Day of this round is over
        last = st.players[st.first].days + (1 if st.cur == st.first else 0)
        return [max(0, last - st.players[p].days - (1 if p == st.cur else 0)) for p in range(n)]
    ends = []
    for p, pl in enumerate(st.players):
        ends.append((FAMILIAR_SPACES - len(pl.fam)) / economy(st, p)[1])
        ends.append(2.5 * pl.lv.count(0) + 1)  # (NCOL less the spells learned)
    if st.solo:  # the Day that places the last token is the last Day
        ends.append(TRACK_SPACES - len(st.opp) - (1 if feed_pending(st) else 0))
    return [max(0.0, min(ends))] * n


def _rival(st: State, whole: float) -> float:
    placed = len(st.opp) + (1 if feed_pending(st) else 0) + round(whole)
    return float(track_points(min(TRACK_SPACES, placed)) + len(st.bottom))


def estimate(st: State, whole: list[float] | None = None,
             now: list[int] | None = None) -> tuple[list[float], float | None]:
    """Estimated final points per seat, and the solo opponent's (None with 2+ players). `whole`
    (whole_days) and `now` (each seat's seat_points): when the caller has them already."""
    if whole is None:
        whole = whole_days(st)
    if now is None:
        now = [seat_points(st, p) for p in range(len(st.players))]
    out = [now[p] + project(st, p, whole[p]) for p in range(len(st.players))]
    if not st.solo:
        return out, None
    rival = _rival(st, whole[0])
    if not st.ending:  # or fill the Familiar as fast as it can, if that ends better
        storing = economy(st, 0)[1]
        early = max(0.0, math.ceil((FAMILIAR_SPACES - len(st.players[0].fam)) / storing) - 1)
        if early < whole[0]:
            mine, theirs = now[0] + project(st, 0, early), _rival(st, early)
            if mine - theirs > out[0] - rival:
                return [mine], theirs
    return out, rival


def solo_lead(st: State) -> tuple[float, float]:
    """Solo: the player's points as the evaluation counts them, and the track's as it stands.

    The player counts its points now and SOLO_TRUST of what `estimate` projects beyond them; the
    track counts the tokens it holds (today's included), not those the Days left will add. Measured
    against the track's projected end instead, the search hurried to fill the Familiar while the
    track was low; but the track stops at its last space (43 at difficulty 3 on Day 17) and a
    player who learns and raises spells until then outscores it more often (docs/ai.md)."""
    now = seat_points(st, 0)
    (mine,), _ = estimate(st)
    return counted(now, mine), track_now(st)


def counted(now: float, projected: float) -> float:
    """Solo: the points the hand-made evaluation counts on — those now and SOLO_TRUST of the rest
    of `estimate`'s projection."""
    return now + SOLO_TRUST * (projected - now)


def track_now(st: State) -> float:
    """Solo: the track's points as it stands (today's token counted if still to come)."""
    return _rival(st, 0)
