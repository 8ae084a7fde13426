"""Modo Solo: the opponent's track on the back of a second Familiar, its bottom area, and the
Altar of 7. A tie means nobody wins (scoring.py)."""

from __future__ import annotations

from rulesets.core import Rng, msg
from rulesets.spellbook import altar
from rulesets.spellbook import materia as mt
from rulesets.spellbook.data import ALTAR_SOLO, ALTAR_SPACES, KIND_BY_ID, KIND_IDS, TRACK, TRACK_SPACES
from rulesets.spellbook.state import Log, State, materia_list
from rulesets.spellbook.steps import Task, decision


def setup_difficulty(st: State, level: int, rng: Rng, log: Log) -> None:
    """Dificuldade aumentada: 1-3 bag materia start in the opponent's bottom area."""
    got = mt.draw(st, rng, level, log)
    st.bottom.extend(got)
    if got:
        log.add("solo_difficulty", materia=materia_list(got))


def _altar_kinds(st: State, task: Task) -> list[str]:
    return [KIND_IDS[k] for k in mt.distinct(st.altar)]


@decision("feed_track", _altar_kinds, lambda st, t: msg("spellbook.prompt.feed_track"))
def _feed_track(st: State, task: Task, choice: str, rng: Rng, log: Log) -> None:
    """End of your Day, before the refill: 1 Altar materia of your choice to the opponent's
    first free track space (if the Altar is empty, nothing moves)."""
    k = KIND_BY_ID[choice]
    st.altar.remove(k)
    st.opp.append(k)
    log.add("solo_track", materia=materia_list([k]), space=len(st.opp))
    if len(st.opp) >= TRACK_SPACES and not st.ending:
        st.ending = "track"
        log.add("end_track")


@decision("feed_bottom", _altar_kinds, lambda st, t: msg("spellbook.prompt.feed_bottom"))
def _feed_bottom(st: State, task: Task, choice: str, rng: Rng, log: Log) -> None:
    """Flama in solo: 1 Altar materia to the opponent's bottom area."""
    k = KIND_BY_ID[choice]
    st.altar.remove(k)
    st.bottom.append(k)
    log.add("solo_bottom", materia=materia_list([k]))


def feed_bottom_from_bag(st: State, rng: Rng, log: Log) -> None:
    """Partilha in solo: 1 bag materia to the opponent's bottom area."""
    got = mt.draw(st, rng, 1, log)
    st.bottom.extend(got)
    if got:
        log.add("solo_bottom", materia=materia_list(got))


def refill(st: State, task: Task, rng: Rng, log: Log) -> None:
    """Refill to 7; discard the Altar and draw 7 when the token just placed sits on an
    Altar symbol, or (ruling) when the Altar holds 10 or more at the end of the Day."""
    placed_now = len(st.opp) > task.get("opp", len(st.opp))
    if (placed_now and len(st.opp) in TRACK.altar_reset) or len(st.altar) >= ALTAR_SPACES:
        altar.clear(st, log)
        altar.add_from_bag(st, ALTAR_SOLO, rng, log)
    elif len(st.altar) < ALTAR_SOLO:
        altar.add_from_bag(st, ALTAR_SOLO - len(st.altar), rng, log)
