"""Every spell at every level (rulebook appendix, p.10-14)."""

import pytest

from rulesets.spellbook.data import SPELL_COLOUR, SPELLS
from rulesets.spellbook.scoring import final_score
from rulesets.spellbook.state import MIDDAY, MORNING, NIGHT

from .helpers import legal, m, play, position

SET1 = ["sacrifice", "levitation", "purification", "offering", "time_travel", "transmutation", "abundance"]
SET2 = ["eruption", "sharing", "cure", "focus", "storm", "swiftness", "knowledge"]
SET3 = ["flame", "divination", "growth", "feast", "clone", "mirage", "communion"]


def tok(name):
    return m(name)[0]


def lv(st, spell, seat=0):
    return st.players[seat].lv[SPELL_COLOUR[spell]]


# --- red ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("level,runes", [(3, ["red_circle"]), (4, ["red_circle", "red_triangle"]),
                                         (5, ["red_circle", "red_triangle", "red_square"])])
def test_sacrifice_levels_widen_the_rune_discarded(level, runes):
    st = position(learned={0: {"sacrifice": (level, tok("red_circle"))}},
                  pools={0: m("red_circle", "red_triangle", "red_square")})
    if len(runes) == 1:  # a single possible discard is made without asking
        play(st, "sacrifice", draws=["blue_circle"] * 4)
        assert st.players[0].pool == sorted(m("red_triangle", "red_square", *["blue_circle"] * 4))
    else:
        play(st, "sacrifice")
        assert legal(st) == runes


def test_sacrifice_draws_stop_at_nine():
    pool = m(*["blue_circle"] * 5, *["green_circle"] * 3)
    st = position(learned={0: {"sacrifice": (3, tok("red_circle"))}}, pools={0: pool})
    play(st, "sacrifice")
    play(st, "blue_circle", draws=["black_circle", "black_circle"])
    assert len(st.players[0].pool) == 9  # 8 - 1 + 2


@pytest.mark.parametrize("level,options", [(3, ["eruption_4"]), (4, ["eruption_4", "eruption_5"]),
                                           (5, ["eruption_4", "eruption_5", "eruption_6"])])
def test_eruption_draws_up_to_the_level_target(level, options):
    st = position(spells=SET2, learned={0: {"eruption": (level, tok("red_circle"))}}, pools={0: m("blue_circle")})
    assert [o for o in legal(st) if o.startswith("eruption")] == options
    play(st, options[-1], draws=["green_circle"] * 6)
    assert len(st.players[0].pool) == level + 1


def test_eruption_does_nothing_when_the_pool_is_big_enough():
    st = position(spells=SET2, learned={0: {"eruption": (5, tok("red_circle"))}},
                  pools={0: m(*["blue_circle"] * 5)})
    assert [o for o in legal(st) if o.startswith("eruption")] == ["eruption_6"]


@pytest.mark.parametrize("level", [3, 4, 5])
def test_flame_draw_four_then_others_take_one_from_the_left(level):
    st = position(players=4, spells=SET3, cur=1, learned={1: {"flame": (level, tok("red_circle"))}},
                  pools={3: m(*["blue_circle"] * 5, *["blue_square"] * 4)},
                  altar=m("green_circle", "black_square", "black_square"))
    play(st, "flame", draws=["white_circle"] * 4)
    assert len(st.players[1].pool) == 4
    assert legal(st) == ["green_circle", "black_square"] and st.q[0]["seat"] == 2
    play(st, "black_square", seat=2)
    play(st, "green_circle", seat=0)  # seat 3 holds 9: skipped
    assert st.players[2].pool == m("black_square") and st.players[0].pool == m("green_circle")
    assert st.altar == m("black_square") and st.phase == MIDDAY


# --- purple ------------------------------------------------------------------------------------

