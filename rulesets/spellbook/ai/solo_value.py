"""Solo: the evaluation at a cut, fitted to how games end.

The search cuts its solo rollouts every fourth Day and asks what the position is worth. The
hand-made projection (estimate.solo_lead) says little about how a game will end until late: on
the médio games it was fitted on, its lead over the track explains none of the final margin's
spread at Days 4-7 and half of it at Days 8-11. This module answers instead with a linear fit of
the final margin (the player's points less the track's) on a few measures of the position, each
measure also times the Days played, so its weight can change as the game goes on; the hand-made
projection is one of the measures. Fitted by `bench/fit_solo_value.py` on solo games (every
Day's start, labelled with the margin that game ended on), in four rounds: médio's games played
with the hand-made evaluation, médio's played with the first round's fit, then two rounds of
difícil's own, each played with the fit of the rounds before as the chance of winning; the weights
are data (data/ai_solo_value.yaml) — docs/ai.md, "Solo, an evaluation fitted to how games end",
"Solo, a second round of the fit", "Solo, a third round, of difícil's own games" and "Solo, a
fourth round".

What the search wants is the win, not the margin: a margin of −3 at Day 2 is made up often, at
Day 14 rarely. The same fit gives how far games ended from it, by Days played (`spread`, one
standard deviation: about 4 points at the start, 1.3 at Day 16), and `win_chance` reads the
expected margin against it — docs/ai.md, "Solo, the chance of winning".
"""

from __future__ import annotations

import math

import yaml

from rulesets.spellbook.ai.estimate import counted, economy, estimate, own_counts, track_now, whole_days
from rulesets.spellbook.ai.solo_value_file import SoloValue, Spread
from rulesets.spellbook.data import DATA, NCOL
from rulesets.spellbook.scoring import familiar_points, seat_points
from rulesets.spellbook.state import State

PATH = DATA / "ai_solo_value.yaml"

MEASURES = (
    "points",  # the player's points now (spells, Familiar, bonuses)
    "projected",  # what estimate() projects beyond them
    "lead",  # the hand-made evaluation's lead over the track (estimate.solo_lead)
    "track",  # the track's points now (today's token counted)
    "track_at_end",  # the track's points where estimate() expects the game to end
    "days",  # Days played
    "familiar",  # Materia stored
    "familiar_points",  # what the Familiar scores now
    "spells",  # spells learned
    "levels",  # the sum of their levels
    "reserve",  # Materia in the reserve (pool)
    "days_left",  # whole Days estimate() expects after this one
    "income",  # Materia a Morning brings (economy)
    "storing",  # Materia a Midday stores (economy)
    "colour_most",  # the most Materia held of one unlearned spell's colour
    "colour_held",  # Materia held of unlearned spells' colours
    "spells_paid",  # unlearned spells with 3 or more of their colour held (level 3 paid for)
    "spells_near",  # unlearned spells with 2 of their colour held
    "learned_held",  # Materia held of learned spells' colours (Familiar food, wilds)
)


MIN_SPREAD = 0.5  # points: the fitted spread, a straight line, never narrower than this


def measures(st: State) -> list[float]:
    """The position of the solo player (seat 0), as MEASURES lists it."""
    pl = st.players[0]
    now = seat_points(st, 0)
    whole = whole_days(st)
    (mine,), track_at_end = estimate(st, whole, [now])
    track = track_now(st)
    lead = counted(now, mine) - track  # estimate.solo_lead's, without a second estimate()
    own = own_counts(st, 0)
    unlearned = [own[c] for c in range(NCOL) if not pl.lv[c]]
    income, storing, _, _ = economy(st, 0)
    return [now, mine - now, lead, track, track_at_end or 0.0, pl.days, len(pl.fam),
            familiar_points(len(pl.fam)), sum(1 for lv in pl.lv if lv), sum(pl.lv), len(pl.pool),
            whole[0], income, storing, max(unlearned, default=0), sum(unlearned),
            sum(1 for n in unlearned if n >= 3), sum(1 for n in unlearned if n == 2),
            sum(own[c] for c in range(NCOL) if pl.lv[c])]


def load() -> SoloValue:
    with PATH.open(encoding="utf-8") as fh:
        fit = SoloValue.model_validate(yaml.safe_load(fh))
    if set(fit.weight) != set(MEASURES) or set(fit.by_day) != set(MEASURES):
        raise ValueError(f"{PATH.name} must weigh exactly {', '.join(MEASURES)}")
    return fit


Weights = tuple[float, list[float], list[float]]  # a fit as the evaluation reads it: bias, weights, by Day


def weights(fit: SoloValue) -> Weights:
    return fit.bias, [fit.weight[m] for m in MEASURES], [fit.by_day[m] for m in MEASURES]


FIT = load()
FITTED = weights(FIT)  # the data file's fit as margin() reads it


def margin(st: State, fit: Weights = FITTED) -> float:
    """The final margin over the track this position is expected to end with (by the data file's
    fit unless another is given: bench/fit_solo_value.py plays its later rounds with the earlier's)."""
    return margin_of(measures(st), fit)


DAYS = MEASURES.index("days")


def margin_of(x: list[float], fit: Weights = FITTED) -> float:
    """The fit's margin for a position's measures, in MEASURES' order."""
    bias, weight, by_day = fit
    days = x[DAYS]
    return bias + sum((w + d * days) * v for w, d, v in zip(weight, by_day, x, strict=True))


def win_chance(st: State, mean: float, spread: Spread = FIT.spread) -> float:
    """The chance that a position whose expected margin is `mean` ends ahead of the track, were the
    margin normal about the fit with the spread the fit's games showed at this many Days played
    (the data file's unless another is given): early on a margin of −3 is often made up, late it
    rarely is."""
    sigma = max(MIN_SPREAD, spread.at_start + spread.per_day * st.players[0].days)
    return 0.5 * (1.0 + math.erf(mean / (sigma * math.sqrt(2.0))))
