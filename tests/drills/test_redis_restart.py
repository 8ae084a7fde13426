"""Drill: the Redis server, configured like compose.yaml's (AOF, appendfsync everysec), is
restarted in the middle of two games (SIGTERM, as `docker compose restart` does, then started
again on the same data directory). Nothing the bot acknowledged is lost: every move answered
before, during or after the restart is in its game's log, the games go on, and every queued
command is handled exactly once.

The Celery worker may exit when its broker connection drops at an unlucky moment (kombu 5.7:
"Unrecoverable error: AttributeError: 'NoneType' object has no attribute 'hostname'" while
closing the channel); in production compose restarts it (`restart: unless-stopped`), so the
drill supervises the processes the same way and reports how often that was needed."""

from __future__ import annotations

import asyncio
import shutil
import signal
import subprocess
import time

import pytest
import redis

from bench import driver
from boardgamesbot.commands.local import free_port
from tests.drills import common

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def _redis_server(port: int, data_dir) -> subprocess.Popen:
    # compose.yaml: redis-server --appendonly yes --appendfsync everysec --save "300 1"
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", str(data_dir),
                             "--appendonly", "yes", "--appendfsync", "everysec", "--save", "300 1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    r = redis.Redis(port=port)
    driver.wait_for(lambda: _pings(r), 20, "redis-server to answer", interval=0.05)
    return proc


def _pings(r: redis.Redis) -> bool:
    try:
        return bool(r.ping())
    except redis.RedisError:
        return False


def test_a_redis_restart_mid_game_loses_nothing_acknowledged(tmp_path, drill_report):
    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server binary (CI installs it: .ci/run)")
    port = free_port()
    data = tmp_path / "redis-data"
    data.mkdir()
    server = _redis_server(port, data)
    try:
        with common.stack(tmp_path, url=f"redis://127.0.0.1:{port}/0") as st:
            live, games = common.start_games(st, 2)
            st.wait_quiet()
            supervisor = common.Supervisor(st).__enter__()
            future = asyncio.run_coroutine_threadsafe(live.play(games, 30, (0.05, 0.3), seed=7), st.loop)
            time.sleep(8)
            acked_before = sum(g.acked for g in games)
            server.send_signal(signal.SIGTERM)  # a graceful stop writes the AOF out
            server.wait(timeout=30)
            down = time.monotonic()
            time.sleep(1.0)
            server = _redis_server(port, data)
            downtime = time.monotonic() - down
            future.result(200)
            counters = common.settled_exactly_once(st, timeout=120)
            supervisor.__exit__()
            acked = sum(g.acked for g in games)
            unanswered = sum(g.unanswered for g in games)
            logged = {g.table_id: common.moves_in_log(st, g.table_id) for g in games}
            for g in games:
                assert g.acked <= logged[g.table_id] <= g.acked + g.unanswered, (g.acked, g.unanswered, logged)
                assert common.replays(st, g.table_id)
            assert acked > acked_before, "the games did not go on after the restart"
            assert counters["moves_applied"] == sum(logged.values())
            drill_report(f"redis restart: AOF everysec server restarted after {acked_before} acknowledged moves "
                         f"({downtime:.1f} s down); {acked} acknowledged in all, {unanswered} presses unanswered "
                         f"during the outage, {sum(logged.values())} in the logs: lost 0, doubled 0; processes "
                         f"restarted by the supervisor (as compose's restart policy): {supervisor.restarts}")
    finally:
        server.terminate()
        server.wait(timeout=30)
