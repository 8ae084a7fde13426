"""A tiny game used only to test the rules core: each round both players secretly bid 1-3
(simultaneous, hidden until both bid), then the higher bidder may mark a target (an undoable,
non-random choice) and finally rolls a die (random) to score. First to 10 wins."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from rulesets.core import Choice, Event, FinalScore, Game, Outcome, Prompt, ScoreLine, SeatScore, msg, seat


class ToyOptions(BaseModel):
    target: int = 10


class ToyState(BaseModel):
    target: int
    scores: list[int]
    bids: list[int | None]
    roller: int | None = None
    marked: bool = False


class ToyGame(Game[ToyState, ToyOptions]):
    name = "toy"
    min_players = 2
    max_players = 2
    State = ToyState
    Options = ToyOptions

    def setup(self, options: ToyOptions, players: int, rng) -> tuple[ToyState, list[Event]]:
        first = rng.below(6)
        state = ToyState(target=options.target, scores=[first, 0], bids=[None, None])
        return state, [Event(text=msg("core.yes", value=first))]

    def to_act(self, state: ToyState) -> list[int]:
        if self.is_over(state):
            return []
        if state.roller is not None:
            return [state.roller]
        return [s for s in (0, 1) if state.bids[s] is None]

    def legal_choices(self, state: ToyState, seat_: int) -> list[str]:
        if state.roller is not None:
            return ["roll"] if state.marked else ["mark", "roll"]
        return ["bid:1", "bid:2", "bid:3"]

    def prompt(self, state: ToyState, seat_: int) -> Prompt:
        return Prompt(seat=seat_, title=msg("core.yes"),
                      choices=[Choice(id=c, label=msg("core.no")) for c in self.legal_choices(state, seat_)])

    def apply(self, state: ToyState, seat_: int, choice: str, rng) -> Outcome:
        if choice.startswith("bid:"):
            state.bids[seat_] = int(choice[4:])
            events = [Event(text=msg("core.yes", bid=state.bids[seat_]), audience=[seat_])]
            if None in state.bids:
                return Outcome(events=events)
            b0, b1 = state.bids
            state.roller = 0 if b0 >= b1 else 1
            events.append(Event(text=msg("core.no", bids=f"{b0}/{b1}")))
            return Outcome(events=events, checkpoint=True)  # the bids are revealed
        if choice == "mark":
            state.marked = True
            return Outcome(events=[Event(text=msg("core.yes", player=seat(seat_)))])
        roll = rng.below(6) + 1
        state.scores[seat_] += roll + (1 if state.marked else 0)
        state.roller, state.marked, state.bids = None, False, [None, None]
        return Outcome(events=[Event(text=msg("core.yes", roll=roll))])

    def view(self, state: ToyState, seat_: int | None) -> dict[str, Any]:
        bids = [b if (seat_ == i or state.roller is not None) else None for i, b in enumerate(state.bids)]
        return {"scores": state.scores, "bids": bids}

    def table(self, state: ToyState, seat_: int | None):
        return [msg("core.yes")]

    def is_over(self, state: ToyState) -> bool:
        return max(state.scores) >= state.target

    def score(self, state: ToyState) -> FinalScore:
        best = max(state.scores)
        return FinalScore(
            seats=[SeatScore(seat=i, total=s, lines=[ScoreLine(label=msg("core.yes"), points=s)])
                   for i, s in enumerate(state.scores)],
            winners=[i for i, s in enumerate(state.scores) if s == best], end_reason="target")


GAME = ToyGame()
