"""The search core on the toy game: it finds the obvious good moves, is deterministic, never
reads a secret, and the seat kinds and the entry point behave as the workers will expect."""

from __future__ import annotations

import pytest

import rulesets.core.ai.search as search_module
from rulesets.core import new_match
from rulesets.core.ai import LEVELS, SEAT_KINDS, Budget, choose, decide, final_rewards, standing
from rulesets.core.ai.search import played_on, search
from rulesets.core.contract import FinalScore, SeatScore
from tests.core.toy_ai import KNOWLEDGE
from tests.core.toy_game import GAME, ToyState

pytestmark = pytest.mark.usefixtures("toy_registered")


def _bidding(scores=(3, 4), other_bid: int | None = 2) -> ToyState:
    return ToyState(target=10, scores=list(scores), bids=[None, other_bid])


def _rolling(marked: bool = False) -> ToyState:
    return ToyState(target=10, scores=[5, 5], bids=[3, 1], roller=0, marked=marked)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_bids_high_and_marks_before_rolling(level):
    assert decide(GAME, _bidding(), 0, level, seed=1).choice == "bid:3"
    assert decide(GAME, _rolling(), 0, level, seed=1).choice == "mark"


@pytest.mark.parametrize("level", LEVELS)
def test_the_other_seats_secret_bid_never_changes_the_choice(level):
    for seed in range(8):
        picks = {decide(GAME, _bidding(other_bid=b), 0, level, seed).choice for b in (None, 1, 2, 3)}
        assert len(picks) == 1, (seed, picks)
        # not just the same move: the same search, iteration by iteration
        budget = KNOWLEDGE.budget(level)
        visits = [search(KNOWLEDGE, _bidding(other_bid=b), 0, budget, level, seed).visits for b in (1, 2, 3)]
        assert visits[0] == visits[1] == visits[2]


def test_same_seed_same_search_and_the_budget_is_counted_in_iterations():
    budget = Budget(iterations=50)
    a = search(KNOWLEDGE, _bidding(), 0, budget, "medio", seed=7)
    b = search(KNOWLEDGE, _bidding(), 0, budget, "medio", seed=7)
    assert a == b and not a.capped and a.choice == "bid:3"
    assert sum(a.visits.values()) == a.iterations and set(a.visits) == {"bid:1", "bid:2", "bid:3"}
    # it stopped as soon as bid:3 could not be overtaken in the iterations left, and not before
    first, second = sorted(a.visits.values())[::-1][:2]
    assert a.iterations == 50 or first - second > 50 - a.iterations
    assert first - second <= 50 - (a.iterations - 1) + 1


def test_the_time_safety_net_stops_a_runaway_search():
    result = search(KNOWLEDGE, _bidding(), 0, Budget(iterations=10**9, time_cap_s=0.05), "medio", seed=1)
    assert result.capped and 0 < result.iterations < 10**9


def test_the_search_never_touches_the_state_it_is_given():
    state = _bidding()
    before = state.model_dump()
    search(KNOWLEDGE, state, 0, Budget(iterations=40), "dificil", seed=3)
    assert state.model_dump() == before


def test_baselines_and_forced_moves_need_no_search():
    state = _rolling(marked=True)  # only "roll" is left
    for kind in SEAT_KINDS:
        assert decide(GAME, state, 0, kind, seed=5).choice == "roll"
    picks = {decide(GAME, _bidding(), 0, "random", seed).choice for seed in range(30)}
    assert picks == {"bid:1", "bid:2", "bid:3"}
    assert decide(GAME, _bidding(), 0, "stand-in", 4).choice == decide(GAME, _bidding(), 0, "stand-in", 4).choice
    with pytest.raises(ValueError):
        decide(GAME, _bidding(), 0, "genius", 1)


def test_choose_is_the_workers_entry_point():
    match = new_match("toy", {}, 2, seed=11)
    assert choose(match, 1, "dificil", 99) == choose(match, 1, "dificil", 99) == "bid:3"
    with pytest.raises(ValueError):
        choose(match.model_copy(update={"state": _rolling()}), 1, "medio", 1)  # seat 0 rolls, not 1


def test_standing_and_final_rewards():
    assert standing([10, 10], 5) == [0.5, 0.5]
    a, b = standing([14, 10], 5)
    assert a > 0.5 > b and abs(a + b - 1) < 1e-9
    assert standing([30], 5, rival=40)[0] < 0.2
    score = FinalScore(seats=[SeatScore(seat=0, total=12, lines=[]), SeatScore(seat=1, total=12, lines=[])],
                       winners=[0, 1], end_reason="t")
    assert final_rewards(score, 2, 5) == [0.5, 0.5]
    score.winners = [1]
    lose, win = final_rewards(score, 2, 5)
    assert win > 0.85 and lose < 0.15


class _Blind(type(KNOWLEDGE)):
    """The toy's knowledge made unable to tell positions apart: every cut is even, and a cut
    comes after every move (a bid, a mark, a roll)."""

    def evaluate(self, state: ToyState) -> list[float]:
        return [0.5, 0.5]

    def horizon(self, state: ToyState) -> int:
        return sum(state.scores) + sum(b is not None for b in state.bids) + int(state.marked)


