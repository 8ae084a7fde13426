"""`boardgamesbot engine` on Spellbook: simulate with options, and a saved game played on."""

import json

from boardgamesbot.cli import main


def test_simulate_json_with_modes_and_solo_difficulty(capsys):
    assert main(["engine", "simulate", "spellbook", "--players", "1", "--games", "2", "--seed", "5",
                 "--option", "difficulty=2", "--option", "mode=set3", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == 2
    for r in rows:
        assert set(r) >= {"game", "seed", "players", "scores", "winners", "actions", "end_reason", "state_hash"}
        assert r["options"]["difficulty"] == 2 and r["options"]["mode"] == "set3"
        assert r["winners"] in ([], [0]) and r["end_reason"] in ("spells", "familiar", "track")
    assert main(["engine", "simulate", "spellbook", "--players", "4", "--games", "1", "--seed", "5",
                 "--option", "mode=custom", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert len(row["scores"]) == 4 and row["actions"] > 7  # the seven spell picks, then the game


def test_new_prompts_apply_view_replay(tmp_path, capsys):
    path = tmp_path / "g.json"
    assert main(["engine", "new", "spellbook", "--players", "2", "--seed", "4", "-o", str(path)]) == 0
    assert main(["engine", "prompts", str(path), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "draw2" in out and "Morning: choose your action" in out
    seat = json.loads(path.read_text())["state"]["cur"]
    assert main(["engine", "apply", str(path), str(seat), "draw2"]) == 0
    assert main(["engine", "view", str(path), "--json"]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["phase"] == "midday" and isinstance(view["bag"], int)
    assert main(["engine", "view", str(path)]) == 0
    assert "Altar" in capsys.readouterr().out
    assert main(["engine", "replay", str(path)]) == 0
