"""The tool that corrects solo's fitted evaluation by the difference one choice makes
(bench/fit_solo_pairs.py): its pairs are two games one choice apart, measured at the same Day, and its
correction recovers what the games' differences ask of the fit."""

from __future__ import annotations

import random

import pytest

import bench.fit_solo_pairs as tool
from bench.fit_solo_value import row
from rulesets.core.ai.players import Decision
from rulesets.core.match import act, new_match
from rulesets.spellbook.ai import solo_value
from rulesets.spellbook.game import GAME

DAYS = solo_value.MEASURES.index("days")


def _first_choice(game, state, seat, kind, seed, budget=None, knowledge=None) -> Decision:
    """A cheap, deterministic player for the tool's games: the first legal choice."""
    return Decision(game.legal_choices(state, seat)[0])


def test_each_pair_is_two_games_one_choice_apart_measured_at_the_next_days_start(monkeypatch) -> None:
    monkeypatch.setattr(tool, "decide", _first_choice)
    found = tool.pairs(9001, "facil", 3)
    assert len(found) >= 5
    match = new_match(GAME, {"difficulty": 3}, 1, 9001)
    while not GAME.is_over(match.state):  # the game A's side is: every pair ends on its margin
        match, _ = act(match, 0, GAME.legal_choices(match.state, 0)[0], inplace=True)
    assert {p[3] for p in found} == {tool.final_margin(match)}
    for seed, after_a, after_b, _, _ in found:
        assert seed == 9001 and after_a[DAYS] == after_b[DAYS] >= 1
    assert any(p[1] != p[2] for p in found)  # the other choice led somewhere else


def test_the_correction_recovers_what_the_differences_ask_of_the_fit() -> None:
    n = len(solo_value.MEASURES)
    fit = solo_value.FITTED
    asked = [0.1 * ((i * 3) % 7) - 0.3 for i in range(2 * n)]  # the correction the games' differences carry
    asked[DAYS] = asked[n + DAYS] = 0.0  # two games measured at the same Day: the Days played never differ
    found, draw = [], random.Random(5)
    for g in range(300):
        xa = [float(draw.randint(0, 10)) for _ in range(n)]
        xb = [float(draw.randint(0, 10)) for _ in range(n)]
        xb[DAYS] = xa[DAYS]
        diff = [a - b for a, b in zip(row(xa)[1:], row(xb)[1:], strict=True)]
        games = sum(w * d for w, d in zip([*fit[1], *fit[2]], diff, strict=True)) + \
            sum(c * d for c, d in zip(asked, diff, strict=True))
        found.append((g, xa, xb, games, 0.0))
    got = tool.correct(found, 1e-9, fit)
    assert got == pytest.approx(asked, abs=1e-6)
    right, slope, decided = tool.agreement(found, tool.corrected(fit, got))
    assert (right, decided) == (1.0, 300) and slope == pytest.approx(1.0)


def test_agreement_counts_the_sign_where_the_games_differ() -> None:
    n = len(solo_value.MEASURES)
    weight = [0.0] * n
    weight[solo_value.MEASURES.index("points")] = 1.0
    fit = (0.0, weight, [0.0] * n)

    def pair(points_a: float, points_b: float, games: float):
        xa, xb = [0.0] * n, [0.0] * n
        xa[0], xb[0] = points_a, points_b
        return (1, xa, xb, games, 0.0)

    found = [pair(2, 1, 3.0), pair(1, 2, 1.0), pair(3, 1, 0.0)]  # right, wrong, undecided
    right, slope, decided = tool.agreement(found, fit)
    assert (right, decided) == (0.5, 2)
    assert slope == pytest.approx((1 * 3 - 1 * 1 + 2 * 0) / (1 + 1 + 4))


def test_the_corrected_fit_keeps_its_level_where_the_pairs_stand() -> None:
    n = len(solo_value.MEASURES)
    fit = solo_value.FITTED
    draw = random.Random(8)
    found = []
    for g in range(40):
        xa = [float(draw.randint(0, 10)) for _ in range(n)]
        xb = [float(draw.randint(0, 10)) for _ in range(n)]
        xa[DAYS] = xb[DAYS] = float(g % 17)
        found.append((g, xa, xb, 0.0, 0.0))
    correction = [0.05 * ((i * 5) % 3) for i in range(2 * n)]  # moves the level by itself
    loose, anchored = tool.corrected(fit, correction), tool.corrected(fit, correction, found)
    xs = [x for p in found for x in (p[1], p[2])]

    def mean(f) -> float:
        return sum(solo_value.margin_of(x, f) for x in xs) / len(xs)

    assert abs(mean(loose) - mean(fit)) > 1.0
    assert mean(anchored) == pytest.approx(mean(fit))
    for p in found:  # the differences the pairs ask for are the correction's, anchored or not
        assert tool.fitted_difference(p, anchored) == pytest.approx(tool.fitted_difference(p, loose))
