"""Each prophecy's rule change while it is Active (its effect), and where it stops (its limit): another
prophecy Active, the case it does not cover."""

import pytest

from rulesets.trickerion import performance
from rulesets.trickerion.data import CARDS, DAYS, TRICKS
from rulesets.trickerion.rules import link_count
from rulesets.trickerion.state import Card
from rulesets.trickerion.theater import preparar_truque

from ..harness import buy, do, give_tricks, idle, lay, offered, place, put, revelar
from .helpers import GAME, activate, with_prophecies

OTHER = "P25"  # Hire Character for 1 AP: changes none of the rules tested below


def _placed(active, plan, space, char="mag", n=2, shard=False, **kw):
    m = with_prophecies(n, active, **kw)
    revelar(m, {0: plan}, order=list(range(n)))
    place(m, 0, char, space, shard=shard)
    return m


# ---------------------------------------------------------------------------------------------- Action Points


def test_p01_every_character_has_one_base_ap():
    """P01: "Every Character has only 1 base Action Point (Apprentice, Specialist
    and Magician alike) this round." (REF token text)."""
    m = _placed("P01", {"mag": "downtown", "a1": "market"}, "downtown.0")
    assert m.state.cur.ap == 1 + 2  # the magician's 3 became 1; the space's +2 still counts
    m2 = _placed(OTHER, {"mag": "downtown"}, "downtown.0")
    assert m2.state.cur.ap == 3 + 2  # limit: only while P01 is Active


def test_p01_apprentice_keeps_one_and_specialists_drop_to_one():
    m = _placed("P01", {"a1": "downtown"}, "downtown.3", char="a1")
    assert m.state.cur.ap == 1
    m = with_prophecies(2, "P01", magicians=("M05",))
    spec = m.state.p[0].specs[0]
    revelar(m, {0: {spec: "downtown"}}, order=[0, 1])
    place(m, 0, spec, "downtown.3")
    assert m.state.cur.ap == 1  # a specialist's 2 became 1


def test_p15_advertised_apprentices_get_one_more_ap():
    """P15: "If you Advertised this round, your Apprentices get +1 base AP." (REF token text)."""
    m = with_prophecies(2, "P15")
    st = m.state
    first = st.order[0]
    do(m, first, "propaganda")
    while st.phase == "advertise":
        do(m, GAME.to_act(st)[0], "passar")
    other = 1 - first
    revelar(m, {first: {"a1": "downtown"}, other: {"a1": "market"}}, order=[first, other])
    place(m, first, "a1", "downtown.3")
    assert st.cur.ap == 1 + 1
    do(m, first, "fim")
    place(m, other, "a1", "market.3")
    assert st.cur.ap == 1  # limit: the player who did not advertise
    do(m, other, "fim")


def test_p15_only_apprentices():
    m = with_prophecies(2, "P15")
    st = m.state
    st.p[0].poster = True
    revelar(m, {0: {"mag": "downtown"}}, order=[0, 1])
    place(m, 0, "mag", "downtown.3")
    assert st.cur.ap == 3  # the magician gets nothing extra


def test_p08_a_shard_buys_two_ap_once():
    """P08: "Enhance Character (pay 1 shard) gives +2 AP instead of +1." (REF token text)."""
    m = _placed("P08", {"mag": "market"}, "market.3", shard=True)
    assert m.state.cur.ap == 3 + 2 and m.state.p[0].shards == 0
    m2 = with_prophecies(2, "P08")
    revelar(m2, {0: {"mag": "market"}}, order=[0, 1])
    put(m2, 0, "mag", "market.3")
    prompt = GAME.prompt(m2.state, 0)
    assert prompt.choices[0].label.params["ap"] == 2
    do(m2, 0, "fr:1")
    assert "fr:1" not in GAME.legal_choices(m2.state, 0)  # limit: still once per placement
    m3 = _placed(OTHER, {"mag": "market"}, "market.3", shard=True)
    assert m3.state.cur.ap == 3 + 1


