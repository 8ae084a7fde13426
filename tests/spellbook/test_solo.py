"""Modo Solo: the opponent's track and bottom area, the Altar of 7, difficulty, the end."""

import pytest

from rulesets.core import Rng
from rulesets.spellbook.data import TRACK
from rulesets.spellbook.game import GAME
from rulesets.spellbook.scoring import final_score
from rulesets.spellbook.state import MIDDAY, NIGHT, OVER, Options

from .helpers import m, play, position

SET3 = ["flame", "divination", "growth", "feast", "clone", "mirage", "communion"]


@pytest.mark.parametrize("difficulty", [0, 1, 2, 3])
def test_setup_altar_of_seven_and_difficulty(difficulty):
    st, _ = GAME.setup(Options(difficulty=difficulty), 1, Rng(2))
    assert len(st.altar) == 7 and len(st.bottom) == difficulty and st.opp == []


def test_end_of_day_feeds_the_track_then_refills_to_seven():
    altar = m("red_circle", "red_square", "blue_circle", "blue_square", "white_circle")
    st = position(players=1, phase=NIGHT, altar=altar)
    play(st, "pass")
    assert st.q[0]["do"] == "feed_track"
    keys, out = play(st, "blue_square", draws=["green_circle", "green_circle", "green_square"])
    assert st.opp == m("blue_square") and len(st.altar) == 7 and out.checkpoint
    assert keys[:2] == ["solo_track", "altar_added"]


@pytest.mark.parametrize("space", TRACK.altar_reset)
def test_altar_symbol_spaces_reset_the_altar(space):
    tokens = m(*["red_circle"] * 5, *["red_square"] * 5, *["red_triangle"] * 5, "blue_circle", "blue_square")
    placed = tokens[:space - 1]
    st = position(players=1, phase=NIGHT, altar=m("white_circle", "white_square"), opp=placed)
    play(st, "pass")
    keys, _ = play(st, "white_circle")
    assert len(st.opp) == space and "altar_cleared" in keys and len(st.altar) == 7
    assert st.disc[m("white_square")[0]] == 1


def test_a_crowded_altar_is_reset_at_the_end_of_the_day():
    ten = m(*["white_circle"] * 5, *["white_square"] * 5, "red_circle")
    st = position(players=1, phase=NIGHT, altar=ten)
    play(st, "pass")
    keys, _ = play(st, "red_circle")  # 10 remain after the placement on space 1
    assert "altar_cleared" in keys and len(st.altar) == 7


def test_track_full_ends_the_game_and_the_opponent_scores():
    placed = m(*["red_circle"] * 5, *["red_square"] * 5, *["red_triangle"] * 5, "blue_circle")
    st = position(players=1, phase=NIGHT, altar=m("white_circle"), opp=placed, bottom=m("green_circle", "green_square"),
                  fams={0: m(*["black_circle"] * 5, "black_square")})
    play(st, "pass")  # the single Altar token is forced onto space 17
    assert st.phase == OVER and st.ending == "track"
    score = final_score(st)
    assert score.rivals[0].total == 40 + 2 and score.winners == []
    assert score.seats[0].total == 7


def test_opponent_score_and_tie_means_nobody_wins():
    st = position(players=1, opp=m(*["red_circle"] * 4), bottom=m("green_circle"),
                  fams={0: m(*["black_circle"] * 5, "black_square", "black_square", "black_triangle")})
    score = final_score(st)
    assert score.rivals[0].total == 14 + 1 and score.seats[0].total == 9 and score.winners == []
    st = position(players=1, opp=m(*["red_circle"] * 4), bottom=m("green_circle"),
                  learned={0: {"sacrifice": (4, m("red_triangle")[0]), "levitation": (5, m("purple_square")[0]),
                               "purification": (3, m("green_triangle")[0])}},
                  fams={0: m(*["black_circle"] * 5, "black_square")})
    score = final_score(st)
    assert score.seats[0].total == 15 == score.rivals[0].total and score.winners == []
    assert score.notes[0].key == "spellbook.score.solo_tie"


def test_flame_and_sharing_feed_the_bottom_area():
    st = position(players=1, spells=SET3, learned={0: {"flame": (3, m("red_circle")[0])}},
                  altar=m("blue_circle", "blue_square"))
    play(st, "flame", draws=["green_circle"] * 4)
    play(st, "blue_square")
    assert st.bottom == m("blue_square")
    st = position(players=1, spells=["eruption", "sharing", "cure", "focus", "storm", "swiftness", "knowledge"],
                  learned={0: {"sharing": (4, m("purple_circle")[0])}}, altar=m("blue_circle", "blue_square"))
    play(st, "sharing_4")
    play(st, "blue_circle", draws=["white_circle"])  # the blue square is then forced
    assert st.bottom == m("white_circle") and st.players[0].pool == m("blue_circle", "blue_square")


def test_clone_copies_the_level_4_effect_of_a_spell_not_learned():
    st = position(players=1, spells=SET3, phase=MIDDAY, learned={0: {"clone": (4, m("white_square")[0])}},
                  altar=m("red_circle", "red_square"), pools={0: m("blue_circle")})
    from rulesets.spellbook.spells.white import copy_options

    assert copy_options(st, 0, "night") == ["s.growth_2"]  # no primary action: there is no other player
    play(st, "clone_night")  # so Crescimento at level 4 starts at once
    play(st, "red_circle")  # then red_square is forced
    assert len(st.players[0].fam) == 2 and st.players[0].lv[4] == 3  # Clone went down
