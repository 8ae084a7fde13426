"""Pending steps: how a composite action becomes a short series of small prompts.

An action pushes steps on `state.q` (front first). A step is a small dict, `{"do": name, ...}`,
holding everything it needs (level, rune, counts), so a copied action (Clone) or an instant
(Agilidade) reuses the same steps. `advance` runs automatic steps, skips decisions nobody can
make, takes the only possible answer by itself, and stops at the first real decision.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rulesets.core import Msg, Rng
from rulesets.spellbook.state import OVER, Log, State

Task = dict[str, Any]


@dataclass(frozen=True)
class Step:
    name: str
    run: Callable[[State, Task, Rng, Log], None] | None = None  # automatic step
    options: Callable[[State, Task], list[str]] | None = None  # decision step
    resolve: Callable[[State, Task, str, Rng, Log], None] | None = None
    title: Callable[[State, Task], Msg] | None = None
    autopick: bool = True  # a single possible answer is taken without asking


STEPS: dict[str, Step] = {}


def automatic(name: str):
    def register(fn: Callable[[State, Task, Rng, Log], None]):
        STEPS[name] = Step(name=name, run=fn)
        return fn
    return register


def decision(name: str, options, title, autopick: bool = True):
    """Register `resolve(st, task, choice, rng, log)` for the decision `name`. The task has
    already been taken off the queue when resolve runs; it may put itself back (`again`)."""
    def register(fn: Callable[[State, Task, str, Rng, Log], None]):
        STEPS[name] = Step(name=name, options=options, resolve=fn, title=title, autopick=autopick)
        return fn
    return register


def push(st: State, *tasks: Task) -> None:
    """Put steps at the front of the queue, in the given order."""
    st.q[0:0] = list(tasks)


def again(st: State, task: Task, **changes: Any) -> None:
    push(st, {**task, **changes})


def actor(st: State) -> int:
    """Who decides now: the front step's seat (Flama makes others choose), else the Day's player."""
    if st.q:
        return st.q[0].get("seat", st.cur)
    return st.cur


def step_options(st: State, task: Task) -> list[str]:
    step = STEPS[task["do"]]
    assert step.options is not None
    return step.options(st, task)


# The last settled position and the menu its decider was found to have there (`Game.settled`): the
# search and the playouts list that menu next, and listing it again was a tenth of a simulated move
LISTED: tuple[State | None, tuple[list[int], dict[int, list[str]]] | None] = (None, None)


def settle(st: State, rng: Rng, log: Log,
           phase_flow: Callable[[State, Rng, Log], list[str] | None]) -> None:
    """Run everything that needs no decision. `phase_flow` moves the Day on when the queue is
    empty and returns the phase's menu when a player must choose a phase action (None: it moved on)."""
    global LISTED
    while st.phase != OVER:  # (not st.over: a property call, at every step of every simulated move)
        if not st.q:
            menu = phase_flow(st, rng, log)
            if menu is not None:
                LISTED = st, ([st.cur], {st.cur: menu})
                return
            continue
        task = st.q[0]
        step = STEPS[task["do"]]
        if step.run is not None:
            st.q.pop(0)
            step.run(st, task, rng, log)
            continue
        opts = step.options(st, task)  # type: ignore[misc]
        if not opts:
            st.q.pop(0)
            continue
        if len(opts) == 1 and step.autopick:
            st.q.pop(0)
            step.resolve(st, task, opts[0], rng, log)  # type: ignore[misc]
            continue
        seat = task.get("seat", st.cur)
        LISTED = st, ([seat], {seat: opts})
        return


def resolve(st: State, choice: str, rng: Rng, log: Log) -> None:
    task = st.q.pop(0)
    STEPS[task["do"]].resolve(st, task, choice, rng, log)  # type: ignore[misc]