def test_p26_shard_in_the_theater_backstage_only():
    """P26: "Enhance Character may also be used in the Theater." (REF token text)."""
    m = with_prophecies(2, "P26")
    revelar(m, {0: {"a1": "theater", "mag": "theater"}}, order=[0, 1])
    put(m, 0, "a1", "theater.0.b0")
    assert GAME.legal_choices(m.state, 0)[0] == "fr:1"
    do(m, 0, "fr:1")
    assert m.state.cur.ap == 1 + 1 + 1
    m2 = with_prophecies(2, OTHER)
    revelar(m2, {0: {"a1": "theater"}}, order=[0, 1])
    put(m2, 0, "a1", "theater.0.b0")
    assert m2.state.step == "acoes" and "fr:1" not in GAME.legal_choices(m2.state, 0)  # limit: the base rule
    m3 = with_prophecies(2, "P26")
    revelar(m3, {0: {"mag": "theater"}, 1: {"mag": "market"}}, order=[0, 1])
    put(m3, 0, "mag", "theater.0.p")
    assert m3.state.turn == 1 and m3.state.p[0].placed["mag"] == "theater.0.p"  # performers' AP are lost: no Shard


# ---------------------------------------------------------------------------------------------- action costs


def test_p12_learn_trick_costs_one_ap():
    """P12: "Learn Trick costs 1 AP instead of 3." (REF token text)."""
    m = _placed("P12", {"a1": "downtown"}, "downtown.3", char="a1")
    st = m.state
    st.dice.update(r0="any", r1="X")
    st.p[0].coins = 30
    assert st.cur.ap == 1 and "aprender" in GAME.legal_choices(st, 0)
    do(m, 0, "aprender", "ad:r0:escape")
    tid = GAME.legal_choices(st, 0)[0][3:]
    events = do(m, 0, f"at:{tid}")
    assert st.p[0].tricks[-1].t == tid and "trickerion.log.char_spent" in [e.text.key for e in events]  # 0 AP
    m2 = _placed("P24", {"a1": "downtown"}, "downtown.3", char="a1")
    m2.state.dice.update(r0="any")
    assert "aprender" not in GAME.legal_choices(m2.state, 0)  # limit: Learn Trick costs 3 otherwise


def test_p24_take_coins_costs_one_ap():
    """P24: "Take Coins costs 1 AP instead of 3." (REF token text)."""
    m = _placed("P24", {"a1": "downtown"}, "downtown.3", char="a1")
    st = m.state
    st.dice.update(b0="4", i0="manager")
    assert "pm:b0" in GAME.legal_choices(st, 0) and "ct:i0" not in GAME.legal_choices(st, 0)  # limit: not Hire
    events = do(m, 0, "pm:b0")
    keys = [e.text.key for e in events]
    assert events[0].text.params["coins"] == 4 and keys[1] == "trickerion.log.char_spent"  # for its 1 AP


def test_p25_hire_costs_one_ap():
    """P25: "Hire Character costs 1 AP instead of 3." (REF token text)."""
    m2 = _placed("P25", {"a1": "downtown"}, "downtown.3", char="a1")
    st2 = m2.state
    st2.dice.update(b0="4", i1="apprentice")
    assert "ct:i1" in GAME.legal_choices(st2, 0) and "pm:b0" not in GAME.legal_choices(st2, 0)
    events = do(m2, 0, "ct:i1")
    keys = [e.text.key for e in events]
    assert keys[:2] == ["trickerion.log.hire", "trickerion.log.char_spent"]  # for its 1 AP


def test_p05_draw_further_cards_costs_one_ap():
    """P05: "'Draw Further Cards' at the Dark Alley costs 1 AP instead of 2." (REF token text)."""
    from rulesets.trickerion import hooks

    m = with_prophecies(2, "P05")
    module = hooks.REGISTRY["prophecies"]
    assert module.action_cost(m.state, "comprar_adicionais", 2) == 1
    assert module.action_cost(m.state, "comprar_primeira", 1) == 1  # limit: only Comprar Cartas Adicionais
    activate(m.state, OTHER)
    assert module.action_cost(m.state, "comprar_adicionais", 2) == 2  # limit: only while P05 is Active
    # (through the Beco Escuro's menu: test_beco_escuro.py)


# ---------------------------------------------------------------------------------------------- Town Center


