"""Random playouts with the invariants after every action and log replay at the end."""

import pytest

from rulesets.core import replay, state_hash
from rulesets.core.playout import random_playout

from .helpers import GAME, Invariants, eager_playout, purposeful_playout, survives_json

SETUPS = [(n, b) for n in (2, 3, 4) for b in (False, True)]


def _check_uniform(players, beginner, seeds):
    for seed in seeds:
        result = random_playout(GAME, players, seed, {"beginner_setup": beginner}, check=Invariants())
        assert result.match.state.round == 5 and GAME.is_over(result.match.state)
        assert state_hash(replay(result.match)) == state_hash(result.match)
        survives_json(result.match)


def _check_eager(players, beginner, seeds):
    for seed in seeds:
        for play in (eager_playout, purposeful_playout):
            match = play(players, seed, {"beginner_setup": beginner}, check=Invariants())
            assert state_hash(replay(match)) == state_hash(match)
            survives_json(match)


@pytest.mark.parametrize("players,beginner", SETUPS)
def test_quick_playouts(players, beginner):
    _check_uniform(players, beginner, range(5))
    _check_eager(players, beginner, range(3))


# 6 setups x 4 batches x (25 uniform + 10 eager + 10 weighted) = 1080 games, split so xdist can spread them.
@pytest.mark.slow
@pytest.mark.parametrize("batch", range(4))
@pytest.mark.parametrize("players,beginner", SETUPS)
def test_many_playouts(players, beginner, batch):
    base = 1000 + 100 * batch
    _check_uniform(players, beginner, range(base, base + 25))
    _check_eager(players, beginner, range(base, base + 10))
