"""How good each choice looks to the AI, keyed on the rules' concepts: the decision step and the
choice id's prefix (`aq:` prepare a trick, `cp:` buy a component type...), never the exact prompt
sequence, so a reworked prompt still finds its values; a step it does not know gets the fallback
(anything but backing out or giving things away, all alike). Values are rough points; the rollout
policy takes the best with noise, the tree searches the best first. The assignment prompt is
handled by plans.py."""

from __future__ import annotations

from ..dark_alley.facts import SPECIALS
from ..data import CARDS, DAYS, TRICKS
from ..market import unit_price
from ..placement import card_location
from ..rules import base_ap, corner, markers_in_theater, owned, step_of, trick_capacity
from ..state import State
from ..town_center import _learnable, learn_price
from .plans import missing, missing_cost
from .worth import COIN, rounds_left, trick_worth

PLACING = {"market": 5.0, "downtown": 4.8, "alley": 4.0, "workshop": 3.5, "perform": 3.0, "theater": 2.5}
BACK = -4.0        # "voltar" and the like: undoing a step the AI chose itself
GIVE_AWAY = -6.0   # returning components or tricks
DONE = 0.0         # ending a character's actions (worth more than an action that gains nothing)


def learn_value(st: State, s: int, tid: str) -> float:
    """A trick learned now: its markers performed in the rounds left (a trick takes a round or two to
    get going), less the coins of its price and of the components it lacks."""
    p = st.p[s]
    left = rounds_left(st)
    use = max(0, min(left - 1, 4)) * TRICKS[tid].markers * trick_worth(tid) * 0.25
    return use - COIN * (learn_price(p, tid) + missing_cost(p, tid)) * 1.5 - (2.0 if learn_price(p, tid) > 3 else 0.0)


def _needed(st: State, s: int) -> dict[str, int]:
    """Components the player's tricks still lack, by type."""
    p = st.p[s]
    out: dict[str, int] = {}
    for o in p.tricks:
        for c, k in missing(p, o.t).items():
            out[c] = max(out.get(c, 0), k)
    return out


def _links(st: State, index: int, s: int, tid: str, slot: str, d: int) -> int:
    card = st.row[index]
    own = TRICKS[tid].category
    n = 0
    for direction, other, _li in CARDS[card.id].neighbours[slot]:
        o = card.m.get(other)
        if o is not None and corner(own, d, direction) == corner(TRICKS[o.t].category, o.d, (direction + 2) % 4):
            n += 1
    return n


def _card_yield(st: State, s: int, index: int) -> float:
    card = st.row[index]
    return sum(m.n * trick_worth(m.t) for m in card.m.values() if m.seat == s) + 0.5 * len(card.m)


def _stay(st: State, index: int) -> float:
    """The last Theater space's card is discarded at the end of the round: markers there must be
    performed this round."""
    return 0.4 if index == len(st.row) - 1 else 1.0


def _placing(st: State, s: int, char: str) -> float:
    """A character placed now: the components before the Workshop, the Workshop before the Theater."""
    where = card_location(st, st.p[s].plan[char])
    return PLACING.get("perform" if where == "theater" and char == "mag" else where, 3.0) + 0.1 * base_ap(char)


def _space(st: State, s: int, key: str) -> float:
    """A space: the more AP the better; the performance space when the player has markers to perform."""
    p = st.p[s]
    parts = key.split(".")
    if parts[0] == "theater":
        d = int(parts[1])
        if parts[2] == "p":
            busy = any(o.on or markers_in_theater(st, s, o.sym) for o in p.tricks)
            return 2.0 + DAYS[d].yield_ if busy else -2.0
        return DAYS[d].backstage_ap + 0.5
    from ..placement import space_ap

    return space_ap(key, st)


