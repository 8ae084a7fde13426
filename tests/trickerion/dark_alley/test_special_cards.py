"""Special assignment cards: how they are played, and each card's effect and limit."""

import pytest

from rulesets.trickerion.dark_alley import special_cards
from rulesets.trickerion.dark_alley.facts import SPECIALS
from rulesets.trickerion.state import Marker, Owned

from ..harness import buy, do, idle, offered, preparing, put
from .positions import begin, card, choices, give, go, keys, plan, tricks, with_card

MAGS = ("M02", "M04")  # seat 0: the Great Optico (optical: Borboletas Encantadas, 2 Fabric, Manager)


def game(n: int = 2):
    return begin(n, magicians=MAGS[:n] if n == 2 else ("M02", "M04", "M01", "M07")[:n])


def finish_round(m) -> None:
    """Everyone's remaining characters idle, performances skipped: to the next round."""
    while m.state.round == 1:
        s = m.state.turn
        if s is None:
            raise AssertionError(m.state.phase)
        ch = choices(m, s)
        pick = next((c for c in ("fim", "ge:-", "cm:-", "yo:-", "ocioso") if c in ch), None)
        pick = pick or next((c for c in ch if c.startswith("o:")), None) or ch[0]
        do(m, s, pick)


# ---------------------------------------------------------------------------------------------- how they are played


def test_bonus_or_plus_one_ap_when_placed():
    m = game()
    with_card(m, 0, "A33", "downtown.3", bonus=False)
    assert m.state.cur.ap == 4 and m.state.alley.mode == "ap"
    m.state.dice["b0"] = "5"
    fame = m.state.p[0].fame
    do(m, 0, "pm:b0")
    assert m.state.p[0].fame == fame  # the bonus was traded for the AP


def test_the_bonus_is_lost_if_another_action_comes_first():
    m = game()
    with_card(m, 0, "A33", "downtown.0")
    m.state.dice["b0"] = "5"
    events = do(m, 0, "rerrolar", "rr:r0")
    assert "da_lost" in keys(events) and m.state.alley.mode == "lost"
    fame = m.state.p[0].fame
    do(m, 0, "pm:b0")
    assert m.state.p[0].fame == fame


def test_used_cards_go_to_the_bottom_idle_ones_stay_in_hand():
    m = game()
    give(m, 0, "A33", "A39")
    plan(m, {0: {"mag": "A33", "a1": "A39"}})
    go(m, 0, "mag", "downtown.0")
    do(m, 0, "fim")
    idle(m, 0, "a1")  # idle: its card stays in the hand
    finish_round(m)
    assert "A33" not in m.state.p[0].hand and m.state.alley.decks["downtown"][-1] == "A33"
    assert m.state.p[0].hand["A39"] == 1 and "A39" not in m.state.alley.decks["market"]
    special_cards.check(m.state)


def test_every_card_has_an_effect_and_a_text():
    from locales import text

    assert set(special_cards.AFTER) | special_cards.PERFORM | {"A35", "A44"} == set(SPECIALS)
    for cid in SPECIALS:
        for lang in ("pt_BR", "en"):
            assert text(f"trickerion.card.{cid}", lang) and text(f"trickerion.cardtext.{cid}", lang)


# ---------------------------------------------------------------------------------------------- Centro da Cidade


def test_a26_mass_recruitment_second_apprentice_for_three_coins_only_after_an_apprentice():
    """A26 Mass Recruitment: "If you hire an Apprentice, you may pay 3 coins to hire
    a second Apprentice as well (no extra AP, no die needed)." (REF card text)."""
    m = game()
    with_card(m, 0, "A26", "downtown.0")
    m.state.dice.update(i0="manager", i1="apprentice")
    coins = m.state.p[0].coins
    do(m, 0, "ct:i1")
    assert m.state.step == "da_recrutar"
    do(m, 0, "mr:1")
    assert m.state.p[0].hires == ["apprentice", "apprentice"] and m.state.p[0].coins == coins - 3
    m2 = game()
    with_card(m2, 0, "A26", "downtown.0")
    m2.state.dice.update(i0="assistant", i1="apprentice")
    do(m2, 0, "ct:i0")
    assert m2.state.step == "acoes"  # a specialist: no second hire


def test_a27_hypnotic_motivation_the_hire_is_placed_this_phase():
    """A27 Hypnotic Motivation: "The hired Character joins you at once: you may put
    an Assignment card from your hand under it and place it in this same Place Characters phase." (REF card text)."""
    m = game()
    with_card(m, 0, "A27", "downtown.0")
    m.state.dice["i1"] = "apprentice"
    do(m, 0, "ct:i1")
    p = m.state.p[0]
    assert p.hires == [] and "a2" in p.apps and m.state.step == "da_hipnose"
    do(m, 0, "hy:market")
    assert p.plan["a2"] == "market"
    do(m, 0, "fim")  # a1 has no card: idle since the reveal
    assert any(c.startswith("al:a2:") for c in choices(m, 0))
    go(m, 0, "a2", "market.0")
    assert m.state.cur.c == "a2"


