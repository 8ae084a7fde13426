"""Centro da Cidade: Aprender um Truque, Contratar um Personagem, Pegar Moedas, Rerrolar um Dado,
Ajustar um Dado. The six dice are rolled at the start of each round; a used die turns to X."""

from __future__ import annotations

from functools import cache

from rulesets.core import Event, Rng, msg

from . import hooks
from .data import BASE_TRICKS, BOARD, CATEGORIES, DICE, DIE_IDS, MAGICIANS, TRICKS
from .rules import acted, cost, free_symbol, log, qty, taken_tricks, trick_capacity, trick_name, who
from .state import Owned, Player, State

X = "X"


def rolar_dados(state: State, rng: Rng, events: list[Event]) -> None:
    state.dice = {d: DICE[d][rng.below(6)] for d in DIE_IDS}
    log(events, "dice", dice=dice_msg(state))


def dice_msg(state: State):
    """The six dice by place: Residence, Inn, Bank."""
    def faces(*dice: str) -> list:
        return [face_msg(d, state.dice[d]) for d in dice]

    return msg("trickerion.dice", residence=faces("r0", "r1"), inn=faces("i0", "i1"), bank=faces("b0", "b1"))


@cache
def face_msg(die: str, face: str):
    return msg(f"trickerion.face.{face}") if not face.isdigit() else msg("trickerion.face.coins", n=int(face))


# ---------------------------------------------------------------------------------------------- Aprender um Truque


def learn_price(p: Player, tid: str) -> int:
    """Coins to pay: the difference when the player's Fame is below the trick's threshold."""
    return max(0, TRICKS[tid].threshold - p.fame)


def residence(state: State) -> tuple[str, ...]:
    """The tricks Dahlgaard's Residence holds in this game: levels 1-2, level 3 only if a module adds it."""
    level = 2
    for m in hooks.active(state):
        level = m.max_trick_level(state, level)
    return BASE_TRICKS if level == 2 else _up_to(level)


@cache
def _up_to(level: int) -> tuple[str, ...]:
    return tuple(t for t in TRICKS if TRICKS[t].level <= level)


def _learnable(state: State, p: Player, cat: str, taken: set[str]) -> list[str]:
    return [t for t in residence(state)
            if t not in taken and TRICKS[t].category == cat and learn_price(p, t) <= p.coins]


def _learnable_categories(state: State, p: Player) -> set[str]:
    """The categories with a trick the player could learn now: one pass over the Residence (the action
    menu asks this every move; a pass per die and category cost ten)."""
    taken, fame, coins = taken_tricks(state), p.fame, p.coins
    return {cat for t, cat, threshold in _facts(residence(state))
            if t not in taken and max(0, threshold - fame) <= coins}  # learn_price, inlined


@cache
def _facts(tricks: tuple[str, ...]) -> tuple[tuple[str, str, int], ...]:
    """Each trick's category and Fame threshold, read once (the action menu scans the Residence every move)."""
    return tuple((t, TRICKS[t].category, TRICKS[t].threshold) for t in tricks)


def aprender_dado_opcoes(state: State, s: int) -> list[str]:
    p = state.p[s]
    if len(p.tricks) >= trick_capacity(p) or free_symbol(p) is None:
        return []
    fav = MAGICIANS[p.magician].category
    learnable = _learnable_categories(state, p)
    out = []
    for die in ("r0", "r1"):
        face = state.dice[die]
        if face == X:
            continue
        cats = CATEGORIES if face == "any" else (face,)
        for cat in dict.fromkeys((*cats, fav)):
            if cat in learnable:
                out.append(f"ad:{die}:{cat}")
    return out


