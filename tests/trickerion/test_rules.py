"""Every rule of the base game and the rulebook's examples."""

import pytest

from rulesets.trickerion import end_of_round, performance
from rulesets.trickerion.data import CARDS, COMPONENT_KEYS, DICE, MAGICIANS, TRICKS
from rulesets.trickerion.rules import corner, effective, link_count, links_of, placements
from rulesets.trickerion.state import Card

from .harness import (
    advance,
    begin,
    do,
    give_tricks,
    idle,
    lay,
    offered,
    place,
    put,
    revelar,
    rotate_for_links,
    set_up,
    to_assignment,
)
from .helpers import GAME

# ---------------------------------------------------------------------------------------------- setup


@pytest.mark.parametrize("n", [2, 3, 4])
def test_general_setup(n):
    m = begin(n)
    st = m.state
    assert st.stock == ["wood", "metal", "glass", "fabric"] and st.quick is None
    cards = [c for c in st.row if c]
    assert len(cards) == n - 1 and all(CARDS[c.id].theater == "riverside" for c in cards)
    assert len(st.row) == n + 1
    assert [CARDS[c].theater for c in st.deck] == ["riverside", "riverside", "grand_magorian", "grand_magorian"]
    expected = {2: [10, 14], 3: [10, 12, 14], 4: [10, 12, 14, 16]}[n]
    assert [st.p[s].coins for s in st.order] == expected
    for p in st.p:
        assert p.fame == 5 and p.shards == 1
        assert p.hand == {"downtown": 2, "market": 2, "workshop": 2, "theater": 3}
        assert p.apps[0] == "a1" and "mag" not in p.specs
    assert st.round == 1 and st.phase == "advertise"


def test_one_magician_per_favourite_category():
    from rulesets.core import new_match

    m = new_match(GAME, {}, 3, 0)
    do(m, 0, "m:M01")  # escape
    assert "m:M05" not in GAME.legal_choices(m.state, 1) and "m:M02" in GAME.legal_choices(m.state, 1)


def test_chosen_setup_trick_components_specialist_and_free_prepare():
    from rulesets.core import new_match

    m = new_match(GAME, {}, 2, 3)
    do(m, 0, "m:M03")  # spiritual
    assert GAME.to_act(m.state) == [1, 0]  # the next magician, and seat 0's own choices at the same time
    do(m, 1, "m:M01")  # escape
    assert sorted(GAME.to_act(m.state)) == [0, 1]
    assert sorted(GAME.legal_choices(m.state, 0)) == ["t:T13", "t:T14", "t:T15", "t:T16"]
    do(m, 0, "t:T13")
    assert "c:rope" in GAME.legal_choices(m.state, 0) and "c:mirror" not in GAME.legal_choices(m.state, 0)
    do(m, 1, "t:T25", "c:rope", "e:engineer")
    assert GAME.to_act(m.state) == [0]  # the Engineer's trick comes after every player's own setup
    do(m, 0, "c:glass", "c:wood", "e:manager")
    do(m, 0, "c:glass")  # on the Manager's multi-component slot: counts as one more
    assert m.state.p[0].multi[0] == "glass" and effective(m.state.p[0], "glass") == 3
    do(m, 0, "c:wood")
    assert m.state.step == "truque_engenheiro" and GAME.to_act(m.state) == [1]  # any category
    assert "t:T01" in GAME.legal_choices(m.state, 1) and "t:T13" not in GAME.legal_choices(m.state, 1)
    do(m, 1, "t:T01")
    p0, p1 = m.state.p
    assert p0.tricks[0].on == 3                    # Mind Reading: 2 Glass met -> free Arquitetar, 3 markers
    assert p1.tricks[0].on == 0 and p1.tricks[1].eng and p1.tricks[1].on == 0
    assert m.state.phase == "advertise"


def test_the_free_arquitetar_is_for_the_starting_trick_only():
    """PT p.10 "IMPORTANTE": "Caso seus Componentes iniciais cumpram com os requisitos de Componentes do seu
    Truque inicial ..., você recebe o Truque com uma quantidade de marcadores ... Isso é essencialmente uma
    Ação de Arquitetar gratuita para esse Truque"; the Engineer's trick is "escolhida pelo jogador após
    todos os Truques iniciais serem selecionados" (p.10), a bonus apart from the starting trick."""
    from rulesets.core import Rng
    from rulesets.trickerion import setup
    from rulesets.trickerion.state import Owned

    st = setup.create(2, False, Rng(0), [])
    p0, p1 = st.p
    p0.tricks, p0.comps, p0.specs = [Owned(t="T27", sym=0), Owned(t="T25", sym=1, eng=True)], {"wood": 2}, ["engineer"]
    p1.tricks, p1.comps, p1.specs = [Owned(t="T13", sym=0)], {"glass": 2}, ["assistant"]
    setup.finish(st, Rng(0), [])
    assert p0.tricks[0].on == 0  # the starting Múmia em Chamas: Fabric and Petroleum missing
    assert p0.tricks[1].on == 0  # Barris Barricados on the Engineer's space: 2 Wood meet it, still no markers
    assert p1.tricks[0].on == 3  # the starting Leitura de Mentes, 2 Glass: its three marker squares


@pytest.mark.parametrize("magician,trick,markers,spec", [
    ("M02", "T01", 2, "manager"), ("M04", "T37", 2, "assistant"), ("M01", "T25", 2, "engineer"),
    ("M03", "T13", 3, "manager")])