def test_levitation_takes_two_of_one_rune():
    altar = m("green_circle", "black_circle", "white_triangle", "blue_triangle", "red_square")
    st = position(learned={0: {"levitation": (4, tok("purple_circle"))}}, altar=altar)
    play(st, "levitation")
    assert legal(st) == ["green_circle", "black_circle", "white_triangle", "blue_triangle"]  # no square at 4
    play(st, "white_triangle")  # the second must be a triangle too: forced
    assert st.players[0].pool == m("white_triangle", "blue_triangle")


def test_levitation_level_3_only_circles():
    st = position(learned={0: {"levitation": (3, tok("purple_circle"))}}, altar=m("green_triangle", "red_square"))
    assert "levitation" not in legal(st)


@pytest.mark.parametrize("level", [3, 4, 5])
def test_sharing_levels_and_everyone_else_draws_one(level):
    altar = m("green_circle", "green_circle", "green_circle", "red_square")
    st = position(players=3, spells=SET2, learned={0: {"sharing": (level, tok("purple_circle"))}}, altar=altar,
                  pools={2: m(*["blue_circle"] * 5, *["blue_square"] * 4)})
    assert [o for o in legal(st) if o.startswith("sharing")] == [f"sharing_{n}" for n in range(3, level + 1)]
    if level == 3:
        play(st, "sharing_3")
        play(st, "green_circle", draws=["white_circle", "black_circle"])
        assert st.players[0].pool == m("green_circle", "white_circle")
    else:
        play(st, f"sharing_{level}")
        for _ in range(level - 2):
            play(st, "green_circle", draws=["black_circle"])
        assert st.players[0].pool == m(*["green_circle"] * (level - 2))
    assert st.players[1].pool == m("black_circle") and len(st.players[2].pool) == 9


def test_divination_level_3_take_two_then_discard_one():
    st = position(spells=SET3, learned={0: {"divination": (3, tok("purple_circle"))}}, altar=m("green_circle"))
    play(st, "divination_3", draws=["red_square", "red_square"])
    assert sorted(st.altar) == m("red_square", "red_square", "green_circle")
    play(st, "red_square")
    play(st, "green_circle")
    assert legal(st) == ["red_square", "green_circle"]  # now discard 1
    play(st, "green_circle")
    assert st.players[0].pool == m("red_square") and st.disc[tok("green_circle")] == 1


def test_divination_level_4_up_to_two_of_one_colour():
    st = position(spells=SET3, learned={0: {"divination": (4, tok("purple_circle"))}}, altar=m("green_circle"))
    play(st, "divination_4", draws=["green_square", "red_square"])
    play(st, "green_square")
    assert legal(st) == ["green_circle", "done"]
    play(st, "done")
    assert st.players[0].pool == m("green_square") and st.phase == MIDDAY


def test_divination_level_5_may_push_the_altar_past_ten():
    ten = m(*["green_circle"] * 5, *["blue_square"] * 5)
    st = position(spells=SET3, learned={0: {"divination": (5, tok("purple_circle"))}}, altar=ten)
    play(st, "divination_5", draws=["red_square", "red_square"])
    assert len(st.altar) == 12
    play(st, "red_square")
    play(st, "blue_square")
    assert len(st.altar) == 10


# --- green -------------------------------------------------------------------------------------

@pytest.mark.parametrize("level", [3, 4, 5])
def test_purification_swaps_even_at_nine(level):
    pool = m(*["red_circle"] * 5, *["red_square"] * 4)
    st = position(phase=MIDDAY, learned={0: {"purification": (level, tok("green_circle"))}},
                  pools={0: pool}, altar=m("blue_circle", "blue_square", "white_circle"))
    n = level - 2
    assert [o for o in legal(st) if o.startswith("purification")] == [f"purification_{i}" for i in range(1, n + 1)]
    play(st, f"purification_{n}")
    for k in ["blue_circle", "blue_square", "white_circle"][:n]:
        play(st, k)  # an Altar token
        play(st, "red_circle")  # given back for it
    assert len(st.players[0].pool) == 9 and st.altar.count(tok("red_circle")) == n


