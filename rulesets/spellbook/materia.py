"""Moving Materia: the bag (Bolsa), a player's pool (reserva, at most 9 at all times), the
Familiar, the discard box. Several tokens always move one at a time, so a full pool simply
stops an action part-way (rulebook p.5)."""

from __future__ import annotations

from bisect import bisect_right, insort

from rulesets.core import Rng
from rulesets.spellbook.data import FAMILIAR_SPACES, NKIND, POOL_LIMIT
from rulesets.spellbook.state import SEATS, Log, State, materia_list


def draw(st: State, rng: Rng, n: int, log: Log) -> list[int]:
    """Draw up to n random tokens from the bag. An empty bag takes back the discards (p.8);
    if both are empty, fewer are drawn. Token r of the bag (counted kind by kind) is drawn."""
    out: list[int] = []
    bag = st.bag
    for _ in range(n):
        ends = _ends(bag)
        if ends[-1] == 0:
            if not any(st.disc):
                break
            for k in range(NKIND):
                bag[k] += st.disc[k]
                st.disc[k] = 0
            ends = _ends(bag)
            log.add("bag_refilled", count=ends[-1])
        k = bisect_right(ends, rng.below(ends[-1]))
        bag[k] -= 1
        out.append(k)
    return out


def _ends(bag: list[int]) -> list[int]:
    """Where each kind's tokens end, counted through the bag (itertools.accumulate, written out: it
    runs at every draw of every simulated move, and compiled a loop is faster than the iterator)."""
    ends = [0] * NKIND
    total = 0
    for k in range(NKIND):
        total += bag[k]
        ends[k] = total
    return ends


def room(st: State, p: int) -> int:
    return POOL_LIMIT - len(st.players[p].pool)


def gain(st: State, p: int, k: int) -> None:
    insort(st.players[p].pool, k)


def lose(st: State, p: int, k: int) -> None:
    st.players[p].pool.remove(k)


def discard_from_pool(st: State, p: int, k: int, log: Log) -> None:
    lose(st, p, k)
    st.disc[k] += 1
    log.add("discarded", player=SEATS[p], materia=materia_list([k]))


def draw_to_pool(st: State, p: int, n: int, rng: Rng, log: Log) -> list[int]:
    """'Compre n': draw into the pool, stopping at 9."""
    got = draw(st, rng, min(n, room(st, p)), log)
    for k in got:
        gain(st, p, k)
    if got:
        log.add("drew", player=SEATS[p], materia=materia_list(got))
    return got


def familiar_room(st: State, p: int) -> int:
    return FAMILIAR_SPACES - len(st.players[p].fam)


def store(st: State, p: int, k: int, log: Log, source: str = "pool") -> None:
    """Put one token on the first free Familiar space (callers check there is room)."""
    fam = st.players[p].fam
    fam.append(k)
    log.add(f"stored_{source}", player=SEATS[p], materia=materia_list([k]))
    if len(fam) == FAMILIAR_SPACES and not st.ending:
        st.ending = "familiar"
        log.add("end_familiar", player=SEATS[p])


def distinct(kinds: list[int]) -> list[int]:
    """The different kinds in a sorted-or-not list, in kind order."""
    return sorted(set(kinds))
