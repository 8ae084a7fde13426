"""How much a player wants each Materia and each choice: the quick judgement behind the rollout
policy, the move ordering and the fácil level. Values are in rough points (a Materia in hand is
worth about half a point, a Familiar space one to two, a spell its printed points and more).

A player collects the colours of the spells it has not learned, the more of one colour it
already holds the better (a spell costs 3-5 of it); Materia of learned colours are only wild
fodder and Familiar food. Every decision of the game maps to one of the functions below by its
step (`st.q[0]["do"]`) or, with no step pending, by the phase.
"""

from __future__ import annotations

from rulesets.spellbook.ai.beliefs import SPELL_BELIEFS, WORTH
from rulesets.spellbook.ai.estimate import COST, days_left, economy, learn_gain, spell_gain
from rulesets.spellbook.ai.sight import unseen
from rulesets.spellbook.data import (
    FAMILIAR_SPACES,
    KIND_BY_ID,
    NCOL,
    NKIND,
    NRUNE,
    POOL_LIMIT,
    RUNES,
    SPELL_COLOUR,
)
from rulesets.spellbook.learning import learnable, max_level
from rulesets.spellbook.scoring import familiar_points
from rulesets.spellbook.state import MIDDAY, MORNING, NIGHT, State

LEARN_TASK = {"m": "s"}


