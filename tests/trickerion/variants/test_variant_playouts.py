"""Random playouts with the Secret Workshop, the quick game and both: the base invariants (extended
by VariantInvariants) after every action, and log replay equality at the end."""

import pytest

from rulesets.core import replay, state_hash
from rulesets.core.playout import random_playout

from ..helpers import GAME, eager_playout, purposeful_playout
from .support import VariantInvariants, workshop_playout

OPTIONS = {
    "secret_workshop": {"secret_workshop": True},
    "quick_game": {"quick_game": True},
    "both": {"secret_workshop": True, "quick_game": True},
}


def _play(name: str, players: int, seeds: range, beginner: bool) -> dict[str, int]:
    """Uniform, eager and two weighted playouts for each seed; returns how often the options' own moves came up."""
    options = {"beginner_setup": beginner, **OPTIONS[name]}
    seen = {"secret_workshop": 0, "expert": 0, "quick_comps": 0}
    for seed in seeds:
        uniform = random_playout(GAME, players, seed, options, check=VariantInvariants()).match
        matches = [uniform] + [play(players, seed, options, check=VariantInvariants())
                               for play in (eager_playout, purposeful_playout, workshop_playout)]
        for match in matches:
            assert GAME.is_over(match.state) and match.state.round == 5
            assert state_hash(replay(match)) == state_hash(match)
            choices = [entry.choice for entry in match.log]
            seen["secret_workshop"] += sum(c.endswith(":secret_workshop.0") for c in choices)
            seen["expert"] += sum(c.startswith("sn:") for c in choices)
            seen["quick_comps"] += sum(c.startswith("qc:") for c in choices)
    return seen


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", list(OPTIONS))
def test_quick_playouts(name, players):
    seen = _play(name, players, range(4), beginner=True)  # its starting tricks can be prepared at once
    if "secret_workshop" in OPTIONS[name]:
        assert seen["secret_workshop"] and seen["expert"]
    if "quick_game" in OPTIONS[name]:
        assert seen["quick_comps"] >= 4 * 3 * players


# 3 options x 3 player counts x 2 setups x 2 batches x 5 seeds x 4 playouts = 720 games (240 per option),
# plus the 144 above (48 per option); batches small enough for xdist to spread them.
@pytest.mark.slow
@pytest.mark.parametrize("batch", range(2))
@pytest.mark.parametrize("beginner", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", list(OPTIONS))
def test_many_playouts(name, players, beginner, batch):
    base = 2000 + 100 * batch + 10 * players
    _play(name, players, range(base, base + 5), beginner)
