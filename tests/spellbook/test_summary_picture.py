"""Spellbook's pictures in solo: at the end of the game the opponent (no seat, a rival of the score) has a
band of its own in its place, so a game lost to it shows the player second and the opponent first, with its
gold edge, and the chart of points per round has its line beside the player's; during the game the table's
picture says what the opponent's points are made of."""

from __future__ import annotations

from functools import cache

import locales
from rulesets.core import Match, act, new_match
from rulesets.core.ai.players import decide
from rulesets.core.summary import Summary, SummarySeat, timeline
from rulesets.spellbook.game import GAME


@cache
def _solo() -> Match:
    match = new_match(GAME, {"difficulty": 3}, 1, 6)
    while not GAME.is_over(match.state):
        match, _ = act(match, 0, decide(GAME, match.state, 0, "stand-in", len(match.log)).choice)
    return match


def _summary(match: Match, rival_total: int | None = None, rank: int = 1) -> Summary:
    score = GAME.score(match.state)
    if rival_total is not None:
        score.rivals[0].total = rival_total
        score.winners = [0] if score.seats[0].total > rival_total else []
    line = timeline(GAME, match)
    return Summary(game="spellbook", score=score, rounds=line.rounds, start=line.start, start_rivals=line.start_rivals,
                   view=GAME.view(match.state, None), seats=[SummarySeat(seat=0, rank=rank)])


def _drawn(summary: Summary) -> tuple[bytes, list[tuple[str, dict]]]:
    said: list[tuple[str, dict]] = []

    def say(m):
        said.append((m.key, dict(m.params)))
        return locales.render(m, "pt_BR", ["Ana"])

    return GAME.summary_picture(summary, ["Ana"], say), said


def _places(said: list[tuple[str, dict]]) -> list[int]:
    return [params["place"] for key, params in said if key == "core.summary.place"]


def _bands(said: list[tuple[str, dict]]) -> list[str]:
    """The keys said from the first band on (the parts' colours are named before, in a fixed order)."""
    keys = [key for key, _ in said]
    return keys[keys.index("core.summary.place"):]


def test_a_solo_game_lost_to_the_opponent_shows_it_first_and_the_player_second():
    match = _solo()
    score = GAME.score(match.state)
    assert score.winners == [] and score.rivals[0].total > score.seats[0].total  # the stand-in lost
    for rank in (2, 1):  # the record's place (2 since the opponent counts), or an older record's 1
        png, said = _drawn(_summary(match, rank=rank))
        assert png.startswith(b"\x89PNG")
        assert _places(said) == [1, 2]  # the opponent's band first, then Ana's
        keys = _bands(said)
        assert keys.index("spellbook.score.opponent") < keys.index("spellbook.score.familiar")


def test_a_solo_game_won_shows_the_player_first_and_a_tie_shares_the_first_place():
    match = _solo()
    mine = GAME.score(match.state).seats[0].total
    won, said = _drawn(_summary(match, rival_total=mine - 1))
    assert _places(said) == [1, 2]
    keys = _bands(said)
    assert keys.index("spellbook.score.familiar") < keys.index("spellbook.score.opponent")
    lost, _ = _drawn(_summary(match, rank=2))
    assert won != lost
    _, said = _drawn(_summary(match, rival_total=mine))
    assert _places(said) == [1, 1]


def test_the_table_picture_says_where_the_opponents_points_come_from():
    match = new_match(GAME, {"difficulty": 3}, 1, 6)
    while len(match.state.opp) < 5:
        match, _ = act(match, 0, decide(GAME, match.state, 0, "stand-in", len(match.log)).choice)
    view = GAME.view(match.state, None)
    said: list = []

    def say(m):
        said.append(m)
        return locales.render(m, "pt_BR", ["Ana"])

    GAME.picture(view, ["Ana"], say)
    track, bottom = view["solo"]["track_points"], len(view["solo"]["bottom"])
    assert track > 0 and bottom == 3  # difficulty 3: three bag tokens in the bottom area at setup
    shown = [locales.render(m, "pt_BR", ["Ana"]) for m in said
             if m.key in ("spellbook.picture.opponent_points", "spellbook.points")]
    assert f"trilha {track} + parte de baixo {bottom}" in shown and f"{track + bottom} pts" in shown


def test_the_chart_follows_the_race_against_the_opponent_round_by_round():
    match = _solo()
    line = timeline(GAME, match)
    rival = GAME.score(match.state).rivals[0].total
    assert line.start_rivals == [3]  # difficulty 3: three bag tokens in the bottom area at setup
    assert all(len(r.rivals) == 1 for r in line.rounds) and line.rounds[-1].rivals == [rival]
    values = [r.rivals[0] for r in line.rounds]
    assert values == sorted(values) and values[0] < rival  # the track only grows
    _, said = _drawn(_summary(match))
    keys = [key for key, _ in said]
    chart = keys.index("core.summary.per_round")
    assert "spellbook.score.opponent" in keys[chart:]  # the opponent's line is named in the chart's legend
    # an older record kept no rival's rounds: the picture is drawn, without that line
    old = _summary(match)
    for r in old.rounds:
        r.rivals = []
    _, said = _drawn(old)
    keys = [key for key, _ in said]
    assert "spellbook.score.opponent" not in keys[keys.index("core.summary.final"):]


def test_two_players_have_no_rival_in_the_timeline():
    match = new_match(GAME, {}, 2, 3)
    while not GAME.is_over(match.state):
        seat = GAME.to_act(match.state)[0]
        match, _ = act(match, seat, decide(GAME, match.state, seat, "stand-in", len(match.log)).choice)
    line = timeline(GAME, match)
    assert line.start_rivals == [] and all(r.rivals == [] for r in line.rounds)
