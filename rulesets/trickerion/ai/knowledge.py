"""What the search knows about Trickerion (rulesets.core.ai.Knowledge).

- **Determinization** (determinize.py): the others' secret assignments, special cards in hand, the
  special decks, the performance deck and the prophecy pile, sampled again from what the seat sees.
- **Horizon**: two cuts a round — the performances start (every character has acted) and the round
  ends. Médio looks to the next cut (a decision in the assignment or the placement is judged once
  the placement is over), difícil one further (the performances played out).
- **Evaluation**: each player's estimated final score (worth.py) as a standing in 0..1.
- **Policy and ordering**: values.py's judgement of every choice, plans.py's for the assignment;
  the rollouts take the best with noise. Fácil searches nothing: it takes the best-looking choice
  (which never passes when something useful is free, and never spends for nothing). Médio and
  difícil search the best few of each decision and take the rest of a composite decision (how
  many to buy, which slot) from the judgement too, so the tree spends its iterations where the
  game is decided: the assignment, the space, the action.
"""

from __future__ import annotations

from rulesets.core.ai import Budget, Knowledge, SearchRng, standing
from rulesets.core.rng import Rng

from ..game import GAME, play
from ..rules import step_of
from ..state import State
from .determinize import determinize
from .plans import card_value, needs, next_step
from .values import choice_values
from .worth import estimate

PHASE_CUT = {"advertise": 0, "assign": 0, "place": 0, "perform": 1, "end": 2, "over": 2}
NOISE = 1.2          # the rollouts' randomness, in value points
WIDTH = {"medio": 4, "dificil": 6}  # choices the tree considers at one decision
# Decisions the tree searches: the cards under the characters, the character and its space (one
# choice), the action, and a few choices that shape a round; the rest of a composite decision (which
# trick, which slot, how many AP to bargain with) is the judgement's (values.py).
SEARCHED = {"assign", "propaganda", "alocar", "espaco", "acoes", "apresentar", "aprender_t",
            "da_especial", "da_manter", "comprar_t"}


def forward(state: State, choices: list[str]) -> list[str]:
    """The choices that move on. A bot never backs out of a step it chose to enter: each decision is
    taken afresh, so backing out and choosing the same menu again would never end. Nor does it open
    the menu that gives components or tricks back (there, it backs out)."""
    if state.step == "devolver":
        return ["voltar"] if "voltar" in choices else choices
    return [c for c in choices if c not in ("voltar", "devolver")] or choices


class TrickerionKnowledge(Knowledge):
    game = GAME
    scale = 6.0
    # Iterations calibrated for the decision-time goals on one core (docs/ai.md); the wall-clock caps
    # are only a safety net, set far above the time the iterations take.
    budgets = {
        "facil": Budget(iterations=1, horizon=1, time_cap_s=2.0),
        "medio": Budget(iterations=16, horizon=1, exploration=0.6, max_rollout=500, time_cap_s=6.0),
        "dificil": Budget(iterations=48, horizon=2, exploration=0.6, bias=0.5, max_rollout=800,
                          time_cap_s=12.0),
    }

    def determinize(self, state: State, seat: int, rng: SearchRng) -> State:
        return determinize(state, seat, rng)

    def evaluate(self, state: State) -> list[float]:
        return standing([estimate(state, s) for s in range(state.n)], self.scale)

    def horizon(self, state: State) -> int:
        return 2 * state.round + PHASE_CUT.get(state.phase, 0)

    def policy(self, state: State, seat: int, choices: list[str], rng: SearchRng) -> str:
        choices = forward(state, choices)
        if state.phase == "assign":
            return next_step(state, seat, choices, rng, NOISE)
        best, best_value = choices[0], float("-inf")
        for choice, v in zip(choices, choice_values(state, seat, choices), strict=True):
            v += NOISE * rng.random()
            if v > best_value:
                best, best_value = choice, v
        return best

    def order(self, state: State, seat: int, choices: list[str], level: str) -> list[tuple[str, float]]:
        choices = forward(state, choices)
        if state.phase == "assign":
            return self._assign_order(state, seat, choices, level)
        ranked = sorted(zip(choices, choice_values(state, seat, choices), strict=True), key=lambda cv: -cv[1])
        if level == "facil" or step_of(state, seat) not in SEARCHED:
            return [(ranked[0][0], 1.0)]
        top = ranked[0][1]
        return [(c, max(0.0, 1.0 - (top - v) / 4.0)) for c, v in ranked[:WIDTH[level]]]

    def _assign_order(self, state: State, seat: int, choices: list[str], level: str) -> list[tuple[str, float]]:
        """The assignment: which character to give a card next, and when to stop, follow the plan
        (drawn without noise); the card itself is searched, the plan's card first, then the others by
        how useful their location looks for that character. Fácil only follows its plan."""
        best = next_step(state, seat, choices, SearchRng(0), 0.0)
        pick = state.p[seat].pick
        if level == "facil" or pick is None:
            return [(best, 1.0)]
        need = needs(state, seat)
        cards = sorted((c for c in choices if c.startswith("l:") and c != best),
                       key=lambda c: -card_value(state, seat, pick, c[2:], need))
        return [(best, 1.0), *((c, 0.3) for c in cards[:WIDTH[level] - 1])]

    def apply(self, state: State, seat: int, choice: str, rng: Rng) -> None:
        """The rules' step and the automatic parts after it, without the Outcome the contract returns."""
        play(state, seat, choice, rng, [])


KNOWLEDGE = TrickerionKnowledge()
