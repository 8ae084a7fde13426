"""Many scripted games at once, played on the emulator's own event loop.

`bench/driver.py` polls the control API, which is right for one game in a test but would
cost more than the system under test with hundreds of games. Here each game is a coroutine
on the emulator's loop: it reads the emulator's chats directly, presses a button by queueing
a callback query exactly as the control API's `POST /_emulator/callbacks` does, and is woken
by the emulator's own bookkeeping of Bot API calls (`World.record`), so a delivery is timed
the moment the emulator stores it.

Each game is played by one scripted person at a time: find the player with a new prompt,
think, press a random choice (never "undo"), and time press -> the next message delivered to
a player's private chat for that game (the mover's next prompt, or their note and the next
player's new prompt: whichever comes first).
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from dataclasses import dataclass, field

from bench import driver
from bench.driver import aside_buttons, final_scores_marker

DELIVERIES = {"sendMessage", "sendPhoto", "editMessageText", "editMessageCaption", "editMessageMedia",
              "editMessageReplyMarkup"}


@dataclass
class LiveGame:
    table_id: str
    group: int
    users: list[int]
    acked: int = 0  # presses answered silently: moves the bot acknowledged
    refused: int = 0  # presses answered with a refusal (stale, not yours, ...)
    unanswered: int = 0  # presses with no answer within the wait
    latencies: list[float] = field(default_factory=list)
    over: bool = False
    last_fp: dict[int, tuple] = field(default_factory=dict)
    pressed_version: dict[int, int] = field(default_factory=dict)  # user -> version of their last press
    pressed_at: float | None = None
    query: str = ""  # the callback query id of the press being timed
    event: asyncio.Event | None = None


class Live:
    """Installed on a stack's emulator: `await live.play(games, seconds, think)`."""

    def __init__(self, world) -> None:
        self.world = world
        self.watch: dict[int, LiveGame] = {}  # private chat -> its game
        self.deliveries: list[tuple[float, str, int]] = []  # (time, method, chat) of watched chats
        self.record_all = False
        # per press (callback query id): wall-clock "pressed", "answered", "delivered" (bench/anatomy.py)
        self.presses: dict[str, dict] = {}
        # deliveries to group chats while a window runs: chat -> monotonic times (busiest group)
        self.group_sends: dict[int, list[float]] = {}
        self.watch_groups = False
        # presses before this moment (monotonic) are played but not counted: a warm-up
        self.count_from = 0.0
        self._aside = aside_buttons()  # buttons that are not moves
        self._final = final_scores_marker()
        original = world.record

        def record(method: str, chat_id: int | None, error, reply: bool = False) -> None:
            original(method, chat_id, error, reply=reply)
            if error is None and method in DELIVERIES and chat_id is not None:
                now = time.monotonic()
                if self.record_all:
                    self.deliveries.append((now, method, chat_id))
                if self.watch_groups and chat_id < 0:
                    self.group_sends.setdefault(chat_id, []).append(now)
                game = self.watch.get(chat_id)
                if game is not None and game.pressed_at is not None:
                    if game.pressed_at >= self.count_from:
                        game.latencies.append(now - game.pressed_at)
                    game.pressed_at = None
                    timed = self.presses.get(game.query)
                    if timed is not None:
                        timed["delivered"] = time.time()
                    if game.event is not None:
                        game.event.set()

        world.record = record  # the instance attribute shadows the method

    # ---------------------------------------------------------------- reading
    def _prompt(self, game: LiveGame, uid: int):
        """The newest message with this table's buttons, unless it is older than the one the player
        last pressed (a person does not go back to an earlier turn's message: see driver.current_prompt)."""
        chat = self.world.chats.get(uid)
        if chat is None:
            return None, []
        for m in reversed(chat.messages.values()):
            if m.from_bot and not m.deleted:
                rows = (m.reply_markup or {}).get("inline_keyboard") or []
                buttons = [b for row in rows for b in row
                           if (b.get("callback_data") or "").startswith(f"{game.table_id}:")]
                if buttons:
                    if int(buttons[0]["callback_data"].split(":")[1]) < game.pressed_version.get(uid, -1):
                        return None, []
                    return m, buttons
        return None, []

    def _is_over(self, game: LiveGame) -> bool:
        chat = self.world.chats.get(game.group)
        if chat is None:
            return False
        for n, m in enumerate(reversed(chat.messages.values())):
            if n >= 6:
                break
            if m.from_bot and (m.text or "").startswith(self._final):
                return True
        return False

    # ---------------------------------------------------------------- acting
    async def press(self, chat_id: int, message, user_id: int, data: str, wait: float = 10.0,
                    query_id: str | None = None) -> dict:
        """What `POST /_emulator/callbacks` does, without the HTTP round trip."""
        from emulator.world import PendingCallback

        world = self.world
        query_id = query_id or str(secrets.randbits(63))
        future = asyncio.get_running_loop().create_future()
        world.callbacks[query_id] = PendingCallback(query_id, user_id, time.monotonic(), future)
        timed = self.presses[query_id] = {"pressed": time.time()}
        world.enqueue("callback_query", {
            "id": query_id, "from": world.users[user_id].to_api(), "message": world.message_api(message),
            "chat_instance": str(abs(chat_id) * 7919 + 17), "data": data})
        try:
            answer = await asyncio.wait_for(asyncio.shield(future), wait)
        except TimeoutError:
            return {"answered": False, "q": query_id}
        timed["answered"] = time.time()
        timed["moved"] = not driver.refused(answer)
        return {**answer, "q": query_id}

    async def _play_one(self, game: LiveGame, until: float, think: tuple[float, float], rng: random.Random,
                        to_the_end: bool) -> None:
        game.event = asyncio.Event()
        idle_since = time.monotonic()
        while (to_the_end or time.monotonic() < until) and time.monotonic() < until + (600 if to_the_end else 0):
            candidates = []
            for uid in game.users:
                m, buttons = self._prompt(game, uid)
                if m is None:
                    continue
                fp = (m.message_id, m.edit_count, tuple(b["callback_data"] for b in buttons))
                if game.last_fp.get(uid) != fp:
                    candidates.append((uid, m, buttons, fp))
            if not candidates:
                if self._is_over(game):
                    game.over = True
                    return
                if time.monotonic() - idle_since > 6:
                    game.last_fp.clear()  # nothing new for a while: press again (a refusal keeps the prompt)
                    idle_since = time.monotonic()
                game.event.clear()
                with _suppress_timeout():
                    await asyncio.wait_for(game.event.wait(), 0.5)
                continue
            uid, m, buttons, fp = rng.choice(candidates)
            choice = rng.choice([b for b in buttons if b["text"] not in self._aside] or buttons)
            pause = rng.uniform(*think)
            if pause:
                await asyncio.sleep(pause)
            if not to_the_end and time.monotonic() >= until:
                return
            game.event.clear()
            game.pressed_at = time.monotonic()
            counted = int(game.pressed_at >= self.count_from)
            game.query = str(secrets.randbits(63))
            answer = await self.press(uid, m, uid, choice["callback_data"], query_id=game.query)
            game.last_fp[uid] = fp
            game.pressed_version[uid] = int(choice["callback_data"].split(":")[1])
            idle_since = time.monotonic()
            if not answer.get("answered"):
                game.unanswered += counted
                game.pressed_at = None
            elif driver.refused(answer):
                game.refused += counted
                game.pressed_at = None
            else:
                game.acked += counted
                if game.pressed_at is not None:  # not delivered yet: wait for it (the latency is recorded)
                    with _suppress_timeout():
                        await asyncio.wait_for(game.event.wait(), 30)
                    game.pressed_at = None

    async def play(self, games: list[LiveGame], seconds: float, think: tuple[float, float], seed: int = 1,
                   to_the_end: bool = False) -> list[LiveGame]:
        for g in games:
            for uid in g.users:
                self.watch[uid] = g
        until = time.monotonic() + seconds
        rng = random.Random(seed)
        await asyncio.gather(*(self._play_one(g, until, think, random.Random(rng.random()), to_the_end)
                               for g in games))
        return games


class _suppress_timeout:
    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        return exc_type is not None and issubclass(exc_type, TimeoutError)