def test_a28_headhunter_any_kind_one_ap_less_not_with_x():
    """A28 Headhunter: "Hire any kind of Character regardless of the Inn die faces
    (the chosen die must not show X); this Hire Character costs 1 AP less." (REF card text)."""
    m = game()
    with_card(m, 0, "A28", "downtown.3")  # 3 AP
    m.state.dice.update(i0="X", i1="apprentice")
    assert "hh:i1:engineer" in choices(m, 0) and not any(c.startswith("hh:i0") for c in choices(m, 0))
    do(m, 0, "hh:i1:engineer")
    assert m.state.p[0].hires == ["engineer"] and m.state.cur.ap == 1 and m.state.dice["i1"] == "X"
    assert not any(c.startswith("hh:") for c in choices(m, 0))


def test_a29_trick_overhaul_markers_and_symbol_move_to_the_new_trick():
    """A29 Trick Overhaul: "While learning, you may return another of your tricks to
    Dahlgaard's Residence and move all its trick markers and its symbol marker onto the new trick —
    only if you meet the new trick's component requirements." (REF card text)."""
    m = game()
    with_card(m, 0, "A29", "downtown.0")
    p = m.state.p[0]
    tricks(m, 0, "T01", on=2)
    p.tricks[0].sym = 2
    p.comps = {"metal": 1, "fabric": 1, "animal": 1}
    m.state.dice["r0"] = "optical"
    do(m, 0, "aprender", "ad:r0:optical", "at:T02")
    assert m.state.step == "da_reformular"
    do(m, 0, "ro:T01")
    assert [(o.t, o.sym, o.on) for o in p.tricks] == [("T02", 2, 2)]
    m2 = game()
    with_card(m2, 0, "A29", "downtown.0")
    tricks(m2, 0, "T01", on=2)
    m2.state.p[0].comps = {}
    m2.state.dice["r0"] = "optical"
    do(m2, 0, "aprender", "ad:r0:optical", "at:T02")
    assert m2.state.step == "acoes"  # the new trick's components are not met


def test_a30_thirst_for_knowledge_any_category_one_ap_less():
    """A30 Thirst for Knowledge: "Learn a trick of any category regardless of the
    Residence die faces (the chosen die must not show X); this Learn Trick costs 1 AP less." (REF card text)."""
    m = game()
    with_card(m, 0, "A30", "downtown.3")
    m.state.dice.update(r0="escape", r1="X")
    assert "tk:r0" in choices(m, 0) and "tk:r1" not in choices(m, 0)
    do(m, 0, "tk:r0", "ck:spiritual", "at:T14")
    assert any(o.t == "T14" for o in m.state.p[0].tricks) and m.state.cur.ap == 1 and m.state.dice["r0"] == "X"
    assert not any(c.startswith("tk:") for c in choices(m, 0))


def test_a31_leaked_blueprints_one_marker_up_to_threshold_16():
    """A31 Leaked Blueprints: "If the learned trick's fame threshold is 16 or less,
    it arrives already holding 1 trick marker, even without its components." (REF card text)."""
    m = game()
    with_card(m, 0, "A31", "downtown.0")
    m.state.p[0].comps = {}
    m.state.dice["r0"] = "spiritual"
    do(m, 0, "aprender", "ad:r0:spiritual", "at:T14")
    assert next(o for o in m.state.p[0].tricks if o.t == "T14").on == 1
    m2 = game()
    with_card(m2, 0, "A31", "downtown.0")
    m2.state.p[0].coins = 40
    m2.state.dice["r0"] = "spiritual"
    do(m2, 0, "aprender", "ad:r0:spiritual", "at:T21")
    assert next(o for o in m2.state.p[0].tricks if o.t == "T21").on == 0  # threshold 36


def test_a32_investments_up_to_three_components_with_the_coins_taken():
    """A32 Investments: "You may immediately spend any of the coins just taken to
    buy up to 3 components available at the Market Row." (REF card text)."""
    m = game()
    with_card(m, 0, "A32", "downtown.0")
    m.state.dice["b0"] = "4"
    m.state.p[0].comps = {}
    coins = m.state.p[0].coins
    events = do(m, 0, "pm:b0", "iv:wood", "iv:metal", "iv:glass")  # the third: only "done" is left, not asked
    assert "only" in keys(events) and m.state.step == "acoes"
    assert m.state.p[0].coins == coins + 4 - 3 and m.state.p[0].comps == {"wood": 1, "metal": 1, "glass": 1}


def test_a33_fame_and_fortune_once():
    """A33 Fame and Fortune: "Also gain fame equal to the coin value of the chosen
    Bank die minus 1." (REF card text)."""
    m = game()
    with_card(m, 0, "A33", "downtown.0")
    m.state.dice.update(b0="5", b1="4")
    fame = m.state.p[0].fame
    do(m, 0, "pm:b0")
    assert m.state.p[0].fame == fame + 4
    m.state.cur.ap = 3
    do(m, 0, "pm:b1")
    assert m.state.p[0].fame == fame + 4