def test_p07_take_coins_gives_double():
    """P07: "Take Coins gives twice the value shown on the chosen Bank die." (REF token text)."""
    m = _placed("P07", {"mag": "downtown"}, "downtown.3")
    st = m.state
    st.dice["b0"], st.dice["b1"] = "5", "X"
    coins = st.p[0].coins
    assert GAME.prompt(st, 0).choices[[c.id for c in GAME.prompt(st, 0).choices].index("pm:b0")].label.params["n"] == 10
    events = do(m, 0, "pm:b0")
    assert events[0].text.params["coins"] == 10 and st.p[0].coins == coins + 10 and st.cur is None  # no AP left
    m2 = _placed(OTHER, {"mag": "downtown"}, "downtown.3")
    m2.state.dice["b0"] = "5"
    coins = m2.state.p[0].coins
    do(m2, 0, "pm:b0")
    assert m2.state.p[0].coins == coins + 5  # limit


# ---------------------------------------------------------------------------------------------- Market


def test_p04_order_area_types_may_be_bought():
    """P04: "Component types sitting in the Market Row's Order area may also be
    bought with Buy actions." (REF token text)."""
    m = _placed("P04", {"mag": "market"}, "market.0")
    st = m.state
    st.orders = ["mirror", None, None, None]
    st.p[0].coins = 20
    do(m, 0, "comprar")
    assert "cp:mirror:1" in GAME.legal_choices(st, 0)
    do(m, 0, "cp:mirror:1", "bg:0")
    assert st.p[0].comps["mirror"] == 1 and st.p[0].coins == 20 - 3 and st.orders[0] == "mirror"
    m2 = _placed(OTHER, {"mag": "market"}, "market.0")
    m2.state.orders = ["mirror", None, None, None]
    do(m2, 0, "comprar")
    assert not any(c.startswith("cp:mirror:") for c in GAME.legal_choices(m2.state, 0))  # limit


def test_p21_every_component_costs_two_and_the_quick_order_adds_one():
    """P21: "Every Component costs 2 coins to buy, whatever its tier." (REF token text)."""
    from rulesets.trickerion.market import unit_price

    m = _placed("P21", {"mag": "market"}, "market.0")
    st = m.state
    st.quick = "mirror"
    st.p[0].comps, st.p[0].multi = {}, [None, None]
    assert unit_price(st, "wood") == 2 and unit_price(st, "mirror") == 2 + 1
    assert unit_price(st, "rope") is None  # limit: still only what is on sale
    coins = st.p[0].coins
    buy(m, 0, "wood", 3)
    assert st.p[0].coins == coins - 6
    activate(st, OTHER)
    assert unit_price(st, "wood") == 1 and unit_price(st, "mirror") == 3 + 1


# ---------------------------------------------------------------------------------------------- placement


def test_p09_two_placements_per_turn_the_second_optional():
    """P09: "During Place Characters, each player may place two Characters per
    turn." (REF token text)."""
    m = with_prophecies(2, "P09")
    st = m.state
    revelar(m, {0: {"mag": "downtown", "a1": "market", "a2": "workshop"}, 1: {"mag": "market"}}, order=[0, 1])
    place(m, 0, "mag", "downtown.3")
    do(m, 0, "fim")
    assert st.turn == 0 and "passar" in GAME.legal_choices(st, 0)  # a second one, if the player wants
    place(m, 0, "a1", "market.3")
    do(m, 0, "fim")
    assert st.turn == 1  # limit: two per turn
    place(m, 1, "mag", "market.0")
    do(m, 1, "fim")
    assert st.turn == 0
    place(m, 0, "a2", "workshop.0.0")
    do(m, 0, "fim")
    assert st.phase != "place" or st.turn is None or st.turn == 0


def test_p09_pass_after_the_first_and_the_base_rule_otherwise():
    m = with_prophecies(2, "P09")
    st = m.state
    revelar(m, {0: {"mag": "downtown", "a1": "market"}, 1: {"mag": "market"}}, order=[0, 1])
    place(m, 0, "mag", "downtown.3")
    do(m, 0, "fim", "passar")
    assert st.turn == 1
    m2 = with_prophecies(2, OTHER)
    revelar(m2, {0: {"mag": "downtown", "a1": "market"}, 1: {"mag": "market"}}, order=[0, 1])
    place(m2, 0, "mag", "downtown.3")
    do(m2, 0, "fim")
    assert m2.state.turn == 1  # limit: one per turn without P09


