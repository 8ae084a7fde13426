"""The whole system for end-to-end tests, in its two real modes.

`distributed(...)`: the emulator (in this process, its own port), the webhook app served by
uvicorn (this process, another port), and a SEPARATE Celery worker process plus a separate
beat process, all against the Redis at REDIS_URL with a key prefix of their own; with
`ai_pool=True` the AI's queue has a worker process of its own, as in production (compose.yaml).

`embedded(...)`: `boardgamesbot local --port P --no-browser` as a subprocess — its own
embedded store, emulator, webhook, worker and beat — driven through its control API.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field

import redis
import uvicorn

from boardgamesbot.commands.local import free_port, start_worker, stop_processes, wait_http, worker_env

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@dataclass
class Stack:
    control: object
    base_url: str
    users: list[int]
    group: int
    redis: redis.Redis | None = None
    prefix: str = ""
    env: dict = field(default_factory=dict)
    procs: list = field(default_factory=list)
    log_path: str = ""
    worker_metrics_url: str = ""

    def counters(self) -> dict[str, int]:
        if self.redis is None:
            return {}
        return {k: int(float(v)) for k, v in self.redis.hgetall(f"{self.prefix}m:c").items()}

    def latencies(self) -> list[float]:
        if self.redis is None:
            return []
        return sorted(float(x) for x in self.redis.lrange(f"{self.prefix}m:lat", 0, -1))

    ai_pool: bool = False  # the AI's queue has a worker of its own (else the worker consumes both queues)
    ai_index: int | None = None  # where that worker is in `procs`, once started

    def restart_worker(self) -> None:
        consume = ("tasks",) if self.ai_pool else ("tasks", "ai")
        self.procs[0] = start_worker(self.env, beat="none", pool="prefork", concurrency=2,
                                     log_file=open(self.log_path, "ab"), consume=consume)[0]  # noqa: SIM115

    def start_ai_worker(self) -> None:
        """The AI queue's own worker (prefork, one child per core): started, or started again."""
        proc = start_worker(self.env, beat="none", pool="prefork", concurrency=2, consume=("ai",),
                            log_file=open(self.log_path, "ab"))[0]  # noqa: SIM115
        if self.ai_index is None:
            self.ai_index = len(self.procs)
            self.procs.append(proc)
        else:
            self.procs[self.ai_index] = proc


def _people(control, n: int = 3) -> tuple[list[int], int]:
    users = []
    for name in ("Ana", "Bruno", "Carla")[:n]:
        uid = control.create_user(name, language_code="pt-br")
        control.send(uid, uid, "/start")
        users.append(uid)
    return users, control.create_group("Mesa de Teste", users)


@contextlib.contextmanager
def distributed(redis_url: str, tmp_path, rates: dict[str, str] | None = None, limits=None, ai_pool: bool = False,
                start_ai: bool = True, extra_env: dict[str, str] | None = None):
    """`extra_env`: more of the worker's environment (a test's own BGB_HANDLER, say)."""
    from bot import create_app
    from bot.setup import register
    from emulator import EmulatorConfig, EmulatorServer, Limits
    from workers.celery_app import sender_for
    from workers.config import Settings
    from workers.telegram_api import BotApi

    prefix = f"e2e{uuid.uuid4().hex[:8]}:"
    emu = EmulatorServer(EmulatorConfig(limits=limits or Limits())).start()
    secret = secrets.token_urlsafe(16)
    port, metrics_port = free_port(), free_port()
    env = worker_env(REDIS_URL=redis_url, BGB_PREFIX=prefix, BGB_METRICS_PORT=str(metrics_port),
                     TELEGRAM_BOT_TOKEN=emu.token,
                     BOT_API_BASE_URL=emu.base_url, WEBHOOK_SECRET=secret, BGB_LEASE_MS="3000",
                     BGB_SCAN_INTERVAL="1", BGB_LOG_LEVEL=os.environ.get("BGB_TEST_LOG_LEVEL", "INFO"), **(rates or {}),
                     **(extra_env or {}))
    extra = rates or {}  # the in-process webhook takes the admission bucket from them too
    settings = Settings(redis_url=redis_url, prefix=prefix, token=emu.token, api_base_url=emu.base_url,
                        webhook_secret=secret, flood_burst=int(extra.get("BGB_FLOOD_BURST", 10)),
                        flood_rate=float(extra.get("BGB_FLOOD_RATE", 3)))
    app = create_app(settings, with_admin=True, enqueue=sender_for(settings))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    log_path = str(tmp_path / "worker.log")
    consume = ("tasks",) if ai_pool else ("tasks", "ai")
    procs = start_worker(env, beat="separate", pool="prefork", concurrency=2, log_file=open(log_path, "ab"),  # noqa: SIM115
                         consume=consume)
    r = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        wait_http(f"http://127.0.0.1:{port}/healthz")
        for res in register(BotApi(emu.base_url, emu.token), f"http://127.0.0.1:{port}/webhook", secret):
            assert res.ok, res.description
        users, group = _people(emu.control)
        stack = Stack(emu.control, emu.base_url, users, group, r, prefix, env, procs, log_path,
                      f"http://127.0.0.1:{metrics_port}/metrics")
        stack.ai_pool = ai_pool
        if ai_pool and start_ai:
            stack.start_ai_worker()
        _wait_greeted(stack)
        yield stack
    finally:
        stop_processes(procs)
        server.should_exit = True
        thread.join(timeout=10)
        emu.stop()
        for key in r.scan_iter(match=f"{prefix}*", count=1000):
            r.delete(key)
        r.close()


@contextlib.contextmanager
def embedded(tmp_path, rates: dict[str, str] | None = None, limits: dict[str, str] | None = None):
    from emulator import ControlClient

    port = free_port()
    env = worker_env(BGB_LOG_LEVEL=os.environ.get("BGB_TEST_LOG_LEVEL", "WARNING"), **(rates or {}))
    env.pop("REDIS_URL", None)
    log = open(tmp_path / "local.log", "ab")  # noqa: SIM115
    proc = subprocess.Popen([sys.executable, "-m", "boardgamesbot", "local", "--port", str(port), "--no-browser"],
                            env=env, cwd=ROOT, stdout=log, stderr=log, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(f"{base}/_emulator/stats", timeout=30)
        control = ControlClient(base)
        if limits:
            control.limits(**limits)
        # The demo: three users who sent /start, and the group "Mesa de Teste".
        from bench.driver import wait_for

        chats = wait_for(lambda: [c for c in control._call("GET", "chats")["chats"]
                                  if c["type"] == "group" and c["title"] == "Mesa de Teste"], 30, "the demo group")
        group = chats[0]["chat_id"]
        users = chats[0]["member_ids"]
        stack = Stack(control, base, users, group, log_path=str(tmp_path / "local.log"))
        _wait_greeted(stack)
        yield stack
    finally:
        stop_processes([proc])


def _wait_greeted(stack: Stack, timeout: float = 60) -> None:
    """Every user's /start was answered: the webhook, the worker and the outbox are all up."""
    from bench.driver import wait_for

    for uid in stack.users:
        wait_for(lambda u=uid: any(m["from_bot"] for m in stack.control.messages(u)), timeout,
                 f"the bot's answer to /start from {uid}", interval=0.1)


def redis_url_or_skip() -> str:
    import pytest

    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.RedisError as exc:
        pytest.skip(f"no Redis server at REDIS_URL={url} ({exc}); the distributed end-to-end tests need one")
    return url


def elapsed(since: float) -> float:
    return time.monotonic() - since