def test_a34_interest_rolls_again_one_ap_less():
    """A34 Interest: "After choosing a Bank die, roll it once before turning it to X
    and take the rolled amount from the supply in addition; this Take Coins costs 1 AP less." (REF card text)."""
    m = game()
    with_card(m, 0, "A34", "downtown.3")
    m.state.dice.update(b0="5", b1="4")
    assert m.state.cur.ap == 3
    coins = m.state.p[0].coins
    events = do(m, 0, "pm:b0")  # the roll is the one thing to do: not asked (the press is final: a die rolled)
    assert m.state.cur.ap == 1 and m.state.step == "acoes" and m.log[-1].draws
    extra = m.state.p[0].coins - coins - 5
    assert extra in (0, 3, 4, 5, 6) and "da_interest" in keys(events)
    m.state.cur.ap = 3
    assert "pm:b1" in choices(m, 0) and special_cards.action_cost(m.state, "pegar_moedas", 3) == 3


def test_a35_empower_three_ap_for_a_shard_only_with_a_shard():
    """A35 Empower: "If you pay a shard to Enhance this Character when placing it,
    it gets +3 AP instead of the usual +1." (REF card text)."""
    m = game()
    with_card(m, 0, "A35", "downtown.3", bonus=None)
    assert choices(m, 0) == ["sb", "sa"]
    do(m, 0, "sb", "fe:1")
    assert m.state.cur.ap == 6 and m.state.p[0].shards == 0
    m2 = game()
    m2.state.p[0].shards = 0
    with_card(m2, 0, "A35", "downtown.3", bonus=None)  # no Shard to enhance with: only +1 AP, not asked
    assert m2.state.alley.mode == "ap" and m2.state.cur.ap == 3 + 1


# ---------------------------------------------------------------------------------------------- Mercado


def test_a36_component_sale_four_of_any_types():
    """A36 Component Sale: "A single Buy action may purchase up to 4 available
    components in any mix of types." (REF card text)."""
    m = game()
    with_card(m, 0, "A36", "market.3")
    m.state.p[0].comps = {}
    coins = m.state.p[0].coins
    do(m, 0, "cs:-", "ks:wood", "ks:metal", "ks:glass")
    assert "ks:-" in choices(m, 0)
    do(m, 0, "ks:fabric")  # the fourth ends the purchase
    assert m.state.step == "acoes" and m.state.p[0].coins == coins - 4 and m.state.cur.ap == 2
    assert "cs:-" not in choices(m, 0)


def test_a37_smuggled_goods_pay_with_fame():
    """A37 Smuggled Goods: "Instead of paying coins for the purchase, you may lose
    fame equal to its total coin price minus 1." (REF card text)."""
    m = game()
    with_card(m, 0, "A37", "market.3")
    m.state.p[0].comps, m.state.p[0].fame = {}, 2
    coins = m.state.p[0].coins
    do(m, 0, "sg:-", "sg:wood")
    assert choices(m, 0) == ["sq:1", "sq:2", "sq:3"]
    do(m, 0, "sq:3")
    assert m.state.p[0].fame == 0 and m.state.p[0].coins == coins and m.state.p[0].comps == {"wood": 3}
    m2 = game()
    with_card(m2, 0, "A37", "market.3")
    m2.state.p[0].fame = 0
    m2.state.stock = ["rope", None, None, None]
    assert "sg:-" not in choices(m2, 0)  # 2 coins' worth needs 1 Fame


def test_a38_barter_with_power_four_coins_of_components_for_a_shard():
    """A38 Barter with Power: "As one Buy action, return 1 shard to take any
    available components worth 4 coins or less in total, paying no coins." (REF card text)."""
    m = game()
    with_card(m, 0, "A38", "market.3")
    m.state.p[0].comps = {}
    m.state.stock = ["wood", "rope", "mirror", None]
    coins = m.state.p[0].coins
    do(m, 0, "bp:-", "ks:rope")
    assert "ks:mirror" not in choices(m, 0)  # 2 + 3 > 4
    do(m, 0, "ks:wood", "ks:wood")
    assert m.state.step == "acoes" and m.state.p[0].shards == 0 and m.state.p[0].coins == coins
    assert m.state.p[0].comps == {"rope": 1, "wood": 2}


def test_a39_workshop_exhibition_fame_for_coins_paid():
    """A39 Workshop Exhibition: "Gain fame equal to the coins you paid for this Buy
    action minus 1." (REF card text)."""
    m = game()
    with_card(m, 0, "A39", "market.0")
    m.state.p[0].comps = {}
    fame = m.state.p[0].fame
    buy(m, 0, "wood", 3)
    assert m.state.p[0].fame == fame + 2
    buy(m, 0, "metal", 3)
    assert m.state.p[0].fame == fame + 2


