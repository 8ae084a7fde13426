"""The Dark Alley side of the magician cards (PT appendix p.21), all eight:

    Mestre das Correntes (M01) Libertar-se: right before the Performance phase, one Reagendar without a
                         character whose links pay their bonuses (and shard circles).
    O Grande Óptico (M02) Mimetismo: once per round, a character placed with a permanent card may copy a
                         special card of that location revealed by an opponent this round (its bonus or +1 AP);
                         a copied Freelancer sends a permanent Workshop card's character anywhere.
    Lótus Vermelha (M05) Roubo de Truque: performing, she may receive the yields of an opponent's trick on
                         the card with a threshold no higher instead of her own trick's; the markers stay
                         as placed (the links are theirs), and that opponent receives 1 Fame less for it.
    Yoruba (M07)         Possessão Espiritual: once per round, for 1 Shard, choose the card an opponent
                         performs (asked when they have two or more).
    Electra (M08)        Supercarga: set up two markers of one trick on one slot: one trick, links paid
                         once, +1/+2/+3 Fame and coins by level when performed (a choice in the
                         Theater's menu next to the cards' extra choices).

    O Mecanizador (M04)  Aprimoramento Mecânico: once per round, +1 AP to an apprentice placed anywhere
                         but the Theater; the player says for which (asked at each such placement).
    Sacerdotisa (M03)    Tecer o Destino: 1 AP at the Beco Escuro, as often as AP last: the active
                         prophecy is discarded, a pending one of the player's choice replaces it and a
                         new one is drawn (prophecies.fate_weaving); only offered with prophecies.
    O Cavalheiro (M06)   Mágica para as Massas: the magician placed at the Centro da Cidade, Mercado or
                         Beco Escuro gains 1 Fame per trick card owned.
"""

from __future__ import annotations

from rulesets.core import Event, Rng, msg

from .. import ledger
from ..rules import cost, gain, kind, log, owned, qty, shards_gained, trick_name, who
from ..state import State
from .facts import FREELANCE, PERMANENT, SPECIALS

GENTLEMAN_PLACES = ("downtown", "market", PERMANENT)


def offers(state: State, magician: str) -> bool:
    return magician != "M03" or "prophecies" in state.modules


def placed(state: State, s: int, char: str, key: str, events: list[Event]) -> None:
    p, loc = state.p[s], key.split(".")[0]
    if p.magician == "M06" and char == "mag" and loc in GENTLEMAN_PLACES:
        fame = len(p.tricks)
        gain(p, fame=fame)
        log(events, "da_gentleman", player=who(s), fame=fame)
    mimic_placed(state, s, char, key, events)


def tecer_opcoes(state: State, s: int) -> list[str]:
    from .. import prophecies

    return prophecies.fate_weaving_choices(state) + ["voltar"]