def test_beginner_setup(magician, trick, markers, spec):
    m = begin(2, magicians=(magician,))
    p = m.state.p[0]
    assert p.tricks[0].t == trick and p.tricks[0].on == markers and p.specs == [spec]
    if magician == "M02":
        assert p.multi[0] == "animal" and effective(p, "animal") == 2
    if magician == "M03":
        assert p.multi[0] == "rope" and effective(p, "rope") == 2 and p.comps["glass"] == 2
    if magician == "M04":
        assert p.apps == ["a1", "a2"] and p.app_ext == "a2"
    if magician == "M01":
        assert p.tricks[1].t == "T26" and p.tricks[1].eng and p.tricks[1].on == 0  # Stocks Escape needs Metal


# ---------------------------------------------------------------------------------------------- round phases


def test_dice_are_rolled_each_round():
    m = begin(2)
    for die, face in m.state.dice.items():
        assert face in DICE[die]


def test_initiative_follows_reverse_fame_and_ties_invert():
    m = begin(4)
    st = m.state
    st.order = [0, 1, 2, 3]
    for s, fame in enumerate([9, 5, 9, 2]):
        st.p[s].fame = fame
    from rulesets.trickerion.game import ajustar_ordem_de_iniciativa

    ajustar_ordem_de_iniciativa(st, [])
    assert st.order == [3, 1, 2, 0]  # 0 and 2 tied on 9: their order inverts


@pytest.mark.parametrize("n,costs", [(2, [1, 3]), (4, [1, 2, 3, 4])])
def test_advertise_costs_the_initiative_space(n, costs):
    m = begin(n)
    st = m.state
    assert sorted(GAME.to_act(st)) == list(range(n))  # everyone is asked at once (no order: ruling 13)
    for s, cost in zip(reversed(st.order), reversed(costs), strict=True):
        before = st.p[s].coins
        assert s in GAME.to_act(st) and GAME.prompt(st, s).choices[0].label.params["coins"].params["count"] == cost
        do(m, s, "propaganda")
        assert st.p[s].coins == before - cost and st.p[s].fame == 7 and st.p[s].poster
    assert st.phase == "assign"


def test_a_player_who_cannot_pay_for_propaganda_is_told_why():
    from rulesets.core import Rng
    from rulesets.trickerion.game import iniciar_rodada

    m = begin(2)
    st = m.state
    to_assignment(m)
    st.phase, st.round = "round", 2
    st.p[0].coins = 0
    events: list = []
    iniciar_rodada(st, Rng(5), events)
    assert GAME.to_act(st) == [1]
    told = [e for e in events if e.text.key == "trickerion.log.advertise_cannot"]
    assert len(told) == 1 and told[0].audience is None and told[0].text.params["coins"].params["count"] == 0


def test_assignment_is_secret_and_revealed_together():
    m = begin(3)
    to_assignment(m)
    assert sorted(GAME.to_act(m.state)) == [0, 1, 2]
    assert GAME.prompt(m.state, 0).title.params["char"].key == "trickerion.char.magician"  # one press each
    events = do(m, 0, "l:theater")
    assert all(e.audience == [0] for e in events)
    assert m.state.p[0].plan == {"mag": "theater"}
    second = m.state.p[0].pick
    do(m, 0, f"o:{second}")  # left idle: as secret as the cards
    for seat in (1, 2, None):
        for field in ("plan", "pick", "rest"):
            assert field not in GAME.view(m.state, seat)["players"][0]
    assert GAME.view(m.state, 0)["players"][0]["rest"] == [second]
    assert GAME.view(m.state, 0)["players"][0]["plan"] == {"mag": "theater"}
    from locales import render

    for line in GAME.table(m.state, 1):
        assert "Teatro" not in render(line) or "Carta" in render(line)
    from rulesets.core import act

    m2, events = act(m, 0, "pronto")
    assert not m2.log[-1].events[-1].audience and m2.log[-1].checkpoint
    act(m2, 1, "pronto", inplace=True)
    m3, events = act(m2, 2, "pronto")
    assert m3.log[-1].checkpoint and m3.state.phase == "place"
    assert GAME.view(m3.state, 1)["players"][0]["plan"] == {"mag": "theater"}


def test_one_press_a_character_and_done_when_each_has_a_card_or_stays_idle():
    m = begin(2, magicians=("M02",))  # optical: the Manager, and the apprentice
    to_assignment(m)
    st = m.state
    assert st.p[0].pick == "mag"
    do(m, 0, "l:theater")
    assert st.p[0].pick == "manager"
    do(m, 0, "o:manager", "r:manager")  # left idle, then given a card after all: it is asked again
    assert st.p[0].pick == "manager" and st.p[0].rest == []
    do(m, 0, "l:workshop")
    assert not st.p[0].ready and st.p[0].pick == "a1"
    events = do(m, 0, "l:market")  # the last character: done, as the rulebook says (PT p.11-12)
    assert st.p[0].ready and st.p[0].plan == {"mag": "theater", "manager": "workshop", "a1": "market"}
    assert [e.text.key for e in events][-1] == "trickerion.log.assign_done" and not m.log[-1].checkpoint
    do(m, 1, "l:market", "pronto")  # "Pronto" leaves the rest idle
    assert st.phase == "place" and st.p[1].idle == [c for c in ("mag", *st.p[1].specs, *st.p[1].apps) if c != "mag"]


def test_idle_characters_and_placement_in_initiative_order():
    m = begin(3)
    revelar(m, {0: {"mag": "downtown", "a1": "market"}, 1: {"mag": "market"}, 2: {}}, order=[1, 0, 2])
    st = m.state
    assert st.turn == 1
    assert st.p[2].idle == ["mag", *st.p[2].specs, *st.p[2].apps]
    place(m, 1, "mag", "market.0")
    do(m, 1, "fim")
    assert st.turn == 0
    idle(m, 0, "a1")  # flipping the card: this character stays idle
    assert st.turn == 0  # player 1 has nothing left, so 0 goes on
    place(m, 0, "mag", "downtown.0")
    do(m, 0, "fim")
    assert st.phase != "place"


