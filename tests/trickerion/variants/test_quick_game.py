"""The quick game (option quick_game): round 2 first, the deck's top card right of the setup cards,
+3 Fame, +1 Shard, +2 coins for a starting Assistant, 3 coins of components chosen after the free
Arquitetar, no initiative adjustment in its first round, the end after round 5."""

import json

import pytest

from boardgamesbot.cli import main
from rulesets.core import act, new_match, undo
from rulesets.core.match import can_undo
from rulesets.trickerion.data import BOARD

from ..harness import do, offered
from ..helpers import GAME
from .support import finish_quick_setup, rendered, start

QG = {"quick_game": True}
MAGES = ("M02", "M04", "M01", "M03")  # optical/Manager, mechanical/Assistant, escape/Engineer, spiritual/Manager


def _keys(events) -> list[str]:
    return [e.text.key for e in events]


def _passive(match, until) -> list:
    """Play without doing anything (done, end, pass; else the first choice) until `until(state)`."""
    events = []
    while not until(match.state):
        s = GAME.to_act(match.state)[0]
        choices = GAME.legal_choices(match.state, s)
        lazy = [c for c in ("pronto", "fim", "passar") if c in choices]
        match, evs = act(match, s, lazy[0] if lazy else choices[0], inplace=True)
        events += evs
    return events


def test_setup_bonuses_and_the_extra_card():
    m = start(QG, n=4, seed=7, magicians=MAGES)
    base = start({}, n=4, seed=7, magicians=MAGES)
    st, b = m.state, base.state
    assert st.round == 2 and st.phase == "round" and st.steps == {str(s): "rapido_comps" for s in range(4)}
    assert GAME.to_act(st) == [0, 1, 2, 3]  # everyone picks components at the same time
    assert b.round == 1 and b.phase == "advertise"
    assert st.order == b.order  # the initiative draw is the same: nothing random happened after it
    for s in range(4):
        p, q = st.p[s], b.p[s]
        assert p.fame == q.fame + 3 == 8 and p.shards == q.shards + 1 == 2
        assert p.coins == q.coins + (2 if s == 1 else 0)  # seat 1's starting specialist is the Assistant
    assert [c.id if c else None for c in st.row] == [*(c.id for c in b.row if c), b.deck[0], None]
    assert st.deck == b.deck[1:]


def test_components_worth_three_after_the_free_arquitetar():
    m = start(QG, n=4, seed=7, magicians=MAGES)
    for s in (0, 1):
        do(m, s, "qc:wood", "qc:wood", "qc:wood")
    p = m.state.p[2]  # escape, beginner: 2 Wood; the Engineer's Fuga do Tronco needs 2 Wood + 2 Metal
    assert GAME.to_act(m.state) == [2, 3] and p.tricks[1].t == "T26" and p.tricks[1].on == 0
    choices = GAME.legal_choices(m.state, 2)
    assert "qc:mirror" in choices and "qc:rope" in choices and "qc:wood" in choices
    do(m, 2, "qc:metal")
    choices = GAME.legal_choices(m.state, 2)
    assert "qc:mirror" not in choices and "qc:rope" in choices  # 2 coins of value left
    do(m, 2, "qc:metal", "qc:glass")
    assert p.comps == {"wood": 2, "metal": 2, "glass": 1}
    assert p.tricks[1].on == 0  # components met now, but the free Arquitetar was checked before
    assert GAME.to_act(m.state) == [3]
    do(m, 3, "qc:padlock")
    assert m.state.phase == "advertise" and m.state.round == 2


def test_each_players_last_pick_is_a_checkpoint_earlier_picks_can_be_undone():
    m = start(QG, n=2, seed=1)
    do(m, 0, "qc:glass")
    assert can_undo(m, 0)
    m, _ = undo(m, 0)
    assert m.state.p[0].start["qv"] == 3
    do(m, 0, "qc:rope", "qc:glass")
    assert not can_undo(m, 0) and GAME.to_act(m.state) == [1]


