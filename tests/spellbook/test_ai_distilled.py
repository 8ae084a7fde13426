"""The solo rollouts' offsets learned from difícil's search (rulesets/spellbook/ai/distilled.py) and
the tool that fits them (bench/distil_policy.py): the data names real decisions, each choice finds
its offset, the solo policy follows them and two-player play never sees them, and the fit learns
what the search's visits say."""

from __future__ import annotations

import pytest

from bench.distil_policy import MIN_SEEN, Sample, agreement, fit, sample, table
from rulesets.core.ai import SearchRng
from rulesets.spellbook.ai import KNOWLEDGE, distilled
from rulesets.spellbook.ai.values import choice_values
from rulesets.spellbook.ai.values import decisions as judged_decisions
from rulesets.spellbook.state import MIDDAY, PHASE_NAMES

from .helpers import m, position

ALTAR = m("red_circle", "red_triangle", "purple_circle", "purple_square", "blue_triangle", "yellow_square",
          "green_circle")


def test_the_data_names_only_decisions_the_judgement_knows_with_an_offset_per_stage():
    known = set(PHASE_NAMES.values()) | judged_decisions()
    assert distilled.OFFSETS, "the data file holds the offsets bench/distil_policy.py wrote"
    for step, kinds in distilled.OFFSETS.items():
        assert step in known, step
        for kind, by_stage in kinds.items():
            assert len(by_stage) == len(distilled.STAGES) and kind


@pytest.mark.parametrize(("step", "choice", "kind"), [
    ("morning", "take.red_circle", "take"), ("morning", "draw2", "draw2"), ("morning", "pass", "pass"),
    ("midday", "store.blue_square", "store"), ("midday", "offering_3", "offering"),
    ("night", "time_travel", "time_travel"), ("learn_level", "lv4", "lv4"), ("learn", "sacrifice", "spell"),
    ("discard", "red_circle", "materia"), ("learn_pay", "wild_circle", "materia"), ("take", "done", "done"),
])
def test_a_choice_is_known_by_what_it_does_not_what_it_does_it_with(step, choice, kind):
    assert distilled.kind(step, choice) == kind


def test_the_stages_of_the_game_end_after_days_4_and_9():
    st = position(players=1)
    stages = []
    for days in (0, 3, 4, 8, 9, 15):
        st.players[0].days = days
        stages.append(distilled.stage(st))
    assert stages == [0, 0, 1, 1, 2, 2]


def test_each_choice_gets_its_kinds_offset_at_this_stage():
    st = position(players=1, altar=ALTAR)
    choices = ["take.red_circle", "draw2", "pass"]
    table_ = distilled.OFFSETS["morning"]
    assert distilled.offsets(st, choices) == [table_["take"][0], table_["draw2"][0], table_["pass"][0]]
    st.players[0].days = 10
    assert distilled.offsets(st, choices) == [table_["take"][2], table_["draw2"][2], table_["pass"][2]]
    st.q = [{"do": "feed_track"}]  # nothing learned for which Materia the track gets
    assert distilled.offsets(st, ["red_circle", "green_circle"]) is None


def _picks(st, choices, n=300) -> dict[str, int]:
    rng = SearchRng(5)
    picks = [KNOWLEDGE.policy(st, 0, choices, rng) for _ in range(n)]
    return {c: picks.count(c) for c in choices}


def test_the_solo_rollouts_follow_the_offsets_and_two_player_play_never_sees_them(monkeypatch):
    solo = position(players=1, pools={0: m("blue_circle", "yellow_circle")}, altar=ALTAR, phase=MIDDAY)
    choices = ["store.blue_circle", "pass"]
    store, passing = choice_values(solo, 0, choices)
    assert store > passing + 0.6  # the judgement alone always stores (its noise is below 0.6)
    assert _picks(solo, choices)["pass"] > 0  # the search's habit early on: keep the Materia
    monkeypatch.setattr(distilled, "OFFSETS", {})
    assert _picks(solo, choices)["pass"] == 0
    monkeypatch.setattr(distilled, "OFFSETS", {"midday": {"pass": (9.0, 9.0, 9.0)}})
    duo = position(players=2, pools={0: m("blue_circle", "yellow_circle")}, altar=ALTAR, phase=MIDDAY)
    assert _picks(duo, choices)["pass"] == 0  # learned from solo games: two-player rollouts unchanged


def _samples(shares_x: float, count: int) -> list[Sample]:
    """Decisions between two kinds, the judgement a little keener on y, the search visiting x that share."""
    keys = [("morning", "x", 0), ("morning", "y", 0)]
    return [Sample(values=[1.0, 1.2], keys=keys, shares=[shares_x, 1 - shares_x], chosen=0 if shares_x > 0.5 else 1)
            for _ in range(count)]


def test_the_fit_learns_the_kind_the_search_prefers_and_agrees_with_it_more():
    samples = _samples(0.8, 40) + [Sample(values=[2.0, 0.0], keys=[("night", "a", 1), ("night", "b", 1)],
                                          shares=[0.9, 0.1], chosen=0) for _ in range(40)]
    a, b = fit(samples)
    assert a > 0
    assert b[("morning", "x", 0)] > b[("morning", "y", 0)]
    assert agreement(samples, lambda v, k: a * v + b[k]) == 1.0
    assert agreement(samples, lambda v, k: v) == 0.5  # the judgement alone misses the search's x
    offsets = table(samples, a, b)
    assert offsets["morning"]["x"][0] > 0 > offsets["morning"]["y"][0]


def test_kinds_seen_too_seldom_keep_no_offset():
    a, b = fit(_samples(0.8, MIN_SEEN - 1))
    assert table(_samples(0.8, MIN_SEEN - 1), a, b) == {}


def test_a_decision_becomes_a_sample_of_the_choices_the_search_considered():
    st = position(players=1, pools={0: m("blue_circle", "yellow_circle")}, altar=ALTAR)
    s = sample(st, {"draw2": 30, "take.red_circle": 10}, "draw2")
    assert s is not None and abs(sum(s.shares) - 1.0) < 1e-9
    assert s.chosen >= 0 and s.shares[s.chosen] == 0.75
    assert all(step == "morning" and at == 0 for step, _, at in s.keys)
    assert sample(st, {"draw2": 5}, "draw2") is None  # settled at once: it says little