def test_a_close_call_is_settled_by_playing_to_the_end():
    # 9-9, first to 10: bid:3 always wins the roll and the game; bid:1 wins it a third of the time.
    # At the cut all three bids look even, so the plain search keeps its order's first
    state = ToyState(target=10, scores=[9, 9], bids=[None, None])
    blind = _Blind()
    plain = search(blind, state, 0, Budget(iterations=60), "dificil", seed=2)
    assert plain.choice == "bid:1" and len(set(plain.visits.values())) == 1
    settled = search(blind, state, 0, Budget(iterations=60, settle=20), "dificil", seed=2)
    assert settled.choice == "bid:3" and settled.visits == plain.visits
    # a clear call is left alone: nothing is played on
    clear = search(KNOWLEDGE, _bidding(), 0, Budget(iterations=50, settle=20), "medio", seed=7)
    assert clear == search(KNOWLEDGE, _bidding(), 0, Budget(iterations=50), "medio", seed=7)


class _Sighted(type(KNOWLEDGE)):
    """The toy's knowledge for a seat that has seen the other bid: nothing is re-sampled."""

    def determinize(self, state: ToyState, seat: int, rng) -> ToyState:
        return state.model_copy(deep=True)


def test_close_calls_are_played_on_in_the_same_games():
    # 9-9, first to 14, the other seat has bid 3: bid:1 and bid:2 both lose the roll, so they lead
    # to the same game. Played on in common games (the same draws, the same policy noise) they
    # score exactly alike; in games of their own they would differ by luck alone.
    state = ToyState(target=14, scores=[9, 9], bids=[None, 3])
    sighted = _Sighted()
    to_the_end = Budget(iterations=0, horizon=1 << 30)
    games = [(11 * i, 13 * i + 1, 17 * i + 2) for i in range(30)]
    one, two = (played_on(sighted, state, 0, bid, games, to_the_end) for bid in ("bid:1", "bid:2"))
    assert one == two and 0.2 < one < 0.8  # a real contest, not a foregone result
    assert played_on(sighted, state, 0, "bid:3", games, to_the_end) > one  # winning the roll helps
    other = [(w + 1, d + 1, n + 1) for w, d, n in games]
    assert played_on(sighted, state, 0, "bid:1", other, to_the_end) != one  # the games do matter


class _Watched(_Blind):
    """_Blind, noting the world each simulation was dealt from (the seed of its determinization's
    generator) and the first move played in it. Watched through the knowledge, not by a spy on the
    search's own functions: compiled (rulesets/compiled.py), the search calls those directly."""

    def __init__(self) -> None:
        super().__init__()
        self.worlds: list[tuple[int, str | None]] = []

    def determinize(self, state: ToyState, seat: int, rng) -> ToyState:
        self.worlds.append((rng.seed, None))
        return super().determinize(state, seat, rng)

    def apply(self, state: ToyState, seat: int, choice: str, rng) -> None:
        world, first = self.worlds[-1]
        if first is None:
            self.worlds[-1] = (world, choice)
        super().apply(state, seat, choice, rng)


def test_every_close_call_is_played_on_in_the_same_games():
    watched = _Watched()
    state = ToyState(target=10, scores=[9, 9], bids=[None, None])
    assert search(watched, state, 0, Budget(iterations=60, settle=20), "dificil", seed=2).choice == "bid:3"
    played_on_worlds: dict[str, list[int]] = {}
    for world, choice in watched.worlds:
        # the search's iterations are dealt from its own generator (seed 2), each game played on from one of its own
        if world != 2:
            played_on_worlds.setdefault(choice, []).append(world)
    assert sorted(played_on_worlds) == ["bid:1", "bid:2", "bid:3"]
    games = played_on_worlds["bid:1"]
    assert len(games) == 20 and len(set(games)) == 20
    assert all(worlds == games for worlds in played_on_worlds.values())


def _root_move(choice: str, visits: int, mean: float) -> search_module.Node:
    node = search_module.Node(0, choice, 0.0)
    node.visits, node.total = visits, visits * mean
    return node


def test_settling_counts_the_trees_own_mean_beside_the_games_played_on():
    # bid:1 and bid:2 lose the roll alike, so their games played on score exactly the same; the
    # tree saw bid:2 a little better. bid:3 wins the roll: far better in the games, worse in the tree.
    state = ToyState(target=14, scores=[9, 9], bids=[None, 3])
    one, two, three = _root_move("bid:1", 100, 0.50), _root_move("bid:2", 100, 0.52), _root_move("bid:3", 100, 0.495)
    sighted = _Sighted()

    def settled(weight: float, mine: list) -> str:
        budget = Budget(iterations=0, settle=30, close=0.03, tree_weight=weight)
        best = max(mine, key=lambda n: n.total / n.visits)
        return search_module._settle(sighted, state, 0, mine, best, search_module.SearchRng(5), budget).choice

    assert settled(0.0, [one, two]) == "bid:1"  # a tie in the games: the first move stays
    assert settled(2.0, [one, two]) == "bid:2"  # the tree's edge breaks it
    assert settled(2.0, [one, two, three]) == "bid:3"  # a clear difference in the games outweighs it
