"""The Altar: taking from it, adding to it, and refilling it at the end of a Day (p.8)."""

from __future__ import annotations

from rulesets.core import Rng, msg
from rulesets.spellbook import materia as mt
from rulesets.spellbook.data import ALTAR_SPACES, ALTAR_START, KIND_BY_ID, KIND_IDS, NRUNE
from rulesets.spellbook.spells.blue import mirage_draws
from rulesets.spellbook.state import SEATS, Log, State, materia_list
from rulesets.spellbook.steps import Task, again, automatic, decision


def mirage(st: State, p: int, k: int, rng: Rng, log: Log) -> None:
    """Miragem (permanent): on your own Day, each Altar token with the card's rune you take
    draws 1 (level 3) or 2 (levels 4-5) from the bag. Never on another player's Day (Flama)."""
    if p != st.cur:
        return
    n = mirage_draws(st, p, k)
    if n:
        got = mt.draw_to_pool(st, p, n, rng, log)
        log.add("mirage", player=SEATS[p], count=len(got))


def take(st: State, p: int, k: int, rng: Rng, log: Log) -> None:
    """'Pegue': one Altar token into the pool (callers check the pool has room)."""
    st.altar.remove(k)
    mt.gain(st, p, k)
    log.add("took", player=SEATS[p], materia=materia_list([k]))
    mirage(st, p, k, rng, log)


def take_to_familiar(st: State, p: int, k: int, rng: Rng, log: Log) -> None:
    """'Armazene do Altar': one Altar token straight onto the Familiar."""
    st.altar.remove(k)
    mt.store(st, p, k, log, source="altar")
    mirage(st, p, k, rng, log)


def add_from_bag(st: State, n: int, rng: Rng, log: Log) -> list[int]:
    got = mt.draw(st, rng, n, log)
    st.altar.extend(got)
    if got:
        log.add("altar_added", materia=materia_list(got))
    return got


def clear(st: State, log: Log) -> None:
    """Discard every Altar token."""
    if st.altar:
        for k in st.altar:
            st.disc[k] += 1
        log.add("altar_cleared", materia=materia_list(st.altar))
        st.altar.clear()


def refill(st: State, rng: Rng, log: Log) -> None:
    """End of a Day: <5 -> fill to 5; 5-9 -> add 1; 10+ -> discard all and draw 5."""
    n = len(st.altar)
    if n < ALTAR_START:
        add_from_bag(st, ALTAR_START - n, rng, log)
    elif n < ALTAR_SPACES:
        add_from_bag(st, 1, rng, log)
    else:
        clear(st, log)
        add_from_bag(st, ALTAR_START, rng, log)


@automatic("refill")
def _refill(st: State, task: Task, rng: Rng, log: Log) -> None:
    from rulesets.spellbook.solo import refill as solo_refill

    if st.solo:
        solo_refill(st, task, rng, log)
    else:
        refill(st, rng, log)


@automatic("altar_add")
def _altar_add(st: State, task: Task, rng: Rng, log: Log) -> None:
    add_from_bag(st, task["n"], rng, log)


# --- "take n from the Altar", with the filters spells put on it -------------------------------
# task keys: n (still to take), to ("pool" | "fam"), runes (allowed runes), same ("rune" |
# "colour": later tokens must match the first, k0), fcol (colour already on the Familiar),
# upto (may stop early), seat (who takes; Flama's other players).

def _fits(st: State, p: int, task: Task, k: int) -> bool:
    runes = task.get("runes")
    if runes is not None and k % NRUNE not in runes:
        return False
    k0 = task.get("k0")
    if k0 is not None:
        same = task.get("same")
        if same == "rune" and k % NRUNE != k0 % NRUNE:
            return False
        if same == "colour" and k // NRUNE != k0 // NRUNE:
            return False
    if task.get("fcol") and all(f // NRUNE != k // NRUNE for f in st.players[p].fam):
        return False
    return True


def take_options(st: State, task: Task) -> list[str]:
    p = task.get("seat", st.cur)
    if task.get("to") == "fam":
        if mt.familiar_room(st, p) <= 0:
            return []
    elif mt.room(st, p) <= 0:
        return []
    opts = [KIND_IDS[k] for k in sorted(set(st.altar)) if _fits(st, p, task, k)]
    if opts and task.get("upto") and task.get("k0") is not None:
        opts.append("done")
    return opts


def _take_title(st: State, task: Task):
    if task.get("to") == "fam":
        return msg("spellbook.prompt.store_from_altar", count=task["n"])
    return msg("spellbook.prompt.take", count=task["n"])


@decision("take", take_options, _take_title)
def _take(st: State, task: Task, choice: str, rng: Rng, log: Log) -> None:
    if choice == "done":
        return
    p = task.get("seat", st.cur)
    k = KIND_BY_ID[choice]
    if task.get("to") == "fam":
        take_to_familiar(st, p, k, rng, log)
    else:
        take(st, p, k, rng, log)
    if task["n"] > 1:
        again(st, task, n=task["n"] - 1, k0=task.get("k0", k))
