"""Solo's evaluation at a cut fitted to how games end (rulesets/spellbook/ai/solo_value.py) and the
tool that fits it (bench/fit_solo_value.py): the measures read the position, the margin is the
fit's sum, the solo search evaluates with it and two-player play does not, and the fit finds
weights that explain the margins."""

from __future__ import annotations

import math
import random

import pytest

import bench.fit_solo_value as fitting
from bench.fit_solo_value import Chance, Fitted, HandMade, day_starts, r2, ridge, row, seed_ranges
from rulesets.core.ai import standing
from rulesets.spellbook.ai import KNOWLEDGE, solo_value
from rulesets.spellbook.ai.estimate import solo_lead
from rulesets.spellbook.ai.knowledge import SOLO_SCALE
from rulesets.spellbook.data import KIND_BY_ID
from rulesets.spellbook.scoring import familiar_points, seat_points

from .helpers import m, position


def test_the_data_file_weighs_every_measure_and_names_the_command_that_wrote_it():
    assert set(solo_value.FIT.weight) == set(solo_value.MEASURES) == set(solo_value.FIT.by_day)
    assert "bench.fit_solo_value --seed" in solo_value.PATH.read_text(encoding="utf-8")


def _midgame():
    st = position(players=1, pools={0: m("red_circle", "red_triangle", "red_square", "purple_circle",
                                          "purple_square", "blue_circle")},
                  fams={0: m("green_circle") * 5}, learned={0: {"transmutation": (4, KIND_BY_ID["blue_square"])}},
                  opp=m("black_circle", "black_triangle") * 3, bottom=m("white_circle") * 3)
    st.players[0].days = 6
    return st


def test_the_measures_read_the_position():
    st = _midgame()
    x = dict(zip(solo_value.MEASURES, solo_value.measures(st), strict=True))
    assert x["points"] == seat_points(st, 0) == 4 + familiar_points(5)  # Transmutação 4 scores 4
    counted, track = solo_lead(st)
    assert (x["lead"], x["track"]) == (counted - track, track)
    assert (x["days"], x["familiar"], x["familiar_points"], x["spells"], x["levels"], x["reserve"]) == \
        (6, 5, familiar_points(5), 1, 4, 6)
    # red 3 (level 3 paid for), purple 2 (near), blue 1 of the learned Transmutação
    assert (x["colour_most"], x["colour_held"], x["spells_paid"], x["spells_near"], x["learned_held"]) == \
        (3, 5, 1, 1, 1)


def test_the_margin_is_the_bias_and_each_measures_weight_changing_with_the_days():
    n = len(solo_value.MEASURES)
    weights, by_day = [0.0] * n, [0.0] * n
    weights[solo_value.MEASURES.index("points")] = 0.5
    by_day[solo_value.MEASURES.index("familiar")] = -0.25
    st = _midgame()
    expected = 1.0 + 0.5 * (4 + familiar_points(5)) - 0.25 * 5 * 6
    assert solo_value.margin(st, (1.0, weights, by_day)) == pytest.approx(expected)
    assert solo_value.margin(st) == solo_value.margin(st, solo_value.weights(solo_value.FIT))  # the data file's


def test_the_solo_search_evaluates_with_the_fitted_margin_and_two_players_do_not():
    st = _midgame()
    mean = solo_value.margin(st)
    assert KNOWLEDGE.evaluate(st) == pytest.approx(
        [0.85 * solo_value.win_chance(st, mean) + 0.15 * standing([mean], 4 * SOLO_SCALE, 0.0)[0]])
    two = position(players=2, fams={0: m("green_circle") * 5})
    assert len(KNOWLEDGE.evaluate(two)) == 2


def test_a_margin_behind_the_track_is_more_often_made_up_early_than_late():
    st = _midgame()
    assert solo_value.win_chance(st, 0.0) == pytest.approx(0.5)
    early = solo_value.win_chance(st, -3.0)
    st.players[0].days = 15
    late = solo_value.win_chance(st, -3.0)
    assert 0.0 < late < early < 0.5
    at_start, per_day = solo_value.FIT.spread.at_start, solo_value.FIT.spread.per_day
    sigma = max(solo_value.MIN_SPREAD, at_start + 15 * per_day)
    assert late == pytest.approx(0.5 * (1 + math.erf(-3.0 / (sigma * math.sqrt(2)))))


