"""The Day (p.5-8): Manhã, Meio-Dia, Noite -- one action each, every phase may be skipped --
then the Altar refill and the next player, clockwise. The first-player's right-hand
neighbour plays the last Day once the end has been triggered."""

from __future__ import annotations

from rulesets.core import Rng, msg
from rulesets.spellbook import altar
from rulesets.spellbook import materia as mt
from rulesets.spellbook.data import (
    COLOURS,
    KIND_BY_ID,
    KIND_IDS,
    NCOL,
    NRUNE,
    POOL_LIMIT,
    SPELL_COLOUR,
    SPELLS,
    SPELLS_BY_COLOUR,
)
from rulesets.spellbook.learning import learnable
from rulesets.spellbook.spells import ACTIONS, OPTION_SPELL
from rulesets.spellbook.spells.blue import extra_morning
from rulesets.spellbook.state import (
    DUSK,
    MIDDAY,
    MORNING,
    NIGHT,
    OVER,
    PHASE_NAMES,
    SEATS,
    SETUP,
    SPELL_NAMES,
    Log,
    State,
)
from rulesets.spellbook.steps import Task, automatic, decision, push, resolve, settle

STANDARD_LEARN = {"m": "s"}
TAKE = ["take." + kind for kind in KIND_IDS]  # the choice that takes each kind from the Altar
STORE = ["store." + kind for kind in KIND_IDS]  # the choice that stores each kind from the pool


# --- what a player may do in a phase ----------------------------------------------------------

def phase_options(st: State, p: int, phase: int) -> list[str]:
    """The primary actions of the phase, then the learned spells' actions, then 'pass'."""
    pl = st.players[p]
    out: list[str] = []
    if phase == MORNING:  # Pegar 1 Matéria do Altar / Comprar 2 Matérias
        if len(pl.pool) < POOL_LIMIT:
            out += [TAKE[k] for k in mt.distinct(st.altar)]
            if any(st.bag) or any(st.disc):
                out.append("draw2")
    elif phase == MIDDAY:  # Armazenar 1 Matéria
        if mt.familiar_room(st, p) > 0:
            out += [STORE[k] for k in mt.distinct(pl.pool)]
    elif learnable(st, p, STANDARD_LEARN):  # Aprender 1 Feitiço
        out.append("learn")
    name = PHASE_NAMES[phase]
    for c in range(NCOL):
        level = pl.lv[c]
        if level and SPELLS[st.spells[c]].phase == name:
            out += ACTIONS[st.spells[c]].options(st, p, level, pl.tok[c] % NRUNE)
    out.append("pass")
    return out


def start_action(st: State, p: int, choice: str, rng: Rng, log: Log) -> None:
    kind, _, arg = choice.partition(".")
    if kind == "take":
        altar.take(st, p, KIND_BY_ID[arg], rng, log)
    elif kind == "draw2":
        mt.draw_to_pool(st, p, 2, rng, log)
    elif kind == "store":
        k = KIND_BY_ID[arg]
        mt.lose(st, p, k)
        mt.store(st, p, k, log)
    elif kind == "learn":
        push(st, {"do": "learn", **STANDARD_LEARN})
    else:
        spell = OPTION_SPELL[choice]
        c = SPELL_COLOUR[spell]
        pl = st.players[p]
        log.add("cast", player=SEATS[p], spell=SPELL_NAMES[spell], action=msg(f"spellbook.choice.{choice}"))
        ACTIONS[spell].start(st, p, choice, pl.lv[c], pl.tok[c] % NRUNE, c, rng, log)


# Clone copies another player's primary actions too.
def primary_copies(st: State, p: int, phase: str) -> list[str]:
    if len(st.players) == 1:
        return []
    if phase == "morning":
        if mt.room(st, p) <= 0:
            return []
        return (["c.take"] if st.altar else []) + (["c.draw2"] if any(st.bag) or any(st.disc) else [])
    if phase == "midday":
        return ["c.store"] if st.players[p].pool and mt.familiar_room(st, p) > 0 else []
    return ["c.learn"] if learnable(st, p, STANDARD_LEARN) else []


