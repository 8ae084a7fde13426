"""`Game.settled`: the menus a game kept from the end of its last move are exactly those it would
list again. The playouts and the search take them instead of asking (`to_act`, `legal_choices`),
so a kept menu that differed would change every simulated game without any other test noticing."""

from __future__ import annotations

import random

import pytest

from rulesets.core import act, new_match
from rulesets.registry import get_game

TABLES = [
    ("spellbook", 1, {"difficulty": 3}),
    ("spellbook", 2, {"mode": "classic"}),
    ("spellbook", 4, {"mode": "set2"}),
    ("trickerion", 2, {}),
    ("trickerion", 4, {"dark_alley": True, "prophecies": True}),
]


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_the_kept_menus_are_the_ones_the_game_would_list(name: str, players: int, options: dict) -> None:
    game = get_game(name)
    kept_at = 0
    for seed in range(3):
        match = new_match(game, options, players, 700 + seed)
        pick = random.Random(seed)
        for _ in range(3000):
            state = match.state
            if game.is_over(state):
                break
            kept = game.settled(state)
            seats = game.to_act(state)
            if kept is not None:
                kept_at += 1
                assert kept[0] == seats
                for seat, menu in kept[1].items():
                    assert seat in seats
                    assert menu == game.legal_choices(state, seat)
            seat = pick.choice(seats)
            match, _ = act(match, seat, pick.choice(game.legal_choices(state, seat)), inplace=True)
        assert game.is_over(match.state)
    assert kept_at > 100  # the game does keep them: the check above was made
