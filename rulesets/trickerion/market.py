"""Mercado: Comprar (up to 3 of one type in stock, type and quantity in one choice), Barganhar (only
with a purchase, asked only when there are AP to spend on it; the total never below 1), Encomendar,
Encomenda Rápida (+1 coin; the component returns to the supply at round end)."""

from __future__ import annotations

from rulesets.core import Event, Rng

from . import hooks
from .data import BOARD, COMPONENT_KEYS
from .rules import acted, add_components, comp_cost, comp_name, cost, log, qty, room_for, who
from .state import State

SURCHARGE = BOARD.market["quick_order_surcharge"]
MAX_BUY = 3


def buy_area(state: State) -> list[str]:
    """The component types Comprar sells at their own price (a module may add some)."""
    comps = [c for c in state.stock if c]
    for m in hooks.active(state):
        comps = m.buy_area(state, comps)
    return comps


def unit_price(state: State, comp: str, area: list[str] | None = None) -> int | None:
    """The price of a component in the stock: the Buy area's, or the Quick Order slot's (+1). `area`:
    buy_area(state), when the caller has it (menus price every component in stock)."""
    price = comp_cost(comp)
    for m in hooks.active(state):
        price = m.component_cost(state, comp, price)
    if comp in (buy_area(state) if area is None else area):
        return price
    if comp == state.quick:
        return price + SURCHARGE
    return None


def _cheapest_total(total: int, ap_for_bargain: int) -> int:
    return max(1, total - ap_for_bargain) if total > 0 else 0


def quantities(state: State, s: int, comp: str, area: list[str] | None = None) -> list[int]:
    p, price = state.p[s], unit_price(state, comp, area)
    if price is None:
        return []
    bargain_ap = state.cur.ap - cost(state, "comprar")
    return [k for k in range(1, min(MAX_BUY, room_for(p, comp)) + 1)
            if _cheapest_total(k * price, bargain_ap) <= p.coins]


def _on_sale(state: State, area: list[str]) -> list[str]:
    return list(dict.fromkeys([*area, *([state.quick] if state.quick else [])]))


def buyable(state: State, s: int) -> list[str]:
    area = buy_area(state)
    return [c for c in _on_sale(state, area) if quantities(state, s, c, area)]


def _buys_one(state: State, s: int, comp: str, area: list[str], bargain_ap: int) -> bool:
    """Whether `quantities` offers anything: one unit, the cheapest purchase (the menu asks every move)."""
    p, price = state.p[s], unit_price(state, comp, area)
    return price is not None and room_for(p, comp) > 0 and _cheapest_total(price, bargain_ap) <= p.coins


def menu(state: State, s: int) -> list[str]:
    ap = state.cur.ap
    out = []
    if ap >= cost(state, "comprar"):
        area, bargain_ap = buy_area(state), ap - cost(state, "comprar")
        if any(_buys_one(state, s, c, area, bargain_ap) for c in _on_sale(state, area)):
            out.append("comprar")
    if ap >= cost(state, "encomendar") and None in state.orders:
        out.append("encomendar")
    if ap >= cost(state, "encomenda_rapida"):
        out.append("encomenda_rapida")
    return out


def surely_busy(state: State, s: int) -> bool:
    """Encomenda Rápida is always there for its AP, Encomendar while an Order space is free."""
    ap = state.cur.ap
    return ap >= cost(state, "encomenda_rapida") or (ap >= cost(state, "encomendar") and None in state.orders)


def opened_by_returns(state: State, s: int) -> bool:
    """Whether giving components back could open Comprar: a component on sale that the player could pay
    for but has no room for."""
    p, ap = state.p[s], state.cur.ap
    if ap < cost(state, "comprar"):
        return False
    area, spare = buy_area(state), ap - cost(state, "comprar")
    return any(room_for(p, c) == 0 and _cheapest_total(unit_price(state, c, area), spare) <= p.coins
               for c in _on_sale(state, area))