def test_the_full_workshop_limits_the_choices():
    m = start(QG, n=2, seed=1)
    p = m.state.p[0]
    p.comps = {"wood": 3, "metal": 3, "glass": 3, "fabric": 2}
    assert GAME.legal_choices(m.state, 0) == ["qc:fabric", "qc:rope", "qc:petroleum", "qc:saw", "qc:animal",
                                              "qc:padlock", "qc:mirror", "qc:disguise", "qc:cog"]
    do(m, 0, "qc:fabric")
    assert "qc:fabric" not in GAME.legal_choices(m.state, 0)


def test_chosen_setup_assistant_gets_two_coins_manager_does_not():
    m = new_match(GAME, {"quick_game": True}, 2, 3)
    do(m, 0, "m:M03")
    do(m, 1, "m:M01")
    do(m, 0, "t:T13", "c:glass", "c:wood", "e:assistant")
    do(m, 1, "t:T25", "c:rope", "e:manager", "c:wood", "c:wood")
    base = new_match(GAME, {}, 2, 3)
    do(base, 0, "m:M03")
    do(base, 1, "m:M01")
    do(base, 0, "t:T13", "c:glass", "c:wood", "e:assistant")
    do(base, 1, "t:T25", "c:rope", "e:manager", "c:wood", "c:wood")
    assert m.state.p[0].coins == base.state.p[0].coins + 2 and m.state.p[1].coins == base.state.p[1].coins
    assert m.state.p[0].tricks[0].on == 0  # 1 Glass: no free Arquitetar; the quick components come later
    do(m, 0, "qc:glass")
    assert m.state.p[0].tricks[0].on == 0


def test_no_initiative_adjustment_in_the_first_round_then_as_usual():
    m = start(QG, n=3, seed=4)
    events = []
    drawn = list(m.state.order)
    while m.state.phase == "round":
        s = GAME.to_act(m.state)[0]
        _, evs = act(m, s, GAME.legal_choices(m.state, s)[0], inplace=True)
        events += evs
    assert "trickerion.log.initiative_adjusted" not in _keys(events)
    assert m.state.order == drawn and m.state.phase == "advertise"
    events = _passive(m, lambda st: st.round == 3 and st.phase == "advertise")
    assert _keys(events).count("trickerion.log.initiative_adjusted") == 1
    fame = [m.state.p[s].fame for s in m.state.order]
    assert fame == sorted(fame)


def test_four_rounds_then_the_end_after_round_five():
    m = start(QG, n=2, seed=2)
    events = m.log[-1].events + _passive(m, GAME.is_over)
    rounds = [e.text.params["round"] for e in events if e.text.key == "trickerion.log.round"]
    assert rounds == [2, 3, 4, 5] and m.state.round == BOARD.rounds == 5
    assert "trickerion.log.quick_start" in [e.text.key for entry in m.log for e in entry.events]
    GAME.score(m.state)


def test_prompt_and_log_render_in_both_languages():
    m = start(QG, n=2, seed=1, magicians=("M04", "M02"))
    texts = rendered(m, 0)
    assert "Partida rápida: escolha Componentes extras" in texts and "Valor restante: 3" in texts
    assert "Espelho (valor 3)" in texts and "Mirror (worth 3)" in texts
    import locales

    for entry in m.log:
        for e in entry.events:
            for lang in locales.LANGUAGES:
                locales.render(e.text, lang)


def test_together_with_the_secret_workshop():
    m = start({"quick_game": True, "secret_workshop": True}, n=2, seed=5)
    assert m.state.modules == ["secret_workshop", "quick_game"] and m.state.round == 2
    finish_quick_setup(m)
    from ..harness import revelar

    revelar(m, {s: {"mag": "workshop"} for s in range(2)})
    s = m.state.turn
    assert "secret_workshop.0" in offered(m, s, "mag")


@pytest.mark.parametrize("options", [["secret_workshop=true"], ["quick_game=true"],
                                     ["secret_workshop=true", "quick_game=true"]])
def test_cli_simulate_with_the_options(capsys, options):
    args = ["engine", "simulate", "trickerion", "--players", "3", "--games", "2", "--seed", "11", "--json"]
    for o in options:
        args += ["--option", o]
    assert main(args) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == 2
    for r in rows:
        assert all(r["options"][o.split("=")[0]] is True for o in options) and len(r["scores"]) == 3
