"""The ten Mercado special cards (A36-A45): effects after a Buy/Order/Quick Order, the basket of
Component Sale and Barter with Power, Smuggled Goods, Workshop Delivery's stock, Business Share."""

from __future__ import annotations

from rulesets.core import Event, Rng

from ... import market as base_market
from ...data import COMPONENTS
from ...market import unit_price
from ...rules import acted as tell
from ...rules import (
    add_components,
    comp_name,
    cost,
    gain,
    log,
    qty,
    room_for,
    who,
)
from ...state import State
from .common import BASICS, _done, card_msg, ready


def share(state: State, s: int, coins: int, events: list[Event]) -> None:
    """Business Share (A44): every coin an opponent spends at the Market goes to the card's owner."""
    if not coins or state.cur is None or state.cur.loc != "market":
        return
    for sharer in state.alley.share:
        if sharer != s:
            state.p[sharer].coins += coins
            log(events, "da_share", player=who(sharer), coins=qty("coins", coins), payer=who(s))


def workshop_exhibition(state, s, info, events):  # A39
    fame = max(0, info["coins"] - 1)
    gain(state.p[s], fame=fame)
    log(events, "da_fame", player=who(s), fame=fame, card=card_msg("A39"))


def shoplifting(state, s, info, events):  # A40: one bought unit was free; its stock slot gets a basic
    comp = info["comp"]
    if comp in state.stock:
        price = unit_price(state, comp) or 0
        state.p[s].coins += price
        log(events, "da_shoplift", player=who(s), comp=comp_name(comp), coins=qty("coins", price))
        state.ctx = {"slot": state.stock.index(comp)}
        state.step = "da_furto"


def furto_opcoes(state: State, s: int) -> list[str]:
    return [f"fu:{c}" for c in BASICS]


def furto(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    state.stock[state.ctx["slot"]] = choice[3:]
    log(events, "da_refill", comp=comp_name(choice[3:]))
    _done(state)


def logistics(state, s, info, events):  # A41: the order joins the stock now, not the Order area
    comp = info["comp"]
    i = state.orders.index(comp)
    state.orders[i] = None
    state.stock.append(comp)
    log(events, "da_logistics", player=who(s), comp=comp_name(comp))


def traveling_merchants(state, s, info, events):  # A42
    p, comp = state.p[s], info["comp"]
    if p.coins >= COMPONENTS[comp].cost + 1 and room_for(p, comp):
        state.ctx = {"comp": comp}
        state.step = "da_mercador"


def mercador_opcoes(state: State, s: int) -> list[str]:
    return ["tm:1", "tm:0"]


def mercador(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "tm:1":
        comp = state.ctx["comp"]
        price = COMPONENTS[comp].cost + 1
        state.p[s].coins -= price
        add_components(state.p[s], comp, 1)
        log(events, "buy", player=who(s), count=1, comp=comp_name(comp), coins=qty("coins", price), bargain=0)
        share(state, s, price, events)
    _done(state)


def dubious_sources(state, s, info, events):  # A43
    state.alley.dubious.append(s)


def _stock_types(state: State) -> list[str]:
    return list(dict.fromkeys([*base_market.buy_area(state), *([state.quick] if state.quick else [])]))


def _basket(state: State, s: int, ctx: dict) -> list[str]:
    """Component Sale (up to 4 components of any types, paid in coins) and Barter with Power (any
    components worth 4 coins or less in total, for a Shard): what may go into the basket next."""

    p = state.p[s]
    if ctx["kind"] == "sale":
        if ctx["n"] >= 4:
            return []
        return [c for c in _stock_types(state) if unit_price(state, c) <= p.coins and room_for(p, c)]
    return [c for c in _stock_types(state) if ctx["value"] + unit_price(state, c) <= 4 and room_for(p, c)]


def cesta_opcoes(state: State, s: int) -> list[str]:
    out = [f"ks:{c}" for c in _basket(state, s, state.ctx)]
    return out + (["ks:-"] if state.ctx["n"] else ["voltar"])


def cesta(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    p, ctx = state.p[s], state.ctx
    if choice == "voltar":
        state.alley.mode = "ready"
        return _done(state)
    if choice != "ks:-":
        comp = choice[3:]
        price = unit_price(state, comp)
        if ctx["kind"] == "sale":
            p.coins -= price
        add_components(p, comp, 1)
        ctx["n"] += 1
        ctx["value"] += price
        ctx["bought"] = [*ctx["bought"], comp]  # a new list (not the saved table's, which handle must not change)
        if _basket(state, s, ctx):
            return None
    state.cur.ap -= cost(state, "comprar")
    coins = ctx["value"] if ctx["kind"] == "sale" else 0
    if ctx["kind"] == "barter":
        p.shards -= 1
    log(events, f"da_{ctx['kind']}", player=who(s), comps=[comp_name(c) for c in ctx["bought"]],
        coins=qty("coins", coins))
    _done(state)
    tell(state, s, "comprar", events, comp=None, n=ctx["n"], coins=coins)


def _smuggle_types(state: State, s: int) -> list[str]:

    p = state.p[s]
    return [c for c in _stock_types(state) if room_for(p, c) and p.fame >= unit_price(state, c) - 1]


def contrabando_tipo_opcoes(state: State, s: int) -> list[str]:
    return [f"sg:{c}" for c in _smuggle_types(state, s)] + ["voltar"]


def contrabando_tipo(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "voltar":
        state.alley.mode = "ready"
        return _done(state)
    state.ctx = {"comp": choice[3:]}
    state.step = "da_contrabando_q"


def contrabando_qtd_opcoes(state: State, s: int) -> list[str]:
    p, comp = state.p[s], state.ctx["comp"]
    price = unit_price(state, comp)
    return [f"sq:{k}" for k in range(1, min(3, room_for(p, comp)) + 1) if p.fame >= k * price - 1]


def contrabando(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    """Smuggled Goods: the purchase is paid with Fame, its total price minus 1, instead of coins."""
    p, comp, k = state.p[s], state.ctx["comp"], int(choice[3:])
    fame = k * unit_price(state, comp) - 1
    gain(p, fame=-fame)
    add_components(p, comp, k)
    state.cur.ap -= cost(state, "comprar")
    log(events, "da_smuggle", player=who(s), count=k, comp=comp_name(comp), fame=fame)
    _done(state)


def buy_area(state: State, comps: list[str]) -> list[str]:
    """Workshop Delivery (A45): the types in the buyer's Workshop count as Market stock for this Buy."""
    if ready(state, "A45"):
        return list(dict.fromkeys([*comps, *state.p[state.turn].comps]))
    return comps


def component_cost(state: State, comp: str, price: int) -> int:
    if ready(state, "A45") and comp in state.p[state.turn].comps:
        return max(0, price - 1)
    return price
