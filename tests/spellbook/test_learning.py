"""Noite: learning a spell -- levels, the token on the card, wilds, Transmutação, Comunhão 5."""

from rulesets.spellbook.data import SPELL_COLOUR
from rulesets.spellbook.state import MORNING, NIGHT

from .helpers import legal, m, play, position


def _front(st):
    return st.q[0]["do"] if st.q else None


def test_abundance_at_level_5_with_a_wild_the_rulebook_example():
    # 4 yellow + green, red and black sharing the square rune = 1 wild -> level 5, then draw 4
    pool = m("yellow_circle", "yellow_circle", "yellow_triangle", "yellow_triangle",
             "green_square", "red_square", "black_square")
    st = position(phase=NIGHT, pools={0: pool}, altar=m("blue_circle"))
    play(st, "learn")
    assert _front(st) == "learn_level"  # Abundância was the only spell possible: picked by itself
    assert legal(st) == ["lv3", "lv4", "lv5"]
    play(st, "lv5")
    assert legal(st) == ["yellow_circle", "yellow_triangle"]
    play(st, "yellow_triangle")
    for k in ("yellow_circle", "yellow_circle", "yellow_triangle"):
        assert k in legal(st) and "wild_square" in legal(st)
        play(st, k)
    assert legal(st) == ["wild_square"] or _front(st) == "learn_wild"
    assert sorted(legal(st)) == ["black_square", "green_square", "red_square"]
    play(st, "green_square")
    # the last square of the wild is then the only choice left: taken without asking
    keys, _ = play(st, "red_square", draws=["blue_circle", "blue_square", "white_circle", "white_square"])
    c = SPELL_COLOUR["abundance"]
    assert st.players[0].lv[c] == 5 and st.players[0].tok[c] == m("yellow_triangle")[0]
    assert keys[:2] == ["learned", "drew"]
    assert st.players[0].pool == sorted(m("blue_circle", "blue_square", "white_circle", "white_square"))
    assert sum(st.disc) == 6  # the token stays on the card, the other 6 are discarded


def test_sacrifice_learned_at_level_4_and_used_at_level_4_or_3_the_rulebook_example():
    pool = m("red_circle", "red_triangle", "red_triangle", "red_square")
    st = position(phase=NIGHT, pools={0: pool}, altar=m("blue_circle"))
    play(st, "learn")
    play(st, "lv4")
    play(st, "red_triangle")
    while _front(st) == "learn_pay":
        play(st, legal(st)[0])
    c = SPELL_COLOUR["sacrifice"]
    assert st.players[0].lv[c] == 4 and st.players[0].pool == [] and sum(st.disc) == 3
    # the next Day of seat 0: Sacrifício may discard a triangle (level 4) or a circle (level 3)
    st.cur, st.phase, st.acted = 0, MORNING, 0
    st.players[0].pool = m("red_circle", "blue_triangle", "blue_square")
    for k in m("red_circle", "blue_triangle", "blue_square"):
        st.bag[k] -= 1
    play(st, "sacrifice")
    assert legal(st) == ["red_circle", "blue_triangle"]  # not the square: that is level 5
    keys, _ = play(st, "blue_triangle", draws=["green_circle"] * 4)
    assert keys == ["discarded", "drew"]
    assert st.players[0].pool == sorted(m("red_circle", "blue_square", *["green_circle"] * 4))


def test_at_least_one_materia_of_the_colour_and_wilds_only_make_up_the_rest():
    six_circles = m("red_circle", "green_circle", "black_circle", "white_circle", "blue_circle", "purple_circle")
    st = position(phase=NIGHT, pools={0: six_circles}, altar=m("blue_square"))
    assert "learn" not in legal(st)  # two wilds but no yellow to put on the card
    st = position(phase=NIGHT, pools={0: [*six_circles, *m("yellow_square")]}, altar=m("blue_square"))
    play(st, "learn")
    # yellow + 2 wilds = 3: Abundância level 3 (the other colours have a single materia)
    assert st.q[0]["do"] in ("learn_pay", "learn_wild")


