"""Issue 17's "Done when", through the whole pipeline: games played in the emulator's chats, through the
webhook, a separate Celery worker and beat, and Redis, by scripted people pressing buttons.

- A Spellbook game (Ana, Bruno, Carla) whose end-of-game command kills the worker (kill -9 of its whole
  process group) before its commit, and, handled again by a new worker, is delivered a second time right
  after the commit; a Trickerion quick game (Ana and Eve, whose Telegram speaks English) whose worker is
  killed right after the commit that ends it. The faults come from tests/integration/end_faults.py, the
  worker's table logic here; a watcher restarts the worker as the kill drill does.
- After each game its players' ratings changed exactly once — in the group's scope and everyone's: one
  game, one save, the values openskill gives from the defaults for the places the record shows — as did
  their statistics and lists, and the group got one summary picture.
- /ranking, /estatisticas and /partidas answer in the group and in private, in Portuguese and, for Eve,
  in English.
- The replay of each game steps forward and back, and its last step is the saved final position: the
  same state (by hash) and the same picture, byte for byte, as the group's table at the end.
"""

from __future__ import annotations

import json
import threading
import time

import httpx
import pytest

import locales
from bench import driver
from rulesets.core import load_match, state_hash
from rulesets.registry import get_game
from tests.integration.lobby import open_table
from tests.integration.stack import distributed, redis_url_or_skip
from workers.store import decode_doc
from workers.tables import picture, ratings
from workers.tables import replay as replay_mod
from workers.tables.record import GameRecord

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(1500)]

FAST_RATES = {"BGB_RATE_CHAT": "20/1:5", "BGB_RATE_GROUP": "60/60:10", "BGB_FLOOD_BURST": "1000",
              "BGB_FLOOD_RATE": "1000"}
FAST_LIMITS = {"per_chat": "20/1", "per_group": "60/60"}


class WorkerWatch:
    """Restarts the worker whenever it dies (the faults kill it), counting the restarts."""

    def __init__(self, stack) -> None:
        self.stack, self.restarts = stack, 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        while not self.stop.is_set():
            if self.stack.procs[0].poll() is not None:
                self.stack.restart_worker()
                self.restarts += 1
            time.sleep(0.2)

    def __enter__(self) -> WorkerWatch:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(timeout=5)


def text_of(m: dict) -> str:
    return m.get("text") or m.get("caption") or ""


def bot_messages(control, chat: int) -> list[dict]:
    return [m for m in control.messages(chat) if m["from_bot"] and not m["deleted"]]


def button(m: dict, label: str) -> dict:
    found = [b for row in m.get("reply_markup") or [] for b in row if b.get("text") == label]
    assert found, (label, m.get("reply_markup"))
    return found[0]


def ask(control, chat: int, user: int, command: str, expect: str, timeout: float = 60) -> dict:
    """Send a command; the bot's next message in that chat containing `expect`."""
    before = len(control.messages(chat))
    control.send(chat, user, command)
    return driver.wait_for(lambda: next((m for m in control.messages(chat)[before:]
                                         if m["from_bot"] and expect in text_of(m)), None),
                           timeout, f"{expect!r} after {command}")


def photo(base_url: str, m: dict) -> bytes:
    return httpx.get(base_url + m["photo_url"], timeout=30).content


class Fingers:
    """The emulator's control client for scripted players, where a press on a message that was replaced
    just before (a prompt that became a photo: deleted and sent again) counts as a refused press, as a
    person's tap on a message that vanished under their finger would be."""

    def __init__(self, control) -> None:
        self.control = control

    def __getattr__(self, name: str):
        return getattr(self.control, name)

    def press(self, *args, **kw) -> dict:
        from emulator.server import ControlAPIError

        try:
            return self.control.press(*args, **kw)
        except ControlAPIError as exc:
            if exc.status != 409:
                raise
            return {"answered": True, "text": "(the message was replaced)"}


def play(stack, users: list[int], table_id: str, seed: int) -> None:
    marker = locales.text("tables.record.summary", "pt_BR").split("<b>")[1].split("{")[0]  # "Resumo da partida: "
    run = driver.play(Fingers(stack.control), stack.group, users, table_id,
                      lambda: driver.group_shows_final_scores(stack.control, stack.group)
                      and any(text_of(m).startswith("📊 " + marker) and table_id in json.dumps(m["reply_markup"])
                              for m in bot_messages(stack.control, stack.group)),
                      seed=seed, timeout=900, press_wait=3)
    assert run.finished, f"the game did not end: {run.presses} presses; last refusals {run.log[-5:]}"


