"""Whole games where one prophecy is Active in every round (the track forced to keep it): each rule
change runs through complete games under the base invariants, the track's check and replay equality,
with checks of the placement prophecies on every prompt."""

from __future__ import annotations

import contextlib

import pytest

from rulesets.core import replay, state_hash
from rulesets.core.playout import random_playout
from rulesets.trickerion import prophecies as P
from rulesets.trickerion.placement import space_ap

from ..helpers import GAME, Invariants, purposeful_playout
from .helpers import TrackCheck, activate, forced_module


@contextlib.contextmanager
def fixed(pid: str, force: bool = True):
    """`pid` is Active from the end of the setup on, and again after every end-of-round move; `force`
    also puts the module into new base games (the Dark Alley's option does it by itself)."""
    setup_track, move = P.setup_track, P.mover_as_profecias

    def setup_then_fix(state, rng, events):
        setup_track(state, rng, events)
        activate(state, pid)

    def move_then_fix(state, rng, events):
        move(state, rng, events)
        if state.proph.active != pid:
            activate(state, pid)

    P.setup_track, P.mover_as_profecias = setup_then_fix, move_then_fix
    try:
        with forced_module(*([P.NAME] if force else [])):
            yield
    finally:
        P.setup_track, P.mover_as_profecias = setup_track, move


def _placement_rules(game, match) -> None:
    st = match.state
    if st.proph is None or st.step not in ("alocar", "espaco") or st.turn is None:
        return
    effect = P.active_effect(st)
    offered: dict[str, list[str]] = {}  # the spaces offered to each character, in one choice or two
    for c in game.legal_choices(st, st.turn):
        if c.startswith("al:"):
            char, key = c[3:].split(":", 1)
            offered.setdefault(char, []).append(key)
        elif c.startswith("es:"):
            offered.setdefault(st.ctx["c"], []).append(c[3:])
    for keys in offered.values():
        if effect.type == "lowest_slot":
            for loc in effect.locations:
                mods = {space_ap(k, st) for k in keys if k.startswith(f"{loc}.")}
                assert len(mods) <= 1, (loc, keys)
        if effect.type == "slot_fee" and st.p[st.turn].coins < effect.coins:
            assert not any(k.split(".")[0] in effect.locations and space_ap(k, st) == 2 for k in keys), keys
    assert st.tp < max(2, effect.count if effect.type == "placements_per_turn" else 1)


@pytest.mark.parametrize("pid", sorted(P.PROPHECIES))
def test_whole_games_with_one_prophecy_every_round(pid):
    with fixed(pid):
        for seed in range(3):
            for play in (purposeful_playout, lambda n, s, o, check: random_playout(GAME, n, s, o, check=check).match):
                base, track = Invariants(), TrackCheck(forced_active=True)

                def check(game, match, base=base, track=track):
                    base(game, match)
                    track(game, match)
                    _placement_rules(game, match)

                match = play(2 + seed, seed, {}, check=check)
                assert GAME.is_over(match.state) and track.seen == {pid}
                assert state_hash(replay(match)) == state_hash(match)


@pytest.mark.slow
@pytest.mark.parametrize("pid", sorted(P.PROPHECIES))
def test_dark_alley_games_with_one_prophecy_every_round(pid):
    """The same with the Dark Alley (its special cards, powers and Beco Escuro around each rule change)."""
    from rulesets.trickerion.game import Options

    if "dark_alley" not in Options.model_fields:
        pytest.skip("the Dark Alley's options are not in the game yet")
    checks = pytest.importorskip("tests.trickerion.dark_alley.checks")
    with fixed(pid, force=False):
        for seed in range(2):
            base, track = checks.Invariants(), TrackCheck(forced_active=True)

            def check(game, match, base=base, track=track):
                base(game, match)
                track(game, match)
                _placement_rules(game, match)

            options = {"dark_alley": True, "prophecies": True}
            match = purposeful_playout(2 + seed, seed, options, check=check)
            assert GAME.is_over(match.state) and match.state.round == 7
            assert state_hash(replay(match)) == state_hash(match)
