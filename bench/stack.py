"""The whole system on this machine, in its two real modes, for benchmarks and drills.

Both modes run the emulator in THIS process (so the players' driver can sit on the
emulator's event loop and time deliveries where they happen, see bench/live.py):

- `embedded(...)`: composed exactly as `boardgamesbot local` composes it — the embedded
  store (fakeredis's TcpFakeServer, a subprocess of its own), the emulator and the webhook on
  one uvicorn server and one event loop, and one Celery worker subprocess with the beat
  embedded (threads pool, the defaults of `start_worker`).
- `distributed(...)`: a real Redis server (REDIS_URL's host on a database of its own, a key
  prefix of its own), the webhook as its own process (`boardgamesbot serve`), a Celery worker
  process (prefork, 2 children: this machine's cores) and a separate beat process; with
  `ai_pool=True` (bench/bots.py) the worker takes the tasks' queue only and the AI's queue has
  its own pool (prefork, 2, in the CPU's idle class, BGB_CPU_IDLE, as compose.yaml runs it).

Rates and emulator limits default to production's (Telegram's published limits).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import secrets
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import redis

from boardgamesbot.commands.local import free_port, start_worker, stop_processes, wait_http, worker_env
from boardgamesbot.embedded_store import EmbeddedRedis
from workers.heap import freeze_startup

ROOT = Path(__file__).resolve().parent.parent
BENCH_DB = int(os.environ.get("BGB_BENCH_REDIS_DB", "13"))


def bench_redis_url(db: int = BENCH_DB) -> str:
    """REDIS_URL (CI: 127.0.0.1:6379) on another database number, so a bench never mixes its
    keys with the tests' or production's."""
    parsed = urlparse(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    return urlunparse(parsed._replace(path=f"/{db}"))


def redis_available(url: str) -> str | None:
    """None if a Redis server answers at `url`, else why not."""
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.RedisError as exc:
        return str(exc)
    return None


@dataclass
class Stack:
    mode: str  # "embedded" | "distributed"
    app: object  # the emulator's Starlette app (its world and loop are in app.state)
    base_url: str
    control: object
    redis: redis.Redis
    prefix: str
    settings: object
    env: dict = field(default_factory=dict)
    procs: list = field(default_factory=list)  # the worker (first), then beat / webhook
    log_path: str = ""
    admin_url: str = ""  # /metrics and /healthz of the webhook (distributed: its admin port)
    ai_pool: bool = False  # distributed: the AI's queue has a pool of its own (else the worker takes both)
    ai_cpus: set[int] | None = None  # ...on these cores only (None: wherever the machine puts it)

    @property
    def world(self):
        return self.app.state.world

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        return self.app.state.loop

    def in_loop(self, coro, timeout: float | None = None):
        """Run a coroutine on the emulator's event loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def call_in_loop(self, fn, *args):
        async def call():
            return fn(*args)
        return self.in_loop(call(), 30)

    def counters(self) -> dict[str, int]:
        return {k: int(float(v)) for k, v in self.redis.hgetall(f"{self.prefix}m:c").items()}

    def quiet(self) -> bool:
        """No command waiting, nothing in the outbox: the prompt lane, and the view lane unless
        the views' credit is on (BGB_VIEW_CREDIT, workers/config.py) — its views then wait for the
        credit the next moves earn, which is how they go in production too; the few left from the
        setup are sent in the measured window and counted there."""
        p = self.prefix
        return (not self.redis.scard(f"{p}pending") and not self.redis.zcard(f"{p}ob:due")
                and (self.view_credit.on or not self.redis.zcard(f"{p}ob:bdue")))

    @property
    def view_credit(self):
        from workers.config import ViewCredit

        spec = self.env.get("BGB_VIEW_CREDIT") or os.environ.get("BGB_VIEW_CREDIT")
        return ViewCredit.parse(spec or ViewCredit().spec)

    def wait_quiet(self, timeout: float = 120) -> None:
        from bench.driver import wait_for

        wait_for(self.quiet, timeout, "the system to be quiet", interval=0.2)

    def wait_commands_done(self, timeout: float = 120) -> None:
        """No command waiting (the outbox may still be sending, e.g. at one message a second
        to a flooder's chat)."""
        from bench.driver import wait_for

        wait_for(lambda: not self.redis.scard(f"{self.prefix}pending"), timeout, "every command applied",
                 interval=0.2)

    def worker_pids(self) -> list[int]:
        return [self.procs[0].pid] if self.procs else []

    def restart_worker(self) -> None:
        """Start a new worker like the first one (after a drill killed it)."""
        self.procs[0] = self._start_worker()[0]

    def _start_worker(self):
        log = open(self.log_path, "ab") if self.log_path else None  # noqa: SIM115
        if self.mode == "embedded":
            if os.environ.get("BGB_BENCH_EMBEDDED_POOL"):
                return start_worker(self.env, log_file=log, pool=os.environ["BGB_BENCH_EMBEDDED_POOL"], concurrency=2)
            return start_worker(self.env, log_file=log)
        consume = ("tasks",) if self.ai_pool else ("tasks", "ai")
        return start_worker(self.env, beat="none", pool="prefork", concurrency=2, log_file=log, consume=consume)

    def _start_ai_worker(self):
        """The AI's own pool (workers/ai.py), distributed mode: it yields the cores to people's work."""
        log = open(self.log_path, "ab") if self.log_path else None  # noqa: SIM115
        return start_worker(self.env, beat="none", pool="prefork", concurrency=2, log_file=log, consume=("ai",),
                            idle=True, cpus=self.ai_cpus)


