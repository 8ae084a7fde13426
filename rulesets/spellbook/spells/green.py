"""Green spells: Purificação, Cura, Crescimento."""

from __future__ import annotations

from rulesets.core import Rng, msg
from rulesets.spellbook import altar
from rulesets.spellbook import materia as mt
from rulesets.spellbook.data import KIND_BY_ID, KIND_IDS
from rulesets.spellbook.spells import phase_action
from rulesets.spellbook.state import MATERIA, SEATS, Log, State, materia_list
from rulesets.spellbook.steps import Task, decision, push


# Purificação (Meio-Dia): swap 1 / 2 / 3 pool materia with as many Altar materia. Each swap is
# one exchange: pick the Altar token, then the pool token that replaces it (so it works at 9).
def purification_options(st: State, p: int, level: int, rune: int) -> list[str]:
    most = min(level - 2, len(st.players[p].pool), len(st.altar))
    return [f"purification_{n}" for n in range(1, most + 1)]


def purification(st: State, p: int, option: str, level: int, rune: int, card: int, rng: Rng, log: Log) -> None:
    push(st, {"do": "swap_take", "n": int(option.rsplit("_", 1)[1])})


def _swap_take_options(st: State, task: Task) -> list[str]:
    return [KIND_IDS[k] for k in mt.distinct(st.altar)] if st.players[st.cur].pool else []


@decision("swap_take", _swap_take_options, lambda st, t: msg("spellbook.prompt.swap_take", count=t["n"]))
def _swap_take(st: State, task: Task, choice: str, rng: Rng, log: Log) -> None:
    push(st, {"do": "swap_give", "n": task["n"], "k": KIND_BY_ID[choice]})


def _swap_give_options(st: State, task: Task) -> list[str]:
    return [KIND_IDS[k] for k in mt.distinct(st.players[st.cur].pool)]


@decision("swap_give", _swap_give_options, lambda st, t: msg("spellbook.prompt.swap_give", materia=MATERIA[t["k"]]))
def _swap_give(st: State, task: Task, choice: str, rng: Rng, log: Log) -> None:
    k = KIND_BY_ID[choice]
    mt.lose(st, st.cur, k)
    st.altar.append(k)
    log.add("gave_altar", player=SEATS[st.cur], materia=materia_list([k]))
    altar.take(st, st.cur, task["k"], rng, log)  # Miragem may trigger on it
    if task["n"] > 1:
        push(st, {"do": "swap_take", "n": task["n"] - 1})


# Cura (Meio-Dia): draw 1 / 2 / 3 (stopping at 9), then discard as many (even more than drawn).
def cure_options(st: State, p: int, level: int, rune: int) -> list[str]:
    return [f"cure_{n}" for n in range(1, level - 1)]


def cure(st: State, p: int, option: str, level: int, rune: int, card: int, rng: Rng, log: Log) -> None:
    n = int(option.rsplit("_", 1)[1])
    mt.draw_to_pool(st, p, n, rng, log)
    push(st, {"do": "discard", "n": n})


# Crescimento (Noite): level 3 swap 1 pool materia with 1 on the Familiar (the token stays);
# levels 4 / 5 store 2 / 3 Altar materia, then this card's token goes down one level.
def growth_options(st: State, p: int, level: int, rune: int) -> list[str]:
    pl = st.players[p]
    out = ["growth_swap"] if pl.pool and pl.fam else []
    if st.altar and mt.familiar_room(st, p) > 0:
        out += [f"growth_{n}" for n in range(2, level - 1)]
    return out


def growth(st: State, p: int, option: str, level: int, rune: int, card: int, rng: Rng, log: Log) -> None:
    if option == "growth_swap":
        push(st, {"do": "fswap_take"})
    else:
        push(st, {"do": "take", "n": int(option.rsplit("_", 1)[1]), "to": "fam"}, {"do": "lower", "c": card})


def _fswap_take_options(st: State, task: Task) -> list[str]:
    return [KIND_IDS[k] for k in mt.distinct(st.players[st.cur].fam)] if st.players[st.cur].pool else []


@decision("fswap_take", _fswap_take_options, lambda st, t: msg("spellbook.prompt.fswap_take"))
def _fswap_take(st: State, task: Task, choice: str, rng: Rng, log: Log) -> None:
    push(st, {"do": "fswap_give", "k": KIND_BY_ID[choice]})


def _fswap_give_options(st: State, task: Task) -> list[str]:
    return [KIND_IDS[k] for k in mt.distinct(st.players[st.cur].pool)]


@decision("fswap_give", _fswap_give_options, lambda st, t: msg("spellbook.prompt.fswap_give", materia=MATERIA[t["k"]]))
def _fswap_give(st: State, task: Task, choice: str, rng: Rng, log: Log) -> None:
    """The pool token takes the Familiar space of the one it replaces."""
    given, taken = KIND_BY_ID[choice], task["k"]
    fam = st.players[st.cur].fam
    mt.lose(st, st.cur, given)
    fam[fam.index(taken)] = given
    mt.gain(st, st.cur, taken)
    log.add("swapped_familiar", player=SEATS[st.cur], taken=materia_list([taken]), given=materia_list([given]))


phase_action("purification", ("purification_1", "purification_2", "purification_3"), purification_options,
             purification)
phase_action("cure", ("cure_1", "cure_2", "cure_3"), cure_options, cure)
phase_action("growth", ("growth_swap", "growth_2", "growth_3"), growth_options, growth)
