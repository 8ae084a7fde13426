"""What difícil's search taught the solo rollouts: offsets to the judgement, per kind of choice.

A light expert iteration (docs/ai.md, "Solo, a rollout policy distilled from the search"): the
search's root visits in its own solo games were fitted as a softmax over the judgement's values
(values.choice_values) plus one offset per (decision, kind of choice, stage of the game). The
offsets say what the search does that the one-move judgement does not — early in the game it
draws from the bag rather than take one chosen Materia and passes the Midday rather than store
— and the solo rollouts add them to the judgement (knowledge.policy), so the lines the search
imagines are played more as it would play them.

The numbers are data (data/ai_distilled.yaml), written by `bench/distil_policy.py` from the
games it names; this module only reads them and finds the one for a choice.
"""

from __future__ import annotations

import yaml
from pydantic import RootModel

from rulesets.spellbook.ai.values import MAJOR_STEPS
from rulesets.spellbook.data import DATA
from rulesets.spellbook.state import PHASE_NAMES, State

STAGE_ENDS = (4, 9)  # Days played by which the early game, then the middle game, is over
STAGES = ("early", "middle", "late")
SPELL_CHOICE_STEPS = {"learn", "upgrade", "pick_spell"}  # the spell's own value tells those choices apart
PATH = DATA / "ai_distilled.yaml"

Offsets = tuple[float, float, float]  # early, middle, late


class Distilled(RootModel[dict[str, dict[str, Offsets]]]):
    """decision (a phase or a step) -> kind of choice -> offset at each stage, in value points."""


def decision(st: State) -> str:
    """The decision pending: the step's name, or the phase's when no step is pending."""
    return st.q[0]["do"] if st.q else PHASE_NAMES.get(st.phase, "")


def kind(step: str, choice: str) -> str:
    """What a choice does, without what it is done with: `take.red_circle` -> take, `offering_3` ->
    offering, `draw2` stays; a Materia paid, given or discarded -> materia (the judgement's own
    value tells Materia apart); a spell learned or raised -> spell."""
    if choice in ("pass", "done"):
        return choice
    if step in SPELL_CHOICE_STEPS:
        return "spell"
    if step not in PHASE_NAMES.values() and step not in MAJOR_STEPS:  # a minor step (values.minor_step)
        return "materia"
    head, dot, _ = choice.partition(".")
    if dot:
        return head
    name, underscore, arg = choice.rpartition("_")
    return name if underscore and arg.isdigit() else choice


def stage(st: State, p: int = 0) -> int:
    """Seat p's stage of the game: 0 early (Days played 0-3), 1 middle (4-8), 2 late (9 on)."""
    days = st.players[p].days
    return sum(days >= end for end in STAGE_ENDS)


def load() -> dict[str, dict[str, Offsets]]:
    with PATH.open(encoding="utf-8") as fh:
        return Distilled.model_validate(yaml.safe_load(fh) or {}).root


OFFSETS = load()


def offsets(st: State, choices: list[str], p: int = 0) -> list[float] | None:
    """The offset of each choice for seat p, or None where nothing was learned for this decision."""
    step = decision(st)
    table = OFFSETS.get(step)
    if not table:
        return None
    at = stage(st, p)
    return [table[k][at] if (k := kind(step, c)) in table else 0.0 for c in choices]