def rss_bytes(pid: int) -> int:
    """Resident memory of a process and all its descendants (a prefork worker's children)."""
    total = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    todo += [int(c) for c in fh.read().split()]
        except (OSError, ValueError):
            continue
    return total


def _serve(app, port: int):
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           access_log=False, timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, name=f"bench-web-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"could not serve on port {port}")
        time.sleep(0.02)
    return server, thread


def _register(base_url: str, token: str, webhook_url: str, secret: str) -> None:
    from bot.setup import register
    from workers.telegram_api import BotApi

    api = BotApi(base_url, token)
    try:
        for res in register(api, webhook_url, secret):
            if not res.ok:
                raise RuntimeError(f"registration failed: {res.description}")
    finally:
        api.close()


@contextlib.contextmanager
def embedded(*, limits=None, rates: dict[str, str] | None = None, log_dir: str | None = None):
    from bot.app import Webhook
    from emulator import ControlClient, EmulatorConfig, Limits, create_app
    from workers.celery_app import sender_for
    from workers.config import Settings

    store = EmbeddedRedis().start()
    config = EmulatorConfig(limits=limits or Limits())
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    secret = secrets.token_urlsafe(24)
    env_settings = {"REDIS_URL": store.url, "TELEGRAM_BOT_TOKEN": config.token, "BOT_API_BASE_URL": base,
                    "WEBHOOK_SECRET": secret, "WEBHOOK_URL": f"{base}/webhook", "BGB_ANATOMY": "1", **(rates or {})}
    extra = rates or {}  # the in-process webhook takes its admission bucket from them too
    settings = Settings(redis_url=store.url, token=config.token, api_base_url=base, webhook_secret=secret,
                        anatomy=True, flood_burst=int(extra.get("BGB_FLOOD_BURST", 10)),
                        flood_rate=float(extra.get("BGB_FLOOD_RATE", 3)))
    hook = Webhook(settings, eager=False, enqueue=sender_for(settings))
    app = create_app(config, extra_routes=hook.routes() + hook.admin_routes(), lifespan=hook.lifespan)
    server, thread = _serve(app, port)
    log_path = os.path.join(log_dir or _tmpdir(), "embedded-worker.log")
    env = worker_env(**env_settings, BGB_LOG_LEVEL="WARNING")
    r = redis.Redis.from_url(store.url, decode_responses=True)
    stack = Stack("embedded", app, base, ControlClient(base), r, settings.prefix, settings, env, [], log_path,
                  admin_url=base)
    stack.procs = stack._start_worker()
    try:
        _register(base, config.token, f"{base}/webhook", secret)
        freeze_startup()  # as `boardgamesbot local` does once it is up (workers/heap.py); undone below
        yield stack
    finally:
        stop_processes(stack.procs)
        server.should_exit = True
        thread.join(timeout=10)
        stack.control.close()
        r.close()
        store.stop()
        gc.unfreeze()  # a test process opens many stacks: what this one froze may be collected again


