"""Cartas de Atribuição Especiais (PT p.13): played like permanent cards in the assignment phase; when
the character is placed its owner takes the printed bonus or +1 AP at that location instead. The bonus
improves one use of the framed action (any action with a "?" frame): the first action the character
completes decides — the framed one uses the bonus, any other loses it. A played card goes to the bottom
of its deck at the end of the round; a card under an idle character simply stays in its owner's hand.

Bonuses are effects applied when the framed action completes (`AFTER`, some with a follow-up decision
`da_*`), changed action costs (`DISCOUNT`), extra choices in the location's menu (`extra_choices`), or effects at
placement (Freelancer, Empower, Business Share) and in the Performance phase (Durable Components,
Arranged Fiasco, Grand Premiere). This module is the mechanism and the dispatch; the cards' effects live
by location in downtown.py, market.py, workshop.py and theater.py. Rulings for the cards' open points:
docs/rulings/trickerion.md."""

from __future__ import annotations

from typing import Any

from rulesets.core import Event, Rng, msg

from ... import hooks
from ...data import TRICKS
from ...performance import slot_yield
from ...placement import can_enhance
from ...rules import (
    add_components,
    comp_name,
    cost,
    free_symbol,
    gain,
    log,
    owned,
    room_for,
    trick_capacity,
    trick_name,
    who,
)
from ...state import State
from ...town_center import X, hire_ok
from ...workshop import marcadores_ao_arquitetar
from ..facts import ALLEY, FREELANCE, LOCATIONS, SPECIALS
from ..magicians import electra_choices, electra_stack
from .common import _done, card_msg, proceed, ready
from .downtown import (
    categoria,
    categoria_opcoes,
    fame_and_fortune,
    hipnose,
    hipnose_opcoes,
    hypnotic,
    interest,
    investir,
    investir_opcoes,
    investments,
    juros,
    juros_opcoes,
    leaked_blueprints,
    mass_recruitment,
    recrutar,
    recrutar_opcoes,
    reformular,
    reformular_opcoes,
    trick_overhaul,
)
from .market import (
    _basket,
    _smuggle_types,
    cesta,
    cesta_opcoes,
    contrabando,
    contrabando_qtd_opcoes,
    contrabando_tipo,
    contrabando_tipo_opcoes,
    dubious_sources,
    furto,
    furto_opcoes,
    logistics,
    mercador,
    mercador_opcoes,
    share,
    shoplifting,
    traveling_merchants,
    workshop_exhibition,
)
from .market import buy_area as buy_area
from .market import component_cost as component_cost
from .theater import (
    _durable,
    _full_cards,
    _opponent_markers,
    _room,
    _street,
    _twist_cards,
    buying_time,
    convidado,
    convidado_opcoes,
    diretor_carta,
    diretor_cartas_opcoes,
    diretor_espaco,
    diretor_espacos_opcoes,
    diretor_marcador,
    diretor_marcador_opcoes,
    duravel,
    duravel_opcoes,
    estreia,
    estreia_opcoes,
    headliner,
    orchestral,
    trocar,
    trocar_opcoes,
    twist_carta,
    twist_cartas_opcoes,
    twist_espaco,
    twist_espacos_opcoes,
)
from .workshop import (
    _short_one,
    aprimorar,
    aprimorar_opcoes,
    enhance_trick,
    ensaio,
    ensaio_opcoes,
    hidden_talent,
    hidden_talent_swap,
    invention,
    on_stage,
    palco_carta,
    palco_cartas_opcoes,
    palco_espaco,
    palco_espacos_opcoes,
    pecas,
    pecas_opcoes,
    prototipo,
    prototipo_opcoes,
    replaceable_parts,
    talento,
    talento_opcoes,
    test_run,
    trick_tweaking,
    unstable_prototype,
)


def placed(state: State, s: int, char: str, key: str, events: list[Event]) -> None:
    """A character was placed: note its special card (used this round) and reset per-placement limits."""
    a = state.alley
    a.card, a.mode, a.drew, a.clar, a.electra = None, "", False, False, False
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
    elif card == "A25" and not _own_location(state, s, card, loc):  # Freelancer: its bonus was the placement
        a.mode = "used"


def _own_location(state: State, s: int, card: str, loc: str) -> bool:
    """Whether the card reaches `loc` without its bonus: its own location, or one another module opens to
    every card of that location (the Secret Workshop to Workshop cards, ruling SW2)."""
    if loc == SPECIALS[card].location:
        return True
    return any(loc in m.more_locations(state, s, card) for m in hooks.active(state) if m.name != "dark_alley")


def especial_opcoes(state: State, s: int) -> list[str]:
    card = state.alley.card
    # Freelancer placed at the Workshop has nothing more to give; Empower needs a Shard to enhance with
    bonus = card != "A25" and (card != "A35" or can_enhance(state, s))
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
    state.cur.shard = False  # Empower was this placement's Reforçar (taken or not)
    _done(state)


def more_locations(state: State, card: str) -> list[str]:
    """Freelancer (A25): the character may go to any other location instead of the Workshop."""
    return list(FREELANCE) if card == "A25" else []


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


DISCOUNT = {"A28": "contratar", "A30": "aprender", "A34": "pegar_moedas"}


def action_cost(state: State, action: str, value: int) -> int:
    a = state.alley
    if a is not None and DISCOUNT.get(a.card) == action and ready(state):  # (the card first: every cost asks)
        return max(0, value - 1)
    return value


def extra_choices(state: State, s: int) -> list[str]:
    """Choices a ready bonus (or Electra's Supercarga) adds to the location's menu."""
    out = electra_choices(state, s)
    if not ready(state):
        return out
    card, p, ap = state.alley.card, state.p[s], state.cur.ap
    if card == "A28" and ap >= cost(state, "contratar"):  # Headhunter: any kind, whatever the Inn die shows
        out += [f"hh:{d}:{k}" for d in ("i0", "i1") if state.dice[d] != X
                for k in ("apprentice", "assistant", "engineer", "manager") if hire_ok(p, k) and k != state.dice[d]]
    if card == "A30" and ap >= cost(state, "aprender") and free_symbol(p) is not None:  # Thirst for Knowledge
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


def performing(state: State, s: int, index: int, events: list[Event]) -> None:
    """Before the yields of the card s performs: Electra's stacks, and the perform-framed cards (Arranged
    Fiasco pays now; Durable Components and Grand Premiere note what they will offer afterwards)."""
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
        for slot, m in card.m.items():
            if m.seat == s and m.t not in a.performed and m.t not in [f.split(":")[0] for f in firsts]:
                _tid, fame, coins, shards = slot_yield(state, s, index, slot)  # as paid (Roubo de Truque too)
                firsts.append(f"{m.t}:{fame}:{coins}:{shards}")
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


def yield_modifiers(state: State, owner: int, performer: int, tid: str) -> list[int]:
    """Enhance Trick: +1 Fame and +1 coin while the owner keeps the trick; Electra's stacked markers:
    +1/+2/+3 Fame and coins by the trick's level."""
    out = [1] if f"{owner}:{tid}" in state.alley.enhanced and owned(state.p[owner], tid) else []
    if f"{owner}:{tid}" in state.alley.stacked:
        out.append(TRICKS[tid].level)
    return out


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
