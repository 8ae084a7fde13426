"""Random playouts with the invariants checked after every action, across 1-4 players and
every selection mode; each game must end, replay from its log to the same state, and score
exactly the sum of its breakdown. Batches are split by seed range so `pytest -n 2` shares them."""

from __future__ import annotations

import random

import pytest

from rulesets.core import act, new_match, replay, state_hash
from rulesets.core.playout import random_playout
from rulesets.spellbook.data import KIND_BY_ID, NCOL, NRUNE
from rulesets.spellbook.game import GAME
from rulesets.spellbook.learning import max_level

from .invariants import check

MODES = ["first", "set2", "set3", "classic", "custom"]


def _options(mode: str, players: int, seed: int) -> dict:
    return {"mode": mode, **({"difficulty": seed % 4} if players == 1 else {})}


def _keen_choice(st, seat: int, choices: list[str], rnd: random.Random) -> str:
    """A collector: gathers the unlearned colour it holds most of, learns as high as it can,
    uses its spells, seldom passes -- so games reach level-5 spells, Agilidade's second Morning,
    Comunhão 5, Clone, the 7th spell... while staying random."""
    pool = st.players[seat].pool
    learned = st.players[seat].lv
    counts = [sum(1 for k in pool if k // NRUNE == c) if not learned[c] else -1 for c in range(NCOL)]
    target = max(range(NCOL), key=lambda c: (counts[c], -c))
    best = max((max_level(st, seat, c, {"m": "s"}) for c in range(NCOL) if not learned[c]), default=0)
    patience = {5: 0.95, 4: 0.3, 3: 0.1}.get(best, 0)
    for wanted in ("learn", "transmutation"):
        if wanted in choices and rnd.random() < patience:
            return wanted
    for wanted in ("lv5", "lv4"):
        if wanted in choices:
            return wanted
    takes = [c for c in choices if c.startswith("take.") and KIND_BY_ID[c[5:]] // NRUNE == target]
    if takes and rnd.random() < 0.8:
        return rnd.choice(takes)
    stores = [c for c in choices if c.startswith("store.") and KIND_BY_ID[c[6:]] // NRUNE != target]
    if stores and rnd.random() < 0.3:
        return rnd.choice(stores)
    spells = [c for c in choices if c not in ("pass", "done", "draw2") and not c.startswith(("take.", "store."))]
    if spells and rnd.random() < 0.6:
        return rnd.choice(spells)
    active = [c for c in choices if c not in ("pass", "done") and not c.startswith("store.")]
    if not active and "pass" in choices and rnd.random() < 0.7:
        return "pass"
    return rnd.choice(active if active and rnd.random() < 0.9 else choices)


def eager_playout(players: int, seed: int, options: dict):
    """A random playout with keen players (see _keen_choice), checked after every action."""
    match = new_match(GAME, options, players, seed)
    rnd = random.Random(seed)
    check(GAME, match)
    for _ in range(5000):
        if GAME.is_over(match.state):
            break
        seat = GAME.to_act(match.state)[0]
        choice = _keen_choice(match.state, seat, GAME.legal_choices(match.state, seat), rnd)
        match, _ = act(match, seat, choice, inplace=True)
        check(GAME, match)
    return match


def _finished(match) -> None:
    st = match.state
    assert GAME.is_over(st)
    assert len({pl.days for pl in st.players}) == 1, [pl.days for pl in st.players]
    score = GAME.score(st)
    for s in score.seats:
        assert s.total == sum(line.points for line in s.lines)
    for r in score.rivals:
        assert r.total == sum(line.points for line in r.lines)
    assert score.end_reason in ("spells", "familiar", "track")
    if st.solo:
        assert score.winners in ([], [0])
    else:
        assert score.winners and max(s.total for s in score.seats) == score.seats[score.winners[0]].total
    assert state_hash(replay(match)) == state_hash(match)
    assert len(st.model_dump_json()) < 8000


def _batch(players: int, mode: str, seeds: range, eager: bool) -> None:
    for seed in seeds:
        options = _options(mode, players, seed)
        if eager:
            match = eager_playout(players, seed, options)
        else:
            match = random_playout(GAME, players, seed, options, check=check).match
        _finished(match)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("mode", MODES)
def test_quick_playouts(players, mode):
    _batch(players, mode, range(3), eager=False)
    _batch(players, mode, range(3), eager=True)


# 4 player counts x 5 modes x 2 halves x 50 seeds = 2,000 uniform games, plus 400 eager ones
@pytest.mark.slow
@pytest.mark.parametrize("half", [0, 1])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("mode", MODES)
def test_many_playouts(players, mode, half):
    start = 1000 + 50 * half
    _batch(players, mode, range(start, start + 50), eager=False)
    _batch(players, mode, range(start, start + 10), eager=True)