def tecer(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice != "voltar":
        from .. import prophecies
        from .beco_escuro import cost

        state.cur.ap -= cost(state, "tecer_destino")
        log(events, "da_fate_weaving", player=who(s))
        prophecies.fate_weaving(state, s, choice, rng, events)
    state.step, state.ctx = "acoes", {}


STEPS = {"da_tecer": (tecer_opcoes, tecer)}


# ---------------------------------------------------------------------------------------------- O Grande Óptico


def mimic_candidates(state: State, s: int, loc: str) -> list[str]:
    """Mimetismo (M02): the special cards of this location revealed under opponents' characters this round.
    Only cards the player has seen: under Intenções Ocultas (P20) those of opponents' placed characters."""
    from ..placement import shown_plan

    return sorted({c for o in range(state.n) if o != s for c in shown_plan(state, o, s).values()
                   if c in SPECIALS and SPECIALS[c].location == loc})


def _mimic_open(state: State, s: int) -> bool:
    return state.p[s].magician == "M02" and f"{s}:mi" not in state.alley.once


def mimic_freelancer(state: State, s: int, card: str) -> list[str]:
    """Mimetismo may copy an opponent's Freelancer (A25) for a permanent Workshop card: "Você pode usar a
    habilidade impressa da carta copiada" (PT p.21), so the character may go to any other location."""
    if card == "workshop" and _mimic_open(state, s) and "A25" in mimic_candidates(state, s, "workshop"):
        return list(FREELANCE)
    return []


def mimic_placed(state: State, s: int, char: str, key: str, events: list[Event]) -> None:
    p, a, loc = state.p[s], state.alley, key.split(".")[0]
    card = p.plan.get(char)
    if card == "workshop" and loc in FREELANCE and _mimic_open(state, s):  # placed by the copied Freelancer
        a.once.append(f"{s}:mi")
        log(events, "da_mimesis", player=who(s), card=msg("trickerion.card.A25"))
    elif card not in SPECIALS and not key.endswith(".p") and _mimic_open(state, s) and mimic_candidates(state, s, loc):
        a.mode = "mimic"


def mechanizer(state: State, s: int) -> bool:
    """Aprimoramento Mecânico may be used for the apprentice just placed (the player says whether)."""
    return (state.p[s].magician == "M04" and kind(state.cur.c) == "apprentice" and state.cur.loc != "theater"
            and f"{s}:mech" not in state.alley.once)


def mecanico_opcoes(state: State, s: int) -> list[str]:
    return ["me:1", "me:0"]


def mecanico(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    from .special_cards import proceed

    if choice == "me:1":
        state.cur.ap += 1
        state.alley.once.append(f"{s}:mech")
        log(events, "da_mechanizer", player=who(s))
    proceed(state)


def mimetismo_opcoes(state: State, s: int) -> list[str]:
    return [f"mi:{c}" for c in mimic_candidates(state, s, state.cur.loc)] + ["mi:-"]


def mimetismo(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    """The copied card is then treated as this character's special card: its bonus or +1 AP."""
    from .special_cards import proceed

    if choice != "mi:-":
        a = state.alley
        a.card, a.mode = choice[3:], ""
        a.once.append(f"{s}:mi")
        log(events, "da_mimesis", player=who(s), card=msg(f"trickerion.card.{a.card}"))
        # a new list: the loaded ctx's lists are the saved table's own, which handle must not change
        state.ctx["queue"] = ["da_especial", *state.ctx["queue"]]
    proceed(state)


# ---------------------------------------------------------------------------------------------- Mestre das Correntes


def before_performances(state: State, events: list[Event]) -> None:
    """Libertar-se (M01): right before the Performance phase, one Reagendar without a character."""
    from ..theater import marcadores_para_reagendar

    for s, p in enumerate(state.p):
        if p.magician == "M01" and marcadores_para_reagendar(state, s):
            state.turn, state.step, state.ctx = s, "da_correntes_m", {}
            return


def correntes_marcador_opcoes(state: State, s: int) -> list[str]:
    from ..theater import marcadores_para_reagendar

    return marcadores_para_reagendar(state, s) + ["cm:-"]


def _end(state: State) -> bool:
    state.turn, state.step, state.ctx = None, "", {}
    return True


def correntes_marcador(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    if choice == "cm:-":
        return _end(state)
    _, i, slot = choice.split(":")
    state.ctx = {"from": int(i), "slot": slot}
    state.step = "da_correntes_c"
    return False


def correntes_cartas_opcoes(state: State, s: int) -> list[str]:
    from ..theater import _cards_for

    i, slot = state.ctx["from"], state.ctx["slot"]
    return [f"cc:{k}" for k in _cards_for(state, s, state.row[i].m[slot].sym, (i, slot))]


def correntes_carta(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    state.ctx["to"] = int(choice[3:])
    state.step = "da_correntes_e"
    return False


def correntes_espacos_opcoes(state: State, s: int) -> list[str]:
    from ..theater import spots

    i, slot, to = state.ctx["from"], state.ctx["slot"], state.ctx["to"]
    return [f"ce:{x}:{d}" for x, d in spots(state, s, state.row[i].m[slot].sym, to, (i, slot))]


def correntes_espaco(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    """The marker moves like a Reagendar; unlike one, its links pay their bonuses (and shard circles)."""
    from ..data import CARDS
    from ..rules import links_of, slot_msg, trick_name

    _, slot, d = choice.split(":")
    i, old, to = state.ctx["from"], state.ctx["slot"], state.ctx["to"]
    m = state.row[i].m.pop(old)
    card = state.row[to]
    card.m[slot] = m.model_copy(update={"d": int(d)})
    links = links_of(card, slot)
    log(events, "da_break_free", player=who(s), trick=trick_name(m.t), card=to + 1, slot=slot_msg(slot),
        links=qty("links", len(links)))
    for li in links:
        if CARDS[card.id].links[li].shard:
            for seat in sorted({card.m[x].seat for x in CARDS[card.id].links[li].between}):
                gain(state.p[seat], shards=1)
                log(events, "link_shard", player=who(seat))
                shards_gained(state, seat, 1, events)
    if not links:
        return _end(state)
    state.ctx = {"t": m.t, "links": len(links)}
    state.step = "da_correntes_b"
    return False


def correntes_bonus_opcoes(state: State, s: int) -> list[str]:
    return [f"cb:{k}" for k in range(state.ctx["links"], -1, -1)]


def correntes_bonus(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    from ..data import TRICKS

    level, n, fame = TRICKS[state.ctx["t"]].level, state.ctx["links"], int(choice[3:])
    gain(state.p[s], fame=fame * level, coins=(n - fame) * level)
    ledger.linked(state, s, fame * level)
    log(events, "link_bonus", player=who(s), fame=fame * level, coins=(n - fame) * level)
    return _end(state)


# ---------------------------------------------------------------------------------------------- Yoruba, Lótus Vermelha


def before_perform(state: State, s: int, events: list[Event]) -> None:
    """Before performer s chooses a card: Yoruba may choose it for them (Possessão Espiritual, once per
    round, 1 Shard; asked only when s has two or more cards to choose from); the Red Lotus chooses with
    her Roubo de Truque."""
    from ..performance import cards_of

    a = state.alley
    y = next((o for o, p in enumerate(state.p) if p.magician == "M07"), None)
    if (y is not None and y != s and state.p[y].shards and f"{y}:yo" not in a.once
            and f"{y}:yo:{state.perf_day}" not in a.once and len(cards_of(state, s)) >= 2):
        state.turn, state.step, state.ctx = y, "da_possessao", {"who": s}
        return
    if state.p[s].magician == "M05" and _steals(state, s, cards_of(state, s)):
        state.turn, state.step, state.ctx = s, "da_lotus", {"cards": cards_of(state, s)}


def possessao_opcoes(state: State, s: int) -> list[str]:
    from ..performance import cards_of

    return [f"yo:{i}" for i in cards_of(state, state.ctx["who"])] + ["yo:-"]


def possessao(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    from ..performance import escolher_apresentacao

    performer, a = state.ctx["who"], state.alley
    if choice == "yo:-":
        a.once.append(f"{s}:yo:{state.perf_day}")
        state.turn, state.step, state.ctx = performer, "apresentar", {}
        before_perform(state, performer, [])
        return False
    i = int(choice[3:])
    state.p[s].shards -= 1
    a.once.append(f"{s}:yo")
    log(events, "da_possession", player=who(s), target=who(performer), card=i + 1)
    if state.p[performer].magician == "M05" and _steals(state, performer, [i]):
        state.turn, state.step, state.ctx = performer, "da_lotus", {"cards": [i]}
        return True
    return escolher_apresentacao(state, performer, f"ap:{i}", rng, events)


def _steals(state: State, s: int, cards: list[int]) -> list[str]:
    """Roubo de Truque (M05): an opponent's trick on the card with a fame threshold no higher than the
    performer's own trick there, taken instead of that trick's yields (one choice per pair of tricks)."""
    from ..data import TRICKS

    out: dict[tuple, str] = {}
    for i in cards:
        card = state.row[i]
        for own_slot, m in sorted(card.m.items()):
            for opp_slot, o in sorted(card.m.items()):
                if m.seat == s and o.seat != s and o.t != m.t and TRICKS[o.t].threshold <= TRICKS[m.t].threshold:
                    out.setdefault((i, m.t, o.t), f"rl:{i}:{own_slot}:{opp_slot}")
    return list(out.values())


def lotus_opcoes(state: State, s: int) -> list[str]:
    cards = state.ctx["cards"]
    return [f"ap:{i}" for i in cards] + _steals(state, s, cards)


def lotus(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    from ..performance import escolher_apresentacao
    from ..rules import trick_name

    if choice.startswith("rl:"):
        _, i, own, opp = choice.split(":")
        card = state.row[int(i)]
        stolen, mine = card.m[opp], card.m[own]
        state.alley.steal = [own, opp]  # read by yields_of while the card is performed; the markers stay
        log(events, "da_trick_steal", player=who(s), trick=trick_name(stolen.t), owner=who(stolen.seat),
            own=trick_name(mine.t))
        choice = f"ap:{i}"
    state.ctx = {}
    return escolher_apresentacao(state, s, choice, rng, events)


def yields_of(state: State, index: int, slot: str, tid: str) -> tuple[str, int]:
    """Roubo de Truque (PT p.21) changes only whose yields are received, never the markers, so the links
    stay those of the symbols as placed (PT p.17): the Red Lotus' marker yields the stolen trick's
    Rendimentos "ao invés dos Rendimentos do seu próprio Truque"; its owner "recebe 1 de Fama a menos pelo
    Truque roubado" — off the Fame yield of that trick, which never goes below 0 (PT p.18)."""
    steal = state.alley.steal
    if not steal:
        return tid, 0
    own, opp = steal
    if slot == own:
        return state.row[index].m[opp].t, 0
    return (tid, -1) if slot == opp else (tid, 0)


def performed(state: State, s: int, events: list[Event]) -> None:
    state.alley.steal = []


# ---------------------------------------------------------------------------------------------- Electra


def electra_choices(state: State, s: int) -> list[str]:
    """Supercarga (M08): set up two markers of one trick on one slot."""
    if state.p[s].magician != "M08" or state.cur.loc != "theater" or state.cur.ap < cost(state, "preparar"):
        return []
    from ..theater import truques_para_preparar  # (asked every Theater move: imported only for Electra's)

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


STEPS.update({
    "da_mimetismo": (mimetismo_opcoes, mimetismo),
    "da_mecanico": (mecanico_opcoes, mecanico),
    "da_correntes_m": (correntes_marcador_opcoes, correntes_marcador),
    "da_correntes_c": (correntes_cartas_opcoes, correntes_carta),
    "da_correntes_e": (correntes_espacos_opcoes, correntes_espaco),
    "da_correntes_b": (correntes_bonus_opcoes, correntes_bonus),
    "da_possessao": (possessao_opcoes, possessao),
    "da_lotus": (lotus_opcoes, lotus),
})
