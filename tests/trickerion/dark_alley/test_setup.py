"""The Dark Alley's setup, the Beco Escuro's actions, seven rounds, the options."""

import pytest
from pydantic import ValidationError

from rulesets.core import new_match
from rulesets.trickerion.dark_alley.facts import SPECIALS
from rulesets.trickerion.data import CARDS, TRICKS

from ..harness import do
from ..helpers import GAME
from .positions import begin, choices, give, go, keys, plan


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_deck_hand_decks_rounds(n):
    st = begin(n, seed=n).state
    assert [CARDS[c].theater for c in st.deck] == ["riverside"] * 2 + ["grand_magorian"] * 2 + ["magnus_pantheon"] * 2
    assert {c.id for c in st.row if c}.isdisjoint(st.deck)
    assert st.rounds == 7 and "dark_alley" in st.modules
    for loc, deck in st.alley.decks.items():
        assert sorted(deck) == sorted(c for c, d in SPECIALS.items() if d.location == loc)
    assert any(deck != sorted(deck) for deck in st.alley.decks.values())  # shuffled
    for p in st.p:
        assert p.hand == {"theater": 2, "workshop": 1, "market": 1, "downtown": 1, "alley": 1}


def test_level_three_tricks_in_the_residence():
    from rulesets.trickerion.town_center import residence

    base = begin(2).state
    assert any(TRICKS[t].level == 3 for t in residence(base))
    plain = new_match(GAME, {"beginner_setup": True}, 2, 0).state
    assert all(TRICKS[t].level < 3 for t in residence(plain))


def test_priestess_only_with_prophecies_and_prophecies_only_with_the_dark_alley():
    m = new_match(GAME, {"dark_alley": True}, 2, 0)
    assert "m:M03" not in choices(m, 0) and "m:M07" in choices(m, 0)
    with pytest.raises(ValidationError):
        GAME.Options.model_validate({"prophecies": True})
    base = new_match(GAME, {}, 2, 0)
    assert "m:M03" in choices(base, 0)  # the base game's magicians have no powers: all eight are offered


def test_seven_rounds_then_the_end():
    from rulesets.core.playout import random_playout

    result = random_playout(GAME, 2, 5, {"dark_alley": True})
    assert result.match.state.round == 7 and GAME.is_over(result.match.state)


# ---------------------------------------------------------------------------------------------- Beco Escuro


def test_draw_first_card_keep_one_the_other_to_the_bottom_once_per_placement():
    m = begin(2)
    plan(m, {0: {"mag": "alley"}})
    go(m, 0, "mag", "alley.0")  # +2: 5 AP
    assert m.state.cur.ap == 5 and "bx:1" in choices(m, 0) and "bx:2" in choices(m, 0)
    deck = list(m.state.alley.decks["market"])
    events = do(m, 0, "bx:1", "dk:market")
    assert m.state.cur.ap == 4 and m.state.ctx["drawn"] == deck[:2]
    public = [e for e in events if e.audience is None]
    assert keys(public) == ["da_draw"] and all(c not in str(e.text.params) for e in public for c in deck[:2])
    assert [e.audience for e in events if keys([e]) == ["da_drawn"]] == [[0]]
    do(m, 0, f"kp:{deck[1]}")
    assert m.state.p[0].hand[deck[1]] == 1 and m.state.alley.decks["market"] == deck[2:] + [deck[0]]
    assert "bx:1" not in choices(m, 0)  # once per placement
    do(m, 0, "bx:2", "dk:theater")
    do(m, 0, f"kp:{m.state.ctx['drawn'][0]}")
    assert m.state.cur.ap == 2
    do(m, 0, "bx:2", "dk:workshop")
    events = do(m, 0, f"kp:{m.state.ctx['drawn'][0]}")
    assert "char_spent" in keys(events) and m.state.cur is None  # 2 AP each: none left, the actions end


def test_a_deck_of_one_card_and_an_empty_deck():
    m = begin(2)
    plan(m, {0: {"mag": "alley"}})
    m.state.alley.decks["downtown"] = m.state.alley.decks["downtown"][:1]
    go(m, 0, "mag", "alley.3")
    only = m.state.alley.decks["downtown"][0]
    events = do(m, 0, "bx:1", "dk:downtown")  # the one card is kept without asking: told to the drawer only
    assert m.state.p[0].hand[only] == 1 and m.state.step == "acoes"
    told = next(e for e in events if keys([e]) == ["only"])
    assert told.audience == [0] and told.text.params["answer"].key == f"trickerion.card.{only}"
    do(m, 0, "bx:2")
    assert "dk:downtown" not in choices(m, 0) and "dk:market" in choices(m, 0)


def test_clairvoyance_needs_the_prophecies():
    m = begin(2)
    plan(m, {0: {"mag": "alley"}})
    go(m, 0, "mag", "alley.0")
    assert "bx:cv" not in choices(m, 0) and "bx:td" not in choices(m, 0)


def test_special_cards_in_hand_are_secret():
    m = begin(3)
    give(m, 1, "A33")
    for viewer in (None, 0, 2):
        players = GAME.view(m.state, viewer)["players"]
        assert "A33" not in players[1]["hand"] and players[1]["hidden_cards"] == 1
    assert GAME.view(m.state, 1)["players"][1]["hand"]["A33"] == 1
    assert "A33" not in str([t.params for t in GAME.table(m.state, 0)])