@pytest.mark.parametrize("n,spaces", [(2, ["0", "3"]), (3, ["0", "1", "3"]), (4, ["0", "1", "3"])])
def test_spaces_follow_the_player_count(n, spaces):
    m = begin(n)
    revelar(m, {0: {"mag": "downtown"}}, order=list(range(n)))
    # one button for each kind of space: with 4 players the two +1 spaces are one choice
    assert offered(m, 0, "mag") == [f"downtown.{k}" for k in spaces]


def test_spaces_of_a_kind_are_one_choice_and_say_who_stands_there():
    from locales import render

    m = begin(4)
    revelar(m, {0: {"mag": "downtown", "a1": "workshop"}, 1: {"mag": "downtown"}}, order=[1, 0, 2, 3])
    place(m, 1, "mag", "downtown.1")
    do(m, 1, "fim")
    assert offered(m, 0, "mag") == ["downtown.0", "downtown.2", "downtown.3"]  # the other +1 stands for both
    assert offered(m, 0, "a1") == ["workshop.0.0"]  # the Workshop's two spaces are alike
    labels = {c.id: render(c.label, "pt_BR", ["Ana", "Bia", "Caio", "Duda"]) for c in GAME.prompt(m.state, 0).choices}
    assert labels["al:mag:downtown.2"] == "Mágico → Centro da Cidade (+1 PA) · Bia"
    assert labels["al:a1:workshop.0.0"] == "Aprendiz 1 → Oficina (+0 PA)"
    assert len(set(labels.values())) == len(labels)


def test_shard_buys_one_ap_once_but_not_in_the_theater():
    m = begin(2)
    revelar(m, {0: {"mag": "market", "a1": "theater"}}, order=[0, 1])
    place(m, 0, "mag", "market.0")
    assert GAME.legal_choices(m.state, 0)[0] == "fr:1"  # in the first action menu, not a question of its own
    do(m, 0, "fr:1")
    assert m.state.cur.ap == 3 + 2 + 1 and m.state.p[0].shards == 0 and "fr:1" not in GAME.legal_choices(m.state, 0)
    do(m, 0, "fim")
    m.state.p[0].shards = 1
    put(m, 0, "a1", "theater.0.b0")
    assert m.state.step == "acoes" and m.state.cur.ap == 1 + 1  # Thursday backstage +1, no Shard offer
    assert "fr:1" not in GAME.legal_choices(m.state, 0)


def test_the_shard_is_offered_only_before_the_first_action_and_with_a_shard():
    m = begin(2)
    revelar(m, {0: {"mag": "market", "a1": "market"}}, order=[0, 1])
    place(m, 0, "mag", "market.0")
    do(m, 0, "encomendar", "et:rope", "ee:0")  # an action: the placement's Reforçar is past
    assert "fr:1" not in GAME.legal_choices(m.state, 0)
    do(m, 0, "fim")
    m.state.p[0].shards = 0
    place(m, 0, "a1", "market.3")
    assert "fr:1" not in GAME.legal_choices(m.state, 0)  # no Shard, no offer


def test_theater_weekday_and_performance_spaces():
    m = begin(2)
    revelar(m, {0: {"mag": "theater", "a1": "theater"}, 1: {"mag": "theater", "a1": "theater"}}, order=[0, 1])
    assert "theater.0.p" not in offered(m, 0, "a1")  # magicians only
    events = put(m, 0, "a1", "theater.3.b0")
    # apprentice on Sunday: 1 - 1 AP; with nothing it could do, its actions end by themselves
    assert events[-1].text.key == "trickerion.log.char_spent" and events[-1].text.params["ap"].params["count"] == 0
    assert GAME.to_act(m.state) == [1]
    assert not any(k.startswith("theater.3") for k in offered(m, 1, "mag"))  # Sunday is taken
    put(m, 1, "a1", "theater.0.b0")
    do(m, 1, "fim")
    assert all(k.startswith("theater.3") for k in offered(m, 0, "mag"))
    put(m, 0, "mag", "theater.3.p")  # AP lost: the turn passes at once
    assert m.state.turn == 1 and m.state.p[0].placed["mag"] == "theater.3.p"
    assert all(k.startswith("theater.0") for k in offered(m, 1, "mag"))


# ---------------------------------------------------------------------------------------------- Centro da Cidade


def _downtown(n=2, ap_space="downtown.0"):
    m = begin(n)
    revelar(m, {0: {"mag": "downtown"}}, order=list(range(n)))
    place(m, 0, "mag", ap_space)
    return m


def test_learn_trick_fame_threshold_favourite_category_and_die():
    m = _downtown()
    st, p = m.state, m.state.p[0]
    st.dice.update(r0="mechanical", r1="X")
    p.coins = 20
    fav = MAGICIANS[p.magician].category
    assert fav != "mechanical"
    do(m, 0, "aprender")
    assert sorted(GAME.legal_choices(st, 0)) == sorted(["ad:r0:mechanical", f"ad:r0:{fav}", "voltar"])
    do(m, 0, "ad:r0:mechanical")
    level2 = next(t for t in TRICKS.values() if t.category == "mechanical" and t.level == 2).id
    assert f"at:{level2}" in GAME.legal_choices(st, 0)
    assert not any(c[3:] in TRICKS and TRICKS[c[3:]].level == 3 for c in GAME.legal_choices(st, 0))
    coins, fame = p.coins, p.fame
    do(m, 0, f"at:{level2}")
    assert p.coins == coins - (16 - fame) and st.dice["r0"] == "X" and st.cur.ap == 2
    assert p.tricks[-1].t == level2 and p.tricks[-1].on == 0
    assert "aprender" not in GAME.legal_choices(st, 0)


