"""Drill: the Celery worker killed with -9 at random moments, 50 times, while three Spellbook
games are being played (distributed mode: a real Redis, the webhook and the beat in their
own processes). Afterwards every game has finished, every move the bot acknowledged is in
its game's log exactly once, every queued command was handled exactly once, and every saved
match replays to the same state."""

from __future__ import annotations

import asyncio
import random
import signal
import threading
import time

import pytest

from bench import driver
from boardgamesbot.commands.local import stop_processes
from tests.drills import common

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(900)]

KILLS = 50


def test_kill_9_the_worker_50_times_during_games(tmp_path, drill_report):
    rng = random.Random(50)
    kills: list[float] = []
    with common.stack(tmp_path) as st:
        live, games = common.start_games(st, 3)
        stop = threading.Event()

        def killer():
            while len(kills) < KILLS and not stop.is_set():
                # somewhere in the middle of the work: the worker is up and handling presses
                time.sleep(rng.uniform(0.8, 2.0))
                stop_processes([st.procs[0]], sig=signal.SIGKILL)
                kills.append(time.monotonic())
                st.restart_worker()

        thread = threading.Thread(target=killer, daemon=True)
        thread.start()
        # Players press quickly (0.05-0.3 s to think) so that kills land among running presses.
        future = asyncio.run_coroutine_threadsafe(live.play(games, 600, (0.05, 0.3), seed=9, to_the_end=True),
                                                  st.loop)
        driver.wait_for(lambda: len(kills) >= KILLS or future.done(), 600, "50 kills", interval=0.5)
        stop.set()
        thread.join(timeout=30)
        future.result(600)
        counters = common.settled_exactly_once(st)
        acked = sum(g.acked for g in games)
        unanswered = sum(g.unanswered for g in games)
        logged = {g.table_id: common.moves_in_log(st, g.table_id) for g in games}
        assert len(kills) >= KILLS
        assert all(g.over for g in games), [(g.table_id, g.acked) for g in games]
        for g in games:
            # Acknowledged => applied; a press whose answer died with the worker may be applied
            # without an answer; none is applied twice (the counter moves in the same commit).
            assert g.acked <= logged[g.table_id] <= g.acked + g.unanswered, (g.table_id, g.acked, g.unanswered,
                                                                              logged[g.table_id])
            assert common.replays(st, g.table_id)
        assert counters["moves_applied"] == sum(logged.values())
        drill_report(f"kill -9: {len(kills)} worker kills during 3 games; {acked} moves acknowledged, "
                     f"{unanswered} presses unanswered (worker died before answering), "
                     f"{sum(logged.values())} moves in the logs; {counters['commands']} commands handled once each; "
                     f"lost 0, doubled 0, games finished 3/3")