def stored(stack, key: str) -> dict:
    return stack.redis.hgetall(f"{stack.prefix}{key}")


def record_of(stack, table_id: str) -> GameRecord:
    return GameRecord.model_validate(decode_doc(stack.redis.get(f"{stack.prefix}arch:{table_id}")))


def check_rated_once(stack, game: str, table_id: str, games_before: dict[int, int]) -> GameRecord:
    """Every player of the game: one more game in their list and statistics, and each rating of this game
    (the group's, everyone's) saved once, with the values one game from the defaults gives."""
    record = record_of(stack, table_id)
    place = [s.place for s in record.seats]
    won = [s.won for s in record.seats]
    expected = ratings.rate([ratings.Rating() for _ in record.seats], place, won)
    for seat, want in zip(record.seats, expected, strict=True):
        for scope in (ratings.group_scope(stack.group), ratings.EVERYONE):
            got = stored(stack, f"rt:{game}:{scope}:{seat.entity}")
            assert got["rev"] == "1" and got["games"] == "1", (scope, seat.name, got)
            assert abs(float(got["mu"]) - want.mu) < 1e-9 and abs(float(got["sigma"]) - want.sigma) < 1e-9
            assert got["wins"] == str(int(seat.won))
        assert abs(seat.rating - want.ordinal) < 1e-9 and abs(seat.change - want.ordinal) < 1e-9
        assert stored(stack, f"st:{game}:{seat.entity}")["games"] == "1"
        assert stack.redis.zcard(f"{stack.prefix}fin:{seat.entity}") == games_before.get(seat.user_id, 0) + 1
        assert stack.redis.zscore(f"{stack.prefix}fin:{seat.entity}", table_id) is not None
    summaries = [m for m in bot_messages(stack.control, stack.group)
                 if m["has_photo"] and table_id in json.dumps(m.get("reply_markup"))]
    assert len(summaries) == 1, "one summary picture per game"
    return record


def final_status(stack, lobby: int, drawn: bytes) -> dict:
    """The group's status message of the game whose lobby message is `lobby`, once it shows `drawn` (the
    table as the game ended). It rides the view lane, which waits while prompts use the bot's sending: for
    scripted players who press at once, the status may first appear only after the summary."""
    title = locales.text("tables.record.summary", "pt_BR").split("<b>")[1].split("{")[0]  # "Resumo da partida: "
    replay = locales.text("tables.replay.header", "pt_BR").split("<b>")[1].split("{")[0]  # "Reprise: "
    return driver.wait_for(lambda: next((m for m in bot_messages(stack.control, stack.group)
                                         if m["has_photo"] and m["message_id"] > lobby
                                         and title not in text_of(m) and replay not in text_of(m)
                                         and photo(stack.base_url, m) == drawn), None),
                           60, "the final status", interval=0.5)


def check_replay(stack, record: GameRecord, user: int, lobby: int) -> None:
    """Open the replay from the summary, go to its end, back one step and forward again: the last step
    is the saved final position, in state and in picture."""
    control, group = stack.control, stack.group
    summary = next(m for m in bot_messages(control, group)
                   if m["has_photo"] and record.id in json.dumps(m.get("reply_markup")))
    before = len(control.messages(group))
    opened = button(summary, locales.text("tables.button.replay", "pt_BR"))
    assert control.press(group, summary["message_id"], user, opened["callback_data"], wait=15).get("answered")
    header = locales.text("tables.replay.header", "pt_BR").split("<b>")[1].split("{")[0]  # "Reprise: "
    replay = driver.wait_for(lambda: next((m for m in control.messages(group)[before:]
                                           if m["from_bot"] and header in text_of(m)), None), 60, "the replay")
    stops = replay_mod.steps(load_match(record.match))

    def step(label: str, expect: str) -> dict:
        current = next(m for m in control.messages(group) if m["message_id"] == replay["message_id"])
        answer = control.press(group, current["message_id"], user, button(current, label)["callback_data"], wait=15)
        assert answer.get("answered") and not driver.refused(answer), answer
        return driver.wait_for(lambda: next((m for m in control.messages(group) if m["message_id"] == current[
            "message_id"] and m["edit_count"] > current["edit_count"] and expect in text_of(m)), None), 60, expect)

    final = step("⏭", locales.text("tables.replay.final", "pt_BR").split("<b>")[1].split("<")[0])
    game = get_game(record.game)
    saved = load_match(decode_doc(stack.redis.hget(f"{stack.prefix}table:{record.id}", "doc"))["match"])
    match = load_match(record.match)
    rebuilt = match.model_copy(update={"state": replay_mod.position(match, stops[-1])})
    assert state_hash(rebuilt) == state_hash(saved)
    names = [s.name for s in record.seats]
    drawn = picture.table(game, game.view(saved.state, None), names, "pt_BR")
    assert photo(stack.base_url, final) == drawn
    final_status(stack, lobby, drawn)  # the group's table as the game ended
    back = step("◀", f"{len(stops) - 1} de {len(stops)}")
    assert photo(stack.base_url, back) != drawn or len(stops) == 1
    again = step("▶", f"{len(stops)} de {len(stops)}")
    assert photo(stack.base_url, again) == drawn