def test_favourite_category_whatever_the_die_shows_and_the_die_still_turns_to_x():
    m = _downtown()
    st, p = m.state, m.state.p[0]
    fav = MAGICIANS[p.magician].category
    st.dice.update(r0="mechanical", r1="X")
    do(m, 0, "aprender", f"ad:r0:{fav}")
    choice = GAME.legal_choices(st, 0)[0]
    do(m, 0, choice)
    assert TRICKS[p.tricks[-1].t].category == fav and st.dice["r0"] == "X"


def test_learning_needs_a_die_and_a_free_slot():
    m = _downtown()
    st = m.state
    st.dice.update(r0="X", r1="X")
    assert "aprender" not in GAME.legal_choices(st, 0)
    st.dice["r0"] = "any"
    assert "aprender" in GAME.legal_choices(st, 0)
    give_tricks(m, 0, "T01", "T02", "T03")  # three base slots full, no Engineer
    st.p[0].specs = []
    assert "aprender" not in GAME.legal_choices(st, 0)


def test_hire_arrives_at_the_end_of_the_round_and_once_per_specialist_type():
    m = _downtown()
    st, p = m.state, m.state.p[0]
    have = p.specs[0]
    st.dice.update(i0=have, i1="apprentice")
    assert "ct:i0" not in GAME.legal_choices(st, 0)
    do(m, 0, "ct:i1")
    assert p.hires == ["apprentice"] and "a3" not in p.apps and st.dice["i1"] == "X"
    end_of_round.retornar_personagens(st, [])
    assert len(p.apps) == len(set(p.apps)) and p.hires == []


def test_take_coins_reroll_and_set_die():
    m = _downtown()
    st, p = m.state, m.state.p[0]
    st.dice["b0"] = "5"
    coins = p.coins
    do(m, 0, "pm:b0")
    assert p.coins == coins + 5 and st.dice["b0"] == "X" and st.cur.ap == 2
    events = do(m, 0, "ajustar", "aj:b0", "af:6")
    keys = [e.text.key for e in events]
    assert keys[:2] == ["trickerion.log.set_die", "trickerion.log.char_spent"]  # no AP left: the end, not asked
    assert events[0].text.params["face"].params["n"] == 6
    m2 = _downtown()
    do(m2, 0, "rerrolar", "rr:i0")
    assert m2.log[-1].draws and m2.state.cur.ap == 4


# ---------------------------------------------------------------------------------------------- Mercado


def _market(char="mag", space="market.0", n=2):
    m = begin(n)
    revelar(m, {0: {char: "market"}}, order=list(range(n)))
    place(m, 0, char, space)
    return m


def test_market_example_quick_order_buy_and_bargain():
    """Magician on +2 (5 AP): Quick Order a Rope (2), Buy it (1), Bargain 3 coins down to 1 (2)."""
    m = _market()
    st, p = m.state, m.state.p[0]
    p.comps.pop("rope", None)
    coins = p.coins
    assert st.cur.ap == 5
    do(m, 0, "encomenda_rapida", "rt:rope", "comprar", "cp:rope:1")
    assert GAME.legal_choices(st, 0) == ["bg:0", "bg:1", "bg:2", "voltar"]
    events = do(m, 0, "bg:2")
    assert p.coins == coins - 1 and p.comps["rope"] == 1 and st.cur is None  # 0 AP: done
    assert [e.text.key for e in events][1] == "trickerion.log.char_spent"


def test_quick_order_takes_any_component_even_the_one_there():
    """PT p.15 Encomenda Rápida: "um jogador pode colocar qualquer Componente no espaço de Encomenda Rápida
    (se o espaço não estiver vazio, devolva o Componente que está lá para a reserva)": the type already
    there too; the Quick Order slot holds one component (a Rope, still one)."""
    m = _market()
    st = m.state
    st.quick = "rope"
    do(m, 0, "encomenda_rapida")
    assert [c for c in GAME.legal_choices(st, 0) if c != "voltar"] == [f"rt:{c}" for c in COMPONENT_KEYS]
    events = do(m, 0, "rt:rope")
    assert st.quick == "rope" and st.cur.ap == 3
    assert any(e.text.key == "trickerion.log.quick_order" for e in events)


def test_market_advanced_example():
    """Engineer on +2 (4 AP): order Petroleum and Padlock, buy 2 Rope and 3 Metal for 7 coins."""
    m = begin(2)
    st = m.state
    p = st.p[0]
    p.specs = ["engineer"]
    p.comps, p.multi = {}, [None, None]
    st.stock = ["wood", "metal", "rope", "fabric"]
    revelar(m, {0: {"engineer": "market"}, 1: {"mag": "downtown"}}, order=[0, 1])
    place(m, 0, "engineer", "market.0")
    coins = p.coins
    do(m, 0, "encomendar", "et:petroleum", "ee:0", "encomendar", "et:padlock", "ee:1")
    do(m, 0, "encomendar")
    assert "et:petroleum" not in GAME.legal_choices(st, 0) and "et:rope" in GAME.legal_choices(st, 0)
    do(m, 0, "voltar")
    do(m, 0, "comprar", "cp:rope:2", "bg:0", "comprar", "cp:metal:3")  # no AP to spare: no bargaining asked
    assert p.coins == coins - 7 and p.comps == {"rope": 2, "metal": 3} and st.cur is None
    end_of_round.chegada_das_encomendas(st, [])
    assert st.stock == ["petroleum", "padlock", "rope", "fabric"]