def test_p18_a_plus_two_space_costs_three_coins():
    """P18: "Using a +2 AP slot at Downtown, Market Row or Dark Alley costs 3
    coins." (REF token text)."""
    m = with_prophecies(2, "P18")
    st = m.state
    revelar(m, {0: {"mag": "downtown"}}, order=[0, 1])
    coins = st.p[0].coins
    place(m, 0, "mag", "downtown.0")
    assert st.p[0].coins == coins - 3 and st.cur.ap == 5
    m2 = with_prophecies(2, "P18")
    revelar(m2, {0: {"mag": "market"}}, order=[0, 1])
    m2.state.p[0].coins = 2
    assert "market.0" not in offered(m2, 0, "mag")  # limit: not without 3 coins
    assert "market.3" in offered(m2, 0, "mag")      # and the +0 space stays free of charge
    put(m2, 0, "mag", "market.3")
    assert m2.state.p[0].coins == 2


def test_p27_lowest_free_modifier_first():
    """P27: "Characters must be placed on the free slot with the lowest available
    AP modifier." (REF token text)."""
    m = with_prophecies(4, "P27")
    revelar(m, {0: {"mag": "downtown", "a1": "downtown"}, 1: {"mag": "theater"}}, order=[0, 1, 2, 3])
    assert offered(m, 0, "mag") == ["downtown.3"]
    put(m, 0, "mag", "downtown.3")
    do(m, 0, "fim")
    assert len([k for k in offered(m, 1, "mag") if k.startswith("theater")]) > 3  # limit: not the Theater
    idle(m, 1, "mag")
    assert offered(m, 0, "a1") == ["downtown.1"]  # the two +1 (one choice), not the +2


def test_p20_cards_stay_face_down_until_placed():
    """P20: "Assignment cards are not revealed after the Assignment phase; each is
    revealed only right before its Character is placed." (REF token text)."""
    m = with_prophecies(2, "P20")
    st = m.state
    events = revelar(m, {0: {"mag": "downtown", "a1": "market"}, 1: {"mag": "workshop"}}, order=[0, 1])
    keys = [e.text.key for e in events]
    assert "trickerion.log.reveal" not in keys and "trickerion.prophecies.log.face_down" in keys
    assert GAME.view(st, 1)["players"][0]["plan"] == {}
    assert GAME.view(st, 0)["players"][0]["plan"] == {"mag": "downtown", "a1": "market"}  # the owner sees them
    events = put(m, 0, "mag", "downtown.3")
    assert GAME.view(st, 1)["players"][0]["plan"] == {"mag": "downtown"}
    keys = [e.text.key for e in events]
    assert keys.index("trickerion.prophecies.log.revealed") == keys.index("trickerion.log.placed") - 1
    do(m, 0, "fim")
    idle(m, 1, "mag")
    assert GAME.view(st, 0)["players"][1]["plan"] == {}  # a card left face down is never shown
    m2 = with_prophecies(2, OTHER)
    events = revelar(m2, {0: {"mag": "downtown"}}, order=[0, 1])
    assert "trickerion.log.reveal" in [e.text.key for e in events]  # limit
    assert GAME.view(m2.state, 1)["players"][0]["plan"] == {"mag": "downtown"}


# ---------------------------------------------------------------------------------------------- Theater


def _set_up(active, tid, seat=0):
    m = with_prophecies(2, active)
    st = m.state
    st.row = [Card(id="P01"), None, None]
    give_tricks(m, seat, tid, on=1)
    fame = st.p[seat].fame
    events: list = []
    links = preparar_truque(st, seat, tid, 0, "0.0", 2, events)
    return st.p[seat].fame - fame, links, events


@pytest.mark.parametrize("pid,tid,other", [
    ("P10", "T25", "T37"), ("P13", "T37", "T25"), ("P17", "T01", "T13"), ("P23", "T13", "T01")])
def test_p10_p13_p17_p23_setting_up_a_trick_of_the_category_gives_two_fame(pid, tid, other):
    """P10 / P13 / P17 / P23 (REF token texts): "Setting up an Escape / a Mechanical / an Optical / a
    Spiritual trick immediately gives 2 Fame." """
    gained, _links, _ = _set_up(pid, tid)
    assert gained == 2
    assert _set_up(pid, other)[0] == 0  # limit: another category