def start_primary(st: State, p: int, option: str, rng: Rng, log: Log) -> None:
    if option == "take":
        push(st, {"do": "take", "n": 1})
    elif option == "draw2":
        mt.draw_to_pool(st, p, 2, rng, log)
    elif option == "store":
        push(st, {"do": "store", "n": 1})
    else:
        push(st, {"do": "learn", **STANDARD_LEARN})


# --- the flow of a Day ------------------------------------------------------------------------

def allowed_actions(st: State) -> int:
    return 2 if st.phase == MORNING and extra_morning(st, st.cur) else 1


def play(st: State, choice: str, rng: Rng, log: Log) -> None:
    """A move: the answer to the pending step, or else a phase action; then the game runs on to
    the next decision (`Spellbook.play`; here so that the compiled search calls it directly)."""
    if st.q:
        resolve(st, choice, rng, log)
    else:
        choose(st, choice, rng, log)
    settle(st, rng, log, phase_flow)


def choose(st: State, choice: str, rng: Rng, log: Log) -> None:
    """A phase action picked from the phase prompt."""
    if choice == "pass":
        log.add("passed", player=SEATS[st.cur], phase=msg(f"spellbook.phase.{PHASE_NAMES[st.phase]}"))
        next_phase(st)
        return
    st.acted += 1
    start_action(st, st.cur, choice, rng, log)


def next_phase(st: State) -> None:
    st.acted = 0
    if st.phase == NIGHT:
        st.phase = DUSK
        end: list[Task] = [{"do": "refill", "opp": len(st.opp)}, {"do": "day_end"}]
        push(st, *([{"do": "feed_track"}] if st.solo else []), *end)
    else:
        st.phase += 1


def phase_flow(st: State, rng: Rng, log: Log) -> list[str] | None:
    """Move the Day on while nobody has a decision; else the phase's menu, from which the player
    picks a phase action (listed here: whoever moves next asks for it, `steps.LISTED`)."""
    if st.phase == SETUP:
        begin_day(st, log)
        return None
    if st.acted >= allowed_actions(st):
        next_phase(st)
        return None
    menu = phase_options(st, st.cur, st.phase)
    if len(menu) == 1:  # only 'pass': the phase is skipped without asking
        next_phase(st)
        return None
    return menu


def begin_day(st: State, log: Log) -> None:
    st.phase, st.acted = MORNING, 0
    log.add("day_begins", player=SEATS[st.cur], day=st.players[st.cur].days + 1)


@automatic("day_end")
def _day_end(st: State, task: Task, rng: Rng, log: Log) -> None:
    n = len(st.players)
    st.players[st.cur].days += 1
    log.checkpoint = True
    if st.ending and st.cur == (st.first - 1) % n:
        st.phase = OVER
        log.add("game_over")
        return
    st.cur = (st.cur + 1) % n
    begin_day(st, log)


# --- Agilidade levels 3-4: one Morning action right away ---------------------------------------

def _bonus_options(st: State, task: Task) -> list[str]:
    return phase_options(st, st.cur, MORNING)


@decision("bonus_morning", _bonus_options, lambda st, t: msg("spellbook.prompt.bonus_morning"))
def _bonus_morning(st: State, task: Task, choice: str, rng: Rng, log: Log) -> None:
    if choice != "pass":
        start_action(st, st.cur, choice, rng, log)


# --- Personalizada: the first player picks one spell per colour -------------------------------

def _pick_options(st: State, task: Task) -> list[str]:
    return list(SPELLS_BY_COLOUR[task["c"]])


def _pick_title(st: State, task: Task):
    return msg("spellbook.prompt.pick_spell", colour=msg(f"spellbook.colour.{COLOURS[task['c']]}"))


@decision("pick_spell", _pick_options, _pick_title)
def _pick_spell(st: State, task: Task, choice: str, rng: Rng, log: Log) -> None:
    st.spells[task["c"]] = choice
    log.add("spell_chosen", player=SEATS[task["seat"]], spell=SPELL_NAMES[choice])
    if task["c"] + 1 < NCOL:
        push(st, {**task, "c": task["c"] + 1})