def test_the_spread_is_a_line_through_the_margins_distances_from_the_fit_by_day():
    # Margins 4 − 0.2·days away from a fit that predicts 0 everywhere, alternately above and below.
    n = len(solo_value.MEASURES)
    days = solo_value.MEASURES.index("days")
    samples = []
    for d in range(16):
        x = [0.0] * n
        x[days] = float(d)
        off = (4.0 - 0.2 * d) / math.sqrt(math.pi / 2)
        samples += [(1, x, off), (2, x, -off)]
    line = fitting.spread(samples, [0.0] * (1 + 2 * n), 1e-9)
    assert line == pytest.approx({"at_start": 4.0, "per_day": -0.2})


def test_the_fit_recovers_weights_that_explain_the_margins_exactly():
    n = len(solo_value.MEASURES)
    truth = [0.3 * ((i * 7) % 5) - 0.6 for i in range(1 + 2 * n)]
    xs = [[float((g * 13 + i * 5 + g * i) % 11) for i in range(n)] for g in range(200)]
    rows = [row(x) for x in xs]
    ys = [sum(w * v for w, v in zip(truth, r, strict=True)) for r in rows]
    fit = ridge(rows, ys, 1e-9)
    pred = [sum(w * v for w, v in zip(fit, r, strict=True)) for r in rows]
    assert r2(pred, ys) == pytest.approx(1.0, abs=1e-9)


def test_a_game_gives_one_position_per_day_each_with_the_margin_it_ended_on():
    samples = day_starts(9001, "facil", 3)
    days = [x[solo_value.MEASURES.index("days")] for _, x, _ in samples]
    assert days == list(range(len(days))) and len(days) >= 10
    assert len({(seed, margin) for seed, _, margin in samples}) == 1


def test_the_games_fitted_are_played_with_the_hand_made_evaluation():
    st = _midgame()
    counted, track = solo_lead(st)
    assert HandMade().evaluate(st) == pytest.approx(standing([counted], SOLO_SCALE, track))


def test_seeds_are_named_by_ranges():
    assert seed_ranges("7001-7003,7200-7201,9") == [7001, 7002, 7003, 7200, 7201, 9]


def test_the_second_round_evaluates_with_the_fit_it_is_given():
    st = _midgame()
    n = len(solo_value.MEASURES)
    fit = (2.0, [0.25] * n, [0.0] * n)
    assert Fitted(fit).evaluate(st) == pytest.approx(standing([solo_value.margin(st, fit)], SOLO_SCALE, 0.0))
    assert Fitted(fit).evaluate(st) != pytest.approx(KNOWLEDGE.evaluate(st))


POINTS = solo_value.MEASURES.index("points")


def _stand_in_games(monkeypatch, margin) -> list[tuple]:
    """Put stand-in games in place of fit_solo_value.day_starts: six positions of random measures
    by seed, each labelled with margin(seed, measures). Returns the list every game's arguments
    (seed, level, fit, spread) are appended to."""
    handed: list[tuple] = []

    def game(seed, level, difficulty, fit=None, spread=None):
        handed.append((seed, level, fit, spread))
        rng = random.Random(seed)
        xs = [[float(rng.randint(0, 9)) for _ in solo_value.MEASURES] for _ in range(6)]
        return [(seed, x, margin(seed, x)) for x in xs]

    monkeypatch.setattr(fitting, "day_starts", game)
    return handed


def _starmap(f, args):
    """The Pool's starmap, in process."""
    return [f(*a) for a in args]


def test_the_second_round_plays_its_seeds_with_the_first_rounds_fit(monkeypatch):
    # Stand-in games whose margin is twice their points: the first round's fit must find that,
    # and the second round's games must be handed it.
    handed = _stand_in_games(monkeypatch, lambda seed, x: 2.0 * x[POINTS])
    samples = fitting.play(_starmap, list(range(1, 13)), [21, 22], "medio", 3, 1e-9)
    assert [s for s, *_ in handed] == [*range(1, 13), 21, 22] and len(samples) == 14 * 6
    assert all(fit is None for s, _, fit, _ in handed if s < 20)
    bias, weight, by_day = handed[-1][2]
    assert weight[POINTS] == pytest.approx(2.0, abs=1e-6) and bias == pytest.approx(0.0, abs=1e-6)


