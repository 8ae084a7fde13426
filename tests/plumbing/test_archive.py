"""What the end-of-game commit writes (workers/archive.py through workers/retention.py), against a
real Redis: the archived record, the lists, ratings guarded by their revision (two games ending at
once for one player both count), statistics; once per game whatever is redelivered or crashes."""

from __future__ import annotations

import time

import pytest

from workers.config import Settings
from workers.drain import Drainer
from workers.protocol import Command, Finished, RatingUpdate, Result, StatsUpdate
from workers.store import Store, decode_doc

pytestmark = pytest.mark.redis

GROUP = -1001
ANA = 7


def end_command(update_id: int, table_id: str) -> Command:
    return Command(update_id=update_id, kind="message", route=table_id, chat_id=GROUP, chat_type="group",
                   user_id=ANA, user_name="Ana", text="/end", received_at=time.time())


def push(store: Store, c: Command) -> None:
    store.r.rpush(store.k.inbox(c.route), c.model_dump_json())
    store.r.sadd(store.k.pending, c.route)


class Ending:
    """A table logic whose every command ends its game: Ana's rating goes up by one, read through the
    directory with its revision (as workers/tables/record.py does). `meanwhile` runs between the
    reads and the commit, once (another game ending at that very moment)."""

    def __init__(self) -> None:
        self.calls = 0
        self.meanwhile = None

    def __call__(self, table, cmd, directory, now) -> Result:
        self.calls += 1
        if table is not None and cmd.update_id in table.get("seen", []):
            return Result()
        old = directory.ratings("toy", "all", [f"u{ANA}"]).get(f"u{ANA}", {"mu": 25.0, "sigma": 8.0, "rev": 0,
                                                                         "games": 0, "wins": 0})
        if self.meanwhile is not None:
            hook, self.meanwhile = self.meanwhile, None
            hook()
        doc = {"id": cmd.route, "status": "over", "version": 2, "seen": [cmd.update_id]}
        update = RatingUpdate(game="toy", scope="all", entity=f"u{ANA}", mu=old["mu"] + 1, sigma=old["sigma"],
                              ordinal=old["mu"] + 1 - 3 * old["sigma"], games=old["games"] + 1, wins=old["wins"] + 1,
                              name="Ana", rev=old["rev"])
        stats = StatsUpdate(game="toy", entity=f"u{ANA}", add={"games": 1, "score": 10 + cmd.update_id},
                            best={"best": 10 + cmd.update_id})
        finished = Finished(table_id=cmd.route, game="toy", chat_id=GROUP, ended_at=now,
                            record={"id": cmd.route, "match": {"log": ["x"] * 3}}, users=[ANA],
                            ratings=[update], stats=[stats])
        return Result(table=doc, finished=finished)


@pytest.fixture
def ending():
    return Ending()


@pytest.fixture
def drainer(store, ending):
    return Drainer(store, ending)


def rating(store: Store) -> dict:
    return store.r.hgetall(store.k.rating("toy", "all", f"u{ANA}"))


def test_the_end_of_a_game_writes_its_record_lists_rating_and_statistics(store, drainer):
    push(store, end_command(1, "tab1"))
    drainer.drain("tab1")
    record = decode_doc(store.r.get(store.k.archive("tab1")))
    assert record == {"id": "tab1", "match": {"log": ["x", "x", "x"]}}
    days = store.s.archive_days * 24 * 3600
    assert days - 60 < store.r.ttl(store.k.archive("tab1")) <= days
    assert store.r.zrevrange(store.k.finished(f"u{ANA}"), 0, -1) == ["tab1"]
    assert store.r.zrevrange(store.k.finished(f"g{GROUP}"), 0, -1) == ["tab1"]
    assert rating(store)["rev"] == "1" and float(rating(store)["mu"]) == 26.0
    assert store.r.zscore(store.k.ranking("toy", "all"), f"u{ANA}") == pytest.approx(2.0)
    assert store.r.hgetall(store.k.stats("toy", f"u{ANA}")) == {"games": "1", "score": "11", "best": "11"}
    # the table logic reads it all back through the directory
    from workers.store import RedisDirectory

    directory = RedisDirectory(store)
    assert directory.load_record("tab1")["id"] == "tab1"
    assert directory.finished(f"u{ANA}", 0, 10) == (["tab1"], 1)
    assert directory.place("toy", "all", f"u{ANA}") == (1, 1)
    assert directory.top("toy", "all", 5)[0][0] == f"u{ANA}"
    assert directory.stats("toy", f"u{ANA}")["best"] == 11


