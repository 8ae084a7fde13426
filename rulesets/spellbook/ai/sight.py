"""What a seat can know of the Materia (ruling AI1 in docs/rulings/spellbook.md): everything is on
the table but the bag and the discard box, of which it sees only how many each holds. These
functions read only the public parts of a state, so anything built on them is the same for every
state the seat cannot tell apart (`unseen` reads the bag and the box only together, kind by kind,
which is what is public of them: see there)."""

from __future__ import annotations

from rulesets.spellbook.data import NKIND, PER_KIND
from rulesets.spellbook.state import State


def in_sight(st: State) -> list[int]:
    """How many Materia of each kind everyone can see: Altar, pools, Familiars, the cards'
    tokens, the solo opponent's, and those of a spell being paid for."""
    seen = [0] * NKIND
    visible = st.altar + st.opp + st.bottom  # one list, one loop: this runs at every draw judged
    for pl in st.players:
        visible += pl.pool
        visible += pl.fam
        visible += [k for k, lv in zip(pl.tok, pl.lv, strict=True) if lv]
    for task in st.q:
        if task["do"].startswith("learn_") and "t" in task:
            visible.append(task["t"])
            visible += task["sp"]
    for k in visible:
        seen[k] += 1
    return seen


def known_in_box(st: State) -> list[int]:
    """The Materia known to be in the discard box: those just discarded that Comunhão 5 may keep."""
    in_box = [0] * NKIND
    for task in st.q:
        if task["do"] == "keep_discard":
            for k in task["left"]:
                in_box[k] += 1
    return in_box


def unseen(st: State) -> list[int]:
    """How many Materia of each kind may be in the bag: neither in sight nor known to be in the box.
    A draw is one of these, each as likely (the bag is a random share of them; once it is empty the
    box returns to it).

    Every Materia is either in sight or in the bag or the box, so for each kind that is what the bag
    and the box hold together, less those known to be in the box: the count `unseen_by_sight` makes
    from what is in sight, which every seat knows (how it splits between bag and box stays unknown).
    Read that way because the judgement asks at every step of every rollout; the two are checked
    equal after every action of the random games of every mode (tests/spellbook/invariants.py)."""
    bag, disc = st.bag, st.disc
    out = [bag[k] + disc[k] for k in range(NKIND)]
    if st.q and any(task["do"] == "keep_discard" for task in st.q):
        in_box = known_in_box(st)
        return [n - in_box[k] for k, n in enumerate(out)]
    return out


def unseen_by_sight(st: State) -> list[int]:
    """`unseen` counted from the public parts of the state alone: all Materia less those in sight and
    those known to be in the box."""
    seen, in_box = in_sight(st), known_in_box(st)
    return [PER_KIND - seen[k] - in_box[k] for k in range(NKIND)]
