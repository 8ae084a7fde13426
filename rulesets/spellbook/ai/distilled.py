"""What difícil's search taught the solo rollouts: offsets to the judgement, per kind of choice.

A light expert iteration (docs/ai.md, "Solo, a rollout policy distilled from the search"): the
search's root visits in its own solo games were fitted as a softmax over the judgement's values
(values.choice_values) plus, per (decision, kind of choice), one offset for each stage of the game
and a weight for each of three measures of the seat's position (its reserve, its Familiar, its
spells learned). They say what the search does that the one-move judgement does not — early in
the game it draws from the bag rather than take one chosen Materia and passes the Midday rather
than store; it stores less the fuller its Familiar — and the solo rollouts add them to the
judgement (knowledge.policy), so the lines the search imagines are played more as it would play
them.

The numbers are data (data/ai_distilled.yaml), written by `bench/distil_policy.py` from the
games it names — since 2026-12-06 the games of the search that evaluates with the fitted solo value
(docs/ai.md, "Solo, the offsets distilled again"); this module only reads them and finds the one for
a choice.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesets.spellbook.ai.distilled_file import PATH, Offset, Trio, load
from rulesets.spellbook.ai.values import MAJOR_STEPS
from rulesets.spellbook.data import FAMILIAR_SPACES, NCOL, POOL_LIMIT
from rulesets.spellbook.state import PHASE_NAMES, State

STAGE_ENDS = (4, 9)  # Days played by which the early game, then the middle game, is over
STAGES = ("early", "middle", "late")
SPELL_CHOICE_STEPS = {"learn", "upgrade", "pick_spell"}  # the spell's own value tells those choices apart

POSITION = ("reserve", "familiar", "learned")  # what position() measures, each from 0 to 1

__all__ = ["PATH", "Offset", "Trio", "load", "offsets"]  # the data file's schema is distilled_file.py's


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
    return (days >= STAGE_ENDS[0]) + (days >= STAGE_ENDS[1])


def position(st: State, p: int = 0) -> Trio:
    """Seat p's position as the offsets weigh it: its reserve, its Familiar and its spells learned,
    each as a share of a full one (the reserve's limit, the Familiar's spaces, every spell)."""
    pl = st.players[p]
    return len(pl.pool) / POOL_LIMIT, len(pl.fam) / FAMILIAR_SPACES, (NCOL - pl.lv.count(0)) / NCOL


def weigh(weights: Sequence[float], x: Trio) -> float:
    """What a position adds through the weights of one kind of choice: their dot product."""
    return weights[0] * x[0] + weights[1] * x[1] + weights[2] * x[2]


OFFSETS = load()


# decision -> choice -> (offset by stage, weights of the position) of the choice's kind, or None: OFFSETS
# as the rollouts read it at every step (no kind() nor the models' attribute lookups), filled as choices
# come; with the OFFSETS it was read from (a test or a fitting tool may put others in its place)
_BY_CHOICE: tuple[object, dict[str, dict[str, tuple[Trio, Trio] | None]]] = (None, {})


def _by_choice(step: str) -> dict[str, tuple[Trio, Trio] | None] | None:
    global _BY_CHOICE
    source, tables = _BY_CHOICE
    if source is not OFFSETS:
        tables = {}
        _BY_CHOICE = OFFSETS, tables
    found = tables.get(step)
    if found is None:
        if not OFFSETS.get(step):
            return None
        found = tables[step] = {}
    return found


def offsets(st: State, choices: list[str], p: int = 0) -> list[float] | None:
    """The offset of each choice for seat p, or None where nothing was learned for this decision."""
    step = decision(st)
    table = _by_choice(step)
    if table is None:
        return None
    at, x = stage(st, p), position(st, p)
    out = []
    for c in choices:
        try:
            o = table[c]
        except KeyError:
            learned = OFFSETS[step].get(kind(step, c))
            o = table[c] = (learned.stage, learned.position) if learned else None
        out.append(o[0][at] + weigh(o[1], x) if o else 0.0)
    return out