def test_bargain_never_to_zero_and_only_with_a_purchase():
    m = _market()
    st = m.state
    assert "barganhar" not in GAME.legal_choices(st, 0)
    st.p[0].comps = {}
    do(m, 0, "comprar", "cp:wood:2")
    assert GAME.legal_choices(st, 0) == ["bg:0", "bg:1", "voltar"]


def test_three_of_a_type_including_the_manager_bonus():
    m = _market()
    p = m.state.p[0]
    p.comps, p.multi = {"wood": 2}, ["wood", None]
    do(m, 0, "comprar")
    assert not any(c.startswith("cp:wood:") for c in GAME.legal_choices(m.state, 0))
    p.multi = [None, None]
    assert [c for c in GAME.legal_choices(m.state, 0) if c.startswith("cp:wood:")] == ["cp:wood:1"]


def test_order_and_quick_order_at_end_of_round():
    m = _market()
    st = m.state
    do(m, 0, "encomendar", "et:cog", "ee:2")
    do(m, 0, "encomendar")
    assert "et:cog" not in GAME.legal_choices(st, 0)
    do(m, 0, "voltar", "encomenda_rapida", "rt:mirror")
    assert st.quick == "mirror"
    end_of_round.chegada_das_encomendas(st, [])
    assert st.stock[2] == "cog" and st.quick is None and st.orders == [None] * 4


# ---------------------------------------------------------------------------------------------- Oficina


def _workshop(tricks=("T28",), comps=None, specs=None):
    m = begin(2)
    p = m.state.p[0]
    give_tricks(m, 0, *tricks)
    p.comps, p.multi = dict(comps or {}), [None, None]
    if specs is not None:
        p.specs = list(specs)
    revelar(m, {0: {"mag": "workshop"}}, order=[0, 1])
    place(m, 0, "mag", "workshop.0.0")
    return m


def test_workshop_example_water_tank_escape():
    """2 Glass, 2 Metal and a Rope meet Fuga do Tanque de Água: 2 markers, components not spent."""
    m = _workshop(comps={"glass": 2, "metal": 2, "rope": 1}, specs=[])
    p = m.state.p[0]
    events = do(m, 0, "aq:T28")
    assert p.tricks[0].on == 2 and p.comps == {"glass": 2, "metal": 2, "rope": 1}
    # markers still on the card, nothing else to do (giving things back opens nothing in the Workshop
    # without the Manager): the magician's actions end, not asked, with the AP it had left
    spent = next(e for e in events if e.text.key == "trickerion.log.char_spent")
    assert spent.text.params["ap"].params["count"] == 3 - TRICKS["T28"].prepare_ap and m.state.cur is None


def test_prepare_needs_the_components_engineer_bonus_and_symbol_limit():
    m = _workshop(tricks=("T01", "T37"), comps={"fabric": 2, "metal": 1}, specs=["engineer"])
    st, p = m.state, m.state.p[0]
    assert "aq:T37" not in GAME.legal_choices(st, 0)
    do(m, 0, "mt:T01", "aq:T01")
    assert p.tricks[0].eng and p.tricks[0].on == 3
    p.tricks[0].on = 0
    card = next(c for c in st.row if c)
    lay(card, 0, p.tricks[0].sym, "T01", CARDS[card.id].slots[0])
    do(m, 0, "aq:T01")
    assert p.tricks[0].on == 3  # 3 + 1 in the Theater = 4 of that symbol


def test_specialist_moves_need_the_specialist():
    m = _workshop(tricks=("T01",), comps={"fabric": 1, "wood": 2}, specs=[])
    assert not [c for c in GAME.legal_choices(m.state, 0) if c[:3] in ("mt:", "ma:") or c == "mover_componentes"]
    m = _workshop(tricks=("T01",), comps={"fabric": 1, "wood": 2}, specs=["manager", "assistant"])
    _st, p = m.state, m.state.p[0]
    do(m, 0, "mover_componentes", "mc:wood:0")
    assert p.multi == ["wood", None] and effective(p, "wood") == 3
    do(m, 0, "ma:a1")
    assert p.app_ext == "a1"


def test_returning_tricks_and_components():
    m = _market()
    st, p = m.state, m.state.p[0]
    give_tricks(m, 0, "T01")
    p.comps, p.multi = {"fabric": 2}, [None, None]
    card = next(c for c in st.row if c)
    lay(card, 0, 0, "T01", CARDS[card.id].slots[0])
    do(m, 0, "devolver", "dt:T01")
    events = do(m, 0, "devolver")  # only the Fabric is left to give back: not asked
    assert p.tricks == [] and card.m == {} and p.comps == {"fabric": 1}
    assert [e.text.key for e in events] == ["trickerion.log.only", "trickerion.log.return_component"]


def test_giving_back_is_offered_while_it_could_open_an_action():
    """A character with no action left ends by itself, unless giving something back could let it act:
    at the Market, room for a component on sale it could pay for (PT p.15: "a qualquer momento no
    intuito de abrir espaço para novos")."""
    m = _market(char="a1", space="market.3")  # an apprentice on +0: 1 AP
    st, p = m.state, m.state.p[0]
    st.stock, st.orders = ["wood", None, None, None], ["rope", "saw", "cog", "mirror"]  # no Order space free
    p.comps, p.multi, p.coins, p.shards = {"wood": 3}, [None, None], 5, 0
    assert GAME.legal_choices(st, 0) == ["devolver", "fim"]  # 3 Wood: no room, until one goes back
    do(m, 0, "devolver", "dc:wood")
    assert "comprar" in GAME.legal_choices(st, 0)


# ---------------------------------------------------------------------------------------------- Teatro


