"""Random Dark Alley games (half with prophecies) with the invariants after every action, replay
equality at the end, and every special card and magician showing up."""

import pytest

from rulesets.core import replay, state_hash
from rulesets.core.playout import random_playout
from rulesets.trickerion.dark_alley.facts import SPECIALS

from ..helpers import GAME, eager_playout, purposeful_playout, survives_json
from .checks import Invariants

SETUPS = [(n, proph) for n in (2, 3, 4) for proph in (False, True)]


def options(proph: bool) -> dict:
    return {"dark_alley": True, "prophecies": proph}


SECRET = ("da_drawn", "da_kept", "assigned", "unassigned")


def secret_events_stay_private(match) -> None:
    """Cards drawn, kept or put under characters are told to their player only; no public event names a
    special card before its reveal (the reveal and placement lines come after the assignment phase)."""
    for entry in match.log:
        for event in entry.events:
            key = event.text.key.split(".")[-1]
            if key in SECRET:
                assert event.audience is not None and len(event.audience) == 1, key
            elif event.audience is None and key in ("da_draw", "da_dealt", "assign_done"):
                assert "trickerion.card.A" not in repr(event.text.params), key


def play(players: int, proph: bool, uniform, eager, views_every: int) -> set[str]:
    seen: set[str] = set()
    for seed in uniform:
        check = Invariants(views_every)
        match = random_playout(GAME, players, seed, options(proph), check=check).match
        assert match.state.round == 7 and GAME.is_over(match.state)
        assert state_hash(replay(match)) == state_hash(match)
        secret_events_stay_private(match)
        survives_json(match)
        seen |= check.seen
    for seed in eager:
        for playout in (eager_playout, purposeful_playout):
            check = Invariants(views_every)
            match = playout(players, seed, options(proph), check=check)
            assert state_hash(replay(match)) == state_hash(match)
            secret_events_stay_private(match)
            survives_json(match)
            seen |= check.seen
    return seen


@pytest.mark.parametrize("players,proph", SETUPS)
def test_quick_playouts_with_every_view_checked(players, proph):
    play(players, proph, range(3), range(1), views_every=1)


def test_every_special_card_and_magician_appears():
    seen: set[str] = set()
    for players, proph in SETUPS:
        seen |= play(players, proph, range(100, 130), (), views_every=10**9)
    assert set(SPECIALS) <= seen
    assert {f"M0{i}" for i in range(1, 9)} <= seen


@pytest.mark.parametrize("extra", [{"quick_game": True}, {"secret_workshop": True, "prophecies": True}])
def test_with_the_other_option_modules(extra):
    for players in (2, 4):
        for seed in range(2):
            match = random_playout(GAME, players, seed, {"dark_alley": True, **extra}, check=Invariants(5)).match
            assert state_hash(replay(match)) == state_hash(match)
            purposeful_playout(players, seed, {"dark_alley": True, **extra}, check=Invariants(5))


# 6 setups x 4 batches x (20 uniform + 4 eager + 4 weighted) = 672 games, half with prophecies.
@pytest.mark.slow
@pytest.mark.parametrize("batch", range(4))
@pytest.mark.parametrize("players,proph", SETUPS)
def test_many_playouts(players, proph, batch):
    base = 2000 + 100 * batch
    play(players, proph, range(base, base + 20), range(base, base + 4), views_every=10)