def test_a_spell_is_learned_only_once():
    pool = m("red_circle", "red_triangle", "red_square")
    st = position(phase=NIGHT, pools={0: pool}, learned={0: {"sacrifice": (3, m("red_circle")[0])}},
                  altar=m("blue_square"))
    assert "learn" not in legal(st)


def test_payment_choices_always_stay_completable():
    # 3 yellow + 3 non-yellow circles: level 4. Inside the circle wild, the yellow circle is not
    # offered: spending it there would leave too little to finish paying.
    pool = m("yellow_circle", "yellow_square", "yellow_triangle", "red_circle", "green_circle", "black_circle")
    st = position(phase=NIGHT, pools={0: pool}, altar=m("blue_square"))
    play(st, "learn")
    assert legal(st) == ["lv3", "lv4"]
    play(st, "lv4")
    play(st, "yellow_square")
    assert legal(st) == ["yellow_circle", "yellow_triangle", "wild_circle"]
    play(st, "wild_circle")
    assert legal(st) == ["red_circle", "green_circle", "black_circle"]
    play(st, "red_circle")
    play(st, "green_circle")  # black_circle is then forced
    play(st, "yellow_circle", draws=["blue_circle"] * 3)  # the yellow triangle is then forced
    assert st.players[0].lv[SPELL_COLOUR["abundance"]] == 4 and len(st.players[0].pool) == 3


def test_transmutation_single_rune_wilds_replace_the_triples():
    tok = m("blue_triangle")[0]
    pool = m("yellow_circle", "yellow_circle", "red_triangle", "green_triangle", "black_triangle", "white_square")
    learned = {"transmutation": (5, tok)}
    st = position(phase=NIGHT, pools={0: pool}, learned={0: learned}, altar=m("blue_square"))
    assert "learn" in legal(st) and "transmutation" in legal(st)  # 2 yellow + a ▲ triple = 3 as usual too
    play(st, "transmutation")
    assert "sacrifice" in legal(st)  # 1 red + 2 single ▲ wilds is enough for level 3 too
    play(st, "abundance")
    assert legal(st) == ["lv3", "lv4"]  # 2 yellow + up to 2 single ▲ wilds
    play(st, "lv4")
    play(st, "yellow_circle")
    options = legal(st)
    assert "wild_triangle" not in options and "red_triangle" in options and "white_square" not in options
    play(st, "red_triangle")
    play(st, "green_triangle", draws=["purple_circle"] * 3)  # no wild left: the last yellow is forced
    assert st.players[0].lv[SPELL_COLOUR["abundance"]] == 4
    assert st.players[0].pool == sorted(m("black_triangle", "white_square", *["purple_circle"] * 3))


def test_transmutation_level_4_allows_one_wild():
    tok = m("blue_square")[0]
    pool = m("yellow_circle", "yellow_circle", "red_square", "green_square")
    st = position(phase=NIGHT, pools={0: pool}, learned={0: {"transmutation": (4, tok)}}, altar=m("blue_circle"))
    assert "learn" not in legal(st) and "transmutation" in legal(st)
    play(st, "transmutation")  # Abundância, level 3 and the yellow token are the only choices
    assert st.players[0].pool == m("red_square", "green_square", "yellow_circle")
    assert legal(st) == ["red_square", "green_square", "yellow_circle"]
    play(st, "red_square", draws=["purple_circle"] * 2)
    assert st.players[0].lv[SPELL_COLOUR["abundance"]] == 3


def test_communion_level_5_keeps_two_discarded_materia_including_for_itself():
    pool = m("yellow_circle", "yellow_triangle", "yellow_square", "yellow_square", "yellow_circle")
    st = position(spells="set3", phase=NIGHT, pools={0: pool}, altar=m("blue_circle"))
    play(st, "learn")
    play(st, "lv5")
    play(st, "yellow_triangle")
    while st.q and st.q[0]["do"] == "learn_pay":
        play(st, legal(st)[0])
    assert st.q[0]["do"] == "keep_discard"
    assert sorted(legal(st)) == ["yellow_circle", "yellow_square"]
    play(st, "yellow_square")
    play(st, legal(st)[0])
    assert len(st.players[0].fam) == 2 and sum(st.disc) == 2
