"""The solo bound's clairvoyant (bench/solo_bound.py) must see exactly the draws the game deals:
otherwise its figure bounds nothing."""

from bench.solo_bound import Clairvoyant, nested, play, play_nested
from rulesets.core.ai import SearchRng
from rulesets.core.match import act, new_match
from rulesets.core.rng import Rng
from rulesets.spellbook.ai.knowledge import copy_state
from rulesets.spellbook.game import GAME


def test_its_simulations_meet_the_games_own_draws() -> None:
    for seed in (1, 2, 3):
        match = new_match(GAME, {"difficulty": 3}, 1, seed)
        seer = Clairvoyant()
        seer.truth = (match.seed, match.rng_counter)
        sim = seer.determinize(match.state, 0, SearchRng(seed))
        seer.apply(sim, 0, "draw2", SearchRng(seed + 99))  # the search's own generator is ignored
        match, _ = act(match, 0, "draw2", inplace=True)
        assert sorted(sim.players[0].pool) == sorted(match.state.players[0].pool)
        assert sim.bag == match.state.bag


def test_a_game_ends_with_a_margin_over_the_track() -> None:
    margin = play(2002)
    assert margin == 1  # seed 2002; the clairvoyant evaluates its cuts and plays its rollouts as difícil does,
    # so this moves with the solo evaluation and the distilled offsets: +2 before the distilled rollouts, +1 with
    # them (docs/ai.md, "Solo, what the hidden bag costs"), −3 with the fit's third round, −4 with its fourth, +1
    # with the offsets distilled again from the search with that fit (a single game: the bound's figures are over
    # 30 or 60)


def test_the_nested_search_finds_a_line_the_game_plays_to_the_same_margin() -> None:
    match = new_match(GAME, {"difficulty": 3}, 1, 2002)
    policy_alone, _ = nested(0, copy_state(match.state), Rng(match.seed, match.rng_counter), SearchRng(1))
    found, line = nested(1, copy_state(match.state), Rng(match.seed, match.rng_counter), SearchRng(1))
    for choice in line:  # every choice legal where the game stands: `act` checks it
        match, _ = act(match, 0, choice, inplace=True)
    assert GAME.is_over(match.state)
    score = GAME.score(match.state)
    assert score.seats[0].total - score.rivals[0].total == found
    assert found > policy_alone  # it keeps the best whole game it met: far better than the policy's own game
    assert play_nested(2002) == 1  # docs/ai.md, "Solo, a nested search that sees the bag"
