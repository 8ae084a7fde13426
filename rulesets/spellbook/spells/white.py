"""White spells: Viagem Temporal, Tempestade, Clone; and moving a card's token up or down."""

from __future__ import annotations

from rulesets.core import Rng, msg
from rulesets.spellbook import altar
from rulesets.spellbook import materia as mt
from rulesets.spellbook.data import KIND_BY_ID, KIND_IDS, NRUNE, SPELL_COLOUR, SPELLS, level_runes
from rulesets.spellbook.spells import ACTIONS, OPTION_SPELL, phase_action
from rulesets.spellbook.state import SEATS, SPELL_NAMES, Log, State, materia_list
from rulesets.spellbook.steps import Task, again, automatic, decision, push

WHITE = SPELL_COLOUR["clone"]


@automatic("lower")
def lower(st: State, task: Task, rng: Rng, log: Log) -> None:
    """'Diminua o nível deste Feitiço em 1' (Crescimento, Tempestade; Clone when it copied them)."""
    pl = st.players[st.cur]
    c = task["c"]
    pl.lv[c] -= 1
    log.add("lowered", player=SEATS[st.cur], spell=SPELL_NAMES[st.spells[c]], level=pl.lv[c])


# Viagem Temporal (Noite): discard 1 materia with the level's rune (or a lower level's), then
# raise another learned spell one level (not Viagem Temporal; never above 5; no instant effect).
def _upgradable(st: State, p: int) -> list[int]:
    lv = st.players[p].lv
    return [c for c in range(len(lv)) if 3 <= lv[c] < 5 and st.spells[c] != "time_travel"]


def time_travel_options(st: State, p: int, level: int, rune: int) -> list[str]:
    runes = level_runes("time_travel", level)
    if _upgradable(st, p) and any(k % NRUNE in runes for k in st.players[p].pool):
        return ["time_travel"]
    return []


def time_travel(st: State, p: int, option: str, level: int, rune: int, card: int, rng: Rng, log: Log) -> None:
    push(st, {"do": "discard", "n": 1, "runes": sorted(level_runes("time_travel", level))}, {"do": "upgrade"})


def _upgrade_options(st: State, task: Task) -> list[str]:
    return [st.spells[c] for c in _upgradable(st, st.cur)]


@decision("upgrade", _upgrade_options, lambda st, t: msg("spellbook.prompt.upgrade"))
def _upgrade(st: State, task: Task, choice: str, rng: Rng, log: Log) -> None:
    pl = st.players[st.cur]
    c = SPELL_COLOUR[choice]
    pl.lv[c] += 1
    log.add("upgraded", player=SEATS[st.cur], spell=SPELL_NAMES[choice], level=pl.lv[c])


# Tempestade (Noite, levels 4-5): replace any number of Altar materia (chosen first, then
# discarded and replaced from the bag), take 3, then this card's token goes down one level.
def storm_options(st: State, p: int, level: int, rune: int) -> list[str]:
    return ["storm"] if level >= 4 else []


def storm(st: State, p: int, option: str, level: int, rune: int, card: int, rng: Rng, log: Log) -> None:
    push(st, {"do": "storm_pick", "sel": []}, {"do": "take", "n": 3}, {"do": "lower", "c": card})


def _storm_options(st: State, task: Task) -> list[str]:
    left = list(st.altar)
    for k in task["sel"]:
        left.remove(k)
    return [KIND_IDS[k] for k in mt.distinct(left)] + ["done"]


@decision("storm_pick", _storm_options, lambda st, t: msg("spellbook.prompt.storm", count=len(t["sel"])),
          autopick=False)
def _storm_pick(st: State, task: Task, choice: str, rng: Rng, log: Log) -> None:
    if choice != "done":
        again(st, task, sel=[*task["sel"], KIND_BY_ID[choice]])
        return
    for k in task["sel"]:
        st.altar.remove(k)
        st.disc[k] += 1
    log.add("storm_replaced", player=SEATS[st.cur], materia=materia_list(task["sel"]))
    altar.add_from_bag(st, len(task["sel"]), rng, log)


# Clone (Meio-Dia): level 3 copies a Midday action of another player, level 4 a Night action,
# level 5 (after discarding 1 materia with the card's rune) a Morning action -- primary actions
# included; never Clone itself, instant or permanent spells. Solo: the level-4 effect of a
# spell of the matching phase you have not learned. Copying Crescimento lowers Clone.
CLONE_PHASES = ((3, "midday"), (4, "night"), (5, "morning"))


def copy_options(st: State, p: int, phase: str) -> list[str]:
    from rulesets.spellbook.day import primary_copies

    out = primary_copies(st, p, phase)
    n = len(st.players)
    if n == 1:
        rune = st.players[p].tok[WHITE] % NRUNE
        for c, spell in enumerate(st.spells):
            if SPELLS[spell].phase == phase and spell != "clone" and not st.players[p].lv[c]:
                out += [f"s.{o}" for o in ACTIONS[spell].options(st, p, 4, rune)]
        return out
    seen = set()
    for i in range(1, n):
        s = (p + i) % n
        other = st.players[s]
        for c, spell in enumerate(st.spells):
            if SPELLS[spell].phase != phase or spell == "clone" or not other.lv[c]:
                continue
            for o in ACTIONS[spell].options(st, p, other.lv[c], other.tok[c] % NRUNE):
                key = (o, other.lv[c], other.tok[c] % NRUNE)
                if key not in seen:
                    seen.add(key)
                    out.append(f"c{s}.{o}")
    return out


def clone_options(st: State, p: int, level: int, rune: int) -> list[str]:
    out = []
    for lv, phase in CLONE_PHASES:
        if level < lv:
            break
        if phase == "morning" and not any(k % NRUNE == rune for k in st.players[p].pool):
            continue  # level 5 first discards a materia with Clone's rune
        if copy_options(st, p, phase):
            out.append(f"clone_{phase}")
    return out


def clone(st: State, p: int, option: str, level: int, rune: int, card: int, rng: Rng, log: Log) -> None:
    phase = option.split("_", 1)[1]
    if phase == "morning":
        push(st, {"do": "discard", "n": 1, "runes": [rune]}, {"do": "copy", "ph": phase})
    else:
        push(st, {"do": "copy", "ph": phase})


@decision("copy", lambda st, t: copy_options(st, st.cur, t["ph"]), lambda st, t: msg("spellbook.prompt.copy"))
def _copy(st: State, task: Task, choice: str, rng: Rng, log: Log) -> None:
    from rulesets.spellbook.day import start_primary

    p = st.cur
    source, _, option = choice.partition(".")
    if source == "c":
        log.add("cloned_primary", player=SEATS[p], action=msg(f"spellbook.choice.c.{option}"))
        start_primary(st, p, option, rng, log)
        return
    spell = OPTION_SPELL[option]
    c = SPELL_COLOUR[spell]
    if source == "s":
        level, rune = 4, st.players[p].tok[WHITE] % NRUNE
        log.add("cloned_solo", player=SEATS[p], spell=SPELL_NAMES[spell])
    else:
        owner = st.players[int(source[1:])]
        level, rune = owner.lv[c], owner.tok[c] % NRUNE
        log.add("cloned", player=SEATS[p], owner=SEATS[int(source[1:])], spell=SPELL_NAMES[spell])
    ACTIONS[spell].start(st, p, option, level, rune, WHITE, rng, log)


phase_action("time_travel", ("time_travel",), time_travel_options, time_travel)
phase_action("storm", ("storm",), storm_options, storm)
phase_action("clone", ("clone_midday", "clone_night", "clone_morning"), clone_options, clone)