def test_a40_shoplifting_one_free_and_the_slot_refilled():
    """A40 Shoplifting: "Take one of the bought components straight from the Market
    Row for free; that stock slot is then refilled with a Basic component of your choice." (REF card text)."""
    m = game()
    with_card(m, 0, "A40", "market.0")
    m.state.p[0].comps = {}
    coins = m.state.p[0].coins
    buy(m, 0, "metal", 2)
    assert m.state.p[0].coins == coins - 1 and m.state.step == "da_furto"
    do(m, 0, "fu:glass")
    assert m.state.stock[1] == "glass"
    m2 = game()
    with_card(m2, 0, "A40", "market.0")
    m2.state.quick = "mirror"
    m2.state.p[0].comps = {}
    buy(m2, 0, "mirror", 1)
    assert m2.state.step == "acoes"  # from the Quick Order slot: nothing to take from the stock


def test_a41_logistics_on_sale_now_gone_at_round_end():
    """A41 Logistics: "The ordered component goes next to the Buy area instead of
    the Order area and is part of the stock this turn; it returns to the supply during Orders
    Arrive." (REF card text)."""
    m = game()
    with_card(m, 0, "A41", "market.0")
    do(m, 0, "encomendar", "et:rope", "ee:0")
    assert m.state.orders == [None] * 4 and m.state.stock[-1] == "rope" and len(m.state.stock) == 5
    buy(m, 0, "rope", 1)
    do(m, 0, "encomendar", "et:saw", "ee:1")
    assert m.state.orders[1] == "saw"  # the bonus is used once
    finish_round(m)
    assert len(m.state.stock) == 4 and "rope" not in m.state.stock


def test_a42_traveling_merchants_every_order():
    """A42 Traveling Merchants: "For each Order action (this card works for ANY
    number of them) you may pay the ordered component's price +1 to get one from the supply right
    away." (REF card text)."""
    m = game()
    with_card(m, 0, "A42", "market.0")
    m.state.p[0].comps = {}
    coins = m.state.p[0].coins
    do(m, 0, "encomendar", "et:rope", "ee:0", "tm:1")
    assert m.state.p[0].comps == {"rope": 1} and m.state.p[0].coins == coins - 3
    do(m, 0, "encomendar", "et:saw", "ee:1")
    assert m.state.step == "da_mercador"
    m.state.p[0].coins = 0
    do(m, 0, "tm:0")
    do(m, 0, "encomendar", "et:wood", "ee:2")
    assert m.state.step == "acoes"  # no coins for the price + 1


def test_a43_dubious_sources_keeps_the_quick_order():
    """A43 Dubious Sources: "In the End Turn phase, the component on the Quick Order
    slot goes into your Workshop instead of back to the supply." (REF card text)."""
    m = game()
    with_card(m, 0, "A43", "market.0")
    m.state.p[0].comps = {}
    do(m, 0, "encomenda_rapida", "rt:mirror")
    finish_round(m)
    assert m.state.p[0].comps == {"mirror": 1} and m.state.quick is None


def test_a44_business_share_opponents_market_coins_after_placement():
    """A44 Business Share: "For the rest of this turn after you place this
    Character, every coin an opponent spends at the Market Row is paid to you." (REF card text)."""
    m = game(3)
    give(m, 0, "A44")
    plan(m, {0: {"mag": "A44"}, 1: {"a1": "market", "mag": "market"}}, first=1)
    m.state.order = [1, 0, 2]
    go(m, 1, "a1", "market.3")
    buy(m, 1, "wood", 1)  # before the sharer is placed: kept (no AP left, the apprentice is done)
    coins0 = m.state.p[0].coins
    go(m, 0, "mag", "market.0")
    assert m.state.alley.share == [0]
    buy(m, 0, "wood", 1)
    do(m, 0, "fim")
    assert m.state.p[0].coins == coins0 - 1  # its own purchase is not shared
    go(m, 1, "mag", "market.1")
    buy(m, 1, "glass", 2)
    assert m.state.p[0].coins == coins0 - 1 + 2


def test_a45_workshop_delivery_own_types_as_stock_one_coin_less():
    """A45 Workshop Delivery: "For this Buy action, every component type you already
    have in your Workshop counts as Market Row stock and costs 1 coin less." (REF card text)."""
    m = game()
    with_card(m, 0, "A45", "market.0")
    p = m.state.p[0]
    p.comps = {"rope": 1}
    do(m, 0, "comprar")
    assert "cp:rope:2" in choices(m, 0)
    coins = p.coins
    do(m, 0, "cp:rope:2")
    if m.state.step == "comprar_b":
        do(m, 0, "bg:0")
    assert p.coins == coins - 2 and p.comps["rope"] == 3
    do(m, 0, "comprar")
    assert not any(c.startswith("cp:rope:") for c in choices(m, 0))


# ---------------------------------------------------------------------------------------------- Oficina


def workshop(card_id: str, char: str = "mag", **kw):
    m = game()
    if char != "mag":
        give(m, 0, card_id)
        plan(m, {0: {char: card_id}})
        go(m, 0, char, "workshop.0.0", **kw)
    else:
        with_card(m, 0, card_id, "workshop.0.0", **kw)
    tricks(m, 0, "T01", "T02", on=0)
    m.state.p[0].comps = {"fabric": 3, "metal": 1, "animal": 1}
    m.state.p[0].multi = [None, None]
    return m


