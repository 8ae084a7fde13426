"""What a finished Trickerion game shows afterwards, read from the group's view: where each player's Fame
came from (ledger.py, checked against the log), the round and Fame (`Game.progress`: the summary's chart
matches what each round's summary told the group), the cards each one played with, and the end-of-game
picture's breakdown. Games are played by the fácil AI, which performs, links and pays wages as people do
(random play hardly ever reaches a performance)."""

from __future__ import annotations

import io
from collections import Counter
from functools import cache

import pytest
from PIL import Image

import locales
from rulesets.core import Match, act, new_match
from rulesets.core.ai.players import decide
from rulesets.core.summary import Summary, SummarySeat, positions, timeline
from rulesets.trickerion import ledger, standing
from rulesets.trickerion.picture.summary import FAME_LINE, breakdown
from tests.trickerion.helpers import GAME

BASE = ({}, {"quick_game": True}, {"secret_workshop": True})
ALLEY = {"dark_alley": True, "prophecies": True}


@cache
def ai_game(players: int, seed: int, options: tuple = ()) -> Match:
    match = new_match(GAME, dict(options), players, seed)
    while not GAME.is_over(match.state):
        seat = GAME.to_act(match.state)[0]
        match, _ = act(match, seat, decide(GAME, match.state, seat, "facil", seed).choice, inplace=True)
    return match


def game(players: int, seed: int, options: dict) -> Match:
    return ai_game(players, seed, tuple(sorted(options.items())))


def _fame_in_events(match: Match, key: str, param: str = "fame") -> Counter:
    out: Counter = Counter()
    for entry in match.log:
        for e in entry.events:
            if e.text.key == f"trickerion.log.{key}":
                out[e.text.params["player"].seat] += e.text.params[param]
    return out


@pytest.mark.parametrize("options", BASE)
@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
def test_in_the_base_game_every_point_of_fame_has_its_source_and_the_log_agrees(players, seed, options):
    match = game(players, seed, options)
    begun = False
    for _, state in positions(match):
        sources = ledger.sources(state)
        begun = begun or bool(sources)  # the first round began (the quick game's setup ends in round 2)
        if not begun:
            assert state.phase in (*standing.SETUP_PHASES, "round")
            continue
        assert [sum(s.values()) for s in sources] == [p.fame for p in state.p]
        assert all(s["other"] == 0 for s in sources), sources  # nothing but the named sources gives Fame
    final = GAME.view(match.state, None)["fame_from"]
    yields = _fame_in_events(match, "yield")
    set_up = _fame_in_events(match, "link_bonus")
    performed_links = _fame_in_events(match, "performer_bonus", "links")
    performer = _fame_in_events(match, "performer_bonus")
    advertised = Counter(e.text.params["player"].seat for entry in match.log for e in entry.events
                         if e.text.key == "trickerion.log.advertise")
    unpaid = _fame_in_events(match, "wages_short")
    for s, src in enumerate(final):
        assert src["start"] == (8 if options.get("quick_game") else 5)  # PT p.10; the quick game's +3
        assert src["advertise"] == 2 * advertised[s]
        assert src["yields"] == yields[s]
        # no module changes a bonus in these games: the performer's Fame is its links, card and Specialists
        assert src["links"] == set_up[s] + performed_links[s]
        assert src["links"] - set_up[s] + src["bonus"] == performer[s]
        assert src["wages"] == -unpaid[s]


def test_the_sources_are_exercised_by_these_games():
    """The checks above compare something: performances, links and unpaid wages do happen."""
    totals = Counter()
    for options in BASE:
        for players, seed in [(2, 1), (3, 2), (4, 3)]:
            for src in GAME.view(game(players, seed, options).state, None)["fame_from"]:
                totals.update({k: abs(v) for k, v in src.items()})
    assert all(totals[k] > 0 for k in ("advertise", "yields", "links", "bonus", "wages")), totals


def test_with_the_dark_alley_what_no_source_names_is_the_rest_and_it_all_adds_up():
    seen_other = False
    for seed in (1, 2):
        match = game(4, seed, ALLEY)
        final = GAME.view(match.state, None)
        for p, src in zip(final["players"], final["fame_from"], strict=True):
            assert sum(src.values()) == p["fame"] and src["start"] == 5
            assert min(src["advertise"], src["yields"], src["links"], src["bonus"]) >= 0 >= src["wages"]
            seen_other = seen_other or src["other"] != 0
        unpaid = _fame_in_events(match, "wages_short") + _fame_in_events(match, "da_talent_joins")
        assert [src["wages"] for src in final["fame_from"]] == [-unpaid[s] for s in range(4)]
    assert seen_other  # cards, powers and prophecies do give Fame in these games


