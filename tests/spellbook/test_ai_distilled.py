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


def test_the_data_names_only_decisions_the_judgement_knows_with_an_offset_per_stage_and_measure():
    known = set(PHASE_NAMES.values()) | judged_decisions()
    assert distilled.OFFSETS, "the data file holds the offsets bench/distil_policy.py wrote"
    for step, kinds in distilled.OFFSETS.items():
        assert step in known, step
        for kind, offset in kinds.items():
            assert kind and (any(offset.stage) or any(offset.position))
            assert len(offset.stage) == len(distilled.STAGES) and len(offset.position) == len(distilled.POSITION)
    assert any(any(o.position) for kinds in distilled.OFFSETS.values() for o in kinds.values())


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


def test_the_position_is_the_reserve_familiar_and_spells_learned_as_shares_of_full_ones():
    st = position(players=1, pools={0: m("blue_circle", "yellow_circle", "red_square")})
    assert distilled.position(st) == (3 / 9, 0.0, 0.0)
    st.players[0].fam = m("green_circle") * 7
    st.players[0].lv = [1, 0, 2, 0, 0, 0, 5]
    assert distilled.position(st) == (3 / 9, 7 / 14, 3 / 7)


def test_each_choice_gets_its_kinds_offset_at_this_stage_and_for_this_position(monkeypatch):
    table_ = {"take": distilled.Offset(stage=(1.0, 2.0, 3.0), position=(0.9, -1.4, 0.7)),
              "draw2": distilled.Offset(stage=(-1.0, 0.0, 0.5))}
    monkeypatch.setattr(distilled, "OFFSETS", {"morning": table_})
    st = position(players=1, altar=ALTAR, pools={0: m("blue_circle", "yellow_circle", "red_square")})
    choices = ["take.red_circle", "draw2", "pass"]
    assert distilled.offsets(st, choices) == pytest.approx([1.0 + 0.9 * 3 / 9, -1.0, 0.0])
    st.players[0].days = 10
    st.players[0].fam = m("green_circle") * 7
    st.players[0].lv = [1, 0, 0, 0, 0, 0, 0]
    assert distilled.offsets(st, choices) == pytest.approx([3.0 + 0.9 * 3 / 9 - 1.4 * 7 / 14 + 0.7 / 7, 0.5, 0.0])
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
    monkeypatch.setattr(distilled, "OFFSETS", {"midday": {"pass": distilled.Offset(stage=(9.0, 9.0, 9.0))}})
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
    a, b, w = fit(samples)
    assert a > 0
    assert b[("morning", "x", 0)] > b[("morning", "y", 0)]
    assert agreement(samples, lambda v, k, x: a * v + b[k]) == 1.0
    assert agreement(samples, lambda v, k, x: v) == 0.5  # the judgement alone misses the search's x
    offsets = table(samples, a, b, w)
    assert offsets["morning"]["x"]["stage"][0] > 0 > offsets["morning"]["y"]["stage"][0]


def test_the_fit_learns_how_the_position_turns_the_search_and_agrees_with_it_more():
    """The search takes x with a full reserve and y with an empty one; the judgement can't tell."""
    keys = [("midday", "x", 0), ("midday", "y", 0)]
    full = [Sample(values=[1.0, 1.0], keys=keys, shares=[0.9, 0.1], chosen=0, position=(1.0, 0.5, 0.0))] * 30
    empty = [Sample(values=[1.0, 1.0], keys=keys, shares=[0.1, 0.9], chosen=1, position=(0.0, 0.5, 0.0))] * 30
    a, b, w = fit(full + empty)
    assert w[("midday", "x")][0] > 0 > w[("midday", "y")][0]  # the reserve's weight
    assert abs(w[("midday", "x")][2]) < 1e-9  # nothing learned from a measure that never varied from 0
    score = lambda v, k, x: a * v + b[k] + sum(wj * xj for wj, xj in zip(w[k[:2]], x, strict=True))  # noqa: E731
    assert agreement(full + empty, score) == 1.0
    offsets = table(full + empty, a, b, w)
    assert offsets["midday"]["x"]["position"][0] > 0 > offsets["midday"]["y"]["position"][0]


def test_kinds_seen_too_seldom_keep_no_offset():
    a, b, w = fit(_samples(0.8, MIN_SEEN - 1))
    assert table(_samples(0.8, MIN_SEEN - 1), a, b, w) == {}


def test_a_decision_becomes_a_sample_of_the_choices_the_search_considered():
    st = position(players=1, pools={0: m("blue_circle", "yellow_circle")}, altar=ALTAR)
    s = sample(st, {"draw2": 30, "take.red_circle": 10}, "draw2")
    assert s is not None and abs(sum(s.shares) - 1.0) < 1e-9
    assert s.chosen >= 0 and s.shares[s.chosen] == 0.75
    assert all(step == "morning" and at == 0 for step, _, at in s.keys)
    assert s.position == distilled.position(st) == (2 / 9, 0.0, 0.0)
    assert sample(st, {"draw2": 5}, "draw2") is None  # settled at once: it says little