def aprender_dado_escolher(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "voltar":
        return back(state)
    _, die, cat = choice.split(":")
    state.ctx = {"die": die, "cat": cat}
    state.step = "aprender_t"


def aprender_truque_opcoes(state: State, s: int) -> list[str]:
    return [f"at:{t}" for t in _learnable(state, state.p[s], state.ctx["cat"], taken_tricks(state))] + ["voltar"]


def aprender_truque(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "voltar":
        return back(state)
    p = state.p[s]
    tid = choice[3:]
    price = learn_price(p, tid)
    p.coins -= price
    base_used = sum(1 for o in p.tricks if not o.eng)
    # a learned trick takes a free base slot; the Engineer's slot only when the base slots are full
    p.tricks.append(Owned(t=tid, sym=free_symbol(p), eng=base_used >= BOARD.workshop["trick_slots"]))
    state.dice[state.ctx["die"]] = X
    state.cur.ap -= cost(state, "aprender")
    log(events, "learn", player=who(s), trick=trick_name(tid), coins=qty("coins", price))
    back(state)
    acted(state, s, "aprender", events, trick=tid)


# ---------------------------------------------------------------------------------------------- the menu


def hire_ok(p: Player, face: str) -> bool:
    if face == "apprentice":
        return len(p.apps) + p.hires.count("apprentice") < BOARD.apprentice_discs
    return face in BOARD.specialists and face not in p.specs and face not in p.hires


def menu(state: State, s: int) -> list[str]:
    p, ap = state.p[s], state.cur.ap
    out = []
    if ap >= cost(state, "aprender") and aprender_dado_opcoes(state, s):
        out.append("aprender")
    if ap >= cost(state, "contratar"):
        out += [f"ct:{d}" for d in ("i0", "i1") if hire_ok(p, state.dice[d])]
    if ap >= cost(state, "pegar_moedas"):
        out += [f"pm:{d}" for d in ("b0", "b1") if state.dice[d] != X]
    if ap >= cost(state, "rerrolar"):
        out.append("rerrolar")
    if ap >= cost(state, "ajustar"):
        out.append("ajustar")
    return out


def surely_busy(state: State, s: int) -> bool:
    """Rerrolar um Dado is always there for its AP."""
    return state.cur.ap >= cost(state, "rerrolar")


def opened_by_returns(state: State, s: int) -> bool:
    """Whether giving a trick back could open Aprender um Truque: the trick slots or symbols are all
    used and a Residence die still offers something."""
    p = state.p[s]
    full = len(p.tricks) >= trick_capacity(p) or free_symbol(p) is None
    return (full and bool(p.tricks) and state.cur.ap >= cost(state, "aprender")
            and any(state.dice[d] != X for d in ("r0", "r1")))


def start(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    """A choice from this place's action menu: an action, or the first step of a composite one."""
    if choice.startswith("ct:"):
        contratar(state, s, choice[3:], events)
    elif choice.startswith("pm:"):
        pegar_moedas(state, s, choice[3:], events)
    else:
        state.step = {"aprender": "aprender_d", "rerrolar": "rerrolar", "ajustar": "ajustar"}[choice]


def contratar(state: State, s: int, die: str, events: list[Event]) -> None:
    """Contratar um Personagem: the Inn die's character joins at the end of the round; the die turns to X."""
    hired = state.dice[die]
    state.p[s].hires.append(hired)
    state.dice[die] = X
    state.cur.ap -= cost(state, "contratar")
    log(events, "hire", player=who(s), char=msg(f"trickerion.char.{hired}"))
    acted(state, s, "contratar", events, char=hired, die=die)


def coins_of(state: State, die: str) -> int:
    """What Pegar Moedas gives for a Bank die (a module may change it)."""
    coins = int(state.dice[die])
    for m in hooks.active(state):
        coins = m.coins_taken(state, coins)
    return coins


def pegar_moedas(state: State, s: int, die: str, events: list[Event]) -> None:
    """Pegar Moedas: as many coins as the Bank die shows; the die turns to X."""
    coins = coins_of(state, die)
    state.p[s].coins += coins
    state.dice[die] = X
    state.cur.ap -= cost(state, "pegar_moedas")
    log(events, "take_coins", player=who(s), coins=coins)
    acted(state, s, "pegar_moedas", events, coins=coins, die=die)


def back(state: State) -> None:
    state.step, state.ctx = "acoes", {}


def rerrolar_opcoes(state: State, s: int) -> list[str]:
    return [f"rr:{d}" for d in DIE_IDS] + ["voltar"]


def rerrolar_dado(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool | None:
    if choice == "voltar":
        return back(state)
    die = choice[3:]
    state.dice[die] = DICE[die][rng.below(6)]
    state.cur.ap -= cost(state, "rerrolar")
    log(events, "reroll", player=who(s), die=msg(f"trickerion.die.{die}"), face=face_msg(die, state.dice[die]))
    back(state)
    acted(state, s, "rerrolar", events, die=die)
    return None


def ajustar_dado_opcoes(state: State, s: int) -> list[str]:
    return [f"aj:{d}" for d in DIE_IDS] + ["voltar"]


def ajustar_dado_escolher(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "voltar":
        return back(state)
    state.ctx = {"die": choice[3:]}
    state.step = "ajustar_f"


def ajustar_face_opcoes(state: State, s: int) -> list[str]:
    die = state.ctx["die"]
    return [f"af:{f}" for f in dict.fromkeys(DICE[die]) if f != state.dice[die]] + ["voltar"]


def ajustar_dado(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "voltar":
        return back(state)
    die = state.ctx["die"]
    state.dice[die] = choice[3:]
    state.cur.ap -= cost(state, "ajustar")
    log(events, "set_die", player=who(s), die=msg(f"trickerion.die.{die}"), face=face_msg(die, state.dice[die]))
    back(state)
    acted(state, s, "ajustar", events, die=die)


STEPS = {
    "aprender_d": (lambda st, s: aprender_dado_opcoes(st, s) + ["voltar"], aprender_dado_escolher),
    "aprender_t": (aprender_truque_opcoes, aprender_truque),
    "rerrolar": (rerrolar_opcoes, rerrolar_dado),
    "ajustar": (ajustar_dado_opcoes, ajustar_dado_escolher),
    "ajustar_f": (ajustar_face_opcoes, ajustar_dado),
}
