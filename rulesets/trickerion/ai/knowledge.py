"""What the search knows about Trickerion (rulesets.core.ai.Knowledge).

- **Determinization** (determinize.py): the others' secret assignments, special cards in hand, the
  special decks, the performance deck and the prophecy pile, sampled again from what the seat sees.
- **Horizon**: three cuts a round — the placement starts (the plans are revealed), the performances
  start (every character has acted), the round ends. Fácil and médio look to the next cut but one,
  difícil a whole round ahead.
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

from ..game import GAME, advance, handlers
from ..state import State
from .determinize import determinize
from .plans import next_step
from .values import choice_values
from .worth import estimate

PHASE_CUT = {"advertise": 0, "assign": 0, "place": 1, "perform": 2, "end": 3, "over": 3}
NOISE = 1.2          # the rollouts' randomness, in value points
WIDTH = {"medio": 4, "dificil": 6}  # choices the tree considers at one decision
# Decisions the tree searches: the assignment, where to go, what to do there; the rest of a
# composite decision is the judgement's (values.py).
SEARCHED = {"assign", "propaganda", "alocar", "espaco", "acoes", "reforcar", "apresentar", "aprender_t",
            "da_especial", "da_manter", "comprar_t"}


class TrickerionKnowledge(Knowledge):
    game = GAME
    scale = 6.0
    # Iterations calibrated for the decision-time goals on one core (docs/ai.md); the wall-clock caps
    # are only a safety net, set far above the time the iterations take.
    budgets = {
        "facil": Budget(iterations=1, horizon=2, time_cap_s=2.0),
        "medio": Budget(iterations=40, horizon=2, exploration=0.6, max_rollout=600, time_cap_s=6.0),
        "dificil": Budget(iterations=120, horizon=3, exploration=0.6, bias=0.5, max_rollout=900,
                          time_cap_s=12.0),
    }

    def determinize(self, state: State, seat: int, rng: SearchRng) -> State:
        return determinize(state, seat, rng)

    def evaluate(self, state: State) -> list[float]:
        return standing([estimate(state, s) for s in range(state.n)], self.scale)

    def horizon(self, state: State) -> int:
        return 3 * state.round + PHASE_CUT.get(state.phase, 0)

    def policy(self, state: State, seat: int, choices: list[str], rng: SearchRng) -> str:
        if state.phase == "assign":
            return next_step(state, seat, choices, rng, NOISE)
        best, best_value = choices[0], float("-inf")
        for choice, v in zip(choices, choice_values(state, seat, choices), strict=True):
            v += NOISE * rng.random()
            if v > best_value:
                best, best_value = choice, v
        return best

    def order(self, state: State, seat: int, choices: list[str], level: str) -> list[tuple[str, float]]:
        if state.phase == "assign":
            return self._assign_order(state, seat, choices, level)
        ranked = sorted(zip(choices, choice_values(state, seat, choices), strict=True), key=lambda cv: -cv[1])
        if level == "facil" or state.step not in SEARCHED:
            return [(ranked[0][0], 1.0)]
        top = ranked[0][1]
        return [(c, max(0.0, 1.0 - (top - v) / 4.0)) for c, v in ranked[:WIDTH[level]]]

    def _assign_order(self, state: State, seat: int, choices: list[str], level: str) -> list[tuple[str, float]]:
        """The assignment: the judgement's next step first (its plan is drawn without noise), then
        the other ways to go on, in the prompt's order; fácil only follows its plan."""
        best = next_step(state, seat, choices, SearchRng(0), 0.0)
        if level == "facil":
            return [(best, 1.0)]
        rest = [c for c in choices if c != best and c != "voltar"]
        return [(best, 1.0), *((c, 0.3) for c in rest[:WIDTH[level] - 1])]

    def apply(self, state: State, seat: int, choice: str, rng: Rng) -> None:
        """The rules' step and the automatic parts after it, without the Outcome the contract returns."""
        events: list = []
        handlers(state)[1](state, seat, choice, rng, events)
        advance(state, rng, events)


KNOWLEDGE = TrickerionKnowledge()
