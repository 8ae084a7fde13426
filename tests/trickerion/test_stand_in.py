"""The stand-in (a player who left) spends nothing it need not: in every decision of every module it passes,
declines or takes the cheapest harmless option; whole games with stand-in seats from the start finish."""

from __future__ import annotations

from collections import Counter

import pytest

from rulesets.trickerion.game import cost_of

from .harness import do
from .helpers import GAME, eager_playout


class SpendCheck:
    """Before a stand-in move: no legal option was cheaper. As a shadow (`check` of a playout) it asks the
    stand-in at every decision of the other seats too, so every step the playouts reach is covered."""

    def __init__(self) -> None:
        self.steps: Counter[str] = Counter()

    def __call__(self, state, s: int, choice: str) -> None:
        self.steps[state.step] += 1
        cost = cost_of(state, s, choice)
        if cost:
            cheapest = min(cost_of(state, s, c) for c in GAME.legal_choices(state, s))
            assert cost <= cheapest, (state.step, choice, cost, GAME.legal_choices(state, s))

    def shadow(self, game, match) -> None:
        st = match.state
        for s in game.to_act(st):
            self(st, s, game.stand_in_choice(st, s, 3))


CASES = [
    ({}, 2, 3),
    ({"dark_alley": True, "prophecies": True}, 3, 5),
    ({"dark_alley": True}, 4, 6),
    ({"secret_workshop": True, "quick_game": True}, 2, 7),
    ({"secret_workshop": True, "quick_game": True, "dark_alley": True, "prophecies": True}, 3, 8),
]


@pytest.mark.parametrize(("options", "players", "seed"), CASES)
def test_stand_ins_from_the_start_never_spend_when_a_free_option_exists(options, players, seed):
    spend = SpendCheck()
    match = eager_playout(players, seed, options, check=spend.shadow, stand_ins=frozenset(range(1, players)),
                          stand_in_check=spend)
    assert GAME.is_over(match.state)
    stand_in = match.state.p[1]
    assert stand_in.fame >= 0 and match.state.round == (7 if options.get("dark_alley") else 5)
    assert {"assign", "alocar"} <= set(spend.steps), spend.steps


def test_a_yes_no_question_is_declined_and_a_card_number_is_not_a_no():
    from rulesets.trickerion.game import _declines

    assert _declines("me:0", ["me:1", "me:0"]) and not _declines("pc:0", ["pc:0", "pc:1", "pc:2"])


def _stand_in_says(m, seat: int) -> set[str]:
    return {GAME.stand_in_choice(m.state, seat, pick) for pick in range(6)}


def test_the_stand_in_declines_what_cards_powers_and_prophecies_offer():
    from .dark_alley.test_magicians import performing
    from .dark_alley.test_special_cards import game, with_card

    m = performing(("M05", "M07"), {"0.0": (0, 0, "T25")}, {"0.0": (0, 1, "T26")})
    assert m.state.step == "da_possessao" and _stand_in_says(m, 1) == {"yo:-"}  # Yoruba's Shard kept
    m = game()
    with_card(m, 0, "A26", "downtown.0")
    m.state.dice.update(i0="manager", i1="apprentice")
    do(m, 0, "ct:i1")
    assert m.state.step == "da_recrutar" and _stand_in_says(m, 0) == {"mr:0"}  # no 3 coins for a second
    m = game()
    with_card(m, 0, "A35", "downtown.3", bonus=None)
    do(m, 0, "sb")
    assert _stand_in_says(m, 0) == {"fe:0"}  # Empower's Shard kept
    m = game()
    with_card(m, 0, "A37", "market.3")
    m.state.p[0].comps, m.state.p[0].fame = {}, 5
    do(m, 0, "sg:-")
    assert _stand_in_says(m, 0) == {"voltar"}  # backs out before paying Fame
    do(m, 0, "sg:wood")
    assert _stand_in_says(m, 0) == {"sq:1"}  # no way back: the cheapest quantity