def value(st: State, s: int, choice: str, choices: list[str]) -> float:
    p = st.p[s]
    head, _, arg = choice.partition(":")
    step = step_of(st, s)
    if choice == "voltar":
        return BACK
    if head in ("devolver", "dc", "dt"):
        return GIVE_AWAY
    if choice in ("fim", "passar"):
        return DONE
    left = rounds_left(st)
    # -- setup
    if head == "m":
        return 0.0
    if head == "t":  # a starting trick: bought with the starting components' 2 coins if it can be
        return TRICKS[arg].markers * trick_worth(arg) - 1.5 * max(0, missing_cost(p, arg) - 2)
    if head == "c" and step in ("comps_iniciais", "comps_gerente"):
        return 1.0 + _needed(st, s).get(arg, 0)
    if head == "e" and step == "especialista":
        return {"manager": 1.0, "engineer": 0.8, "assistant": 1.2}.get(arg, 0.0)
    # -- Propaganda
    if choice == "propaganda":
        from ..rules import initiative_space

        cost = initiative_space(st, s)
        return 2.0 - COIN * cost - (1.5 if p.coins - cost < 4 else 0.0)
    # -- placement
    if head == "a":  # the components before the Workshop, the Workshop before the Theater backstage
        return _placing(st, s, arg)
    if head == "al":  # a character and its space in one choice: which character first, then where
        char, key = arg.split(":", 1)
        return _placing(st, s, char) + 0.5 * _space(st, s, key)
    if head in ("o", "ocioso"):
        return -1.0
    if head == "es":
        return _space(st, s, arg)
    if head == "lc":
        return 0.0
    if head == "fr":  # Reforçar, among the first actions: worth a Shard when Shards are plenty
        return 0.8 if p.shards >= 2 and left >= 2 else -0.3
    # -- Centro da Cidade
    if choice == "aprender":
        return max((learn_value(st, s, t) for t in _all_learnable(st, s)), default=0.0) + 0.5
    if head == "ad":
        die, cat = arg.split(":")
        return max((learn_value(st, s, t) for t in _learnable(st, p, cat, _taken(st))), default=0.0)
    if head == "at":
        return learn_value(st, s, arg)
    if head in ("ct", "hh"):
        hired = st.dice[arg] if head == "ct" else arg.split(":")[1]
        per_round = 1.0 if hired == "apprentice" else 1.8
        return per_round * max(0, left - 1) - (0.5 if hired == "apprentice" else 1.0) * max(0, left - 1)
    if head == "pm":
        from ..town_center import coins_of

        return COIN * coins_of(st, arg) + (0.8 if p.coins < 5 else 0.2)
    if choice in ("rerrolar", "ajustar") or head in ("rr", "aj", "af"):
        return -0.2
    # -- Mercado
    market = head in ("cp", "et", "rt") or choice in ("comprar", "encomendar", "encomenda_rapida")
    need = _needed(st, s) if market else {}
    if choice == "comprar":
        return 2.0 if need else -0.5
    if head == "cp":  # a type and how many: what the tricks lack, no more
        comp, n = arg.split(":")
        want = need.get(comp, 1)
        return 1.0 + 1.5 * need.get(comp, 0) - COIN * (unit_price(st, comp) or 0) * int(n) - abs(int(n) - want)
    if head == "bg":
        return 0.2 * int(arg)
    if choice in ("encomendar", "encomenda_rapida"):
        return 0.6 if any(c not in st.stock for c in need) else -0.6
    if head in ("et", "rt"):
        return 1.0 + need.get(arg, 0) - (0 if arg not in st.stock else 2)
    if head == "ee":
        return 0.0
    # -- Oficina
    if head in ("aq", "ig"):
        o = owned(p, arg)
        return 1.5 + 0.5 * TRICKS[arg].markers * trick_worth(arg) if o else 0.0
    if head in ("mt", "mover_componentes", "mc"):
        return -0.3
    if head == "ma":
        return 0.8 * max(0, left - 1)
    # -- Teatro
    if choice == "preparar":
        return 3.0
    if head == "pp":  # Preparar um Truque on that card
        i = int(arg)
        return 3.0 + _stay(st, i) * _card_yield(st, s, i) * 0.3
    if head == "pt":
        return trick_worth(arg)
    if head == "pc":
        i = int(arg)
        return _stay(st, i) * (1.0 + _card_yield(st, s, i) * 0.3)
    if head == "pe":  # the links it forms; their bonus as Fame (points) rather than coins (a third)
        slot, d, *fame = arg.split(":")
        return 1.0 * _links(st, st.ctx["card"], s, st.ctx["t"], slot, int(d)) + 0.1 * int(fame[0] if fame else 0)
    if head == "cf" or head == "cb":
        return 0.1 * int(arg)  # every link's bonus as Fame (points) rather than coins (a third)
    if choice == "reagendar" or head in ("rm", "rc", "re"):
        return -0.5
    if head == "ap":
        return _card_yield(st, s, int(arg))
    if head == "el":
        return 2.5
    # -- Beco Escuro and the special cards
    if head == "bx":
        return {"1": 2.5, "2": 1.2 if left >= 2 else 0.4, "cv": -0.3, "td": -0.2}.get(arg, 0.0)
    if head == "dk":
        return 0.0
    if head == "kp":
        return 0.3 if SPECIALS.get(arg) and SPECIALS[arg].location != "theater" else 0.0
    if head == "sb":
        return 1.4
    if head == "sa":
        return 1.0
    if head in ("hh", "tk", "sp", "gp", "nt", "df", "cs", "sg", "bp"):
        return 2.0
    return _fallback(choice, choices)


def _fallback(choice: str, choices: list[str]) -> float:
    """A step this module does not know: anything but backing out, declining or a no, all alike."""
    head, _, arg = choice.partition(":")
    if arg in ("-", "0") and any(c.startswith(f"{head}:") and c != choice for c in choices):
        return -0.5
    return 0.5


def _taken(st: State) -> set[str]:
    from ..rules import taken_tricks

    return taken_tricks(st)


def _all_learnable(st: State, s: int) -> list[str]:
    from ..data import CATEGORIES

    p = st.p[s]
    if len(p.tricks) >= trick_capacity(p):
        return []
    taken = _taken(st)
    out = []
    for die in ("r0", "r1"):
        face = st.dice[die]
        if face == "X":
            continue
        for cat in (CATEGORIES if face == "any" else (face,)):
            out += _learnable(st, p, cat, taken)
    return out


def choice_values(st: State, s: int, choices: list[str]) -> list[float]:
    return [value(st, s, c, choices) for c in choices]