def test_marker_corners_follow_the_clockwise_order():
    assert [corner("spiritual", 0, e) for e in range(4)] == ["spiritual", "mechanical", "optical", "escape"]
    assert [corner("optical", 1, e) for e in range(4)] == ["mechanical", "optical", "escape", "spiritual"]


def test_placement_geometry_and_same_symbol_rule():
    card = Card(id="P01")  # 0.0 - 0.1 (shard) - 0.2, vertical
    assert placements(card, 0, 0) == [("0.0", 2), ("0.1", 0), ("0.1", 2), ("0.2", 0)]
    lay(card, 0, 0, "T01", "0.0", 2)
    assert placements(card, 0, 0) == []  # same colour and symbol
    assert ("0.1", 0) in placements(card, 1, 0)
    lay(card, 1, 0, "T02", "0.1", 0)  # optical own corners meet on the circle
    assert links_of(card, "0.1") == [0] and link_count(card) == 1
    lay(card, 1, 1, "T37", "0.2", 0)  # mechanical up; 0.1's down corner shows spiritual
    assert link_count(card) == 1


def _theater_position(n=4):
    m = begin(n)
    return m


def test_theater_example_a_placements_and_links():
    """Yellow's Manager on Friday (2 AP) sets up 2 tricks: 1 link, 1 Fame or coin. Blue's Assistant on
    Thursday has 3 AP; links with its level-2 trick pay 2 each, also with a yellow marker."""
    m = begin(4)
    st = m.state
    blue, yellow, green, red = 0, 1, 2, 3
    st.row = [Card(id="P01"), Card(id="P02"), Card(id="P04"), None, None]
    give_tricks(m, yellow, "T37", "T02", on=2)         # mechanical and optical, level 1
    give_tricks(m, blue, "T41", "T38", on=2)           # mechanical: level 2 ("Espadas") and level 1
    for s in (yellow, blue):
        st.p[s].specs = ["manager", "assistant"]
    revelar(m, {green: {"mag": "theater"}, yellow: {"manager": "theater", "a1": "theater", "mag": "theater"},
               blue: {"assistant": "theater", "mag": "theater"}, red: {"mag": "theater"}},
           order=[green, yellow, blue, red])
    place(m, green, "mag", "theater.3.p")
    place(m, yellow, "manager", "theater.1.b0")
    assert st.cur.ap == 2
    assert "pp:1" in GAME.legal_choices(st, yellow)  # Preparar um Truque, card by card
    set_up(m, yellow, "T37", 1, "0.1", 0)       # P02: 0.0 | 0.1 - 1.1 (shard)
    assert st.step == "acoes"
    shards = st.p[yellow].shards
    do(m, yellow, "pp:1")  # only T02 can still go on that card: not asked
    assert st.step == "preparar_e" and st.ctx["t"] == "T02"
    labels = {c.id: c.label for c in GAME.prompt(st, yellow).choices}
    # a spot that links comes with each way of taking its bonus, in the same press
    assert labels["pe:1.1:3:1"].params["spot"].params["count"] == 1 and "pe:1.1:3" not in labels
    assert labels["pe:1.1:3:1"].params["fame"] == 1 and labels["pe:1.1:3:0"].params["coins"] == 1
    assert labels["pe:0.0:2"].params["count"] == 0
    fame, coins = st.p[yellow].fame, st.p[yellow].coins
    events = do(m, yellow, "pe:1.1:3:1")       # its optical corner meets T37's right corner: 1 Fame
    assert st.p[yellow].fame == fame + 1 and st.p[yellow].coins == coins
    assert st.p[yellow].shards == shards + 1  # the shard circle with two own markers: a single Shard
    assert [e.text.key for e in events][-1] == "trickerion.log.char_spent"  # 0 AP: done by itself
    place(m, blue, "assistant", "theater.0.b0")
    assert st.cur.ap == 3  # Thursday backstage +1
    set_up(m, blue, "T38", 0, "0.0", 2)  # P01
    assert st.step == "acoes"
    coins = st.p[blue].coins
    set_up(m, blue, "T41", 0, "0.1", 0, fame=0)
    assert st.p[blue].coins == coins + 2  # the level-2 trick formed it: 2 coins
    fame = st.p[blue].fame
    set_up(m, blue, "T41", 1, "0.0", 2, fame=1)  # above yellow's T37 on P02: a link with yellow
    assert st.p[blue].fame == fame + 2 and st.cur is None
    place(m, red, "mag", "theater.2.b0")
    assert st.cur.ap == 3  # backstage magician: 3 AP, cannot perform this round
    do(m, red, "fim")
    assert st.turn == yellow
    assert all(k.startswith("theater.1") for k in offered(m, yellow, "a1"))
    put(m, yellow, "a1", "theater.1.b1")
    # its mechanical trick next to blue's on the first card: 0.1's lower corner shows Escape, no link
    events = do(m, yellow, "pp:0")
    if st.step == "preparar_t":
        events = do(m, yellow, "pt:T37")
    # 0.2 facing up is the one spot left: set up without asking, and told
    assert st.row[0].m["0.2"].t == "T37" and st.row[0].m["0.2"].d == 0 and st.cur is None
    only = next(e for e in events if e.text.key == "trickerion.log.only")
    assert only.text.params["answer"].params["count"] == 0
    place(m, blue, "mag", "theater.0.p")
    place(m, yellow, "mag", "theater.1.p")
    assert st.days == [blue, yellow, red, green]


