"""Building Spellbook positions by hand and playing moves with chosen bag draws."""

from __future__ import annotations

from collections import Counter

from rulesets.core import Rng
from rulesets.spellbook.data import KIND_BY_ID, NKIND, PER_KIND, SPELL_COLOUR
from rulesets.spellbook.game import GAME
from rulesets.spellbook.state import MORNING, Options, State


def m(*names: str) -> list[int]:
    """Materia kinds from ids: m("red_circle", "blue_square")."""
    return [KIND_BY_ID[n] for n in names]


class Draws(Rng):
    """An Rng whose bag draws come out as the given kinds, in order (then seeded ones)."""

    def __init__(self, st: State, kinds: list[int]) -> None:
        super().__init__(seed=12345)
        self.st = st
        self.kinds = list(kinds)

    def below(self, n: int) -> int:
        if not self.kinds:
            return super().below(n)
        k = self.kinds.pop(0)
        bag = self.st.bag
        assert bag[k] > 0, f"kind {k} is not in the bag"
        assert sum(bag) == n, "a scripted draw must be a bag draw"
        self.counter += 1
        return sum(bag[:k])


def position(players: int = 2, spells: str | list[str] = "first", pools=None, altar=(), fams=None,
             learned=None, cur: int = 0, first: int = 0, phase: int = MORNING, disc=(), opp=(), bottom=()) -> State:
    """A state with exactly these tokens out of the bag (everything else is in the bag).
    `learned` = {seat: {spell: (level, token kind)}}."""
    opts = {"mode": spells} if isinstance(spells, str) else {"mode": "custom", "spells": spells}
    st, _ = GAME.setup(Options.model_validate(opts), players, Rng(1))
    pools = pools or {}
    fams = fams or {}
    learned = learned or {}
    for p, pl in enumerate(st.players):
        pl.pool = sorted(pools.get(p, []))
        pl.fam = list(fams.get(p, []))
        pl.lv = [0] * 7
        pl.tok = [-1] * 7
        for spell, (level, tok) in learned.get(p, {}).items():
            c = SPELL_COLOUR[spell]
            assert st.spells[c] == spell
            pl.lv[c], pl.tok[c] = level, tok
    st.altar = list(altar)
    st.opp, st.bottom = list(opp), list(bottom)
    used: Counter = Counter(st.altar) + Counter(disc) + Counter(opp) + Counter(bottom)
    for pl in st.players:
        used.update(pl.pool)
        used.update(pl.fam)
        used.update(t for t in pl.tok if t >= 0)
    st.disc = [0] * NKIND
    for k in disc:
        st.disc[k] += 1
    st.bag = [PER_KIND - used[k] for k in range(NKIND)]
    assert min(st.bag) >= 0, "more than 5 tokens of a kind"
    st.first, st.cur, st.phase, st.acted, st.q, st.ending = first, cur, phase, 0, [], ""
    return st


def play(st: State, choice: str, draws: list[int] = (), seat: int | None = None):
    """Check `choice` is legal for whoever must act, apply it; return the event keys."""
    who = GAME.to_act(st)[0]
    if seat is not None:
        assert who == seat, f"seat {who} must act, not {seat}"
    legal = GAME.legal_choices(st, who)
    assert choice in legal, f"{choice!r} not in {legal}"
    out = GAME.apply(st, who, choice, Draws(st, m(*draws) if draws and isinstance(draws[0], str) else list(draws)))
    return [e.text.key.removeprefix("spellbook.log.") for e in out.events], out


def legal(st: State) -> list[str]:
    return GAME.legal_choices(st, GAME.to_act(st)[0])
