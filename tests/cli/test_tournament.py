"""`boardgamesbot engine tournament` on the toy game (tiny budgets) and the tournament's sums."""

import json

import pytest

from boardgamesbot.cli import main
from rulesets.core import FinalScore, RivalScore, SeatScore, msg
from rulesets.core.ai import tournament as tour

pytestmark = pytest.mark.usefixtures("toy_registered")


def test_json_has_the_issue_shape_keyed_by_seat_kind(capsys):
    assert main(["engine", "tournament", "--game", "toy", "--seats", "dificil,random", "--games", "6",
                 "--seed", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"dificil", "random"}
    for row in out.values():
        assert {"seats", "wins", "win_rate", "ci95", "mean_margin", "decision_ms"} <= set(row)
        assert row["seats"] == 6 and set(row["decision_ms"]) == {"p50", "p95", "max"}
        lo, hi = row["ci95"]
        assert 0 <= lo <= row["win_rate"] <= hi <= 1
        assert row["capped"] == 0
    assert out["dificil"]["wins"] + out["random"]["wins"] == 6
    assert out["dificil"]["wins"] > out["random"]["wins"]  # it always bids 3: it rolls almost every round
    assert out["dificil"]["mean_margin"] == -out["random"]["mean_margin"]


def test_the_table_and_the_same_figures_for_the_same_seed(capsys):
    argv = ["engine", "tournament", "--game", "toy", "--seats", "medio,stand-in", "--games", "4", "--seed", "8"]
    assert main(argv) == 0
    first = capsys.readouterr()
    assert first.out.splitlines()[0].startswith("| seat kind | seats | wins |")
    assert "game 4/4 seed 11" in first.err
    assert main([*argv, "--json"]) == 0
    wins = {k: v["wins"] for k, v in json.loads(capsys.readouterr().out).items()}
    assert main([*argv, "--json"]) == 0
    assert {k: v["wins"] for k, v in json.loads(capsys.readouterr().out).items()} == wins


def test_bad_seats_are_refused(capsys):
    assert main(["engine", "tournament", "--game", "toy", "--seats", "medio,genius", "--games", "1"]) == 2
    assert "genius" in capsys.readouterr().err
    assert main(["engine", "tournament", "--game", "toy", "--seats", "medio", "--games", "1"]) == 2


def test_seats_rotate_through_the_positions():
    seen = []
    tour.tournament("toy", {}, ["facil", "random"], 4, 20, progress=lambda i, r: seen.append(r.kinds))
    assert seen == [["facil", "random"], ["random", "facil"]] * 2


def _score(totals, winners, rival=None):
    return FinalScore(seats=[SeatScore(seat=i, total=t, lines=[]) for i, t in enumerate(totals)],
                      winners=winners, end_reason="t",
                      rivals=[] if rival is None else [RivalScore(label=msg("core.yes"), total=rival, lines=[])])


def test_a_tie_shares_the_win_and_margins_count_against_the_best_other():
    stats = {"medio": tour.KindStats(), "facil": tour.KindStats()}
    tour.record_result(stats, ["medio", "facil", "facil"], 1, _score([20, 20, 15], [0, 1]))
    assert stats["medio"].wins == 0.5 and stats["facil"].wins == 0.5 and stats["facil"].seats == 2
    assert stats["medio"].margins == [0] and stats["facil"].margins == [0, -5]
    solo = {"dificil": tour.KindStats()}
    tour.record_result(solo, ["dificil"], 2, _score([30], [], rival=30))  # a solo tie: nobody wins
    tour.record_result(solo, ["dificil"], 3, _score([41], [0], rival=38))
    assert solo["dificil"].wins == 1 and solo["dificil"].margins == [0, 3]


def test_wilson_and_percentiles():
    lo, hi = tour.wilson(98, 100)
    assert 0.92 < lo < 0.95 and 0.99 < hi <= 1
    assert tour.wilson(0, 0) == (0.0, 1.0)
    assert tour.percentile([1, 2, 3, 4], 50) == 2.5 and tour.percentile([], 95) == 0.0
    assert tour.percentile(list(range(101)), 95) == 95
