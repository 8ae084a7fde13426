"""What each iteration of Spellbook's search does besides the rules: it deals its own copy of the
position (the unseen Materia re-dealt; in solo, a plan drawn) and plays the rollouts' moves.

Module functions, so that they run compiled (rulesets/compiled.py) while knowledge.py's class,
which tests and the fitting tools subclass, stays a Python class that calls them.
"""

from __future__ import annotations

from rulesets.core.ai import SearchRng
from rulesets.core.ai.copying import construct
from rulesets.spellbook.ai import distilled
from rulesets.spellbook.ai.sight import known_in_box, unseen
from rulesets.spellbook.ai.values import NO_PLAN, choice_values, plan_weights
from rulesets.spellbook.data import NKIND
from rulesets.spellbook.state import Player, State

NOISE = 0.6  # the rollouts' randomness, in value points: enough to try the near-best moves too


def copy_state(st: State) -> State:
    """A deep copy (every list is the copy's own). The steps' dicts are copied one level: the rules
    build new lists for a step instead of changing one in place."""
    d = st.__dict__
    players = [construct(Player, {"pool": list(p.pool), "fam": list(p.fam), "lv": list(p.lv),
                                  "tok": list(p.tok), "days": p.days}) for p in st.players]
    return construct(State, {**d, "spells": list(st.spells), "players": players, "altar": list(st.altar),
                             "bag": list(st.bag), "disc": list(st.disc), "q": [dict(t) for t in st.q],
                             "opp": list(st.opp), "bottom": list(st.bottom)})


def deal_unseen(st: State, rng: SearchRng) -> None:
    """Re-deal the Materia nobody sees between the bag and the discard box, keeping each one's
    size. Those just discarded that Comunhão 5 may keep are known to be in the box."""
    in_box = known_in_box(st)
    hidden: list[int] = []
    for k, n in enumerate(unseen(st)):
        if n:
            hidden += [k] * n
    rng.shuffle(hidden)
    box = sum(st.disc) - sum(in_box)
    st.disc = disc = in_box
    st.bag = bag = [0] * NKIND
    for k in hidden[:box]:
        disc[k] += 1
    for k in hidden[box:]:
        bag[k] += 1


def pick_plan(st: State, rng: SearchRng) -> int:
    """Solo: the colour of the spell one iteration's player sets out to collect, drawn by
    `values.plan_weights` (NO_PLAN when every spell is learned)."""
    weights = plan_weights(st, 0)
    total = sum(w for _, w in weights)
    if total <= 0:
        return NO_PLAN
    x = rng.random() * total
    for colour, w in weights:
        x -= w
        if x <= 0:
            return colour
    return weights[-1][0]  # rounding left a sliver past the last weight


def rollout_move(st: State, seat: int, choices: list[str], plan: int, rng: SearchRng) -> str:
    """The rollouts' move (knowledge.policy): the judgement's best with a little noise, the judgement
    being values.choice_values with the iteration's plan and, in solo, the distilled offsets."""
    values = choice_values(st, seat, choices, plan)
    if len(st.players) == 1 and (learned := distilled.offsets(st, choices, seat)):
        values = [v + o for v, o in zip(values, learned, strict=True)]
    best, best_value = choices[0], float("-inf")
    rand = rng.random
    for choice, value in zip(choices, values, strict=True):
        value += NOISE * rand()
        if value > best_value:
            best, best_value = choice, value
    return best