def test_reschedule_pays_no_link_bonus():
    m = begin(2)
    st = m.state
    st.row = [Card(id="P01"), None, None]
    give_tricks(m, 0, "T01", "T02", on=1)
    lay(st.row[0], 0, 0, "T01", "0.0", 2)
    lay(st.row[0], 0, 1, "T02", "0.2", 0)
    st.p[0].tricks[0].on = 0
    revelar(m, {0: {"mag": "theater"}}, order=[0, 1])
    place(m, 0, "mag", "theater.1.b0")
    fame, coins = st.p[0].fame, st.p[0].coins
    do(m, 0, "reagendar", "rm:0:0.2")  # its own card is the only one: not asked
    do(m, 0, "re:0.1:0")
    assert link_count(st.row[0]) == 1 and st.step == "acoes"
    assert (st.p[0].fame, st.p[0].coins) == (fame, coins)


# ---------------------------------------------------------------------------------------------- performance


def _perf_position():
    """Rulebook Example B: blue Thursday (Assistant backstage), yellow Friday (Manager backstage),
    red Saturday (magician backstage), green Sunday."""
    m = begin(4)
    st = m.state
    blue, yellow, green, red = 0, 1, 2, 3
    give_tricks(m, blue, "T02", "T03")      # optical, level 1
    give_tricks(m, red, "T37", "T40")
    give_tricks(m, yellow, "T38", "T39")
    give_tricks(m, green, "T25", "T26")
    first, second, third = Card(id="P06"), Card(id="P03"), Card(id="P13")
    lay(third, blue, 0, "T02", "0.0")
    lay(third, blue, 1, "T03", "1.0")
    lay(third, red, 0, "T37", "1.1")
    rotate_for_links(third, 2)
    lay(second, yellow, 0, "T38", "0.0")
    lay(second, yellow, 1, "T39", "0.1")
    lay(second, blue, 0, "T02", "1.1")
    lay(second, red, 1, "T40", "1.2")
    rotate_for_links(second, 3)
    lay(first, green, 0, "T25", "0.0")
    lay(first, green, 1, "T26", "0.1")
    lay(first, yellow, 0, "T38", "0.2")
    lay(first, red, 0, "T37", "1.2")
    rotate_for_links(first, 2)
    st.row = [first, second, third, None, None]
    places = {blue: {"mag": "theater.0.p", "assistant": "theater.0.b0"},
              yellow: {"mag": "theater.1.p", "manager": "theater.1.b0"},
              red: {"mag": "theater.2.b0"}, green: {"mag": "theater.3.p"}}
    for s, spots in places.items():
        p = st.p[s]
        p.specs = ["assistant", "manager"]
        p.placed = dict(spots)
        p.day = int(next(iter(spots.values())).split(".")[1])
        st.days[p.day] = s
        for c, key in spots.items():
            st.occ[key] = f"{s}:{c}"
    st.phase, st.step, st.turn, st.perf_day, st.steps = "perform", "", None, 0, {}
    advance(m)
    return m


def test_performance_example_b_payouts():
    m = _perf_position()
    st = m.state
    blue, yellow, green, red = 0, 1, 2, 3
    assert st.turn == blue and GAME.legal_choices(st, blue) == ["ap:1", "ap:2"]
    before = [(p.fame, p.coins, p.shards) for p in st.p]
    do(m, blue, "ap:2")
    y2, y3, y37 = TRICKS["T02"].yields, TRICKS["T03"].yields, TRICKS["T37"].yields
    # blue: both tricks -1/-1 (Thursday), +2 links, +2 Assistant, +2 the card
    assert st.p[blue].fame == before[blue][0] + (y2.fame - 1) + (y3.fame - 1) + 2 + 2 + 2
    assert st.p[blue].coins == before[blue][1] + (y2.coins - 1) + (y3.coins - 1)
    assert st.p[red].fame == before[red][0] + y37.fame and st.p[red].coins == before[red][1] + y37.coins
    assert st.row[2].m == {}  # markers back to the supply, not to the trick cards
    assert all(o.on == 0 for o in st.p[blue].tricks)
    assert st.turn == yellow and GAME.legal_choices(st, yellow) == ["ap:0", "ap:1"]
    before = [(p.fame, p.coins, p.shards) for p in st.p]
    events = do(m, yellow, "ap:1")  # then green, whose only card with its markers is the first: not asked
    y38, y39, y40 = TRICKS["T38"].yields, TRICKS["T39"].yields, TRICKS["T40"].yields
    y25, y26 = TRICKS["T25"].yields, TRICKS["T26"].yields
    # yellow: 3 links, card 1 Fame, Manager 3 coins; then its T38 in green's show (Friday: no modifier)
    assert st.p[yellow].fame == before[yellow][0] + y38.fame + y39.fame + 3 + 1 + y38.fame
    # (the round then ends: the Manager's wage, 2)
    assert st.p[yellow].coins == before[yellow][1] + y38.coins + y39.coins + 3 + y38.coins - 2
    assert st.p[blue].fame == before[blue][0] + max(0, y2.fame - 1)
    assert st.p[red].coins == before[red][1] + y40.coins + y37.coins
    assert st.p[green].fame == before[green][0] + y25.fame + 1 + y26.fame + 1 + 2   # Sunday +1/+1, 2 links
    assert st.p[green].coins == before[green][1] + y25.coins + 1 + y26.coins + 1 + 1  # card: 1 coin
    only = [e for e in events if e.text.key == "trickerion.log.only"]
    assert len(only) == 1 and only[0].text.params["answer"].params["n"] == 1 and only[0].audience is None
    assert st.phase in ("advertise", "assign")  # the round ended