@pytest.mark.parametrize("level", [3, 4, 5])
def test_cure_draws_then_discards_even_more_than_drawn(level):
    n = level - 2
    pool = m(*["red_circle"] * 5, *["red_square"] * 3)
    st = position(spells=SET2, phase=MIDDAY, learned={0: {"cure": (level, tok("green_circle"))}}, pools={0: pool})
    play(st, f"cure_{n}", draws=["blue_circle"] * n)
    assert len(st.players[0].pool) == 9  # only one could be drawn
    for _ in range(n):
        if st.q:
            play(st, legal(st)[0])
    assert len(st.players[0].pool) == 9 - n


def test_growth_level_3_swaps_with_the_familiar_without_moving_the_token():
    st = position(spells=SET3, phase=NIGHT, learned={0: {"growth": (5, tok("green_circle"))}},
                  pools={0: m("red_circle")}, fams={0: m("blue_square", "white_circle")})
    play(st, "growth_swap")
    play(st, "white_circle")  # red_circle given is the only pool token: forced
    assert st.players[0].fam == m("blue_square", "red_circle") and st.players[0].pool == m("white_circle")
    assert lv(st, "growth") == 5


@pytest.mark.parametrize("level,option,after", [(4, "growth_2", 3), (5, "growth_3", 4), (5, "growth_2", 4)])
def test_growth_stores_from_the_altar_then_drops_a_level(level, option, after):
    altar = m("red_circle", "red_square", "blue_circle", "white_circle")
    st = position(spells=SET3, phase=NIGHT, learned={0: {"growth": (level, tok("green_circle"))}}, altar=altar)
    play(st, option)
    for _ in range(int(option[-1])):
        play(st, legal(st)[0])
    assert len(st.players[0].fam) == int(option[-1]) and lv(st, "growth") == after
    assert final_score(st).seats[0].lines[0].points == SPELLS["growth"].points_at(after)


# --- black -------------------------------------------------------------------------------------

