"""Setup, the Day, the pool limit, the Altar, the bag, the end of the game and scoring."""

import pytest

from rulesets.core import Rng, new_match
from rulesets.spellbook.data import NKIND, SET_SPELLS
from rulesets.spellbook.game import GAME
from rulesets.spellbook.scoring import final_score
from rulesets.spellbook.state import DUSK, MIDDAY, MORNING, NIGHT, OVER, Options

from .helpers import legal, m, play, position


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup(players):
    st, events = GAME.setup(Options(), players, Rng(7))
    assert len(st.altar) == (7 if players == 1 else 5)
    assert all(len(pl.pool) == 2 for pl in st.players)
    assert sum(st.bag) == 105 - len(st.altar) - 2 * players
    assert 0 <= st.first < players and st.cur == st.first
    assert st.spells == SET_SPELLS[1]
    assert st.phase == MORNING
    assert "spellbook.log.first_player" in [e.text.key for e in events]


@pytest.mark.parametrize("mode,spells", [("first", SET_SPELLS[1]), ("set2", SET_SPELLS[2]), ("set3", SET_SPELLS[3])])
def test_fixed_sets(mode, spells):
    st, _ = GAME.setup(Options(mode=mode), 2, Rng(1))
    assert st.spells == spells


def test_classic_draws_one_card_per_colour_for_everyone():
    seen = set()
    for seed in range(30):
        st, _ = GAME.setup(Options(mode="classic"), 3, Rng(seed))
        assert [GAME_COLOUR(s) for s in st.spells] == list(range(7))
        seen.add(tuple(st.spells))
    assert len(seen) > 20  # random, one of 2,187 combinations


def GAME_COLOUR(spell):
    from rulesets.spellbook.data import SPELL_COLOUR

    return SPELL_COLOUR[spell]


def test_custom_first_player_picks_one_spell_per_colour():
    st, _ = GAME.setup(Options(mode="custom"), 3, Rng(4))
    assert GAME.to_act(st) == [st.first]
    picks = ["flame", "levitation", "cure", "feast", "clone", "mirage", "knowledge"]
    for spell in picks:
        assert len(legal(st)) == 3
        play(st, spell, seat=st.first)
    assert st.spells == picks and st.phase == MORNING and st.cur == st.first


def test_custom_spells_option_for_the_cli():
    match = new_match("spellbook", {"mode": "custom", "spells": "mirage,flame,cure,feast,clone,levitation,knowledge"},
                      2, 3)
    assert match.state.spells == ["flame", "levitation", "cure", "feast", "clone", "mirage", "knowledge"]
    with pytest.raises(ValueError):
        new_match("spellbook", {"mode": "custom", "spells": "flame,eruption,cure,feast,clone,mirage,knowledge"}, 2, 3)
    with pytest.raises(ValueError):
        new_match("spellbook", {"difficulty": 2}, 2, 3)


def test_morning_take_one_or_draw_two_then_midday_store_then_night():
    st = position(pools={0: m("red_circle", "blue_square")}, altar=m("green_circle", "black_square", "white_square",
                                                                      "yellow_circle", "purple_triangle"))
    assert set(legal(st)) == {"take.green_circle", "take.black_square", "take.white_square", "take.yellow_circle",
                              "take.purple_triangle", "draw2", "pass"}
    keys, _ = play(st, "take.green_circle")
    assert keys == ["took"] and st.phase == MIDDAY
    assert st.players[0].pool == sorted(m("red_circle", "blue_square", "green_circle"))
    keys, _ = play(st, "store.blue_square")
    assert st.players[0].fam == m("blue_square")
    # nothing to learn: the Night is skipped by itself, the Altar refilled, the next Day begins
    assert st.cur == 1 and st.phase == MORNING and st.players[0].days == 1
    assert len(st.altar) == 5  # 4 left -> filled back to 5


def test_draw_two_and_one_action_per_phase():
    st = position(pools={0: m("red_circle")}, altar=m("green_circle"))
    keys, out = play(st, "draw2", draws=["black_circle", "black_square"])
    assert keys == ["drew"] and st.phase == MIDDAY
    assert st.players[0].pool == sorted(m("red_circle", "black_circle", "black_square"))
    assert not out.checkpoint


def test_any_phase_can_be_skipped():
    st = position(pools={0: m("red_circle")}, altar=m("green_circle"))
    keys, _ = play(st, "pass")
    assert keys == ["passed"] and st.phase == MIDDAY
    keys, out = play(st, "pass")
    assert st.cur == 1 and out.checkpoint  # the Day ended (Night had nothing to do)


def test_pool_limit_cuts_draws_and_forbids_takes():
    st = position(pools={0: m(*["red_circle"] * 5, *["blue_circle"] * 3)}, altar=m("green_circle"))
    play(st, "draw2", draws=["black_circle"])
    assert len(st.players[0].pool) == 9
    st = position(pools={0: m(*["red_circle"] * 5, *["blue_circle"] * 4)}, altar=m("green_circle"))
    assert "draw2" not in legal(st) and "take.green_circle" not in legal(st)