@contextlib.contextmanager
def distributed(redis_url: str, *, limits=None, rates: dict[str, str] | None = None, log_dir: str | None = None,
                lease_ms: int | None = None, scan_interval: float | None = None, ai_pool: bool = False,
                ai_cpus: set[int] | None = None):
    from emulator import EmulatorConfig, EmulatorServer, Limits
    from workers.config import Settings

    prefix = f"bench{uuid.uuid4().hex[:8]}:"
    emu = EmulatorServer(EmulatorConfig(limits=limits or Limits())).start()
    secret = secrets.token_urlsafe(16)
    port, admin_port = free_port(), free_port()
    extra = dict(rates or {})
    if lease_ms:
        extra["BGB_LEASE_MS"] = str(lease_ms)
    if scan_interval:
        extra["BGB_SCAN_INTERVAL"] = str(scan_interval)
    env = worker_env(REDIS_URL=redis_url, BGB_PREFIX=prefix, TELEGRAM_BOT_TOKEN=emu.token,
                     BOT_API_BASE_URL=emu.base_url, WEBHOOK_SECRET=secret, BGB_LOG_LEVEL="WARNING", BGB_ANATOMY="1",
                     **extra)
    settings = Settings(redis_url=redis_url, prefix=prefix, token=emu.token, api_base_url=emu.base_url,
                        webhook_secret=secret)
    log_dir = log_dir or _tmpdir()
    log_path = os.path.join(log_dir, "distributed-worker.log")
    web_log = open(os.path.join(log_dir, "distributed-webhook.log"), "ab")  # noqa: SIM115
    webhook = subprocess.Popen([sys.executable, "-m", "boardgamesbot", "serve", "--no-register", "--host", "127.0.0.1",
                                "--port", str(port), "--admin-port", str(admin_port)], env=env, cwd=ROOT,
                               stdout=web_log, stderr=web_log,
                               start_new_session=True)
    r = redis.Redis.from_url(redis_url, decode_responses=True)
    stack = Stack("distributed", emu.app, emu.base_url, emu.control, r, prefix, settings, env, [], log_path)
    try:
        stack.ai_pool, stack.ai_cpus = ai_pool, ai_cpus
        stack.procs = [*stack._start_worker(), start_beat(env, log_path), webhook,
                       *(stack._start_ai_worker() if ai_pool else [])]
        wait_http(f"http://127.0.0.1:{admin_port}/healthz", timeout=30)
        stack.admin_url = f"http://127.0.0.1:{admin_port}"
        _register(emu.base_url, emu.token, f"http://127.0.0.1:{port}/webhook", secret)
        yield stack
    finally:
        stop_processes(stack.procs or [webhook])
        emu.stop()
        for key in r.scan_iter(match=f"{prefix}*", count=1000):
            r.delete(key)
        r.close()


def start_beat(env: dict[str, str], log_path: str) -> subprocess.Popen:
    """`celery -A workers beat` on its own (it leaves with this process, BGB_PARENT_PID)."""
    import tempfile

    schedule = os.path.join(tempfile.mkdtemp(prefix="bgb-beat-"), "schedule")
    log = open(log_path, "ab")  # noqa: SIM115
    return subprocess.Popen([sys.executable, "-m", "celery", "-A", "workers", "beat", "--schedule", schedule,
                             "--loglevel", "warning"], env={**env, "BGB_PARENT_PID": str(os.getpid())},
                            stdout=log, stderr=log, start_new_session=True)


def _tmpdir() -> str:
    import tempfile

    return tempfile.mkdtemp(prefix="bgb-bench-")
