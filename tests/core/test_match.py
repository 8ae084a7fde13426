"""The rules core: validation, randomness recorded in the log, replay, undo, hashing."""

import pytest

from rulesets.core import (
    IllegalMove,
    ReplayMismatch,
    Rng,
    act,
    can_undo,
    load_match,
    new_match,
    replay,
    state_hash,
    undo,
)
from rulesets.core.playout import random_playout

pytestmark = pytest.mark.usefixtures("toy_registered")


def test_rng_is_a_function_of_seed_and_counter():
    a, b = Rng(42), Rng(42)
    assert [a.below(100) for _ in range(20)] == [b.below(100) for _ in range(20)]
    d = Rng(42)
    seq = [d.below(1000) for _ in range(10)]
    assert Rng(42, counter=5).below(1000) == seq[5]
    assert Rng(43).below(1 << 30) != Rng(42).below(1 << 30)


def test_forced_rng_replays_and_detects_divergence():
    r = Rng(1, forced=[3, 0])
    assert r.below(6) == 3 and r.below(2) == 0
    with pytest.raises(ReplayMismatch):
        r.below(6)
    with pytest.raises(ReplayMismatch):
        Rng(1, forced=[7]).below(6)
    short = Rng(1, forced=[1, 2])
    short.below(6)
    with pytest.raises(ReplayMismatch):
        short.finish()


def test_setup_draws_are_logged():
    m = new_match("toy", {}, 2, seed=9)
    assert m.log[0].choice == "setup" and len(m.log[0].draws) == 1
    assert m.state.scores[0] == m.log[0].draws[0]
    assert m.version == 1


def test_illegal_moves_leave_the_match_unchanged():
    m = new_match("toy", {}, 2, seed=9)
    before = m.model_dump_json()
    for seat, choice, key in [(0, "roll", "core.error.illegal_choice"), (5, "bid:1", "core.error.not_a_player"),
                              (0, "bid:9", "core.error.illegal_choice")]:
        with pytest.raises(IllegalMove) as err:
            act(m, seat, choice)
        assert err.value.reason.key == key
    with pytest.raises(IllegalMove) as err:
        act(m, 0, "bid:1", expected_version=m.version - 1)
    assert err.value.reason.key == "core.error.stale"
    assert m.model_dump_json() == before


def test_act_does_not_touch_the_original():
    m = new_match("toy", {}, 2, seed=9)
    m2, _ = act(m, 0, "bid:2")
    assert m.state.bids == [None, None] and m2.state.bids == [2, None]
    assert m2.version == m.version + 1 and len(m2.log) == len(m.log) + 1


def test_not_your_turn_while_the_other_decides():
    m = new_match("toy", {}, 2, seed=9)
    m, _ = act(m, 0, "bid:3")
    with pytest.raises(IllegalMove) as err:
        act(m, 0, "bid:1")
    assert err.value.reason.key == "core.error.not_your_turn"


def test_undo_within_own_sequence_only():
    m = new_match("toy", {}, 2, seed=9)
    m, _ = act(m, 0, "bid:3")
    assert can_undo(m, 0) and not can_undo(m, 1)
    m, _ = act(m, 1, "bid:1")  # reveal: checkpoint
    assert not can_undo(m, 1) and not can_undo(m, 0)
    m, _ = act(m, 0, "mark")
    assert can_undo(m, 0)
    v = m.version
    m_undone, events = undo(m, 0)
    assert m_undone.state.marked is False and m_undone.version == v + 1
    assert events[0].text.key == "core.log.undone"
    with pytest.raises(IllegalMove):
        undo(m_undone, 0)  # cannot go back past the reveal
    m, _ = act(m, 0, "roll")  # random: never undoable
    assert not can_undo(m, 0)


def test_replay_reproduces_the_final_state_and_catches_tampering():
    result = random_playout("toy", 2, seed=5)
    m = result.match
    again = replay(m)
    assert state_hash(again) == state_hash(m)
    tampered = m.model_copy(deep=True)
    for entry in tampered.log:
        if entry.draws and entry.seat is not None:
            entry.draws = [(entry.draws[0] + 1) % 6]
            break
    with pytest.raises(ReplayMismatch):
        replay(tampered)


def test_saved_match_round_trips():
    result = random_playout("toy", 2, seed=6)
    text = result.match.model_dump_json()
    loaded = load_match(text)
    assert state_hash(loaded) == state_hash(result.match)
    assert type(loaded.state).__name__ == "ToyState"


def test_player_count_is_checked():
    with pytest.raises(IllegalMove):
        new_match("toy", {}, 3, seed=1)