def test_set_up_fame_not_for_a_reschedule():
    m = with_prophecies(2, "P10")
    st = m.state
    st.row = [Card(id="P01"), Card(id="P02"), None]
    give_tricks(m, 0, "T25", on=1)
    lay(st.row[0], 0, 0, "T25", "0.0", 2)
    revelar(m, {0: {"mag": "theater"}}, order=[0, 1])
    place(m, 0, "mag", "theater.1.b0")
    fame = st.p[0].fame
    do(m, 0, "reagendar", "rc:1")  # its one marker: not asked
    do(m, 0, GAME.legal_choices(st, 0)[0])
    assert st.row[1].m and st.p[0].fame == fame


def test_p02_and_p03_per_shard_gain():
    """P02: "Whenever you gain one or more Shards, gain 1 extra Shard."; P03: "Whenever you gain one or
    more Shards, also gain 2 Fame." (REF token texts)."""
    st_fame = {}
    for pid in ("P02", "P03", OTHER):
        m = with_prophecies(2, pid)
        st = m.state
        st.row = [Card(id="P01"), None, None]  # the 0.0 - 0.1 circle has the shard
        give_tricks(m, 0, "T01", on=1)
        give_tricks(m, 1, "T02", on=1)
        preparar_truque(st, 0, "T01", 0, "0.0", 2, [])
        before = [(p.shards, p.fame) for p in st.p]
        links = preparar_truque(st, 1, "T02", 0, "0.1", 0, [])
        assert links == [0]
        st_fame[pid] = [(p.shards - b[0], p.fame - b[1]) for p, b in zip(st.p, before, strict=True)]
    assert st_fame["P02"] == [(2, 0), (2, 0)]   # each linked player: the circle's Shard and 1 extra
    assert st_fame["P03"] == [(1, 2), (1, 2)]
    assert st_fame[OTHER] == [(1, 0), (1, 0)]


def test_p02_no_shard_no_bonus():
    m = with_prophecies(2, "P02")
    st = m.state
    st.row = [Card(id="P01"), None, None]
    give_tricks(m, 0, "T01", on=1)
    shards = st.p[0].shards
    preparar_truque(st, 0, "T01", 0, "0.0", 2, [])  # no link: no Shard gained
    assert st.p[0].shards == shards


# ---------------------------------------------------------------------------------------------- performances


def _perform(active, perf_day=0, other_day=None):
    """Seat 0 performs card P01 on `perf_day` with T37 (0 Fame, 2 coins); seat 1's T01 (2 Fame, 0 coins)
    is on the card too; seat 1 holds `other_day` with an apprentice (or has nobody in the Theater)."""
    m = with_prophecies(2, active)
    st = m.state
    give_tricks(m, 0, "T37")
    give_tricks(m, 1, "T01")
    card = Card(id="P01")
    lay(card, 0, 0, "T37", "0.0", 2)
    lay(card, 1, 0, "T01", "0.1", 0)
    st.row = [card, None, None]
    st.p[0].placed, st.p[0].day, st.days[perf_day] = {"mag": f"theater.{perf_day}.p"}, perf_day, 0
    st.occ = {f"theater.{perf_day}.p": "0:mag"}
    if other_day is not None:
        st.p[1].placed, st.p[1].day, st.days[other_day] = {"a1": f"theater.{other_day}.b0"}, other_day, 1
        st.occ[f"theater.{other_day}.b0"] = "1:a1"
    before = [(p.fame, p.coins, p.shards) for p in st.p]
    links = link_count(card)
    performance.apresentar(st, 0, 0, [])
    return [(p.fame - b[0], p.coins - b[1], p.shards - b[2]) for p, b in zip(st.p, before, strict=True)], links


def _day(key):
    return next(i for i, d in enumerate(DAYS) if d.key == key)


def test_p11_friday_is_like_thursday():
    """P11: "Friday gets a yield modifier of -1 Fame and -1 Coin (like Thursday)." (REF token text)."""
    fri = _day("friday")
    got, links = _perform("P11", fri, fri)
    assert got[0][:2] == (0 + links + CARDS["P01"].bonus.fame, 2 - 1 + CARDS["P01"].bonus.coins)
    assert got[1][:2] == (2 - 1, 0)
    base, _ = _perform(OTHER, fri, fri)
    assert base[1][:2] == (2, 0)  # limit: Friday has no modifier otherwise
    sat, _ = _perform("P11", _day("saturday"), _day("saturday"))
    assert sat[1][:2] == (2, 0)   # and Saturday is untouched


