"""Helpers shared by the special cards' modules: the bonus waiting, card names, moving on after a decision."""

from __future__ import annotations

from rulesets.core import msg

from ...data import COMPONENTS
from ...state import State

BASICS = tuple(c for c, d in COMPONENTS.items() if d.tier == "basic")


def card_msg(card: str):
    return msg(f"trickerion.card.{card}")


def ready(state: State, card: str | None = None) -> bool:
    a = state.alley
    return a is not None and state.cur is not None and a.mode == "ready" and (card is None or a.card == card)


def _done(state: State) -> None:
    state.step, state.ctx = "acoes", {}


def proceed(state: State) -> None:
    """On to the next decision queued right after the placement (ctx "queue"), then the base game's
    (ctx "next": Reforçar or the actions)."""
    queue = state.ctx.get("queue") or []
    if queue:  # a new list, not popped in place: a loaded ctx's lists are the saved table's own
        state.step, state.ctx["queue"] = queue[0], queue[1:]
    else:
        state.step, state.ctx = state.ctx["next"], {}