def start(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    state.step = {"comprar": "comprar_t", "encomendar": "encomendar_t", "encomenda_rapida": "rapida_t"}[choice]


def back(state: State) -> None:
    state.step, state.ctx = "acoes", {}


def comprar_opcoes(state: State, s: int) -> list[str]:
    """What to buy, type and quantity in one press ("cp:<component>:<n>", its total on the button)."""
    area = buy_area(state)
    return [f"cp:{c}:{k}" for c in _on_sale(state, area) for k in quantities(state, s, c, area)] + ["voltar"]


def comprar_escolher(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "voltar":
        return back(state)
    _, comp, n = choice.split(":")
    state.ctx = {"comp": comp, "n": int(n)}
    offs = barganhas(state, s)
    if len(offs) > 1:
        state.step = "comprar_b"
    else:  # no AP to bargain with (or the one way to afford it): not a question; the log says the price
        comprar(state, s, f"bg:{offs[0]}", rng, events)


def barganhas(state: State, s: int) -> list[int]:
    """How many AP may go into Barganhar: 1 coin off per AP, never to a total of 0, and affordable."""
    total = unit_price(state, state.ctx["comp"]) * state.ctx["n"]
    most = min(state.cur.ap - cost(state, "comprar"), total - 1)
    return [k for k in range(0, max(0, most) + 1) if total - k <= state.p[s].coins]


def barganhar_opcoes(state: State, s: int) -> list[str]:
    return [f"bg:{k}" for k in barganhas(state, s)] + ["voltar"]


def comprar(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "voltar":
        return back(state)
    p, comp, n = state.p[s], state.ctx["comp"], state.ctx["n"]
    off = int(choice[3:])
    total = unit_price(state, comp) * n - off
    p.coins -= total
    add_components(p, comp, n)
    state.cur.ap -= cost(state, "comprar") + off * cost(state, "barganhar")
    log(events, "buy", player=who(s), count=n, comp=comp_name(comp), coins=qty("coins", total), bargain=off)
    back(state)
    acted(state, s, "comprar", events, comp=comp, n=n, coins=total)


def encomendar_tipo_opcoes(state: State, s: int) -> list[str]:
    return [f"et:{c}" for c in COMPONENT_KEYS if c not in state.orders] + ["voltar"]


def encomendar_tipo(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "voltar":
        return back(state)
    state.ctx = {"comp": choice[3:]}
    state.step = "encomendar_e"


def encomendar_espaco_opcoes(state: State, s: int) -> list[str]:
    return [f"ee:{i}" for i, c in enumerate(state.orders) if c is None] + ["voltar"]


def encomendar(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "voltar":
        return back(state)
    i = int(choice[3:])
    comp = state.ctx["comp"]
    state.orders[i] = comp
    state.cur.ap -= cost(state, "encomendar")
    log(events, "order", player=who(s), comp=comp_name(comp), slot=i + 1,
        replaces=comp_name(state.stock[i]) if state.stock[i] else comp_name("none"))
    back(state)
    acted(state, s, "encomendar", events, comp=comp)


def encomenda_rapida_opcoes(state: State, s: int) -> list[str]:
    return [f"rt:{c}" for c in COMPONENT_KEYS] + ["voltar"]  # "qualquer Componente" (PT p.15), also the one there


def encomenda_rapida(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "voltar":
        return back(state)
    state.quick = choice[3:]
    state.cur.ap -= cost(state, "encomenda_rapida")
    log(events, "quick_order", player=who(s), comp=comp_name(state.quick))
    back(state)
    acted(state, s, "encomenda_rapida", events, comp=state.quick)


STEPS = {
    "comprar_t": (comprar_opcoes, comprar_escolher),
    "comprar_b": (barganhar_opcoes, comprar),
    "encomendar_t": (encomendar_tipo_opcoes, encomendar_tipo),
    "encomendar_e": (encomendar_espaco_opcoes, encomendar),
    "rapida_t": (encomenda_rapida_opcoes, encomenda_rapida),
}
