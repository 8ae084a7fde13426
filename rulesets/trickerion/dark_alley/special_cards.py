"""Cartas de Atribuição Especiais (PT p.13): played like permanent cards in the assignment phase; when
the character is placed its owner takes the printed bonus or +1 AP at that location instead. The bonus
improves one use of the framed action (any action with a "?" frame): the first action the character
completes decides — the framed one uses the bonus, any other loses it. A played card goes to the bottom
of its deck at the end of the round; a card under an idle character simply stays in its owner's hand.

Bonuses are effects applied when the framed action completes (`AFTER`, some with a follow-up decision
`da_*`), changed action costs (`DISCOUNT`), extra choices in the location's menu (`EXTRA`), or effects at
placement (Freelancer, Empower, Business Share) and in the Performance phase (Arranged Fiasco). Cards
not in `IMPLEMENTED` offer only their +1 AP (listed in docs/rulings/trickerion.md)."""

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
    a.card, a.mode, a.drew, a.clar = None, "", False, False
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


def placement_step(state: State, s: int) -> None:
    a = state.alley
    if a.card and a.mode == "" and state.cur is not None:
        state.ctx = {"next": state.step}
        state.step = "da_especial"


def especial_opcoes(state: State, s: int) -> list[str]:
    card = state.alley.card
    bonus = card in IMPLEMENTED and (card != "A35" or state.ctx["next"] == "reforcar")
    return (["sb"] if bonus else []) + ["sa"]