def test_no_character_in_theater_uses_the_performers_modifier_never_below_zero():
    m = begin(2)
    st = m.state
    give_tricks(m, 0, "T37")   # 0 Fame, 2 coins
    give_tricks(m, 1, "T01")   # 2 Fame, 0 coins
    card = Card(id="P01")
    lay(card, 0, 0, "T37", "0.0", 2)
    lay(card, 1, 0, "T01", "0.1", 0)
    st.row = [card, None, None]
    st.p[0].placed, st.p[0].day, st.days[0] = {"mag": "theater.0.p"}, 0, 0
    st.occ = {"theater.0.p": "0:mag"}
    fame1, coins1 = st.p[1].fame, st.p[1].coins
    fame0 = st.p[0].fame
    performance.apresentar(st, 0, 0, [])
    assert (st.p[1].fame, st.p[1].coins) == (fame1 + 1, coins1)   # Thursday modifier, coins stay 0
    assert st.p[0].fame == fame0 + 0 + link_count(card) + CARDS["P01"].bonus.fame


# ---------------------------------------------------------------------------------------------- end of round


def test_wages_idle_free_assistant_apprentice_free_and_fame_penalty():
    m = begin(2)
    st = m.state
    p = st.p[0]
    p.specs, p.apps, p.app_ext = ["assistant", "manager"], ["a1", "a2", "a3"], "a2"
    p.placed = {"mag": "x", "assistant": "x", "a1": "x", "a2": "x"}  # manager and a3 idle
    p.coins, p.fame = 2, 9
    end_of_round.pagar_salarios(st, [])
    assert p.coins == 0 and p.fame == 9 - 2 * 1   # due 2 + 1 = 3, paid 2, 1 unpaid
    p.placed, p.coins, p.fame = {"assistant": "x", "manager": "x"}, 0, 3
    end_of_round.pagar_salarios(st, [])
    assert p.fame == 0


def test_performance_cards_move_and_the_last_is_discarded_from_round_three():
    m = begin(2)
    st = m.state
    first = st.row[0]
    end_of_round.mover_cartas_de_apresentacao(st, [])
    assert st.row[1] is first and st.row[0] is not None and st.row[2] is None and len(st.deck) == 3
    end_of_round.mover_cartas_de_apresentacao(st, [])
    assert st.row[2] is first
    lay(first, 0, 0, st.p[0].tricks[0].t, CARDS[first.id].slots[0])
    on = st.p[0].tricks[0].on
    end_of_round.mover_cartas_de_apresentacao(st, [])
    assert first not in st.row and st.p[0].tricks[0].on == on and len(st.deck) == 1


def test_end_of_round_returns_posters_and_characters_and_advances_the_round():
    m = begin(2)
    st = m.state
    do(m, st.order[0], "propaganda")
    do(m, st.order[1], "passar")
    revelar(m, {0: {"a1": "downtown"}, 1: {}}, order=[0, 1])
    place(m, 0, "a1", "downtown.0")
    do(m, 0, "fim")
    assert st.round == 2 and not any(p.poster for p in st.p) and st.occ == {} and st.phase == "advertise"


# ---------------------------------------------------------------------------------------------- scoring


def test_final_scoring_caps_and_ties():
    m = begin(2)
    st = m.state
    st.phase = "over"
    a, b = st.p
    a.fame, a.shards, a.coins, a.apps, a.specs = 30, 25, 8, ["a1"], ["manager"]
    b.fame, b.shards, b.coins, b.apps, b.specs = 53, 2, 2, ["a1"], []
    score = GAME.score(st)
    lines = {s.seat: [x.points for x in s.lines] for s in score.seats}
    assert lines[0] == [30, 20, 2, 2, 3]   # shards capped at 20
    assert lines[1] == [53, 2, 0, 2, 0]
    assert score.seats[0].total == score.seats[1].total == 57
    st.order = [1, 0]
    assert GAME.score(st).winners == [1]
    st.order = [0, 1]
    assert GAME.score(st).winners == [0] and len(GAME.score(st).notes) == 2


def test_events_carry_random_outcomes():
    """The dice roll is logged with its faces, and the log entry holds the draws that replay it."""
    m = begin(2)
    entry = next(e for e in reversed(m.log) if any(ev.text.key == "trickerion.log.dice" for ev in e.events))
    dice = next(ev for ev in entry.events if ev.text.key == "trickerion.log.dice").text.params["dice"]
    shown = [f.params.get("n", f.key.rsplit(".", 1)[1]) for group in ("residence", "inn", "bank")
             for f in dice.params[group]]
    assert [str(x) for x in shown] == [m.state.dice[d] for d in ("r0", "r1", "i0", "i1", "b0", "b1")]
    assert len(entry.draws) >= 6


def test_shard_circle_pays_every_player_in_the_link():
    from rulesets.trickerion.theater import preparar_truque

    m = begin(2)
    st = m.state
    st.row = [Card(id="P01"), None, None]  # the 0.0 - 0.1 circle has the shard
    give_tricks(m, 0, "T01", on=1)
    give_tricks(m, 1, "T02", on=1)
    preparar_truque(st, 0, "T01", 0, "0.0", 2, [])
    shards = [p.shards for p in st.p]
    links = preparar_truque(st, 1, "T02", 0, "0.1", 0, [])
    assert links == [0] and [p.shards for p in st.p] == [shards[0] + 1, shards[1] + 1]


def test_a_hired_specialist_brings_its_action_next_round():
    m = begin(2)
    st = m.state
    p = st.p[0]
    p.specs = []
    p.hires = ["manager"]
    end_of_round.retornar_personagens(st, [])
    assert p.specs == ["manager"]
    p.comps, p.multi = {"wood": 1}, [None, None]
    revelar(m, {0: {"manager": "workshop"}}, order=[0, 1])
    place(m, 0, "manager", "workshop.0.0")
    assert m.state.cur.ap == 2 and "mover_componentes" in GAME.legal_choices(st, 0)