def test_a16_trick_tweaking_one_more_marker_once():
    """A16 Trick Tweaking: "The prepared trick receives 1 extra trick marker." (REF card text)."""
    m = workshop("A16")
    do(m, 0, "aq:T01")
    assert m.state.p[0].tricks[0].on == 3
    do(m, 0, "aq:T02")
    assert m.state.p[0].tricks[1].on == 1


def test_a17_test_run_a_marker_for_the_yields():
    """A17 Test Run: "You may take 1 marker fewer on the prepared trick; if you do,
    immediately gain that trick's fame, coin and shard yields." (REF card text)."""
    m = workshop("A17")
    fame = m.state.p[0].fame
    coins = m.state.p[0].coins
    do(m, 0, "aq:T02", "en:1")
    assert m.state.p[0].tricks[1].on == 0 and m.state.p[0].fame == fame + 3 and m.state.step == "acoes"
    assert m.state.p[0].coins == coins + 1  # Coelho da Cartola's printed yields: 3 Fame, 1 coin
    do(m, 0, "aq:T01")
    assert m.state.step == "acoes" and m.state.p[0].tricks[0].on == 2


def test_a18_replaceable_parts_marker_to_a_trick_of_lower_or_equal_threshold():
    """A18 Replacable Parts: "You may take 1 marker fewer on the prepared trick; if
    you do, put 1 marker on another trick you own whose fame threshold is the same or lower, even
    without its components." (REF card text)."""
    m = workshop("A18")
    m.state.p[0].tricks.append(Owned(t="T05", sym=2, on=0))
    do(m, 0, "aq:T01")
    assert choices(m, 0) == ["rp:T02", "rp:-"]  # T05's threshold is 16
    do(m, 0, "rp:T02")
    assert [o.on for o in m.state.p[0].tricks] == [1, 1, 0]


def test_a19_invention_fame_per_advanced_and_superior_component():
    """A19 Invention: "Gain fame equal to the number of Advanced plus Superior
    components the prepared trick requires." (REF card text)."""
    m = workshop("A19")
    fame = m.state.p[0].fame
    do(m, 0, "aq:T02")
    assert m.state.p[0].fame == fame + 1  # the Animal
    m2 = workshop("A19")
    fame = m2.state.p[0].fame
    do(m2, 0, "aq:T01")
    assert m2.state.p[0].fame == fame


def test_a20_ingenuity_one_missing_type_one_marker():
    """A20 Ingenuity: "You may prepare the trick even though you are short of one
    required component type; a trick prepared this way gets only 1 marker." (REF card text)."""
    m = workshop("A20")
    m.state.p[0].comps = {"fabric": 1, "metal": 1}
    assert {"ig:T01", "ig:T02"} <= set(choices(m, 0))  # short of Fabric (one of two) / of the Animal
    do(m, 0, "ig:T02")
    assert m.state.p[0].tricks[1].on == 1 and m.state.cur.ap == 2
    assert not any(c.startswith("ig:") for c in choices(m, 0))
    m2 = workshop("A20")
    m2.state.p[0].comps = {"fabric": 1}
    assert "ig:T02" not in choices(m2, 0)  # two types missing


def test_a21_unstable_prototype_up_to_three_components():
    """A21 Unstable Prototype: "You may discard up to 3 of the components the
    prepared trick requires; if you do: +1 marker on the trick, plus 1 fame and 1 coin per discarded
    component." (REF card text)."""
    m = workshop("A21")
    p = m.state.p[0]
    fame, coins = p.fame, p.coins
    events = do(m, 0, "aq:T01", "up:fabric", "up:fabric", "up:fabric")  # then only "done": not asked
    assert "only" in keys(events)
    assert p.tricks[0].on == 3 and p.fame == fame + 3 and p.coins == coins + 3 and "fabric" not in p.comps


def test_a22_enhance_trick_permanent_bonus_for_a_shard():
    """A22 Enhance Trick: "You may put one of your shards on the prepared trick (it
    counts as spent); for the rest of the game that trick yields +1 fame and +1 coin." (REF card text)."""
    m = workshop("A22")
    do(m, 0, "aq:T01", "eh:1")
    assert m.state.p[0].shards == 0 and special_cards.yield_modifiers(m.state, 0, 1, "T01") == [1]
    assert special_cards.yield_modifiers(m.state, 0, 1, "T02") == []
    m2 = workshop("A22")
    m2.state.p[0].shards = 0
    do(m2, 0, "aq:T01")
    assert m2.state.step == "acoes"


def test_a23_on_stage_preparation_one_marker_no_payment():
    """A23 On-stage Preparation: "After preparing, you may immediately move one of
    the new markers onto an empty slot of a Performance card; links created this way pay nothing." (REF card text)."""
    m = workshop("A23")
    card(m, 0, "P02")
    p = m.state.p[0]
    fame, coins, shards = p.fame, p.coins, p.shards
    do(m, 0, "aq:T01", "pl:0")
    spot = choices(m, 0)[0]
    do(m, 0, spot)
    assert p.tricks[0].on == 1 and len(m.state.row[0].m) == 1 and (p.fame, p.coins, p.shards) == (fame, coins, shards)
    do(m, 0, "aq:T02")
    assert m.state.step == "acoes"