def test_statistics_add_up_and_keep_the_best(store, drainer):
    for update_id, table_id in ((5, "tab1"), (2, "tab2")):
        push(store, end_command(update_id, table_id))
        drainer.drain(table_id)
    assert store.r.hgetall(store.k.stats("toy", f"u{ANA}")) == {"games": "2", "score": "27", "best": "15"}
    assert store.r.zrevrange(store.k.finished(f"u{ANA}"), 0, -1) == ["tab2", "tab1"]  # newest first


def test_lists_keep_only_the_newest_games(store, ending):
    drainer = Drainer(store, ending)
    store.s = Settings(**{**store.s.__dict__, "archive_list": 3})
    for i in range(5):
        push(store, end_command(10 + i, f"tab{i}"))
        drainer.drain(f"tab{i}")
    assert store.r.zrevrange(store.k.finished(f"u{ANA}"), 0, -1) == ["tab4", "tab3", "tab2"]


def test_an_end_of_game_command_queued_twice_is_applied_once(store, drainer):
    push(store, end_command(1, "tab1"))
    push(store, end_command(1, "tab1"))  # a redelivery that got past the webhook's seen-check
    drainer.drain("tab1")
    assert rating(store)["rev"] == "1" and store.r.hget(store.k.stats("toy", f"u{ANA}"), "games") == "1"


def test_two_games_ending_at_once_for_one_player_both_count(store, drainer, ending):
    # while tab1's end is being handled (ratings read), tab2's end is committed by another worker
    other = Drainer(store, Ending())
    push(store, end_command(2, "tab2"))
    ending.meanwhile = lambda: other.drain("tab2")
    push(store, end_command(1, "tab1"))
    drainer.drain("tab1")
    assert ending.calls == 2  # tab1's commit found the rating changed and handled its command again
    assert rating(store)["rev"] == "2" and float(rating(store)["mu"]) == 27.0 and rating(store)["games"] == "2"


def test_a_worker_that_dies_before_the_commit_leaves_nothing_and_the_retry_applies_it_once(store, ending):
    crashing = Drainer(store, ending)
    real = store.commit

    def die(plan):
        raise SystemExit("killed before the commit")

    store.commit = die
    push(store, end_command(1, "tab1"))
    with pytest.raises(SystemExit):
        crashing.drain("tab1")
    assert not store.r.exists(store.k.archive("tab1")) and rating(store) == {}
    store.commit = real
    store.r.delete(store.k.lease("tab1"))  # its lease would expire; a new worker takes the route
    Drainer(store, ending).drain("tab1")
    assert rating(store)["rev"] == "1"


def test_a_worker_that_dies_right_after_the_commit_is_not_applied_twice(store, ending):
    real = store.commit

    def commit_then_die(plan):
        real(plan)
        raise SystemExit("killed after the commit")

    store.commit = commit_then_die
    push(store, end_command(1, "tab1"))
    with pytest.raises(SystemExit):
        Drainer(store, ending).drain("tab1")
    store.commit = real
    store.r.delete(store.k.lease("tab1"))
    push(store, end_command(1, "tab1"))  # and Telegram delivers it once more for good measure
    Drainer(store, ending).drain("tab1")
    assert rating(store)["rev"] == "1" and store.r.hget(store.k.stats("toy", f"u{ANA}"), "games") == "1"