_KEEN = {spell: 0.45 + 0.4 * w for spell, w in WORTH.items()}  # base want of an unlearned spell's colour
_HELD = [0.12 * n if n < 5 else -0.1 * (n - 4) for n in range(10)]  # more of the colour held: keener, to 5
PLAN_WANT = 1.2  # the colour of the plan a solo rollout follows: a chosen one beats two drawn at random
NO_PLAN = -1
_COLOUR = [k // NRUNE for k in range(NKIND)]  # a Materia kind's colour


def wants(st: State, p: int, plan: int = NO_PLAN) -> list[float]:
    """How much seat p wants one more Materia of each kind (0 when the pool is full); `plan` is
    the colour of a spell the player is set on (plan_weights), wanted PLAN_WANT more until 5 are held."""
    pl = st.players[p]
    pool = pl.pool
    if len(pool) >= POOL_LIMIT:
        return [0.0] * NKIND
    own = [0] * NCOL
    for k in pool:
        own[_COLOUR[k]] += 1
    lv = pl.lv
    spells = st.spells
    out = [0.0] * NKIND
    for c in range(NCOL):
        spell = spells[c]
        v = 0.35 if lv[c] or not spell else _KEEN[spell] + _HELD[own[c]]
        if c == plan and not lv[c] and own[c] < 5:
            v += PLAN_WANT
        k = c * NRUNE  # the colour's three kinds
        out[k] = out[k + 1] = out[k + 2] = v
    return out


def plan_weights(st: State, p: int) -> list[tuple[int, float]]:
    """Solo: the spells seat p might set out to collect, each colour with a weight — the square of
    the most the spell returns per Materia of its price (estimate.spell_gain over its level), so
    an engine learned early (Sacrifício's income for every Day left) is the likeliest plan.

    The one-move judgement never takes a Materia of a colour today to take another tomorrow: two
    random ones from the bag always look better than one chosen. Rollouts that follow a plan picked
    by these weights (knowledge.py) play such a collection through, so the search can see it pay."""
    pl = st.players[p]
    days, eco = days_left(st, p), economy(st, p)
    out = []
    for c, spell in enumerate(st.spells):
        if pl.lv[c] or not spell:
            continue
        best = max(spell_gain(st, p, spell, level, 0, days, eco) / level for level in (3, 4, 5))
        out.append((c, best * best))
    return out


def bag_want(st: State, w: list[float]) -> float:
    """The expected want of one Materia drawn from the bag. The seat cannot see what the bag holds,
    only what is nowhere in sight (sight.unseen), so that is what a draw is judged by — never the
    true bag, which would let the judgement of the real position peek."""
    source = unseen(st)
    total = sum(source)
    return sum([n * w[k] for k, n in enumerate(source) if n]) / total if total else 0.0


def store_gain(st: State, p: int, n: int = 1) -> float:
    """Familiar points gained by storing n more (the lowest visible value rises)."""
    have = len(st.players[p].fam)
    return float(familiar_points(min(FAMILIAR_SPACES, have + n)) - familiar_points(have))


def _least(pool_wants: list[float], n: int) -> float:
    return sum(sorted(pool_wants)[:n])


def _learn_gain(st: State, p: int, c: int, task: dict, days: float | None = None,
                eco: tuple[float, float, float, float] | None = None) -> float:
    level = max_level(st, p, c, task)
    return learn_gain(st, p, c, level, days, eco) if level >= 3 else -10.0


def spell_value(st: State, p: int, spell: str, level: int) -> float:
    return spell_gain(st, p, spell, level, 0, days_left(st, p), economy(st, p))


def best_learn_gain(st: State, p: int, task: dict) -> float:
    colours = learnable(st, p, task)
    if not colours:
        return -10.0
    days, eco = days_left(st, p), economy(st, p)  # the same for every colour
    return max(_learn_gain(st, p, c, task, days, eco) for c in colours)


def choice_values(st: State, p: int, choices: list[str], plan: int = NO_PLAN) -> list[float]:
    """A value per choice for seat p (who must be the one deciding), set on `plan` if one is given."""
    w = wants(st, p, plan)
    task = st.q[0] if st.q else None
    step = task["do"] if task else _PHASE_STEP.get(st.phase, "")
    rate = _VALUERS.get(step)
    if rate is None:
        return [0.0] * len(choices)
    return [rate(st, p, c, w, task) for c in choices]


MAJOR_STEPS = {"learn", "learn_level", "copy", "upgrade", "bonus_morning", "pick_spell"}  # steps that are no minor step


def minor_step(st: State) -> bool:
    """Whether the decision pending is a minor step: which Materia to take, store, pay, give or
    discard within an action already chosen (a phase's choice, or a step of MAJOR_STEPS, is not)."""
    return bool(st.q) and st.q[0]["do"] not in MAJOR_STEPS


def decisions() -> set[str]:
    """The steps the judgement values (a phase's own choices come under the phase's name)."""
    return set(_VALUERS) - {"@phase"}


def undominated(st: State, choices: list[str]) -> list[str]:
    """The choices left once those that only waste are dropped: paying for a spell with a wild
    (three Materia) while a Materia of its colour would do (useless once it is learned); passing a
    Midday with a full pool while it could store — the next Morning could take nothing, and two
    such players would pass Day after Day for ever, each counting on the Days still to come
    (estimate.py's growth), which a game that never ends never brings."""
    task = st.q[0] if st.q else None
    if task and task["do"] == "learn_pay" and any(c.startswith("wild_") for c in choices):
        own = [c for c in choices if c in KIND_BY_ID and KIND_BY_ID[c] // NRUNE == task["c"]]
        if own:
            return [c for c in choices if not c.startswith("wild_")]
    if not task and st.phase == MIDDAY and len(st.players[st.cur].pool) >= POOL_LIMIT \
            and any(c.startswith("store.") for c in choices):
        return [c for c in choices if c != "pass"]
    return choices


# --- the phase actions ------------------------------------------------------------------------

_MATERIA_CHOICE: dict[str, tuple[str, int] | None] = {}  # "take.<id>" -> ("take", kind); an action -> None


def _materia_choice(choice: str) -> tuple[str, int] | None:
    head, dot, rest = choice.partition(".")
    return (head, KIND_BY_ID[rest]) if dot and head in ("take", "store") else None


def _phase(st: State, p: int, choice: str, w: list[float], task) -> float:
    if choice == "pass":
        return 0.0
    try:
        parsed = _MATERIA_CHOICE[choice]
    except KeyError:
        parsed = _MATERIA_CHOICE[choice] = _materia_choice(choice)
    if parsed is not None:
        head, k = parsed
        if head == "take":
            return w[k]
        return store_gain(st, p) + 0.35 - 0.8 * w[k]
    return _action(st, p, choice, w)


def _action(st: State, p: int, choice: str, w: list[float]) -> float:
    """Primary actions and spells' actions by their id (Clone's copies use the same ids)."""
    pl = st.players[p]
    room = POOL_LIMIT - len(pl.pool)
    name, _, arg = choice.rpartition("_")
    if choice == "draw2":
        return min(2, room) * bag_want(st, w)
    if choice == "learn":
        return 0.5 + best_learn_gain(st, p, LEARN_TASK)
    if choice == "transmutation":
        task = next(({"m": "t", "k": pl.lv[c] - 3, "r": pl.tok[c] % NRUNE} for c in range(NCOL)
                     if st.spells[c] == "transmutation"), LEARN_TASK)
        return 0.6 + best_learn_gain(st, p, task)
    if choice == "take":  # a copied primary take
        return max((w[k] for k in st.altar), default=0.0)
    if choice == "store":
        return store_gain(st, p) + 0.35 - 0.8 * min((w[k] for k in pl.pool), default=1.0)
    if choice == "sacrifice":
        return min(4, room + 1) * bag_want(st, w) - min(w[k] for k in pl.pool)
    if choice == "levitation":
        return 1.8 * max((w[k] for k in st.altar), default=0.0)
    if choice == "flame":
        return min(4, room) * bag_want(st, w) - 0.3 * (len(st.players) - 1)
    if choice == "time_travel":
        return 2.2 - min(w[k] for k in pl.pool)
    if choice == "storm":
        return 2.0
    if choice == "growth_swap":
        return 0.1
    if name == "eruption":
        return max(0, int(arg) - len(pl.pool)) * bag_want(st, w)
    if name in ("sharing", "divination"):
        n = int(arg) - 2 if name == "sharing" else 2
        top = sorted((w[k] for k in st.altar), reverse=True)[:n]
        extra = bag_want(st, w) if choice == "sharing_3" else 0.0
        return sum(top) + extra - (0.25 * (len(st.players) - 1) if name == "sharing" else 0.0)
    if name == "offering":
        n = int(arg)
        return store_gain(st, p, n) + 0.35 * n - 0.8 * _least([w[k] for k in pl.pool], n)
    if name == "purification":
        return 0.2 * int(arg)
    if name == "cure":
        return 0.1 * int(arg)
    if name == "growth":
        return store_gain(st, p, int(arg)) + 0.3 * int(arg) - 1.0
    if choice.startswith("focus_s"):
        n = int(choice[-1])
        return store_gain(st, p, n) + 0.35 * n - 0.8 * _least([w[k] for k in pl.pool], n)
    if choice.startswith("focus_t"):
        return int(choice[-1]) * 0.9 * max((w[k] for k in st.altar), default=0.0)
    if choice == "feast_take":
        return max((w[k] for k in st.altar), default=0.0)
    if choice == "feast_store":
        return store_gain(st, p) + 0.35
    if choice.startswith("clone_"):
        return 1.0
    return 0.5


# --- the steps of composite actions -----------------------------------------------------------

def _take(st: State, p: int, choice: str, w: list[float], task) -> float:
    if choice == "done":
        return 0.2
    k = KIND_BY_ID[choice]
    if task.get("to") == "fam":
        return 1.0 - w[k]  # stored at once: prefer what the pool would not want
    return w[k]


def _shed(st: State, p: int, choice: str, w: list[float], task) -> float:
    """Giving a Materia away (discard, store, pay, feed the solo opponent): the least wanted."""
    return -w[KIND_BY_ID[choice]] if choice in KIND_BY_ID else 0.0


def _gain(st: State, p: int, choice: str, w: list[float], task) -> float:
    return w[KIND_BY_ID[choice]]


def _pay(st: State, p: int, choice: str, w: list[float], task) -> float:
    """Paying for a spell: its own colour is worth nothing once it is learned, so a Materia of
    the colour always beats a wild (three Materia); among wilds, the cheapest three."""
    if choice.startswith("wild_"):
        rune = RUNES.index(choice[5:])
        others = sorted(w[k] for k in st.players[p].pool if k % NRUNE == rune and k // NRUNE != task["c"])
        return -1.0 - sum(others[:3])
    k = KIND_BY_ID[choice]
    if k // NRUNE == task["c"]:
        return 0.0
    return -0.5 - w[k]  # Transmutação: a Materia of another colour standing in as a wild


def _learn(st: State, p: int, choice: str, w: list[float], task) -> float:
    return _learn_gain(st, p, SPELL_COLOUR[choice], task)


def _level(st: State, p: int, choice: str, w: list[float], task) -> float:
    level = int(choice[2:])
    return spell_value(st, p, st.spells[task["c"]], level) - COST * level


def _token(st: State, p: int, choice: str, w: list[float], task) -> float:
    """The token on the card: its rune matters to some spells; keep the more useful runes in
    the pool for wilds (so put the rune the pool holds least of)."""
    rune = KIND_BY_ID[choice] % NRUNE
    return -sum(1 for k in st.players[p].pool if k % NRUNE == rune) * 0.1


def _upgrade(st: State, p: int, choice: str, w: list[float], task) -> float:
    lv = st.players[p].lv[SPELL_COLOUR[choice]]
    return spell_value(st, p, choice, lv + 1) - spell_value(st, p, choice, lv)


def _copy(st: State, p: int, choice: str, w: list[float], task) -> float:
    return _action(st, p, choice.partition(".")[2], w)


def _storm(st: State, p: int, choice: str, w: list[float], task) -> float:
    if choice == "done":
        return 0.0
    return bag_want(st, w) - w[KIND_BY_ID[choice]] - 0.05


def _pick_spell(st: State, p: int, choice: str, w: list[float], task) -> float:
    b = SPELL_BELIEFS[choice]
    return WORTH[choice] + b.engine[2] + b.bonus[2] + max(b.income or (0,)) + max(b.storing or (0,))


def _phase_like(st: State, p: int, choice: str, w: list[float], task) -> float:
    return _phase(st, p, choice, w, task)


_PHASE_STEP = {MORNING: "@phase", MIDDAY: "@phase", NIGHT: "@phase"}
_VALUERS = {
    "@phase": _phase,
    "bonus_morning": _phase_like,
    "take": _take,
    "discard": _shed,
    "store": _shed,
    "feed_track": _shed,
    "feed_bottom": _shed,
    "swap_give": _shed,
    "fswap_give": _shed,
    "learn_wild": _shed,
    "keep_discard": lambda st, p, choice, w, task: 0.0,  # onto the Familiar: any will do
    "swap_take": _gain,
    "fswap_take": _gain,
    "learn": _learn,
    "learn_level": _level,
    "learn_token": _token,
    "learn_pay": _pay,
    "upgrade": _upgrade,
    "copy": _copy,
    "storm_pick": _storm,
    "pick_spell": _pick_spell,
}