def test_a24_hidden_talent_an_apprentice_becomes_a_specialist():
    """A24 Hidden Talent: "If an Apprentice did the preparing, during Return
    Characters you may send that Apprentice back to your supply and immediately hire a Specialist;
    that Specialist's wage is due this turn." (REF card text)."""
    m = workshop("A24", char="a1")
    p = m.state.p[0]
    do(m, 0, "aq:T01")
    assert m.state.step == "da_talento" and "ht:manager" not in choices(m, 0)  # already on the team
    coins = p.coins
    do(m, 0, "ht:engineer")  # its 1 AP spent: the apprentice's actions end by themselves
    finish_round(m)
    assert "a1" not in p.apps and "engineer" in p.specs and p.coins == coins - 1 - 2  # a1's wage, the Engineer's
    m2 = workshop("A24")
    do(m2, 0, "aq:T01")
    assert m2.state.step == "acoes"  # the magician prepared


def test_a25_freelancer_any_location():
    """A25 Freelancer: "The Character under this card may be placed at any other
    Location instead of the Workshop." (REF card text)."""
    m = game()
    give(m, 0, "A25")
    plan(m, {0: {"mag": "A25"}})
    spaces = offered(m, 0, "mag")
    assert {"downtown.0", "market.0", "alley.0", "workshop.0.0", "theater.0.p"} <= set(spaces)
    put(m, 0, "mag", "downtown.0")
    assert m.state.step == "acoes" and m.state.alley.mode == "used"
    m2 = game()
    give(m2, 0, "A25")
    plan(m2, {0: {"mag": "A25"}})
    events = put(m2, 0, "mag", "workshop.0.0")
    # at the Workshop Freelancer has nothing to give: +1 AP is the only answer, taken without asking
    assert m2.state.alley.mode == "ap" and "only" in keys(events)


# ---------------------------------------------------------------------------------------------- Teatro


def theater(card_id: str, space: str = "theater.1.b0"):
    m = game()
    tricks(m, 0, "T01", "T02", on=2)
    with_card(m, 0, card_id, space)
    return m


def linking_spot(m, seat: int) -> str:
    from rulesets.trickerion.views import would_link

    return next(c for c in choices(m, seat) if c.startswith("pe:") and would_link(m.state, seat, c))


def test_a06_guest_performer_beside_the_slots_of_a_full_card():
    """A06 Guest Performer: "Set up a trick marker on a Performance card even when
    it has no free slot, placing it on an unused area of the card; it still counts as part of that
    Performance." (REF card text)."""
    m = theater("A06")
    tricks(m, 1, "T13", "T14", "T15")
    card(m, 0, "P02", {"0.0": (1, 0, "T13"), "0.1": (1, 1, "T14"), "1.1": (1, 2, "T15")})
    card(m, 1, "P01")
    do(m, 0, "gp:T01")  # the one full card: not asked
    assert m.state.row[0].m["off"].t == "T01" and m.state.p[0].tricks[0].on == 1
    assert not any(c.startswith("gp:") for c in choices(m, 0))
    from rulesets.trickerion.performance import slot_yield

    m.state.p[1].day = 2  # seat 1 performing the card on Saturday: the guest's trick is performed too
    assert slot_yield(m.state, 1, 0, "off") == ("T01", 2, 0, 0)  # Borboletas Encantadas, Friday: no modifier


def test_a07_orchestral_interlude_a_payment_per_neighbour():
    """A07 Orchestral Interlude: "When you set up, get your trick's link payment
    once for every marker adjacent (sharing a link circle) to the one you placed, even if the
    symbols do not match." (REF card text)."""
    from rulesets.trickerion.data import CARDS
    from rulesets.trickerion.views import would_link

    m = theater("A07")
    tricks(m, 1, "T13", "T14")
    card(m, 0, "P01", {"0.0": (1, 0, "T13"), "0.2": (1, 1, "T14")})
    preparing(m, 0, "T01", 0)
    spot = next(c for c in choices(m, 0) if c.startswith("pe:0.1:") and not would_link(m.state, 0, c))
    do(m, 0, spot)  # no link, two neighbours: two payments
    assert m.state.step == "conexao" and m.state.ctx["links"] == 2
    do(m, 0, "cf:2")
    assert m.state.step == "acoes"
    assert len(CARDS["P01"].neighbours["0.1"]) == 2


def test_a08_headliner_links_pay_twice():
    """A08 Headliner Trick: "Every link you create with this set-up pays twice,
    shard payments included." (REF card text)."""
    m = theater("A08")
    tricks(m, 1, "T13")
    card(m, 0, "P01", {"0.0": (1, 0, "T13")})
    preparing(m, 0, "T01", 0)
    fame = m.state.p[0].fame
    do(m, 0, linking_spot(m, 0))  # its link bonus as Fame, in the same press
    assert m.state.p[0].fame == fame + 2


