"""What each iteration of Spellbook's search does besides the rules: it deals its copy of the
position (simstate.py; the unseen Materia re-dealt, in solo a plan drawn), plays the rollouts' moves
(`rollout_move`) in a loop of its own (`play_on`) and keeps the clock that cuts them (`horizon`).

Module functions, so that they run compiled (rulesets/compiled.py) while knowledge.py's class,
which tests and the fitting tools subclass, stays a Python class that calls them.
"""

from __future__ import annotations

from rulesets.core.ai import SearchRng
from rulesets.spellbook import steps
from rulesets.spellbook.ai import distilled
from rulesets.spellbook.ai.sight import known_in_box, unseen
from rulesets.spellbook.ai.values import NO_PLAN, choice_values, plan_weights
from rulesets.spellbook.data import NKIND
from rulesets.spellbook.day import phase_options, play
from rulesets.spellbook.state import OVER, QuietLog, State
from rulesets.spellbook.steps import actor, step_options

NOISE = 0.6  # the rollouts' randomness, in value points: enough to try the near-best moves too
SOLO_DAYS = 4  # solo: a cut every four Days (no other player's Day between; two were too short-sighted)
QUIET = QuietLog()  # what a simulated move logs is read by nobody: one log for them all


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
    n = len(choices)
    if len(st.players) == 1:
        learned = distilled.offsets(st, choices, seat)
        if learned:
            values = [values[i] + learned[i] for i in range(n)]
    best, best_value = choices[0], float("-inf")
    rand = rng.random
    for i in range(n):  # (indices, not zip: compiled, a zip is a Python object to step through)
        value = values[i] + NOISE * rand()
        if value > best_value:
            best, best_value = choices[i], value
    return best


def horizon(st: State) -> float:
    """The search's clock (knowledge.horizon): Days played by everyone; in solo, a quarter a Day."""
    players = st.players
    if len(players) == 1:  # solo (asked twice at every step of every rollout)
        return players[0].days / SOLO_DAYS
    return sum(pl.days for pl in players)


def play_on(st: State, rng: SearchRng, pick: SearchRng, clock: float, limit: int, most: int, actions: int,
            plan: int) -> int:
    """A rollout (knowledge.play_out): search._rollout's loop with Spellbook's methods called directly,
    the same moves. One seat decides at a time, so the loop never draws who moves; the menu is the one
    `settle` listed (Spellbook.settled) or the game's (Spellbook.legal_choices)."""
    while st.phase != OVER and horizon(st) - clock < limit and actions < most:
        kept, found = steps.LISTED
        if kept is st and found is not None:
            seat = found[0][0]
            choices = found[1].get(seat) or legal_choices(st)
        else:
            seat = actor(st)
            choices = legal_choices(st)
        choice = choices[0] if len(choices) == 1 else rollout_move(st, seat, choices, plan, pick)
        play(st, choice, rng, QUIET)
        actions += 1
    return actions


def legal_choices(st: State) -> list[str]:
    """Spellbook.legal_choices: the pending step's options, else the phase's."""
    return step_options(st, st.q[0]) if st.q else phase_options(st, st.cur, st.phase)
