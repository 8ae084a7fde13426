"""Cartas de Atribuição Especiais (PT p.13): played like permanent cards in the assignment phase; when
the character is placed its owner takes the printed bonus or +1 AP at that location instead. The bonus
improves one use of the framed action (any action with a "?" frame): the first action the character
completes decides — the framed one uses the bonus, any other loses it. A played card goes to the bottom
of its deck at the end of the round; a card under an idle character simply stays in its owner's hand.

Bonuses are effects applied when the framed action completes (`AFTER`, some with a follow-up decision
`da_*`), changed action costs (`DISCOUNT`), extra choices in the location's menu (`EXTRA`), or effects at
placement (Freelancer, Empower, Business Share) and in the Performance phase (Durable Components,
Arranged Fiasco, Grand Premiere). Rulings for the cards' open points: docs/rulings/trickerion.md."""

from __future__ import annotations

from typing import Any

from rulesets.core import Event, Rng, msg

from ..data import COMPONENTS, DICE, TRICKS
from ..market import unit_price
from ..rules import (
    MARKERS_PER_SYMBOL,
    add_components,
    comp_name,
    cost,
    free_symbol,
    gain,
    log,
    markers_in_theater,
    meets,
    owned,
    remove_component,
    return_trick,
    room_for,
    trick_name,
    who,
)
from ..state import State
from ..town_center import X, _learnable, hire_ok
from ..workshop import marcadores_ao_arquitetar
from .facts import ALLEY, LOCATIONS, PERMANENT, SPECIALS

BASICS = tuple(c for c, d in COMPONENTS.items() if d.tier == "basic")


def card_msg(card: str):
    return msg(f"trickerion.card.{card}")


def ready(state: State, card: str | None = None) -> bool:
    a = state.alley
    return a is not None and state.cur is not None and a.mode == "ready" and (card is None or a.card == card)


def _done(state: State) -> None:
    state.step, state.ctx = "acoes", {}


# ---------------------------------------------------------------------------------------------- placement


def placed(state: State, s: int, char: str, key: str, events: list[Event]) -> None:
    """A character was placed: note its special card (used this round) and reset per-placement limits."""
    a = state.alley
    a.card, a.mode, a.drew, a.clar, a.electra = None, "", False, False, False
    a.once = [k for k in a.once if k != f"{s}:td"]
    card = state.p[s].plan.get(char)
    if card not in SPECIALS:
        return
    a.used.append(card)
    a.card = card
    loc = key.split(".")[0]
    log(events, "da_special", player=who(s), card=card_msg(card))
    if key.endswith(".p"):  # a performance space: no AP; a perform-framed card's bonus waits for the show
        a.mode = "used" if card in PERFORM else "lost"
        if card in PERFORM:
            a.perf[str(s)] = card
    elif card == "A25" and loc != "workshop":  # Freelancer: its bonus was the placement elsewhere
        a.mode = "used"


def proceed(state: State) -> None:
    """On to the next decision queued right after the placement (ctx "queue"), then the base game's
    (ctx "next": Reforçar or the actions)."""
    queue = state.ctx.get("queue") or []
    if queue:
        state.step = queue.pop(0)
    else:
        state.step, state.ctx = state.ctx["next"], {}


def especial_opcoes(state: State, s: int) -> list[str]:
    card = state.alley.card
    # Freelancer placed at the Workshop has nothing more to give; Empower needs a Shard to enhance with
    bonus = card != "A25" and (card != "A35" or state.ctx["next"] == "reforcar")
    return (["sb"] if bonus else []) + ["sa"]


