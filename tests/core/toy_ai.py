"""The toy game's knowledge, to test the search core on a game small enough to reason about:
bidding 3 always wins the roll (ties go to seat 0), and marking before rolling is worth +1."""

from __future__ import annotations

from rulesets.core.ai import Budget, Knowledge, SearchRng, standing
from tests.core.toy_game import GAME, ToyState


class ToyKnowledge(Knowledge):
    game = GAME
    budgets = {"facil": Budget(iterations=30), "medio": Budget(iterations=60),
               "dificil": Budget(iterations=120, horizon=2, bias=1.0)}
    scale = 3.0

    def determinize(self, state: ToyState, seat: int, rng: SearchRng) -> ToyState:
        bids = list(state.bids)
        if state.roller is None:  # the other bid is still secret: any of 1-3
            other = 1 - seat
            if bids[other] is not None:
                bids[other] = 1 + rng.below(3)
        return ToyState(target=state.target, scores=list(state.scores), bids=bids, roller=state.roller,
                        marked=state.marked)

    def evaluate(self, state: ToyState) -> list[float]:
        return standing([float(s) for s in state.scores], self.scale)

    def horizon(self, state: ToyState) -> int:
        return sum(state.scores)


KNOWLEDGE = ToyKnowledge()
