"""Noite: Aprender 1 Feitiço (p.6), as a short series of prompts:

    which spell -> which level (3-5) -> which materia of its colour goes on the card
    -> pay the rest, one unit at a time: a materia of the colour, or a wild

A wild is 3 materia of any colours sharing one rune (only while learning), or, with
Transmutação, 1 materia with that card's rune (up to 1 / 2; then no 3-rune wilds). Every
offered choice keeps the payment completable. Then: Comunhão level 5 keeps 2 of the
discarded materia, the instant effect fires, and a 7th spell triggers the end.
"""

from __future__ import annotations

from rulesets.core import Rng, msg
from rulesets.spellbook import materia as mt
from rulesets.spellbook.data import COLOURS, KIND_BY_ID, KIND_IDS, NCOL, NRUNE, RUNES, SPELL_COLOUR
from rulesets.spellbook.spells import ON_LEARN
from rulesets.spellbook.spells.yellow import keeps_discards
from rulesets.spellbook.state import SEATS, SPELL_NAMES, Log, State, materia_list
from rulesets.spellbook.steps import Task, again, automatic, decision, push

# task keys: m ("s" standard | "t" Transmutação), k (single wilds left), r (their rune),
# c (colour), lv (level), t (token for the card), need (units still to pay),
# tri / left (rune of the wild being assembled, materia still missing), sp (spent so far)


def _counts(pool: list[int], c: int) -> tuple[int, list[int], list[int]]:
    own, own_by_rune, other = 0, [0] * NRUNE, [0] * NRUNE
    for k in pool:
        if k // NRUNE == c:
            own += 1
            own_by_rune[k % NRUNE] += 1
        else:
            other[k % NRUNE] += 1
    return own, own_by_rune, other


