"""What a finished game leaves behind, through `handle` alone: its record, the ratings (once per
game), the statistics and the lists of finished games; places, ties and who is rated."""

import pytest

from rulesets.core import FinalScore, RivalScore, SeatScore, msg
from tests.tables.harness import ANA, BIA, CAIO, GROUP, World
from workers.tables import ratings

GAME = "toy"


def finish_toy(world: World, users: list[int], seed: int = 3, leave: int | None = None, game: str = GAME) -> dict:
    world.open_lobby(game, users)
    world.press(ANA, GROUP, "Começar")
    if leave is not None:
        world.say(leave, GROUP, "/sair")
    world.play_out([u for u in users if u != leave], seed=seed, avoid="Pular esta fase")
    table = world.table()
    assert table["status"] == "over"
    return world.dir.records[table["id"]]


def finished_results(world: World) -> list:
    return [r.finished for r in world.results if r.finished is not None]


def test_a_finished_game_rates_every_seat_once_in_the_group_and_overall(world):
    record = finish_toy(world, [ANA, BIA])
    done = finished_results(world)
    assert len(done) == 1
    scopes = {(u.scope, u.entity) for u in done[0].ratings}
    assert scopes == {(s, e) for s in ("g-1000", "all") for e in ("u101", "u102")}
    assert all(u.rev == 0 and u.games == 1 for u in done[0].ratings)
    winner = next(s for s in record["seats"] if s["place"] == 1)
    loser = next(s for s in record["seats"] if s["place"] == 2)
    assert winner["change"] > 0 > loser["change"]
    group = dict(world.dir.top(GAME, "g-1000", 10))
    assert group[winner["entity"]]["wins"] == 1 and group[loser["entity"]]["wins"] == 0
    assert world.dir.place(GAME, "all", winner["entity"]) == (1, 2)
    # the lists and the statistics
    assert world.dir.finished("u101", 0, 10) == ([record["id"]], 1)
    assert world.dir.finished("g-1000", 0, 10) == ([record["id"]], 1)
    stats = world.dir.stats(GAME, "u101")
    assert stats["games"] == 1 and stats["moves"] >= 1 and "best" in stats


def test_a_second_game_starts_from_the_first_games_ratings(world):
    finish_toy(world, [ANA, BIA], seed=3)
    finish_toy(world, [ANA, BIA], seed=4)
    second = finished_results(world)[1]
    assert all(u.rev == 1 and u.games == 2 for u in second.ratings)
    assert world.dir.finished("u102", 0, 10)[1] == 2
    assert world.dir.stats(GAME, "u102")["games"] == 2


def test_the_end_of_game_command_delivered_again_changes_nothing(world):
    finish_toy(world, [ANA, BIA])
    last = next(i for i, r in enumerate(world.results) if r.finished is not None)
    ratings_before = {k: dict(v) for k, v in world.dir.rating.items()}
    # the same update again (Telegram's redelivery, a task run twice): the table has seen it
    final_command = world.last_command(last)
    again = world.run(final_command)
    assert again.finished is None and again.table is None
    assert world.dir.rating == ratings_before
    assert world.dir.stats(GAME, "u101")["games"] == 1


def test_a_player_who_left_is_placed_last_and_still_rated(world):
    record = finish_toy(world, [ANA, BIA, CAIO], leave=CAIO, game="spellbook")
    caio = next(s for s in record["seats"] if s["user_id"] == CAIO)
    stayed = [s["place"] for s in record["seats"] if s["user_id"] != CAIO]
    assert caio["left"] and caio["place"] > max(stayed) and not caio["won"] and caio["change"] < 0
    done = finished_results(world)[0]
    assert {u.entity for u in done.ratings} == {"u101", "u102", "u103"}
    assert {s.entity for s in done.stats} == {"u101", "u102"}  # statistics: the games people played through


def test_when_everyone_but_one_left_the_one_who_stayed_wins_the_rating(world):
    record = finish_toy(world, [ANA, BIA], leave=BIA)
    ana = next(s for s in record["seats"] if s["user_id"] == ANA)
    assert record["rated"] and ana["place"] == 1 and ana["change"] > 0


def test_a_cancelled_game_leaves_nothing(world):
    world.open_lobby(GAME, [ANA, BIA])
    world.press(ANA, GROUP, "Começar")
    world.say(ANA, GROUP, "/cancelar")
    world.press(ANA, GROUP, "Sim, cancelar")
    assert world.table()["status"] == "cancelled"
    assert finished_results(world) == [] and world.dir.rating == {} and world.dir.records == {}


def test_a_bot_seat_is_rated_as_its_level_and_the_game_is_marked(world):
    world.open_lobby(GAME, [ANA])
    world.press(ANA, GROUP, "🤖 + Bot")
    world.press(ANA, GROUP, "🤖 + Bot Médio")
    world.press(ANA, GROUP, "Começar")
    table = world.table()
    world.play_out([ANA], seed=3)
    record = world.dir.records[table["id"]]
    assert record["with_bots"] and record["seats"][1]["entity"] == "bot:medio"
    assert ("toy", "all", "bot:medio") in world.dir.rating
    assert finished_results(world)[0].users == [ANA]  # a bot has no list of its own
    assert {s.entity for s in finished_results(world)[0].stats} == {"u101"}


def test_a_solo_game_is_kept_but_not_rated(world):
    world.open_lobby("spellbook", [ANA])
    world.press(ANA, GROUP, "Começar")
    world.play_out([ANA], seed=4, avoid="Pular esta fase")
    record = world.dir.records[world.table()["id"]]
    assert not record["rated"] and record["seats"][0]["rating"] is None
    assert world.dir.rating == {} and world.dir.stats("spellbook", "u101")["games"] == 1


def _score(*totals: int, winners: list[int]) -> FinalScore:
    return FinalScore(seats=[SeatScore(seat=i, total=t, lines=[]) for i, t in enumerate(totals)], winners=winners,
                      end_reason="test")


def test_places_share_ties_and_put_who_left_last():
    assert ratings.places(_score(10, 20, 20, 5, winners=[1, 2]), [False] * 4) == [2, 1, 1, 3]
    assert ratings.places(_score(30, 20, 20, winners=[0]), [False, False, False]) == [1, 2, 2]
    assert ratings.places(_score(30, 20, 10, winners=[0]), [True, False, True]) == [2, 1, 2]


@pytest.mark.parametrize("player,rival,place", [(30, 37, 2), (37, 37, 1), (41, 37, 1)])
def test_the_solo_opponent_takes_first_place_when_it_scored_more(player, rival, place):
    score = _score(player, winners=[0] if player > rival else [])
    score.rivals = [RivalScore(label=msg("spellbook.score.opponent"), total=rival, lines=[])]
    assert ratings.places(score, [False]) == [place]


def test_a_shared_place_is_shared_by_the_model():
    a, b = ratings.rate([ratings.Rating(), ratings.Rating()], [1, 1], [True, True])
    assert a.mu == b.mu == ratings.MODEL.mu and a.sigma < ratings.MODEL.sigma and a.wins == 1