def test_the_third_round_evaluates_as_the_search_does_with_the_fit_and_spread_it_is_given():
    st = _midgame()
    n = len(solo_value.MEASURES)
    fit = (2.0, [0.25] * n, [0.0] * n)
    wide = solo_value.Spread(at_start=9.0, per_day=0.0)
    mean = solo_value.margin(st, fit)
    expected = 0.85 * solo_value.win_chance(st, mean, wide) + 0.15 * standing([mean], 4 * SOLO_SCALE, 0.0)[0]
    assert Chance(fit, wide).evaluate(st) == pytest.approx([expected])
    # the spread it is handed, not the data file's: a narrower one makes the same margin surer
    narrow = solo_value.Spread(at_start=1.0, per_day=0.0)
    assert abs(Chance(fit, narrow).evaluate(st)[0] - 0.5) > abs(Chance(fit, wide).evaluate(st)[0] - 0.5)
    # with the data file's fit and spread it is exactly the search's evaluation
    assert Chance(solo_value.weights(solo_value.FIT), solo_value.FIT.spread).evaluate(st) == pytest.approx(
        KNOWLEDGE.evaluate(st))


def test_the_third_round_plays_its_level_with_the_first_two_rounds_fit_and_spread(monkeypatch):
    # Stand-in games whose margin is twice their points, give or take 1 by seed: the third round
    # must be played by its own level, handed the fit of both earlier rounds and their spread.
    handed = _stand_in_games(monkeypatch, lambda seed, x: 2.0 * x[POINTS] + (1.0 if seed % 2 else -1.0))
    samples = fitting.play(_starmap, list(range(1, 13)), list(range(21, 33)), "medio", 3, 1e-9,
                           [[41, 42]], "dificil")
    assert [s for s, *_ in handed] == [*range(1, 13), *range(21, 33), 41, 42] and len(samples) == 26 * 6
    assert {level for s, level, *_ in handed} == {"medio", "dificil"}
    assert all(level == "dificil" for s, level, *_ in handed if s > 40)
    assert all(spread is None for s, _, _, spread in handed if s < 40)
    _, _, (bias, weight, _), line = handed[-1]
    assert weight[POINTS] == pytest.approx(2.0, abs=0.05)
    # the spread of the first two rounds' margins about that fit, and not nothing: each lies near 1 from it
    both = samples[:24 * 6]
    assert line == solo_value.Spread(**fitting.spread(both, fitting.fitted(both, 1e-9), 1e-9))
    assert 0.5 < line.at_start < math.sqrt(math.pi / 2) + 0.1


def test_each_further_round_is_played_with_the_fit_and_spread_of_every_round_before(monkeypatch):
    # Stand-in games: the margin is twice the points in the first two rounds, three times in the
    # third's, four times in the fourth's. The fourth round (a second --own) must be handed the
    # fit of all three rounds before it (the third's positions included, not the first two's
    # alone) and their spread.
    handed = _stand_in_games(monkeypatch, lambda seed, x: (2.0 if seed < 40 else 3.0 if seed < 50 else 4.0) * x[POINTS])
    samples = fitting.play(_starmap, list(range(1, 13)), list(range(21, 33)), "medio", 3, 1e-9,
                           [list(range(41, 47)), [51, 52], [61]], "dificil")
    assert [s for s, *_ in handed] == [*range(1, 13), *range(21, 33), *range(41, 47), 51, 52, 61]
    assert len(samples) == 33 * 6
    by_seed = {s: (fit, line) for s, _, fit, line in handed}
    # the fourth round is handed the fit of the first three rounds' positions (seeds 1-46) and their spread
    three = samples[:30 * 6]
    so_far = fitting.fitted(three, 1e-9)
    assert by_seed[51][0] == fitting.split(so_far)
    assert by_seed[51][1] == solo_value.Spread(**fitting.spread(three, so_far, 1e-9))
    assert by_seed[51][0] != fitting.split(fitting.fitted(samples[:24 * 6], 1e-9)) == by_seed[41][0]
    # the fifth round's fit has seen the fourth's steeper margins too
    four = samples[:32 * 6]
    assert by_seed[61][0] == fitting.split(fitting.fitted(four, 1e-9)) != by_seed[51][0]