@pytest.mark.parametrize("level", [3, 4, 5])
def test_offering_stores_materia_of_one_colour(level):
    pool = m("red_circle", "red_square", "red_triangle", "red_circle", "blue_circle")
    st = position(phase=MIDDAY, learned={0: {"offering": (level, tok("black_circle"))}}, pools={0: pool})
    n = level - 1
    assert [o for o in legal(st) if o.startswith("offering")] == [f"offering_{i}" for i in range(2, n + 1)]
    play(st, f"offering_{n}")
    assert "blue_circle" not in legal(st)
    while st.q:
        play(st, legal(st)[0])
    assert len(st.players[0].fam) == n and all(k // 3 == 0 for k in st.players[0].fam)


def test_offering_overflow_stays_in_the_pool():
    fam = m(*["blue_circle"] * 5, *["blue_square"] * 5, *["white_circle"] * 2)
    pool = m("red_circle", "red_circle", "red_square", "red_square")
    st = position(phase=MIDDAY, learned={0: {"offering": (5, tok("black_circle"))}}, pools={0: pool}, fams={0: fam})
    play(st, "offering_4")
    play(st, "red_circle")
    play(st, "red_circle")
    assert len(st.players[0].fam) == 14 and len(st.players[0].pool) == 2 and st.ending == "familiar"


def test_focus_levels_store_or_take_with_the_card_rune():
    pool = m("red_square", "blue_square", "green_square", "red_circle")
    altar = m("white_square", "black_square", "yellow_circle")
    for level, expected in [(3, ["focus_s1"]), (4, ["focus_s1", "focus_s2", "focus_t1"]),
                            (5, ["focus_s1", "focus_s2", "focus_s3", "focus_t1", "focus_t2"])]:
        st = position(spells=SET2, phase=NIGHT, learned={0: {"focus": (level, tok("black_square"))}},
                      pools={0: pool}, altar=altar)
        assert [o for o in legal(st) if o.startswith("focus")] == expected
    play(st, "focus_t2")
    play(st, "white_square")  # black square then forced
    assert st.players[0].pool == sorted(pool + m("white_square", "black_square"))


def test_feast_levels():
    altar = m("red_circle", "blue_square")
    st = position(spells=SET3, phase=MIDDAY, learned={0: {"feast": (3, tok("black_circle"))}}, altar=altar,
                  fams={0: m("red_square")})
    assert [o for o in legal(st) if o.startswith("feast")] == ["feast_take"]
    play(st, "feast_take")  # only the red one matches a stored colour: forced
    assert st.players[0].pool == m("red_circle")
    st = position(spells=SET3, phase=MIDDAY, learned={0: {"feast": (5, tok("black_circle"))}}, altar=altar,
                  fams={0: m("red_square", "blue_circle", "red_circle")})
    assert [o for o in legal(st) if o.startswith("feast")] == ["feast_take", "feast_store"]
    play(st, "feast_store")
    play(st, "blue_square")
    lines = final_score(st).seats[0].lines
    assert [x.points for x in lines] == [0, 4, 2]  # Banquete 5: 0 + Familiar (4 stored) + 2 colours


# --- white -------------------------------------------------------------------------------------

def test_time_travel_raises_another_spell_without_its_instant():
    learned = {"time_travel": (4, tok("white_circle")), "abundance": (3, tok("yellow_circle")),
               "sacrifice": (5, tok("red_circle"))}
    st = position(phase=NIGHT, learned={0: learned}, pools={0: m("blue_square", "blue_triangle")})
    play(st, "time_travel")  # the square is level 5's rune: only the triangle; Abundância the only target
    assert lv(st, "abundance") == 4 and st.players[0].pool == m("blue_square")
    assert lv(st, "time_travel") == 4 and lv(st, "sacrifice") == 5


def test_storm_replace_take_three_drop_a_level():
    altar = m("red_circle", "red_square", "blue_circle", "white_circle")
    st = position(spells=SET2, phase=NIGHT, learned={0: {"storm": (5, tok("white_circle"))}}, altar=altar)
    play(st, "storm")
    play(st, "red_circle")
    play(st, "red_square")
    assert "red_circle" not in legal(st)
    play(st, "done", draws=["green_circle", "green_square"])
    assert sorted(st.altar) == sorted(m("green_circle", "green_square", "blue_circle", "white_circle"))
    for _ in range(3):
        if st.q and st.q[0]["do"] == "take":
            play(st, legal(st)[0])
    assert len(st.players[0].pool) == 3 and lv(st, "storm") == 4
    assert final_score(st).seats[0].lines[0].points == 6


def test_storm_level_3_has_no_action_and_zero_replacements_is_allowed():
    st = position(spells=SET2, phase=NIGHT, learned={0: {"storm": (3, tok("white_circle"))}}, altar=m("red_circle"))
    assert "storm" not in legal(st)
    st = position(spells=SET2, phase=NIGHT, learned={0: {"storm": (4, tok("white_circle"))}}, altar=m("red_circle"))
    play(st, "storm")
    play(st, "done")  # then the single Altar token is taken
    assert st.players[0].pool == m("red_circle") and lv(st, "storm") == 3


def test_clone_levels_copy_midday_night_morning_of_other_players():
    spells = ["flame", "levitation", "growth", "feast", "clone", "mirage", "communion"]
    other = {"growth": (5, tok("green_circle")), "feast": (4, tok("black_circle")), "flame": (3, tok("red_circle"))}
    st = position(players=2, spells=spells, phase=MIDDAY, learned={0: {"clone": (5, tok("white_square"))}, 1: other},
                  pools={0: m("blue_square", "red_circle")}, altar=m("yellow_circle", "yellow_square"))
    assert [o for o in legal(st) if o.startswith("clone")] == ["clone_midday", "clone_night", "clone_morning"]
    play(st, "clone_midday")
    assert legal(st) == ["c.store", "c1.feast_store"]  # Banquete 3 needs a stored colour
    play(st, "c1.feast_store")
    play(st, "yellow_circle")
    assert st.players[0].fam == m("yellow_circle")


def test_clone_copying_growth_lowers_clone():
    spells = ["flame", "levitation", "growth", "feast", "clone", "mirage", "communion"]
    st = position(players=2, spells=spells, phase=MIDDAY, learned={0: {"clone": (4, tok("white_square"))},
                                                                  1: {"growth": (5, tok("green_circle"))}},
                  pools={0: m("blue_square")}, altar=m("yellow_circle", "yellow_square", "red_circle"))
    play(st, "clone_night")
    assert legal(st) == ["c1.growth_swap", "c1.growth_2", "c1.growth_3"] or "c1.growth_3" in legal(st)
    play(st, "c1.growth_3")
    for _ in range(3):
        if st.q and st.q[0]["do"] == "take":
            play(st, legal(st)[0])
    assert len(st.players[0].fam) == 3 and lv(st, "clone") == 3 and lv(st, "growth", 1) == 5


def test_clone_level_5_discards_its_rune_and_copies_a_primary_morning_action():
    st = position(players=2, spells=SET3, phase=MIDDAY, learned={0: {"clone": (5, tok("white_square"))}},
                  pools={0: m("blue_square", "red_circle")}, altar=m("yellow_circle"))
    play(st, "clone_morning")  # the blue square is the only square: discarded at once
    assert st.players[0].pool == m("red_circle") and legal(st) == ["c.take", "c.draw2"]
    play(st, "c.draw2", draws=["green_circle", "green_square"])
    assert len(st.players[0].pool) == 3


def test_clone_night_copies_learning_at_midday():
    st = position(players=2, spells=SET3, phase=MIDDAY, learned={0: {"clone": (4, tok("white_square"))}},
                  pools={0: m("red_circle", "red_square", "red_triangle")})
    play(st, "clone_night")  # copying Learn is the only choice, so is Flama, at level 3
    assert st.q[0]["do"] == "learn_token"
    while st.q:
        play(st, legal(st)[0])
    assert lv(st, "flame") == 3 and st.cur == 1  # learned at Midday; the Night had nothing left to do


# --- blue --------------------------------------------------------------------------------------

@pytest.mark.parametrize("level", [3, 4])
def test_swiftness_instant_gives_a_morning_action_at_once(level):
    pool = m(*["blue_circle"] * level)
    st = position(spells=SET2, phase=NIGHT, pools={0: pool}, altar=m("red_square"))
    play(st, "learn")
    while st.q and st.q[0]["do"].startswith("learn"):
        play(st, legal(st)[-1])
    assert st.q[0]["do"] == "bonus_morning" and "take.red_square" in legal(st)
    play(st, "take.red_square")
    assert st.players[0].pool == m("red_square") and lv(st, "swiftness") == level


def test_swiftness_level_5_two_morning_actions_the_same_one_twice():
    st = position(spells=SET2, learned={0: {"swiftness": (5, tok("blue_circle"))}}, altar=m("red_square", "red_circle"))
    play(st, "draw2", draws=["green_circle"] * 2)
    assert st.phase == MORNING
    play(st, "draw2", draws=["green_circle"] * 2)
    assert st.phase == MIDDAY and len(st.players[0].pool) == 4
    assert final_score(st).seats[0].lines[0].points == 0


@pytest.mark.parametrize("level,draws", [(3, 1), (4, 2), (5, 2)])
def test_mirage_draws_for_each_matching_rune_taken_on_your_day(level, draws):
    st = position(spells=SET3, learned={0: {"mirage": (level, tok("blue_triangle"))}},
                  altar=m("red_triangle", "red_circle"))
    keys, _ = play(st, "take.red_triangle", draws=["green_circle"] * draws)
    assert keys == ["took", "drew", "mirage"] and len(st.players[0].pool) == 1 + draws
    st = position(spells=SET3, learned={0: {"mirage": (level, tok("blue_triangle"))}},
                  altar=m("red_triangle", "red_circle"))
    keys, _ = play(st, "take.red_circle")
    assert keys == ["took"]


def test_mirage_does_not_trigger_on_another_players_day():
    st = position(players=2, spells=SET3, learned={0: {"flame": (3, tok("red_circle"))},
                                                   1: {"mirage": (5, tok("blue_triangle"))}},
                  altar=m("red_triangle"))
    keys, _ = play(st, "flame", draws=["green_circle"] * 4)  # seat 1's take is forced
    assert st.players[1].pool == m("red_triangle") and "mirage" not in keys


# --- yellow ------------------------------------------------------------------------------------

@pytest.mark.parametrize("level", [3, 4, 5])
def test_abundance_draws_on_learning(level):
    st = position(phase=NIGHT, pools={0: m(*["yellow_circle"] * level)})
    play(st, "learn")
    while st.q and st.q[0]["do"].startswith("learn"):
        play(st, legal(st)[-1], draws=["red_circle"] * 4)
    assert lv(st, "abundance") == level and len(st.players[0].pool) == level - 1


@pytest.mark.parametrize("level,bonus", [(3, 3), (4, 5), (5, 6)])
def test_knowledge_end_game_bonus(level, bonus):
    learned = {"knowledge": (level, tok("yellow_circle")), "eruption": (4, tok("red_circle")),
               "sharing": (3, tok("purple_circle")), "cure": (5, tok("green_circle"))}
    st = position(spells=SET2, learned={0: learned})
    lines = final_score(st).seats[0].lines
    assert lines[-1].label.key == "spellbook.score.knowledge" and lines[-1].points == bonus
    assert final_score(st).seats[0].total == sum(x.points for x in lines)


def test_communion_level_3_stores_three_from_the_altar_and_level_4_scores_runes():
    st = position(spells=SET3, phase=NIGHT, pools={0: m(*["yellow_circle"] * 3)},
                  altar=m("red_circle", "red_square", "blue_square", "white_triangle"))
    play(st, "learn")
    for _ in range(3):
        play(st, "red_circle" if "red_circle" in legal(st) else legal(st)[0])
    assert lv(st, "communion") == 3 and len(st.players[0].fam) == 3
    st = position(spells=SET3, learned={0: {"communion": (4, tok("yellow_square"))}},
                  fams={0: m("red_square", "blue_square", "red_circle")})
    lines = final_score(st).seats[0].lines
    assert [x.points for x in lines] == [0, 3, 2]


def test_time_travel_needs_a_target_and_can_refill_growth():
    spells = ["sacrifice", "levitation", "growth", "offering", "time_travel", "transmutation", "abundance"]
    st = position(spells=spells, phase=NIGHT, learned={0: {"time_travel": (3, tok("white_circle")),
                                                           "sacrifice": (5, tok("red_circle"))}},
                  pools={0: m("blue_circle")})
    assert "time_travel" not in legal(st)  # Sacrifício is already at 5, Viagem Temporal excluded
    st = position(spells=spells, phase=NIGHT, learned={0: {"time_travel": (3, tok("white_circle")),
                                                           "growth": (3, tok("green_circle"))}},
                  pools={0: m("blue_circle")}, altar=m("red_circle"))
    assert "growth_2" not in legal(st)
    play(st, "time_travel")  # the circle and Crescimento are the only choices
    assert lv(st, "growth") == 4
    st.cur, st.phase, st.acted = 0, NIGHT, 0
    assert "growth_2" in legal(st)  # its level-4 effect is usable again


def test_clone_copies_only_other_players_action_spells():
    spells = ["flame", "levitation", "growth", "feast", "clone", "mirage", "communion"]
    mine = {"clone": (4, tok("white_square")), "growth": (5, tok("green_circle"))}
    st = position(players=3, spells=spells, phase=MIDDAY, learned={0: mine, 1: {"mirage": (5, tok("blue_circle"))},
                                                                  2: {"clone": (5, tok("white_circle"))}},
                  pools={0: m("red_circle", "red_square", "red_triangle")}, altar=m("yellow_circle"),
                  fams={0: m("black_circle")})
    from rulesets.spellbook.spells.white import copy_options

    assert copy_options(st, 0, "night") == ["c.learn"]  # not my own Crescimento, no one else has it
    assert copy_options(st, 0, "midday") == ["c.store"]  # never Clone; Miragem is permanent
    st.players[1].lv[SPELL_COLOUR["growth"]], st.players[1].tok[SPELL_COLOUR["growth"]] = 3, tok("green_square")
    assert copy_options(st, 0, "night") == ["c.learn", "c1.growth_swap"]  # seat 1's level 3 only


def test_flame_others_take_nothing_from_an_empty_altar():
    st = position(players=3, spells=SET3, learned={0: {"flame": (5, tok("red_circle"))}}, altar=[])
    play(st, "flame", draws=["white_circle"] * 4)
    assert st.players[1].pool == [] and st.players[2].pool == [] and st.phase == MIDDAY


def test_swiftness_learned_at_level_5_gives_no_instant_action():
    st = position(spells=SET2, phase=NIGHT, pools={0: m(*["blue_circle"] * 5)}, altar=m("red_square"))
    play(st, "learn")
    while st.q and st.q[0]["do"].startswith("learn"):
        play(st, "lv5" if "lv5" in legal(st) else legal(st)[0])
    assert lv(st, "swiftness") == 5 and st.cur == 1  # no extra Morning now: the Day is over


@pytest.mark.parametrize("spell", ["levitation", "time_travel"])
@pytest.mark.parametrize("level", [3, 4, 5])
def test_rune_naming_spells_allow_their_level_rune_and_lower(spell, level):
    runes = ["circle", "triangle", "square"][: level - 2]
    if spell == "levitation":
        altar = m("red_circle", "red_circle", "red_triangle", "red_triangle", "red_square", "red_square")
        st = position(learned={0: {spell: (level, tok("purple_circle"))}}, altar=altar)
        play(st, spell)
    else:
        learned = {spell: (level, tok("white_circle")), "sacrifice": (3, tok("red_circle")),
                   "abundance": (3, tok("yellow_circle"))}
        st = position(phase=NIGHT, learned={0: learned}, pools={0: m("blue_circle", "blue_triangle", "blue_square")})
        play(st, spell)
    colour = "red" if spell == "levitation" else "blue"
    if len(runes) > 1:
        assert legal(st) == [f"{colour}_{r}" for r in runes]
    elif spell == "levitation":  # circles only: both taken without asking
        assert st.players[0].pool == m("red_circle", "red_circle")
    else:  # the circle was the only possible discard; now the spell to raise
        assert st.players[0].pool == m("blue_triangle", "blue_square") and legal(st) == ["sacrifice", "abundance"]


def test_transmutation_and_feast_levels_without_a_new_action():
    st = position(phase=NIGHT, learned={0: {"transmutation": (3, tok("blue_circle"))}},
                  pools={0: m("yellow_circle", "yellow_circle", "red_circle", "green_circle")})
    assert "transmutation" not in legal(st)  # level 3: points only
    st = position(spells=SET3, phase=MIDDAY, learned={0: {"feast": (4, tok("black_circle"))}},
                  altar=m("red_circle"), fams={0: m("blue_circle")})
    assert [o for o in legal(st) if o.startswith("feast")] == ["feast_store"]  # no stored red for level 3