def units(pool: list[int], c: int, task: Task, tri: tuple[int, int] | None = None) -> int:
    """The most payment units the pool can still give. Using the spell's colour as itself is
    never worse than putting it in a wild, so the count is greedy; `tri` is a wild being
    assembled (rune, missing), which must be completed first (-1 if it cannot be)."""
    own, own_by_rune, other = _counts(pool, c)
    if task["m"] == "t":
        return own + min(task["k"], other[task["r"]])
    if tri is None:
        return own + sum(x // 3 for x in other)
    rune, missing = tri
    best = -1
    for j in range(min(missing, own_by_rune[rune]) + 1):
        if missing - j > other[rune]:
            continue
        rest = list(other)
        rest[rune] -= missing - j
        best = max(best, 1 + own - j + sum(x // 3 for x in rest))
    return best


def max_level(st: State, p: int, c: int, task: Task) -> int:
    pool = st.players[p].pool
    if not any(k // NRUNE == c for k in pool):
        return 0  # at least one real materia of the colour goes on the card
    return min(5, units(pool, c, task))


def learnable(st: State, p: int, task: Task) -> list[int]:
    """Colours whose spell seat p could learn now (at level 3 at least)."""
    pl = st.players[p]
    if len(pl.pool) < 3:
        return []
    if task["m"] != "s":
        return [c for c in range(NCOL) if not pl.lv[c] and st.spells[c] and max_level(st, p, c, task) >= 3]
    # the same count as max_level for every colour at once (this runs at every Night prompt)
    own = [0] * NCOL
    own_rune = [[0] * NRUNE for _ in range(NCOL)]
    runes = [0] * NRUNE
    for k in pl.pool:
        c, r = divmod(k, NRUNE)
        own[c] += 1
        own_rune[c][r] += 1
        runes[r] += 1
    return [c for c in range(NCOL) if own[c] and not pl.lv[c] and st.spells[c]
            and own[c] + sum((runes[r] - own_rune[c][r]) // 3 for r in range(NRUNE)) >= 3]


def _spell_options(st: State, task: Task) -> list[str]:
    return [st.spells[c] for c in learnable(st, st.cur, task)]


@decision("learn", _spell_options, lambda st, t: msg("spellbook.prompt.learn_spell"))
def _pick_spell(st: State, task: Task, choice: str, rng: Rng, log: Log) -> None:
    push(st, {**task, "do": "learn_level", "c": SPELL_COLOUR[choice]})


def _level_options(st: State, task: Task) -> list[str]:
    return [f"lv{n}" for n in range(3, max_level(st, st.cur, task["c"], task) + 1)]


@decision("learn_level", _level_options, lambda st, t: msg("spellbook.prompt.learn_level",
                                                          spell=SPELL_NAMES[st.spells[t["c"]]]))
def _pick_level(st: State, task: Task, choice: str, rng: Rng, log: Log) -> None:
    push(st, {**task, "do": "learn_token", "lv": int(choice[2:])})


def _token_options(st: State, task: Task) -> list[str]:
    return [KIND_IDS[k] for k in mt.distinct(st.players[st.cur].pool) if k // NRUNE == task["c"]]


@decision("learn_token", _token_options, lambda st, t: msg("spellbook.prompt.learn_token",
                                                          spell=SPELL_NAMES[st.spells[t["c"]]], level=t["lv"]))
def _pick_token(st: State, task: Task, choice: str, rng: Rng, log: Log) -> None:
    k = KIND_BY_ID[choice]
    mt.lose(st, st.cur, k)
    task = {**task, "do": "learn_pay", "t": k, "need": task["lv"] - 1, "sp": []}
    _continue(st, task, rng, log)


def _without(pool: list[int], k: int) -> list[int]:
    rest = list(pool)
    rest.remove(k)
    return rest


def _pay_options(st: State, task: Task) -> list[str]:
    pool, c, need = st.players[st.cur].pool, task["c"], task["need"]
    out = []
    for k in mt.distinct(pool):
        if k // NRUNE == c:
            if units(_without(pool, k), c, task) >= need - 1:
                out.append(KIND_IDS[k])
        elif task["m"] == "t" and task["k"] > 0 and k % NRUNE == task["r"]:
            if units(_without(pool, k), c, {**task, "k": task["k"] - 1}) >= need - 1:
                out.append(KIND_IDS[k])
    if task["m"] == "s":
        out += [f"wild_{RUNES[r]}" for r in range(NRUNE) if units(pool, c, task, (r, 3)) >= need]
    return out


def _pay_title(st: State, task: Task):
    return msg("spellbook.prompt.learn_pay", spell=SPELL_NAMES[st.spells[task["c"]]], level=task["lv"],
               count=task["need"], colour=msg(f"spellbook.colour.{COLOURS[task['c']]}"))


@decision("learn_pay", _pay_options, _pay_title)
def _pay(st: State, task: Task, choice: str, rng: Rng, log: Log) -> None:
    if choice.startswith("wild_"):
        push(st, {**task, "do": "learn_wild", "tri": RUNES.index(choice[5:]), "left": 3})
        return
    k = KIND_BY_ID[choice]
    mt.lose(st, st.cur, k)
    task = {**task, "need": task["need"] - 1, "sp": [*task["sp"], k]}
    if k // NRUNE != task["c"]:
        task["k"] -= 1  # a Transmutação wild
    _continue(st, task, rng, log)


def _wild_options(st: State, task: Task) -> list[str]:
    pool, c, need, rune, left = st.players[st.cur].pool, task["c"], task["need"], task["tri"], task["left"]
    out = []
    for k in mt.distinct(pool):
        if k % NRUNE != rune:
            continue
        rest = _without(pool, k)
        ok = units(rest, c, task) >= need - 1 if left == 1 else units(rest, c, task, (rune, left - 1)) >= need
        if ok:
            out.append(KIND_IDS[k])
    return out


@decision("learn_wild", _wild_options, lambda st, t: msg("spellbook.prompt.learn_wild",
                                                        rune=msg(f"spellbook.rune.{RUNES[t['tri']]}"), count=t["left"]))
def _wild(st: State, task: Task, choice: str, rng: Rng, log: Log) -> None:
    k = KIND_BY_ID[choice]
    mt.lose(st, st.cur, k)
    task = {**task, "left": task["left"] - 1, "sp": [*task["sp"], k]}
    if task["left"]:
        again(st, task)
        return
    task = {**task, "do": "learn_pay", "need": task["need"] - 1}
    del task["tri"], task["left"]
    _continue(st, task, rng, log)


def _continue(st: State, task: Task, rng: Rng, log: Log) -> None:
    if task["need"] > 0:
        push(st, task)
    else:
        finish(st, st.cur, task["c"], task["lv"], task["t"], task["sp"], rng, log)


def finish(st: State, p: int, c: int, level: int, token: int, spent: list[int], rng: Rng, log: Log) -> None:
    """The materia is on the card; the rest go to the discard box; then what learning triggers."""
    pl = st.players[p]
    pl.lv[c], pl.tok[c] = level, token
    for k in spent:
        st.disc[k] += 1
    spell = st.spells[c]
    log.add("learned", player=SEATS[p], spell=SPELL_NAMES[spell], level=level,
            token=materia_list([token]), spent=materia_list(spent))
    after: list[Task] = []
    if keeps_discards(st, p) and spent:
        after.append({"do": "keep_discard", "left": spent, "n": 2})
    if spell in ON_LEARN:
        after.append({"do": "instant", "s": spell, "lv": level, "r": token % NRUNE})
    push(st, *after)
    if all(pl.lv) and not st.ending:
        st.ending = "spells"
        log.add("end_spells", player=SEATS[p])


@automatic("instant")
def _instant(st: State, task: Task, rng: Rng, log: Log) -> None:
    """A spell's instant effect: only when learned, at once (never via Viagem Temporal)."""
    ON_LEARN[task["s"]](st, st.cur, task["lv"], task["r"], rng, log)


def _keep_options(st: State, task: Task) -> list[str]:
    if mt.familiar_room(st, st.cur) <= 0:
        return []
    return [KIND_IDS[k] for k in mt.distinct(task["left"]) if st.disc[k] > 0]


@decision("keep_discard", _keep_options, lambda st, t: msg("spellbook.prompt.keep_discard", count=t["n"]))
def _keep(st: State, task: Task, choice: str, rng: Rng, log: Log) -> None:
    """Comunhão level 5: store 2 of the materia just discarded for the spell."""
    k = KIND_BY_ID[choice]
    st.disc[k] -= 1
    mt.store(st, st.cur, k, log, source="discard")
    left = _without(task["left"], k)
    if task["n"] > 1 and left:
        again(st, task, n=task["n"] - 1, left=left)
