"""Decisions about the tokens in a player's pool (reserva): discard, store on the Familiar."""

from __future__ import annotations

from rulesets.core import Rng, msg
from rulesets.spellbook import materia as mt
from rulesets.spellbook.data import KIND_BY_ID, KIND_IDS, NRUNE
from rulesets.spellbook.state import Log, State
from rulesets.spellbook.steps import Task, again, automatic, decision


def _pool_options(st: State, task: Task) -> list[str]:
    """Pool kinds allowed by the task's filters: runes (allowed runes), colour (fixed colour),
    same ("colour": every token like the first one, k0), min (the first token's colour must
    have at least that many in the pool)."""
    p = task.get("seat", st.cur)
    runes = task.get("runes")
    colour = task.get("colour")
    if colour is None and task.get("same") == "colour" and task.get("k0") is not None:
        colour = task["k0"] // NRUNE
    pool = st.players[p].pool
    least = task.get("min") if task.get("k0") is None else None  # Oferenda: a colour with enough
    out: list[str] = []
    last = -1
    for k in pool:
        if k == last:
            continue
        last = k
        if runes is not None and k % NRUNE not in runes:
            continue
        if colour is not None and k // NRUNE != colour:
            continue
        if least and sum(1 for j in pool if j // NRUNE == k // NRUNE) < least:
            continue
        out.append(KIND_IDS[k])
    return out


def discard_options(st: State, task: Task) -> list[str]:
    return _pool_options(st, task)


@decision("discard", discard_options, lambda st, t: msg("spellbook.prompt.discard", count=t["n"]))
def _discard(st: State, task: Task, choice: str, rng: Rng, log: Log) -> None:
    p = task.get("seat", st.cur)
    mt.discard_from_pool(st, p, KIND_BY_ID[choice], log)
    if task["n"] > 1:
        again(st, task, n=task["n"] - 1)


def store_options(st: State, task: Task) -> list[str]:
    if mt.familiar_room(st, task.get("seat", st.cur)) <= 0:
        return []
    return _pool_options(st, task)


@decision("store", store_options, lambda st, t: msg("spellbook.prompt.store", count=t["n"]))
def _store(st: State, task: Task, choice: str, rng: Rng, log: Log) -> None:
    p = task.get("seat", st.cur)
    k = KIND_BY_ID[choice]
    mt.lose(st, p, k)
    mt.store(st, p, k, log)
    if task["n"] > 1:
        again(st, task, n=task["n"] - 1, k0=task.get("k0", k))


@automatic("draw")
def _draw(st: State, task: Task, rng: Rng, log: Log) -> None:
    mt.draw_to_pool(st, task.get("seat", st.cur), task["n"], rng, log)