def test_p22_saturday_is_like_sunday():
    """P22: "Saturday gets a yield modifier of +1 Fame and +1 Coin (like Sunday)." (REF token text)."""
    sat = _day("saturday")
    got, _ = _perform("P22", sat, sat)
    assert got[1][:2] == (2 + 1, 0 + 1)
    fri, _ = _perform("P22", _day("friday"), _day("friday"))
    assert fri[1][:2] == (2, 0)  # limit: only Saturday


def test_p16_thursday_and_sunday_without_modifiers():
    """P16: "Thursday and Sunday have no yield modifiers this round." (REF token text)."""
    thu, sun = _day("thursday"), _day("sunday")
    got, _ = _perform("P16", thu, sun)
    assert got[0][1] == 2 + CARDS["P01"].bonus.coins and got[1][:2] == (2, 0)
    base, _ = _perform("P06", thu, sun)  # limit: with another prophecy Thursday -1, Sunday +1 again
    assert base[1][:2] == (2 + 1, 0 + 1)


def test_p19_the_performers_modifier_for_everyone():
    """P19: "During the Performance phase, the performing player's weekday yield
    modifier applies to all other players in that Performance instead of their own." (REF token text)."""
    thu, sun = _day("thursday"), _day("sunday")
    got, _ = _perform("P19", thu, sun)
    assert got[1][:2] == (2 - 1, 0)  # seat 1 on Sunday takes the performer's Thursday modifier
    base, _ = _perform(OTHER, _day("saturday"), sun)
    assert base[1][:2] == (2 + 1, 0 + 1)  # limit: own modifier without P19 (Sunday)
    own, _ = _perform("P19", _day("saturday"), _day("saturday"))
    assert own[0][1] == 2 + CARDS["P01"].bonus.coins  # the performer keeps its own (Saturday: none)


def test_p14_coin_yields_as_fame_but_not_the_performer_bonus():
    """P14: "During the Performance phase every Coin yield is received as Fame
    instead." (REF token text)."""
    sat = _day("saturday")
    got, links = _perform("P14", sat)
    bonus = CARDS["P01"].bonus
    assert got[0][:2] == (0 + 2 + links + bonus.fame, bonus.coins)  # T37's 2 coins became Fame
    assert got[1][:2] == (2, 0)
    base, _ = _perform(OTHER, sat)
    assert base[0][:2] == (links + bonus.fame, 2 + bonus.coins)  # limit


def test_p06_performer_bonus_doubled_yields_not():
    """P06: "All Performer bonuses are doubled this round." (REF token text)."""
    sat = _day("saturday")
    got, links = _perform("P06", sat)
    bonus = CARDS["P01"].bonus
    assert got[0] == (0 + 2 * (links + bonus.fame), 2 + 2 * bonus.coins, 2 * bonus.shards)
    assert got[1][:2] == (2, 0)  # limit: the other player's yield is not a performer bonus
    base, _ = _perform(OTHER, sat)
    assert base[0] == (links + bonus.fame, 2 + bonus.coins, bonus.shards)


def test_p02_per_trick_yield_with_shards():
    shard_trick = next(t for t in TRICKS.values() if t.level < 3 and t.yields.shards)
    m = with_prophecies(2, "P02")
    st = m.state
    give_tricks(m, 0, shard_trick.id)
    card = Card(id="P03")
    lay(card, 0, 0, shard_trick.id, CARDS["P03"].slots[0], CARDS["P03"].neighbours[CARDS["P03"].slots[0]][0][0])
    st.row = [card, None, None]
    sat = _day("saturday")
    st.p[0].placed, st.p[0].day, st.days[sat] = {"mag": f"theater.{sat}.p"}, sat, 0
    st.occ = {f"theater.{sat}.p": "0:mag"}
    shards = st.p[0].shards
    performance.apresentar(st, 0, 0, [])
    bonus = CARDS["P03"].bonus.shards
    # the trick's Shards +1, and the performer bonus' Shards (if any) +1 more
    assert st.p[0].shards == shards + shard_trick.yields.shards + 1 + (bonus + 1 if bonus else 0)

