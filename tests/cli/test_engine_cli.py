"""`boardgamesbot engine` and `boardgamesbot bench` on the core's toy game."""

import json

import pytest

from bench import engine as bench_engine
from boardgamesbot.cli import main

pytestmark = pytest.mark.usefixtures("toy_registered")


def test_simulate_json_prints_one_object_per_game(capsys):
    assert main(["engine", "simulate", "toy", "--players", "2", "--games", "3", "--seed", "10", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["seed"] for r in rows] == [10, 11, 12]
    for r in rows:
        assert set(r) >= {"game", "seed", "players", "scores", "winners", "actions", "end_reason", "state_hash"}
        assert r["players"] == 2 and len(r["scores"]) == 2 and r["actions"] > 0


def test_simulate_is_deterministic(capsys):
    main(["engine", "simulate", "toy", "--players", "2", "--games", "2", "--seed", "3", "--json"])
    first = capsys.readouterr().out
    main(["engine", "simulate", "toy", "--players", "2", "--games", "2", "--seed", "3", "--json"])
    assert capsys.readouterr().out == first


def test_new_prompts_apply_view_replay(tmp_path, capsys):
    path = tmp_path / "g.json"
    assert main(["engine", "new", "toy", "--players", "2", "--seed", "4", "-o", str(path)]) == 0
    assert main(["engine", "prompts", str(path)]) == 0
    assert "bid:1" in capsys.readouterr().out
    assert main(["engine", "apply", str(path), "0", "bid:2"]) == 0
    assert main(["engine", "apply", str(path), "0", "bid:2"]) == 2  # not your turn any more
    assert "Agora não é a sua vez." in capsys.readouterr().err
    assert main(["engine", "view", str(path), "--seat", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["bids"] == [None, None]  # seat 0's bid is hidden from seat 1
    assert main(["engine", "replay", str(path)]) == 0
    saved = json.loads(path.read_text())
    saved["log"][1]["choice"] = "bid:3"
    path.write_text(json.dumps(saved))
    assert main(["engine", "replay", str(path)]) == 1
    assert "REPLAY FAILED" in capsys.readouterr().err


def test_bench_measures_games_per_second():
    fig = bench_engine.measure("toy", "toy", {}, 2, budget_s=0.05)
    assert fig.games >= 3 and fig.games_per_second > 0 and fig.match_bytes > fig.state_bytes
    assert bench_engine.table([fig])[2].startswith("| toy | toy | 2 |")