def especial(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    a = state.alley
    if choice == "sa":
        a.mode = "ap"
        state.cur.ap += ALLEY["special_ap"]
        log(events, "da_plus_ap", player=who(s), card=card_msg(a.card))
    else:
        a.mode = "ready"
        log(events, "da_bonus", player=who(s), card=card_msg(a.card))
        if a.card == "A35":  # Empower: the Shard's enhancement gives +3 AP instead of +1
            a.mode, state.ctx["next"] = "used", "da_empower"
        elif a.card == "A44":  # Business Share: from now until the end of the round
            a.mode = "used"
            a.share.append(s)
    proceed(state)


def empower_opcoes(state: State, s: int) -> list[str]:
    return ["fe:1", "fe:0"]


def empower(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "fe:1":
        state.p[s].shards -= 1
        state.cur.ap += 3
        log(events, "da_empower", player=who(s))
    _done(state)


def more_locations(state: State, card: str) -> list[str]:
    """Freelancer (A25): the character may go to any other location instead of the Workshop."""
    if card == "A25":
        return ["downtown", "market", PERMANENT, "theater"]
    return []


# ---------------------------------------------------------------------------------------------- after an action


def acted(state: State, s: int, action: str, info: dict[str, Any], events: list[Event]) -> None:
    a = state.alley
    if action == "preparar":
        electra_stack(state, s, info, events)
    if action == "comprar":
        share(state, s, info.get("coins") or 0, events)
    if not ready(state):
        return
    frame = SPECIALS[a.card].frame
    if frame not in (action, "any"):
        a.mode = "lost"
        log(events, "da_lost", player=who(s), card=card_msg(a.card))
        return
    if a.card != "A42":  # Traveling Merchants works for every Order action of this character
        a.mode = "used"
    AFTER[a.card](state, s, info, events)


def share(state: State, s: int, coins: int, events: list[Event]) -> None:
    """Business Share (A44): every coin an opponent spends at the Market goes to the card's owner."""
    if not coins or state.cur is None or state.cur.loc != "market":
        return
    for sharer in state.alley.share:
        if sharer != s:
            state.p[sharer].coins += coins
            log(events, "da_share", player=who(sharer), coins=coins, payer=who(s))


def fame_and_fortune(state, s, info, events):  # A33
    fame = max(0, info["coins"] - 1)
    gain(state.p[s], fame=fame)
    log(events, "da_fame", player=who(s), fame=fame, card=card_msg("A33"))


def interest(state, s, info, events):  # A34: the Bank die is rolled once more before it turns to X
    state.ctx = {"die": info["die"]}
    state.step = "da_juros"


def juros_opcoes(state: State, s: int) -> list[str]:
    return ["ju"]


def juros(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    face = DICE[state.ctx["die"]][rng.below(6)]
    coins = 0 if face == X else int(face)
    state.p[s].coins += coins
    log(events, "da_interest", player=who(s), face=msg("trickerion.face.X") if face == X else str(face), coins=coins)
    _done(state)


def mass_recruitment(state, s, info, events):  # A26
    p = state.p[s]
    if info["char"] == "apprentice" and p.coins >= 3 and hire_ok(p, "apprentice"):
        state.step = "da_recrutar"


def recrutar_opcoes(state: State, s: int) -> list[str]:
    return ["mr:1", "mr:0"]


def recrutar(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "mr:1":
        p = state.p[s]
        p.coins -= 3
        p.hires.append("apprentice")
        log(events, "hire", player=who(s), char=msg("trickerion.char.apprentice"))
    _done(state)


def leaked_blueprints(state, s, info, events):  # A31
    o = owned(state.p[s], info["trick"])
    if TRICKS[o.t].threshold <= 16:
        o.on = max(o.on, 1)
        log(events, "da_marker", player=who(s), trick=trick_name(o.t), count=1)


def trick_overhaul(state, s, info, events):  # A29
    p = state.p[s]
    if meets(p, info["trick"]) and len(p.tricks) > 1:
        state.ctx = {"new": info["trick"]}
        state.step = "da_reformular"


def reformular_opcoes(state: State, s: int) -> list[str]:
    return [f"ro:{o.t}" for o in state.p[s].tricks if o.t != state.ctx["new"]] + ["ro:-"]


def reformular(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    old = choice[3:]
    if old != "-":
        p = state.p[s]
        o, new = owned(p, old), owned(p, state.ctx["new"])
        sym, on = o.sym, o.on
        return_trick(state, s, old)
        new.sym = sym
        new.on = min(on, MARKERS_PER_SYMBOL - markers_in_theater(state, s, sym))
        log(events, "da_overhaul", player=who(s), old=trick_name(old), new=trick_name(new.t), count=new.on)
    _done(state)


def investments(state, s, info, events):  # A32
    state.ctx = {"budget": info["coins"], "n": 0}
    state.step = "da_investir"


def investir_opcoes(state: State, s: int) -> list[str]:
    p, budget = state.p[s], state.ctx["budget"]
    if state.ctx["n"] >= 3:
        return ["iv:-"]
    stock = dict.fromkeys(c for c in state.stock if c)
    return [f"iv:{c}" for c in stock if unit_price(state, c) <= min(budget, p.coins) and room_for(p, c)] + ["iv:-"]


def investir(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    comp = choice[3:]
    if comp == "-":
        return _done(state)
    price = unit_price(state, comp)
    p = state.p[s]
    p.coins -= price
    add_components(p, comp, 1)
    state.ctx["budget"] -= price
    state.ctx["n"] += 1
    log(events, "buy", player=who(s), count=1, comp=comp_name(comp), coins=price, bargain=0)


def workshop_exhibition(state, s, info, events):  # A39
    fame = max(0, info["coins"] - 1)
    gain(state.p[s], fame=fame)
    log(events, "da_fame", player=who(s), fame=fame, card=card_msg("A39"))


def shoplifting(state, s, info, events):  # A40: one bought unit was free; its stock slot gets a basic
    comp = info["comp"]
    if comp in state.stock:
        price = unit_price(state, comp) or 0
        state.p[s].coins += price
        log(events, "da_shoplift", player=who(s), comp=comp_name(comp), coins=price)
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
        log(events, "buy", player=who(s), count=1, comp=comp_name(comp), coins=price, bargain=0)
        share(state, s, price, events)
    _done(state)


def dubious_sources(state, s, info, events):  # A43
    state.alley.dubious.append(s)


def orders_arrive(state: State, events: list[Event]) -> None:
    """Right after Retornar os Personagens: Dubious Sources takes the Quick Order component, Logistics'
    extra stock returns to the supply, Hidden Talent's specialist replaces its apprentice."""
    for s in state.alley.dubious:
        p = state.p[s]
        if state.quick and room_for(p, state.quick):
            add_components(p, state.quick, 1)
            log(events, "da_dubious", player=who(s), comp=comp_name(state.quick))
            state.quick = None
    state.alley.dubious = []
    del state.stock[len(state.orders):]
    hidden_talent_swap(state, events)


def trick_tweaking(state, s, info, events):  # A16
    o = owned(state.p[s], info["trick"])
    if o.on + markers_in_theater(state, s, o.sym) < MARKERS_PER_SYMBOL:
        o.on += 1
        log(events, "da_marker", player=who(s), trick=trick_name(o.t), count=1)


def test_run(state, s, info, events):  # A17
    state.ctx = {"t": info["trick"]}
    state.step = "da_ensaio"


def ensaio_opcoes(state: State, s: int) -> list[str]:
    return ["en:1", "en:0"]


def ensaio(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "en:1":
        o = owned(state.p[s], state.ctx["t"])
        o.on -= 1
        y = TRICKS[o.t].yields
        gain(state.p[s], fame=y.fame, coins=y.coins, shards=y.shards)
        log(events, "da_test_run", player=who(s), trick=trick_name(o.t), fame=y.fame, coins=y.coins, shards=y.shards)
    _done(state)


def replaceable_parts(state, s, info, events):  # A18
    state.ctx = {"t": info["trick"]}
    state.step = "da_pecas"


def pecas_opcoes(state: State, s: int) -> list[str]:
    p, tid = state.p[s], state.ctx["t"]
    return [f"rp:{o.t}" for o in p.tricks if o.t != tid and TRICKS[o.t].threshold <= TRICKS[tid].threshold
            and o.on + markers_in_theater(state, s, o.sym) < MARKERS_PER_SYMBOL] + ["rp:-"]


def pecas(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice != "rp:-":
        p = state.p[s]
        owned(p, state.ctx["t"]).on -= 1
        owned(p, choice[3:]).on += 1
        log(events, "da_parts", player=who(s), old=trick_name(state.ctx["t"]), new=trick_name(choice[3:]))
    _done(state)


def invention(state, s, info, events):  # A19
    fame = sum(k for c, k in TRICKS[info["trick"]].components.items() if COMPONENTS[c].tier != "basic")
    gain(state.p[s], fame=fame)
    log(events, "da_fame", player=who(s), fame=fame, card=card_msg("A19"))


def unstable_prototype(state, s, info, events):  # A21
    state.ctx = {"t": info["trick"], "n": 0}
    state.step = "da_prototipo"


def prototipo_opcoes(state: State, s: int) -> list[str]:
    p = state.p[s]
    if state.ctx["n"] >= 3:
        return ["up:-"]
    return [f"up:{c}" for c in TRICKS[state.ctx["t"]].components if p.comps.get(c)] + ["up:-"]


def prototipo(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    p, n = state.p[s], state.ctx["n"]
    if choice == "up:-":
        if n:
            o = owned(p, state.ctx["t"])
            if o.on + markers_in_theater(state, s, o.sym) < MARKERS_PER_SYMBOL:
                o.on += 1
            gain(p, fame=n, coins=n)
            log(events, "da_prototype", player=who(s), count=n, trick=trick_name(o.t))
        return _done(state)
    remove_component(p, choice[3:])
    state.ctx["n"] = n + 1
    log(events, "return_component", player=who(s), comp=comp_name(choice[3:]))


def enhance_trick(state, s, info, events):  # A22
    if state.p[s].shards:
        state.ctx = {"t": info["trick"]}
        state.step = "da_aprimorar"


def aprimorar_opcoes(state: State, s: int) -> list[str]:
    return ["eh:1", "eh:0"]


def aprimorar(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "eh:1":
        state.p[s].shards -= 1
        state.alley.enhanced.append(f"{s}:{state.ctx['t']}")
        log(events, "da_enhanced", player=who(s), trick=trick_name(state.ctx["t"]))
    _done(state)


def headliner(state, s, info, events):  # A08: every link of this set-up pays twice (its shard too)
    if info["links"]:
        gain(state.p[s], fame=info["fame"], coins=info["coins"])
        log(events, "link_bonus", player=who(s), fame=info["fame"], coins=info["coins"])
        from ..data import CARDS
        from ..rules import links_of

        card = state.row[info["card"]]
        for li in links_of(card, info["slot"]):
            if CARDS[card.id].links[li].shard:
                gain(state.p[s], shards=1)
                log(events, "link_shard", player=who(s))


def buying_time(state, s, info, events):  # A10
    state.step = "da_trocar"


def trocar_opcoes(state: State, s: int) -> list[str]:
    idx = [i for i, c in enumerate(state.row) if c is not None]
    return [f"bt:{i}:{j}" for k, i in enumerate(idx) for j in idx[k + 1:]] + ["bt:-"]


def trocar(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice != "bt:-":
        i, j = (int(x) for x in choice[3:].split(":"))
        state.row[i], state.row[j] = state.row[j], state.row[i]
        gain(state.p[s], coins=3)
        log(events, "da_swap", player=who(s), a=i + 1, b=j + 1)
    _done(state)


def orchestral(state, s, info, events):  # A07: one link payment per neighbouring marker, symbols or not
    from ..data import CARDS

    card, slot = state.row[info["card"]], info["slot"]
    near = sum(1 for _d, other, _li in CARDS[card.id].neighbours.get(slot, []) if other in card.m)
    extra = near - info["links"]
    if extra > 0:  # the base game's Fame/coin choice, for the payments its links did not make
        state.ctx = {"t": info["trick"], "links": extra, "card": info["card"], "slot": slot}
        state.step = "conexao"


def on_stage(state, s, info, events):  # A23
    o = owned(state.p[s], info["trick"])
    if o.on and _free_cards(state, s, o.sym):
        state.ctx = {"t": o.t}
        state.step = "da_palco_c"


def _free_cards(state: State, s: int, sym: int) -> list[int]:
    from ..theater import _cards_for

    return _cards_for(state, s, sym)


def palco_cartas_opcoes(state: State, s: int) -> list[str]:
    o = owned(state.p[s], state.ctx["t"])
    return [f"pl:{i}" for i in _free_cards(state, s, o.sym)] + ["pl:-"]


def palco_carta(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "pl:-":
        return _done(state)
    state.ctx["card"] = int(choice[3:])
    state.step = "da_palco_e"


def palco_espacos_opcoes(state: State, s: int) -> list[str]:
    from ..rules import placements

    o = owned(state.p[s], state.ctx["t"])
    return [f"ps:{sl}:{d}" for sl, d in placements(state.row[state.ctx["card"]], s, o.sym)]


def palco_espaco(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    """The marker goes straight onto the card: no link pays anything, not even a shard circle."""
    from ..rules import slot_msg
    from ..state import Marker

    _, slot, d = choice.split(":")
    o = owned(state.p[s], state.ctx["t"])
    o.on -= 1
    state.row[state.ctx["card"]].m[slot] = Marker(seat=s, sym=o.sym, t=o.t, d=int(d))
    log(events, "da_on_stage", player=who(s), trick=trick_name(o.t), card=state.ctx["card"] + 1, slot=slot_msg(slot))
    _done(state)


def hidden_talent(state, s, info, events):  # A24
    from ..rules import kind

    p = state.p[s]
    if kind(state.cur.c) == "apprentice" and _specs_missing(p):
        state.ctx = {"app": state.cur.c}
        state.step = "da_talento"


def _specs_missing(p) -> list[str]:
    from ..rules import SPECIALISTS

    return [k for k in SPECIALISTS if k not in p.specs and k not in p.hires]


def talento_opcoes(state: State, s: int) -> list[str]:
    return [f"ht:{k}" for k in _specs_missing(state.p[s])] + ["ht:-"]


def talento(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice != "ht:-":
        state.alley.talent[str(s)] = f"{state.ctx['app']}:{choice[3:]}"
        log(events, "da_talent", player=who(s), char=msg(f"trickerion.char.{choice[3:]}"))
    _done(state)


def hidden_talent_swap(state: State, events: list[Event]) -> None:
    """At Retornar os Personagens: the apprentice leaves, the specialist joins and is paid at once
    (2 coins; each unpaid coin costs 2 Fame, as with wages)."""
    from ..data import BOARD

    for seat, swap in sorted(state.alley.talent.items()):
        s = int(seat)
        p = state.p[s]
        app, spec = swap.split(":")
        if app in p.apps and spec not in p.specs:
            p.apps.remove(app)
            if p.app_ext == app:
                p.app_ext = None
            p.specs.append(spec)
            due = BOARD.characters["specialist"].wage
            paid = min(due, p.coins)
            p.coins -= paid
            lost = min(p.fame, 2 * (due - paid))
            p.fame -= lost
            log(events, "da_talent_joins", player=who(s), char=msg(f"trickerion.char.{spec}"), coins=paid, fame=lost)
    state.alley.talent = {}


def hypnotic(state, s, info, events):  # A27: the hired character joins now and may be placed this phase
    from ..data import BOARD
    from ..placement import cards_left

    p, hired = state.p[s], info["char"]
    p.hires.remove(hired)
    if hired == "apprentice":
        new = next(f"a{i}" for i in range(1, BOARD.apprentice_discs + 1) if f"a{i}" not in p.apps)
        p.apps.append(new)
    else:
        new = hired
        p.specs.append(hired)
    log(events, "da_hypnotic", player=who(s))
    if any(cards_left(state, s, c) > 0 for c in p.hand):
        state.ctx = {"new": new}
        state.step = "da_hipnose"
    else:
        p.idle.append(new)


def hipnose_opcoes(state: State, s: int) -> list[str]:
    from ..placement import cards_left

    return [f"hy:{c}" for c in state.p[s].hand if cards_left(state, s, c) > 0] + ["hy:-"]


def hipnose(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    from ..placement import card_msg as assignment_msg
    from ..placement import char_msg

    p, new = state.p[s], state.ctx["new"]
    if choice == "hy:-":
        p.idle.append(new)
    else:
        p.plan[new] = choice[3:]
        log(events, "da_hypnotic_card", player=who(s), char=char_msg(new), loc=assignment_msg(state, choice[3:]))
    _done(state)


def nothing(state, s, info, events):
    """Cards whose bonus is a choice of its own (extra_choices) or the placement itself: the plain framed
    action uses the bonus up without adding anything (Headhunter, Thirst for Knowledge and Interest
    still made it 1 AP cheaper)."""
    return None


AFTER = {
    "A06": nothing, "A07": orchestral, "A08": headliner, "A09": nothing, "A10": buying_time,
    "A14": nothing, "A15": nothing,
    "A16": trick_tweaking, "A17": test_run, "A18": replaceable_parts, "A19": invention, "A20": nothing,
    "A21": unstable_prototype, "A22": enhance_trick, "A23": on_stage, "A24": hidden_talent, "A25": nothing,
    "A26": mass_recruitment, "A27": hypnotic, "A28": nothing, "A29": trick_overhaul, "A30": nothing,
    "A31": leaked_blueprints, "A32": investments, "A33": fame_and_fortune, "A34": interest,
    "A36": nothing, "A37": nothing, "A38": nothing, "A39": workshop_exhibition, "A40": shoplifting,
    "A41": logistics, "A42": traveling_merchants, "A43": dubious_sources, "A45": nothing,
}
PERFORM = {"A11", "A12", "A13"}
assert set(AFTER) | PERFORM | {"A35", "A44"} == set(SPECIALS)  # every card's bonus has its effect
# Cards whose framed action costs 1 AP less with the bonus.
DISCOUNT = {"A28": "contratar", "A30": "aprender", "A34": "pegar_moedas"}


def action_cost(state: State, action: str, value: int) -> int:
    a = state.alley
    if ready(state) and DISCOUNT.get(a.card) == action:
        return max(0, value - 1)
    return value


# ---------------------------------------------------------------------------------------------- extra choices


def extra_choices(state: State, s: int) -> list[str]:
    """Choices a ready bonus (or Electra's Supercarga) adds to the location's menu."""
    out = _electra_choices(state, s)
    if not ready(state):
        return out
    card, p, ap = state.alley.card, state.p[s], state.cur.ap
    if card == "A28" and ap >= cost(state, "contratar"):  # Headhunter: any kind, whatever the Inn die shows
        out += [f"hh:{d}:{k}" for d in ("i0", "i1") if state.dice[d] != X
                for k in ("apprentice", "assistant", "engineer", "manager") if hire_ok(p, k) and k != state.dice[d]]
    if card == "A30" and ap >= cost(state, "aprender") and free_symbol(p) is not None:  # Thirst for Knowledge
        from ..rules import trick_capacity

        if len(p.tricks) < trick_capacity(p):
            out += [f"tk:{d}" for d in ("r0", "r1") if state.dice[d] != X]
    if card == "A20":  # Ingenuity: one required component type may be missing (the trick gets 1 marker)
        out += [f"ig:{o.t}" for o in p.tricks if o.on == 0 and TRICKS[o.t].prepare_ap <= ap and _short_one(p, o.t)
                and marcadores_ao_arquitetar(state, s, o) > 0]
    if card == "A14" and ap >= cost(state, "reagendar"):  # Street Performance
        out += [f"sp:{i}:{slot}" for i, c in enumerate(state.row) if c for slot, m in c.m.items() if m.seat == s]
    if card == "A06" and ap >= cost(state, "preparar"):  # Guest Performer: a card with no free slot
        out += [f"gp:{o.t}" for o in p.tricks if o.on and _full_cards(state, s, o.sym)]
    if card == "A09" and ap >= cost(state, "preparar"):  # New Twist: a second marker of one trick on a card
        out += [f"nt:{o.t}" for o in p.tricks if o.on and _twist_cards(state, s, o.sym)]
    if card == "A15" and ap >= cost(state, "reagendar") and _opponent_markers(state, s):  # Director's Favor
        out.append("df:-")
    if ap >= cost(state, "comprar"):
        if card == "A36" and _basket(state, s, {"kind": "sale", "n": 0, "value": 0}):  # Component Sale
            out.append("cs:-")
        if card == "A37" and _smuggle_types(state, s):  # Smuggled Goods
            out.append("sg:-")
        if card == "A38" and p.shards and _basket(state, s, {"kind": "barter", "n": 0, "value": 0}):  # Barter
            out.append("bp:-")
    return out


def _short_one(p, tid: str) -> bool:
    from ..rules import effective

    return sum(1 for c, k in TRICKS[tid].components.items() if effective(p, c) < k) == 1


EXTRA_HEADS = ("hh:", "tk:", "ig:", "sp:", "gp:", "nt:", "df:", "cs:", "sg:", "bp:", "el:")


def extra_start(state: State, s: int, choice: str, events: list[Event]) -> None:
    p, head, arg = state.p[s], choice[:2], choice[3:]
    a = state.alley
    if head == "hh":
        die, kind = arg.split(":")
        state.cur.ap -= cost(state, "contratar")  # still with the card's discount
        p.hires.append(kind)
        state.dice[die] = X
        log(events, "hire", player=who(s), char=msg(f"trickerion.char.{kind}"))
    elif head == "tk":
        state.ctx = {"die": arg}
        state.step = "da_categoria"
    elif head == "ig":
        o = owned(p, arg)
        o.on = 1
        state.cur.ap -= TRICKS[arg].prepare_ap
        log(events, "prepare", player=who(s), trick=trick_name(arg), count=1)
    elif head == "sp":
        i, slot = arg.split(":", 1)
        _street(state, s, int(i), slot, events)
    elif head in ("gp", "nt"):
        state.ctx = {"t": arg}
        state.step = "da_convidado" if head == "gp" else "da_twist_c"
    elif head == "df":
        state.step = "da_diretor_m"
    elif head in ("cs", "bp"):
        state.ctx = {"kind": "sale" if head == "cs" else "barter", "n": 0, "value": 0, "bought": []}
        state.step = "da_cesta"
    elif head == "sg":
        state.step = "da_contrabando_t"
    else:  # Electra's Supercarga: the base set-up, and a second marker joins the first on its slot
        a.electra = True
        state.ctx = {"t": arg}
        state.step = "preparar_c"
    if head not in ("el", "tk"):  # Thirst for Knowledge ends in the base Learn, which uses the bonus up
        a.mode = "used"


# ---------------------------------------------------------------------------------------------- the Theater's extras


def _full_cards(state: State, s: int, sym: int) -> list[int]:
    from ..data import CARDS
    from ..rules import OFF_SLOT

    return [i for i, c in enumerate(state.row) if c is not None and OFF_SLOT not in c.m
            and all(sl in c.m for sl in CARDS[c.id].slots)
            and not any(m.seat == s and m.sym == sym for m in c.m.values())]


def convidado_opcoes(state: State, s: int) -> list[str]:
    o = owned(state.p[s], state.ctx["t"])
    return [f"gc:{i}" for i in _full_cards(state, s, o.sym)]


def convidado(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    """Guest Performer: the marker sits beside the slots; it forms no links and is performed with the card."""
    from ..rules import OFF_SLOT, slot_msg
    from ..state import Marker

    i = int(choice[3:])
    o = owned(state.p[s], state.ctx["t"])
    o.on -= 1
    state.row[i].m[OFF_SLOT] = Marker(seat=s, sym=o.sym, t=o.t, d=0)
    state.cur.ap -= cost(state, "preparar")
    log(events, "set_up", player=who(s), trick=trick_name(o.t), card=i + 1, slot=slot_msg(OFF_SLOT), links=0)
    _done(state)


def _twist_spots(state: State, s: int, sym: int, i: int) -> list[tuple[str, int]]:
    from ..rules import placements

    card = state.row[i]
    same = [sl for sl, m in card.m.items() if m.seat == s and m.sym == sym]
    if len(same) != 1:
        return []
    return [(sl, d) for sl, d in placements(card, s, sym, same[0]) if sl != same[0]]


def _twist_cards(state: State, s: int, sym: int) -> list[int]:
    return [i for i, c in enumerate(state.row) if c is not None and _twist_spots(state, s, sym, i)]


def twist_cartas_opcoes(state: State, s: int) -> list[str]:
    o = owned(state.p[s], state.ctx["t"])
    return [f"tw:{i}" for i in _twist_cards(state, s, o.sym)]


def twist_carta(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    state.ctx["card"] = int(choice[3:])
    state.step = "da_twist_e"


def twist_espacos_opcoes(state: State, s: int) -> list[str]:
    o = owned(state.p[s], state.ctx["t"])
    return [f"te:{sl}:{d}" for sl, d in _twist_spots(state, s, o.sym, state.ctx["card"])]


def twist_espaco(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    """New Twist: a second marker of the trick on the card, then the usual link bonus."""
    from ..theater import preparar_truque

    _, slot, d = choice.split(":")
    tid, index = state.ctx["t"], state.ctx["card"]
    links = preparar_truque(state, s, tid, index, slot, int(d), events)
    state.cur.ap -= cost(state, "preparar")
    if links:
        state.ctx = {"t": tid, "links": len(links), "card": index, "slot": slot}
        state.step = "conexao"
    else:
        _done(state)


def _opponent_markers(state: State, s: int) -> list[str]:
    from ..theater import _cards_for

    return [f"dm:{i}:{sl}" for i, c in enumerate(state.row) if c for sl, m in c.m.items()
            if m.seat != s and _cards_for(state, m.seat, m.sym, (i, sl))]


def diretor_marcador_opcoes(state: State, s: int) -> list[str]:
    return _opponent_markers(state, s)


def diretor_marcador(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    i, sl = choice[3:].split(":", 1)
    state.ctx = {"from": int(i), "slot": sl}
    state.step = "da_diretor_c"


def diretor_cartas_opcoes(state: State, s: int) -> list[str]:
    from ..theater import _cards_for

    i, sl = state.ctx["from"], state.ctx["slot"]
    m = state.row[i].m[sl]
    return [f"dd:{k}" for k in _cards_for(state, m.seat, m.sym, (i, sl))]


def diretor_carta(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    state.ctx["to"] = int(choice[3:])
    state.step = "da_diretor_e"


def diretor_espacos_opcoes(state: State, s: int) -> list[str]:
    from ..theater import spots

    i, sl, to = state.ctx["from"], state.ctx["slot"], state.ctx["to"]
    m = state.row[i].m[sl]
    return [f"de:{x}:{d}" for x, d in spots(state, m.seat, m.sym, to, (i, sl))]


def diretor_espaco(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    """Director's Favor: an opponent's marker is rescheduled (still theirs; no link bonuses)."""
    from ..rules import slot_msg
    from ..state import Marker

    _, slot, d = choice.split(":")
    i, old, to = state.ctx["from"], state.ctx["slot"], state.ctx["to"]
    m = state.row[i].m.pop(old)
    state.row[to].m[slot] = Marker(seat=m.seat, sym=m.sym, t=m.t, d=int(d))
    state.cur.ap -= cost(state, "reagendar")
    log(events, "da_director", player=who(s), owner=who(m.seat), trick=trick_name(m.t), card=to + 1,
        slot=slot_msg(slot))
    _done(state)


# ---------------------------------------------------------------------------------------------- the Market's extras


def _stock_types(state: State) -> list[str]:
    from ..market import buy_area

    return list(dict.fromkeys([*buy_area(state), *([state.quick] if state.quick else [])]))


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
    from ..rules import acted as tell

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
        ctx["bought"].append(comp)
        if _basket(state, s, ctx):
            return None
    state.cur.ap -= cost(state, "comprar")
    coins = ctx["value"] if ctx["kind"] == "sale" else 0
    if ctx["kind"] == "barter":
        p.shards -= 1
    log(events, f"da_{ctx['kind']}", player=who(s), comps=[comp_name(c) for c in ctx["bought"]], coins=coins)
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


# ---------------------------------------------------------------------------------------------- Electra


def _electra_choices(state: State, s: int) -> list[str]:
    """Supercarga (M08): set up two markers of one trick on one slot."""
    from ..theater import truques_para_preparar

    if state.p[s].magician != "M08" or state.cur.loc != "theater" or state.cur.ap < cost(state, "preparar"):
        return []
    ok = {c[3:] for c in truques_para_preparar(state, s)}
    return [f"el:{o.t}" for o in state.p[s].tricks if o.t in ok and o.on >= 2]


def electra_stack(state: State, s: int, info: dict, events: list[Event]) -> None:
    a = state.alley
    if not a.electra:
        return
    a.electra = False
    o = owned(state.p[s], info["trick"])
    o.on -= 1
    state.row[info["card"]].m[info["slot"]].n = 2
    log(events, "da_supercharge", player=who(s), trick=trick_name(o.t))


def categoria_opcoes(state: State, s: int) -> list[str]:
    from ..data import CATEGORIES
    from ..rules import taken_tricks

    taken = taken_tricks(state)
    return [f"ck:{c}" for c in CATEGORIES if _learnable(state, state.p[s], c, taken)] + ["voltar"]


def categoria(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "voltar":
        return _done(state)
    state.ctx["cat"] = choice[3:]
    state.step = "aprender_t"  # the base game's trick choice; the die still turns to X


def _street(state: State, s: int, index: int, slot: str, events: list[Event]) -> None:
    """Street Performance: the marker leaves its card and its trick's yields are collected now."""
    from ..performance import modifier

    m = state.row[index].m.pop(slot)
    y = TRICKS[m.t].yields
    fame, coins = y.fame, y.coins
    for mod in [modifier(state, s, s), *yield_modifiers(state, s, s, m.t)]:
        fame, coins = max(0, fame + mod), max(0, coins + mod)
    gain(state.p[s], fame=fame, coins=coins, shards=y.shards)
    state.cur.ap -= cost(state, "reagendar")
    state.alley.mode = "used"
    log(events, "da_street", player=who(s), trick=trick_name(m.t), fame=fame, coins=coins, shards=y.shards)


# ---------------------------------------------------------------------------------------------- performance


def performing(state: State, s: int, index: int, events: list[Event]) -> None:
    """Before the yields of the card s performs: Electra's stacks, and the perform-framed cards (Arranged
    Fiasco pays now; Durable Components and Grand Premiere note what they will offer afterwards)."""
    from ..performance import marker_yield

    a, card = state.alley, state.row[index]
    a.stacked = [f"{m.seat}:{m.t}" for m in card.m.values() if m.n > 1]
    special = a.perf.pop(str(s), None)
    if special == "A12":
        for seat in range(state.n):
            k = sum(1 for m in card.m.values() if m.seat == seat)
            if k:
                gain(state.p[seat], fame=k if seat == s else -k)
                log(events, "da_fiasco", player=who(seat), fame=k if seat == s else -k)
    elif special == "A11":
        a.durable[str(s)] = sorted({m.t for m in card.m.values() if m.seat == s})
    elif special == "A13":
        firsts = []
        for m in card.m.values():
            if m.seat == s and m.t not in a.performed and m.t not in [f.split(":")[0] for f in firsts]:
                fame, coins = marker_yield(state, s, s, m.t)
                firsts.append(f"{m.t}:{fame}:{coins}:{TRICKS[m.t].yields.shards}")
        if firsts:
            a.premiere[str(s)] = firsts
    a.performed += [t for t in dict.fromkeys(m.t for m in card.m.values()) if t not in a.performed]


def performed(state: State, s: int, events: list[Event]) -> None:
    a = state.alley
    a.stacked = []
    tricks = [t for t in a.durable.pop(str(s), []) if _room(state, s, t)]
    if len(tricks) == 1:
        _durable(state, s, tricks[0], events)
    elif tricks:
        state.turn, state.step, state.ctx = s, "da_duravel", {"tricks": tricks}
    elif a.premiere.get(str(s)):
        state.turn, state.step = s, "da_estreia"


def _room(state: State, s: int, tid: str) -> bool:
    o = owned(state.p[s], tid)
    return o is not None and o.on + markers_in_theater(state, s, o.sym) < MARKERS_PER_SYMBOL


def _durable(state: State, s: int, tid: str, events: list[Event]) -> None:
    owned(state.p[s], tid).on += 1
    log(events, "da_durable", player=who(s), trick=trick_name(tid))


def duravel_opcoes(state: State, s: int) -> list[str]:
    return [f"du:{t}" for t in state.ctx["tricks"]]


def duravel(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    _durable(state, s, choice[3:], events)
    state.turn, state.step, state.ctx = None, "", {}
    return True


def estreia_opcoes(state: State, s: int) -> list[str]:
    out = []
    for first in state.alley.premiere[str(s)]:
        tid, *amounts = first.split(":")
        out += [f"ge:{tid}:{kind}" for kind, n in zip(("fame", "coins", "shards"), amounts, strict=True) if int(n)]
    return out + ["ge:-"]


def estreia(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    """Grand Premiere: one yield of a trick performed for the first time is paid once more."""
    firsts = {f.split(":")[0]: f.split(":")[1:] for f in state.alley.premiere.pop(str(s))}
    if choice != "ge:-":
        _, tid, kind = choice.split(":")
        n = int(firsts[tid][("fame", "coins", "shards").index(kind)])
        gain(state.p[s], **{kind: n})
        log(events, "da_premiere", player=who(s), trick=trick_name(tid), what=msg(f"trickerion.da.yield.{kind}", n=n))
    state.turn, state.step, state.ctx = None, "", {}
    return True


def yield_modifiers(state: State, owner: int, performer: int, tid: str) -> list[int]:
    """Enhance Trick: +1 Fame and +1 coin while the owner keeps the trick; Electra's stacked markers:
    +1/+2/+3 Fame and coins by the trick's level."""
    out = [1] if f"{owner}:{tid}" in state.alley.enhanced and owned(state.p[owner], tid) else []
    if f"{owner}:{tid}" in state.alley.stacked:
        out.append(TRICKS[tid].level)
    return out


# ---------------------------------------------------------------------------------------------- end of round


def end_round(state: State, events: list[Event]) -> None:
    """Played special cards go face down to the bottom of their decks; idle characters' stay in hand."""
    a = state.alley
    for card in a.used:
        for p in state.p:
            p.hand.pop(card, None)
        a.decks[SPECIALS[card].location].append(card)
    if a.used:
        log(events, "da_discard", count=len(a.used))
    a.used, a.card, a.mode, a.perf, a.share, a.once = [], None, "", {}, [], []


def check(state: State) -> None:
    """Each special card in exactly one place: a deck, one player's hand (under a character or not), or
    drawn at the Beco Escuro while its player chooses."""
    seen = [c for loc in LOCATIONS for c in state.alley.decks[loc]]
    seen += [c for p in state.p for c in p.hand if c in SPECIALS]
    if state.step == "da_manter":  # two cards drawn, the player choosing which to keep
        seen += state.ctx["drawn"]
    assert sorted(seen) == sorted(SPECIALS), ("special cards lost or duplicated", sorted(seen))


STEPS = {
    "da_especial": (especial_opcoes, especial),
    "da_palco_c": (palco_cartas_opcoes, palco_carta),
    "da_palco_e": (palco_espacos_opcoes, palco_espaco),
    "da_talento": (talento_opcoes, talento),
    "da_hipnose": (hipnose_opcoes, hipnose),
    "da_convidado": (convidado_opcoes, convidado),
    "da_twist_c": (twist_cartas_opcoes, twist_carta),
    "da_twist_e": (twist_espacos_opcoes, twist_espaco),
    "da_diretor_m": (diretor_marcador_opcoes, diretor_marcador),
    "da_diretor_c": (diretor_cartas_opcoes, diretor_carta),
    "da_diretor_e": (diretor_espacos_opcoes, diretor_espaco),
    "da_cesta": (cesta_opcoes, cesta),
    "da_contrabando_t": (contrabando_tipo_opcoes, contrabando_tipo),
    "da_contrabando_q": (contrabando_qtd_opcoes, contrabando),
    "da_duravel": (duravel_opcoes, duravel),
    "da_estreia": (estreia_opcoes, estreia),
    "da_empower": (empower_opcoes, empower),
    "da_juros": (juros_opcoes, juros),
    "da_recrutar": (recrutar_opcoes, recrutar),
    "da_reformular": (reformular_opcoes, reformular),
    "da_investir": (investir_opcoes, investir),
    "da_furto": (furto_opcoes, furto),
    "da_mercador": (mercador_opcoes, mercador),
    "da_ensaio": (ensaio_opcoes, ensaio),
    "da_pecas": (pecas_opcoes, pecas),
    "da_prototipo": (prototipo_opcoes, prototipo),
    "da_aprimorar": (aprimorar_opcoes, aprimorar),
    "da_trocar": (trocar_opcoes, trocar),
    "da_categoria": (categoria_opcoes, categoria),
}
