"""Positions with the prophecy module in play, and the playout checks of the prophecy track."""

from __future__ import annotations

import contextlib

from rulesets.core import Match, Rng
from rulesets.trickerion import prophecies as P
from rulesets.trickerion import setup as setup_module
from rulesets.trickerion.state import State

from ..harness import begin
from ..helpers import GAME


def with_prophecies(n: int = 2, active: str | None = None, seed: int = 0, magicians: tuple[str, ...] = ()) -> Match:
    """A game at round 1's Propaganda with the module in play and the track set up; `active` forced."""
    m = begin(n, seed, magicians=magicians)
    m.state.modules = [*m.state.modules, P.NAME]
    P.setup_track(m.state, Rng(seed + 5), [])
    if active:
        activate(m.state, active)
    return m


def activate(state: State, pid: str) -> None:
    """Make `pid` the Active Prophecy (from wherever it is), keeping three Pending ones."""
    t = state.proph
    for place in (t.pending, t.pile, t.discard):
        if pid in place:
            place.remove(pid)
    if t.active:
        t.discard.append(t.active)
    t.active = pid
    while len(t.pending) < P.PENDING:
        t.pending.append(t.pile.pop(0))


@contextlib.contextmanager
def forced_module(*names: str):
    """New matches (and their replays) start with these modules in State.modules: how the playouts put the
    prophecies into games before the Dark Alley's `prophecies` option exists."""
    original = setup_module.create

    def create(*args, **kwargs):
        state = original(*args, **kwargs)
        state.modules = [*state.modules, *(x for x in names if x not in state.modules)]
        return state

    setup_module.create = create
    try:
        yield
    finally:
        setup_module.create = original


class TrackCheck:
    """After every action: the 27 tokens each in exactly one place, three Pending ones from the end of
    the setup, no Active one in round 1 unless Tecer o Destino chose one, the pile's order in no view."""

    def __init__(self, forced_active: bool = False) -> None:
        self.seen: set[str] = set()
        self.woven = forced_active  # an Active prophecy in round 1 only by Tecer o Destino (or a test's forcing)

    def __call__(self, game, match: Match) -> None:
        st = match.state
        t = st.proph
        if t is None:
            assert st.phase in ("magician", "start"), st.phase
            return
        assert P.in_order(st), t
        assert len(t.pending) == P.PENDING and len(set(t.pending)) == P.PENDING
        if match.log and any(e.text.key == "trickerion.prophecies.log.fate_weaving" for e in match.log[-1].events):
            self.woven = True
        if st.round == 1 and not self.woven:
            assert t.active is None and not t.discard, t
        if t.active:
            self.seen.add(t.active)
        for viewer in (None, *range(st.n)):
            view = game.view(st, viewer)["prophecies"]
            assert view["pile"] == len(t.pile) and view["pending"] == t.pending and view["active"] == t.active
            assert t.pile == [] or not _mentions(view, t.pile)
            if t.delayed and viewer is not None:  # cards of characters not placed stay face down
                for s, p in enumerate(st.p):
                    if s != viewer:
                        shown = game.view(st, viewer)["players"][s].get("plan", {})
                        assert set(shown) <= set(p.placed), (shown, p.placed)


def _mentions(view: dict, pile: list[str]) -> bool:
    text = repr(view)
    return any(pid in text for pid in pile)


__all__ = ["GAME", "TrackCheck", "activate", "forced_module", "with_prophecies"]