def test_a09_new_twist_a_second_marker_of_a_trick_on_a_card():
    """A09 New Twist: "You may set up a marker of a trick on a Performance card that
    already holds a marker of that same trick (ignores the same colour + same symbol restriction
    once)." (REF card text)."""
    m = theater("A09")
    card(m, 0, "P01", {"0.0": (0, 0, "T01")})
    card(m, 1, "P03")
    assert "nt:T01" in choices(m, 0) and "nt:T02" not in choices(m, 0)
    do(m, 0, "nt:T01")  # the one card holding T01: not asked
    do(m, 0, choices(m, 0)[0])
    if m.state.step == "conexao":
        do(m, 0, "cf:0")
    assert sum(1 for x in m.state.row[0].m.values() if x.t == "T01") == 2
    assert not any(c.startswith("nt:") for c in choices(m, 0))


def test_a10_buying_time_swap_two_cards_for_three_coins():
    """A10 Buying Time: "After setting up, you may swap the positions of two
    Performance cards in the Theater; if you do, gain 3 coins." (REF card text)."""
    m = theater("A10")
    card(m, 0, "P01")
    card(m, 1, "P03")
    preparing(m, 0, "T01", 0)
    do(m, 0, next(c for c in choices(m, 0) if c.startswith("pe:")))
    assert m.state.step == "da_trocar"
    coins = m.state.p[0].coins
    do(m, 0, "bt:0:1")
    assert [c.id for c in m.state.row[:2]] == ["P03", "P01"] and m.state.p[0].coins == coins + 3
    preparing(m, 0, "T02", 0)
    do(m, 0, next(c for c in choices(m, 0) if c.startswith("pe:")))
    assert m.state.step in ("acoes", "conexao")  # not da_trocar: the swap came with the first set-up only


def perform_with(card_id: str, markers: dict, first: set[str] = frozenset()):
    """Seat 0's magician on Friday's performance space with the card; seat 1 idle; to the performance."""
    m = game()
    tricks(m, 0, "T01", "T02")
    tricks(m, 1, "T13", "T14")
    card(m, 0, "P03", markers)
    card(m, 1, "P01", {"0.0": (0, 1, "T02")})  # a second card to perform: the performer chooses
    m.state.alley.performed = list(first)
    with_card(m, 0, card_id, "theater.1.p")
    while m.state.step != "apresentar":
        do(m, m.state.turn, next(c for c in choices(m, m.state.turn) if c == "ocioso" or c.startswith("o:")))
    return m


def test_a11_durable_components_one_marker_back_on_its_trick():
    """A11 Durable Components: "At the end of the Performance phase, one of your
    performed markers goes back onto its Trick card instead of returning to your supply." (REF card text)."""
    m = perform_with("A11", {"0.0": (0, 0, "T01"), "0.1": (0, 1, "T02")})
    do(m, 0, "ap:0")
    assert m.state.step == "da_duravel" and choices(m, 0) == ["du:T01", "du:T02"]
    do(m, 0, "du:T02")
    assert [o.on for o in m.state.p[0].tricks] == [0, 1]


def test_a12_arranged_fiasco_fame_swing():
    """A12 Arranged Fiasco: "When you perform: +1 fame for each of your own markers
    on the card; every other player loses 1 fame per marker they have on it." (REF card text)."""
    m = perform_with("A12", {"0.0": (0, 0, "T01"), "0.1": (0, 1, "T02"), "1.1": (1, 0, "T13")})
    m.state.p[1].fame = 5
    events = do(m, 0, "ap:0")
    assert keys(events).count("da_fiasco") == 2
    assert m.state.p[1].fame == 5 - 1 + 0  # Mind Reading yields no Fame on Friday
    assert m.state.alley.perf == {}


def test_a13_grand_premiere_doubles_a_yield_of_a_first_performance():
    """A13 Grand Premiere: "If one of your own tricks on the performed card is being
    performed for the first time this game, double one of that trick's yields (fame, coins or shards
    — your choice) for this performance." (REF card text)."""
    m = perform_with("A13", {"0.0": (0, 0, "T01"), "0.1": (0, 1, "T02")}, first={"T01"})
    do(m, 0, "ap:0")
    assert m.state.step == "da_estreia" and choices(m, 0) == ["ge:T02:fame", "ge:T02:coins", "ge:-"]
    fame = m.state.p[0].fame
    do(m, 0, "ge:T02:fame")
    assert m.state.p[0].fame == fame + 3


def test_a14_street_performance_yields_now():
    """A14 Street Performance: "Instead of moving the marker, take it off its
    Performance card and immediately collect that trick's yields (yield modifiers apply)." (REF card text)."""
    m = theater("A14")
    card(m, 0, "P01", {"0.0": (0, 0, "T02")})
    fame, coins = m.state.p[0].fame, m.state.p[0].coins
    do(m, 0, "sp:0:0.0")
    assert m.state.row[0].m == {} and (m.state.p[0].fame, m.state.p[0].coins) == (fame + 3, coins + 1)
    assert not any(c.startswith("sp:") for c in choices(m, 0))