def test_before_the_first_round_there_are_no_sources_yet():
    match = new_match(GAME, {}, 3, 4)
    assert GAME.view(match.state, None)["fame_from"] == []
    assert GAME.progress(GAME.view(match.state, None)).round == 0


@pytest.mark.parametrize("players,seed,options", [(3, 2, {}), (2, 1, {"quick_game": True}), (4, 1, ALLEY)])
def test_the_chart_shows_the_fame_each_round_summary_told_the_group(players, seed, options):
    match = game(players, seed, options)
    told: dict[int, list[int]] = {}
    current = 0
    for entry in match.log:
        for e in entry.events:
            if e.text.key == "trickerion.summary.title":
                current = e.text.params["round"]
                told[current] = [0] * players
            elif e.text.key == "trickerion.summary.player":
                told[current][e.text.params["player"].seat] = e.text.params["total"]
    line = timeline(GAME, match)
    rounds = [r for r in line.rounds if not r.final]
    last_round = 7 if options.get("dark_alley") else 5
    first = 2 if options.get("quick_game") else 1
    assert [r.round for r in rounds] == list(range(first, last_round))
    assert {r.round: r.points for r in rounds} == {k: v for k, v in told.items() if k < last_round}
    assert line.rounds[-1].final and line.rounds[-1].points == [s.total for s in GAME.score(match.state).seats]
    assert [r for r, _ in line.starts] == list(range(first, last_round + 1))
    assert line.start == [8 if options.get("quick_game") else 5] * players


def test_played_with_names_the_magician_the_tricks_and_the_specialists():
    match = game(3, 2, {})
    view = GAME.view(match.state, None)
    for s, p in enumerate(match.state.p):
        refs = GAME.played_with(view, s)
        assert refs[0] == f"magician:{p.magician}"
        assert {r for r in refs if r.startswith("trick:")} == {f"trick:{o.t}" for o in p.tricks}
        assert {r for r in refs if r.startswith("char:")} == {f"char:{c}" for c in p.specs}
        assert all(GAME.card(r) is not None for r in refs)
    assert GAME.played_with(view, 7) == []


def _summary(match: Match) -> Summary:
    score = GAME.score(match.state)
    line = timeline(GAME, match)
    ranks = sorted(score.seats, key=lambda s: -s.total)
    return Summary(game="trickerion", score=score, rounds=line.rounds, start=line.start,
                   view=GAME.view(match.state, None),
                   seats=[SummarySeat(seat=s.seat, rank=ranks.index(s) + 1, rating=1.5, change=-0.5)
                          for s in score.seats])


def test_the_picture_splits_the_fame_of_the_game_by_source_and_keeps_the_total():
    match = game(4, 1, ALLEY)
    view = GAME.view(match.state, None)
    for score in GAME.score(match.state).seats:
        shown = breakdown(score, view["fame_from"][score.seat])
        assert sum(line.points for line in shown.lines) == shown.total == score.total
        keys = [line.label.key for line in shown.lines]
        assert FAME_LINE + ".sum" not in keys and len(keys) == len(set(keys))  # level-3 bonuses summed once
        assert keys[0] == "trickerion.picture.final.start"
    # a view without sources (a game saved before the ledger) keeps the Fame of the game in one part
    score = GAME.score(match.state).seats[0]
    assert [line.label.key for line in breakdown(score, None).lines][0] == FAME_LINE + ".sum"


@pytest.mark.parametrize("lang", ["pt_BR", "en"])
@pytest.mark.parametrize("players,seed,options", [(2, 1, {"quick_game": True}), (4, 1, ALLEY)])
def test_the_summary_picture_is_drawn_in_both_languages(players, seed, options, lang):
    names = ["Ana", "Bruno", "Carla", "Dora"][:players]
    keys: list[str] = []

    def say(m):
        keys.append(m.key)
        return locales.render(m, lang, names)  # raises on a key the catalogue lacks

    png = GAME.summary_picture(_summary(game(players, seed, options)), names, say)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width == 860 and len(png) < 100_000
    assert "trickerion.picture.final.title" in keys and "trickerion.picture.final.per_round" in keys
    assert "trickerion.picture.final.yields" in keys and any(k.startswith("trickerion.magician.") for k in keys)