def test_familiar_fills_first_free_space_and_full_board_ends_the_game():
    full = m(*["red_circle"] * 5, *["red_square"] * 5, *["blue_square"] * 3)
    st = position(players=3, first=1, cur=2, phase=MIDDAY, pools={2: m("green_circle")}, fams={2: full},
                  altar=m(*["yellow_circle"] * 5))
    keys, _ = play(st, "store.green_circle")
    assert "end_familiar" in keys and st.ending == "familiar"
    assert st.cur == 0  # the round is finished: seat 0 (right of first player 1) still plays
    play(st, "pass")  # its Midday and Night have nothing to do
    assert st.phase == OVER
    assert [pl.days for pl in st.players] == [1, 0, 1]  # from a hand-made position: equal from here on
    assert final_score(st).end_reason == "familiar"


def test_midday_store_not_offered_on_a_full_familiar():
    full = m(*["red_circle"] * 5, *["red_square"] * 5, *["blue_square"] * 4)
    st = position(phase=MIDDAY, pools={0: m("green_circle")}, fams={0: full})
    assert not any(c.startswith("store.") for c in GAME.legal_choices(st, 0))


def test_altar_refill_rules():
    from rulesets.spellbook.altar import refill
    from rulesets.spellbook.state import Log

    # fewer than 5: fill to 5
    st = position(altar=m("red_circle", "red_square"))
    refill(st, Rng(1), Log())
    assert len(st.altar) == 5
    # 5-9: add one
    st = position(altar=m(*["red_circle"] * 5, "red_square", "red_triangle"))
    refill(st, Rng(1), Log())
    assert len(st.altar) == 8
    # the rulebook's example: a full Altar (10) is discarded and 5 new ones drawn
    ten = m(*["red_circle"] * 5, *["blue_square"] * 5)
    st = position(altar=ten)
    log = Log()
    refill(st, Rng(1), log)
    assert len(st.altar) == 5 and sum(st.disc) == 10
    assert [e.text.key for e in log.events] == ["spellbook.log.altar_cleared", "spellbook.log.altar_added"]


def test_empty_bag_takes_back_the_discards():
    from rulesets.spellbook import materia as mt
    from rulesets.spellbook.state import Log

    st = position(pools={0: []})
    st.disc = list(st.bag)
    st.bag = [0] * NKIND
    log = Log()
    got = mt.draw_to_pool(st, 0, 2, Rng(3), log)
    assert len(got) == 2 and sum(st.disc) == 0 and sum(st.bag) == 103
    assert log.events[0].text.key == "spellbook.log.bag_refilled"
    st.bag = [0] * NKIND  # nothing anywhere: the draw just comes up short
    assert mt.draw_to_pool(st, 0, 2, Rng(3), Log()) == []


def test_seventh_spell_ends_after_everyone_had_the_same_number_of_days():
    six = {s: (3, k) for s, k in zip(SET_SPELLS[1][:6], m("red_circle", "purple_circle", "green_circle",
                                                           "black_circle", "white_circle", "blue_circle"), strict=True)}
    st = position(players=2, first=0, cur=0, phase=NIGHT, learned={0: six},
                  pools={0: m("yellow_circle", "yellow_square", "yellow_triangle")}, altar=m("red_square"))
    play(st, "learn")  # only Abundância; level 3; then the token and payment
    while st.q:
        play(st, legal(st)[0])
    assert st.ending == "spells"
    assert st.cur == 1 and st.phase != OVER  # seat 1 still gets its Day
    while not GAME.is_over(st):
        play(st, "pass")
    assert [pl.days for pl in st.players] == [1, 1]


def test_scoring_example_of_the_rulebook_26_points():
    learned = {"sacrifice": (4, m("red_triangle")[0]), "levitation": (5, m("purple_square")[0]),
               "purification": (3, m("green_circle")[0]), "time_travel": (4, m("white_circle")[0]),
               "abundance": (5, m("yellow_circle")[0])}
    st = position(learned={0: learned}, fams={0: m(*["red_circle"] * 5, "blue_circle")})
    score = final_score(st).seats[0]
    assert [line.points for line in score.lines] == [2, 5, 1, 4, 7, 7]
    assert score.total == 26


def test_tie_breaks_spells_then_pool_then_shared():
    a = {"sacrifice": (4, m("red_triangle")[0])}  # 2 points
    b = {"offering": (3, m("black_circle")[0])}  # 2 points
    st = position(players=3, learned={0: a, 1: b}, fams={2: m("blue_circle", "blue_square")})  # seat 2: 2 points
    st.players[0].pool = m("red_circle")
    score = final_score(st)
    assert [s.total for s in score.seats] == [2, 2, 2]
    assert score.winners == [0]  # seats 0 and 1 learned a spell; seat 0 has more in the pool
    assert [n.key for n in score.notes] == ["spellbook.score.tie_spells", "spellbook.score.tie_pool"]
    st.players[1].pool = m("red_square")
    score = final_score(st)
    assert score.winners == [0, 1] and score.notes[-1].key == "spellbook.score.tie_shared"


def test_the_night_passes_to_the_end_of_day_and_the_checkpoint():
    st = position(phase=NIGHT, pools={0: m("red_circle", "red_square", "red_triangle")}, altar=m("blue_circle"))
    keys, out = play(st, "pass")
    assert out.checkpoint and st.cur == 1 and st.phase == MORNING
    assert "altar_added" in keys and keys[-1] == "day_begins"
    assert DUSK > NIGHT