def test_what_a_group_keeps_after_its_games_through_the_whole_pipeline(tmp_path):
    url = redis_url_or_skip()
    plan = tmp_path / "end-faults.json"
    plan.write_text("{}")
    env = {"BGB_HANDLER": "tests.integration.end_faults:handle", "BGB_TEST_END_FAULTS": str(plan)}
    from emulator import Limits

    with distributed(url, tmp_path, rates=FAST_RATES, limits=Limits().updated(FAST_LIMITS), extra_env=env) as stack, \
            WorkerWatch(stack) as watch:
        control, group = stack.control, stack.group
        ana, bruno, carla = stack.users
        eve = control.create_user("Eve", language_code="en")
        control.send(eve, eve, "/start")
        control._call("POST", f"groups/{group}/members", {"user_id": eve})
        driver.wait_for(lambda: bot_messages(control, eve), 30, "the bot's answer to Eve's /start")

        # Spellbook: the worker dies before the final commit; the new one's commit is delivered twice
        first, lobby = open_table(control, group, [ana, bruno, carla], "spellbook")
        plan.write_text(json.dumps({first: ["die-before", "twice"]}))
        play(stack, [ana, bruno, carla], first, seed=21)
        spellbook = check_rated_once(stack, "spellbook", first, {})
        faults = stored(stack, "test:faults")
        assert faults == {"die-before": "1", "twice": "1"} and watch.restarts == 1, (faults, watch.restarts)
        check_replay(stack, spellbook, carla, lobby)

        # Trickerion's quick game for two: the worker dies right after the final commit
        second, lobby = open_table(control, group, [ana, eve], "trickerion", ["trickerion.option.quick_game"])
        plan.write_text(json.dumps({second: ["die-after"]}))
        play(stack, [ana, eve], second, seed=22)
        trickerion = check_rated_once(stack, "trickerion", second, {ana: 1})
        assert stored(stack, "test:faults")["die-after"] == "1" and watch.restarts == 2
        assert trickerion.options.get("quick_game") is True
        assert [r.round for r in trickerion.rounds] == [2, 3, 4, 5] and trickerion.rounds[-1].final
        check_replay(stack, trickerion, eve, lobby)
        # nothing is left to handle, and nothing was handled twice
        driver.wait_for(lambda: not stack.redis.scard(f"{stack.prefix}pending"), 60, "every inbox drained")
        assert stack.redis.llen(f"{stack.prefix}inbox:{first}") == 0

        # the commands, in the group (Portuguese) and in private (Portuguese; English for Eve)
        ranking = ask(control, group, bruno, "/ranking", "Ranking do grupo: Trickerion")
        assert "Ranking do grupo: Spellbook" in text_of(ranking) and "Eve" in text_of(ranking)
        ask(control, group, carla, "/partidas", "Partidas do grupo")
        ask(control, ana, ana, "/ranking", "Seu ranking")
        stats = ask(control, ana, ana, "/estatisticas", "Estatísticas de Ana")
        assert "Spellbook" in text_of(stats) and "Trickerion" in text_of(stats)
        assert "Mágicos favoritos" in text_of(stats)
        mine = ask(control, ana, ana, "/partidas", "Suas partidas")
        assert text_of(mine).index("Trickerion") < text_of(mine).index("Spellbook")  # newest first
        assert "Trickerion: #" in text_of(ask(control, eve, eve, "/ranking", "Your ranking"))
        stats = ask(control, eve, eve, "/estatisticas", "Eve's statistics")
        assert "Favourite magicians" in text_of(stats) and "Fame during the game" in text_of(stats)
        games = ask(control, eve, eve, "/partidas", "Your games")
        assert "Trickerion" in text_of(games) and "Spellbook" not in text_of(games)