def test_a15_directors_favor_moves_an_opponents_marker():
    """A15 Director's Favor: "You may reschedule an opponent's marker instead of one
    of your own." (REF card text)."""
    m = theater("A15")
    tricks(m, 1, "T13")
    card(m, 0, "P01", {"0.0": (1, 0, "T13")})
    do(m, 0, "df:-")  # the one opponent's marker, the one card: not asked
    do(m, 0, next(c for c in choices(m, 0) if c.startswith("de:0.2")))
    assert m.state.row[0].m["0.2"].seat == 1 and "0.0" not in m.state.row[0].m and m.state.cur.ap == 2
    assert "df:-" not in choices(m, 0)


@pytest.mark.parametrize("cid", sorted(SPECIALS))
def test_card_is_under_one_character_then_back_in_its_deck(cid):
    """Any card placed with its +1 AP: the character gets it, the card leaves the hand at the round's end."""
    m = game()
    loc = SPECIALS[cid].location
    space = {"downtown": "downtown.0", "market": "market.0", "workshop": "workshop.0.0", "theater": "theater.1.b0"}[loc]
    with_card(m, 0, cid, space, bonus=False)
    assert m.state.alley.mode == "ap"
    finish_round(m)
    assert cid not in m.state.p[0].hand and m.state.alley.decks[loc][-1] == cid


def test_marker_stack_counts_in_the_symbol_limit():
    m = game()
    tricks(m, 0, "T01", on=2)
    card(m, 0, "P01", {"0.0": (0, 0, "T01")})
    m.state.row[0].m["0.0"] = Marker(seat=0, sym=0, t="T01", d=0, n=2)
    from rulesets.trickerion.rules import markers_in_theater

    assert markers_in_theater(m.state, 0, 0) == 2


def test_a25_freelancer_with_many_free_spaces_chooses_the_location_first():
    m = game(4)
    give(m, 0, "A25")
    plan(m, {0: {"mag": "A25"}})
    do(m, 0, "a:mag")
    assert choices(m, 0) == ["lc:workshop", "lc:downtown", "lc:market", "lc:alley", "lc:theater", "voltar"]
    do(m, 0, "lc:market")
    assert choices(m, 0) == ["es:market.0", "es:market.1", "es:market.3", "voltar"]  # the two +1: one choice
    do(m, 0, "voltar")
    assert choices(m, 0)[0] == "lc:workshop"
    do(m, 0, "lc:alley", "es:alley.1")
    assert m.state.cur.loc == "alley" and m.state.alley.mode == "used"


def test_a44_business_share_also_takes_traveling_merchants_coins():
    m = game(3)
    give(m, 0, "A44")
    give(m, 1, "A42")
    plan(m, {0: {"mag": "A44"}, 1: {"mag": "A42"}})
    go(m, 0, "mag", "market.0")
    do(m, 0, "fim")
    coins0 = m.state.p[0].coins
    go(m, 1, "mag", "market.1")
    m.state.p[1].comps = {}
    do(m, 1, "encomendar", "et:rope", "ee:0", "tm:1")
    assert m.state.p[0].coins == coins0 + 3


def test_the_table_shows_how_many_special_cards_not_which():
    from ..helpers import GAME

    m = game()
    give(m, 1, "A33", "A39")
    line = GAME.table(m.state, 0)[-2]
    assert line.key == "trickerion.da.table" and "A33" not in repr(line.params)
    assert [h.params["n"] for h in line.params["hands"]] == [0, 2]


def test_a07_a08_the_second_set_up_pays_as_usual():
    for cid in ("A07", "A08"):
        m = theater(cid)
        tricks(m, 1, "T13")
        card(m, 0, "P01", {"0.0": (1, 0, "T13")})
        card(m, 1, "P01")
        preparing(m, 0, "T01", 1)
        do(m, 0, next(c for c in choices(m, 0) if c.startswith("pe:")))  # an empty card: no link, no neighbour
        assert m.state.step == "acoes" and m.state.alley.mode == "used"
        preparing(m, 0, "T02", 0)
        fame = m.state.p[0].fame
        do(m, 0, linking_spot(m, 0))  # as Fame
        assert m.state.step == "acoes" and m.state.p[0].fame == fame + 1  # paid once, no extra payments


def test_a27_hypnotic_motivation_without_a_card_left_the_hire_is_idle():
    m = game()
    p = m.state.p[0]
    give(m, 0, "A27")
    p.hand = {"A27": 1, "downtown": 1}
    plan(m, {0: {"mag": "A27", "a1": "downtown"}})
    go(m, 0, "mag", "downtown.0")
    m.state.dice["i1"] = "apprentice"
    do(m, 0, "ct:i1")
    assert m.state.step == "acoes" and "a2" in p.idle


def test_a43_dubious_sources_needs_room():
    m = game()
    with_card(m, 0, "A43", "market.0")
    m.state.p[0].comps = {"mirror": 3}
    do(m, 0, "encomenda_rapida", "rt:mirror")
    finish_round(m)
    assert m.state.p[0].comps == {"mirror": 3}