def especial(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    a, nxt = state.alley, state.ctx["next"]
    state.ctx = {}
    if choice == "sa":
        a.mode = "ap"
        state.cur.ap += ALLEY["special_ap"]
        log(events, "da_plus_ap", player=who(s), card=card_msg(a.card))
    else:
        a.mode = "ready"
        log(events, "da_bonus", player=who(s), card=card_msg(a.card))
        if a.card == "A35":  # Empower: the Shard's enhancement gives +3 AP instead of +1
            a.mode, nxt = "used", "da_empower"
        elif a.card == "A44":  # Business Share: from now until the end of the round
            a.mode = "used"
            a.share.append(s)
    state.step = nxt


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
    if action == "comprar" and state.cur is not None and state.cur.loc == "market":
        for sharer in a.share:  # Business Share: every coin an opponent spends here goes to the sharer
            if sharer != s and info.get("coins"):
                state.p[sharer].coins += info["coins"]
                log(events, "da_share", player=who(sharer), coins=info["coins"], payer=who(s))
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
    _done(state)


def dubious_sources(state, s, info, events):  # A43
    state.alley.dubious.append(s)


def orders_arrive(state: State, events: list[Event]) -> None:
    """Dubious Sources takes the Quick Order component; Logistics' extra stock returns to the supply."""
    for s in state.alley.dubious:
        p = state.p[s]
        if state.quick and room_for(p, state.quick):
            add_components(p, state.quick, 1)
            log(events, "da_dubious", player=who(s), comp=comp_name(state.quick))
            state.quick = None
    state.alley.dubious = []
    del state.stock[len(state.orders):]


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


def yield_modifiers(state: State, owner: int, performer: int, tid: str) -> list[int]:
    """Enhance Trick: +1 Fame and +1 coin for the rest of the game, while the owner keeps the trick."""
    return [1] if f"{owner}:{tid}" in state.alley.enhanced and owned(state.p[owner], tid) else []


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


def nothing(state, s, info, events):
    """Cards whose bonus is a choice of its own (extra_choices) or the placement itself: the plain framed
    action uses the bonus up without adding anything (Headhunter, Thirst for Knowledge and Interest
    still made it 1 AP cheaper)."""
    return None


AFTER = {
    "A08": headliner, "A10": buying_time, "A14": nothing,
    "A16": trick_tweaking, "A17": test_run, "A18": replaceable_parts, "A19": invention, "A20": nothing,
    "A21": unstable_prototype, "A22": enhance_trick, "A25": nothing,
    "A26": mass_recruitment, "A28": nothing, "A29": trick_overhaul, "A30": nothing, "A31": leaked_blueprints,
    "A32": investments, "A33": fame_and_fortune, "A34": interest,
    "A39": workshop_exhibition, "A40": shoplifting, "A41": logistics, "A42": traveling_merchants,
    "A43": dubious_sources,
}
PERFORM = {"A12"}
IMPLEMENTED = set(AFTER) | PERFORM | {"A35", "A44"}
# Cards whose framed action costs 1 AP less with the bonus.
DISCOUNT = {"A28": "contratar", "A30": "aprender", "A34": "pegar_moedas"}


def action_cost(state: State, action: str, value: int) -> int:
    a = state.alley
    if ready(state) and DISCOUNT.get(a.card) == action:
        return max(0, value - 1)
    return value


# ---------------------------------------------------------------------------------------------- extra choices


def extra_choices(state: State, s: int) -> list[str]:
    """Choices a ready bonus adds to its location's menu."""
    if not ready(state):
        return []
    card, p, ap = state.alley.card, state.p[s], state.cur.ap
    if card == "A28" and ap >= cost(state, "contratar"):  # Headhunter: any kind, whatever the Inn die shows
        return [f"hh:{d}:{k}" for d in ("i0", "i1") if state.dice[d] != X
                for k in ("apprentice", "assistant", "engineer", "manager") if hire_ok(p, k) and k != state.dice[d]]
    if card == "A30" and ap >= cost(state, "aprender") and free_symbol(p) is not None:  # Thirst for Knowledge
        from ..rules import trick_capacity

        if len(p.tricks) < trick_capacity(p):
            return [f"tk:{d}" for d in ("r0", "r1") if state.dice[d] != X]
    if card == "A20":  # Ingenuity: one required component type may be missing (the trick gets 1 marker)
        return [f"ig:{o.t}" for o in p.tricks if o.on == 0 and TRICKS[o.t].prepare_ap <= ap and _short_one(p, o.t)
                and marcadores_ao_arquitetar(state, s, o) > 0]
    if card == "A14" and ap >= cost(state, "reagendar"):  # Street Performance
        return [f"sp:{i}:{slot}" for i, c in enumerate(state.row) if c for slot, m in c.m.items() if m.seat == s]
    return []


def _short_one(p, tid: str) -> bool:
    from ..rules import effective

    return sum(1 for c, k in TRICKS[tid].components.items() if effective(p, c) < k) == 1


def extra_start(state: State, s: int, choice: str, events: list[Event]) -> None:
    p, head, arg = state.p[s], choice[:2], choice[3:]
    a = state.alley
    if head == "hh":
        die, kind = arg.split(":")
        state.cur.ap -= cost(state, "contratar")
        p.hires.append(kind)
        state.dice[die] = X
        a.mode = "used"
        log(events, "hire", player=who(s), char=msg(f"trickerion.char.{kind}"))
    elif head == "tk":
        state.ctx = {"die": arg}
        state.step = "da_categoria"
    elif head == "ig":
        o = owned(p, arg)
        o.on = 1
        state.cur.ap -= TRICKS[arg].prepare_ap
        a.mode = "used"
        log(events, "prepare", player=who(s), trick=trick_name(arg), count=1)
    elif head == "sp":
        i, slot = arg.split(":", 1)
        _street(state, s, int(i), slot, events)


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
    """Arranged Fiasco (A12), before the markers of the performed card return."""
    if state.alley.perf.pop(str(s), None) != "A12":
        return
    card = state.row[index]
    for seat in range(state.n):
        k = sum(1 for m in card.m.values() if m.seat == seat)
        if k:
            gain(state.p[seat], fame=k if seat == s else -k)
            log(events, "da_fiasco", player=who(seat), fame=k if seat == s else -k)


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
