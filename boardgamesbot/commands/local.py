"""`boardgamesbot local [--port P] [--no-browser]`: the whole bot on one machine, no Telegram,
no Redis server.

One command starts:
- an embedded Redis-compatible server (fakeredis's TcpFakeServer on a free local port, in a
  process of its own: boardgamesbot/embedded_store.py; with `lupa` it runs Lua, which the bot's
  commits and Celery both use);
- the Bot API emulator with its web chat and control API, and the bot's webhook, both served
  by one uvicorn server on port P (the webhook is mounted next to the emulator's routes);
- a real Celery worker with the beat embedded (`celery -A workers worker -B`), as a
  subprocess pointed at the embedded store, consuming both queues: the tasks' and the AI's
  (production runs the AI's on a pool of its own: compose.yaml);
- a demo: the group "Mesa de Teste" and three users who have already sent /start.

Ctrl+C stops everything. The pieces are reusable (`EmbeddedRedis`, `start_worker`,
`demo`) by the end-to-end tests.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import webbrowser
from pathlib import Path

import httpx
import uvicorn

from boardgamesbot.embedded_store import EmbeddedRedis

NAME = "local"
HELP = "Run the bot on this machine with the emulator's web chat (no Telegram, no Redis server)."

DEMO_GROUP = "Mesa de Teste"
DEMO_USERS = (("Ana", "ana"), ("Bruno", "bruno"), ("Carla", "carla"))


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=8765, help="web chat, control API and webhook (default 8765)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--no-browser", action="store_true", help="do not open the web chat in a browser")
    parser.add_argument("--redis-url", default=None,
                        help="use this Redis server instead of the embedded store")
    parser.set_defaults(run=run)


def worker_env(base: dict[str, str] | None = None, **settings: str) -> dict[str, str]:
    env = dict(os.environ if base is None else base)
    env.update({k: str(v) for k, v in settings.items()})
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def queues(env: dict[str, str], *which: str) -> str:
    """The `-Q` value for the named queues ("tasks", "ai") of the deployment `env` describes."""
    prefix = env.get("BGB_PREFIX") or "bgb:"
    return ",".join(f"{prefix}{name}" for name in which)


def start_worker(env: dict[str, str], *, beat: str = "embedded", concurrency: int = 4, pool: str = "threads",
                 log_file=None, consume: tuple[str, ...] = ("tasks", "ai"),
                 idle: bool = False, cpus: set[int] | None = None) -> list[subprocess.Popen]:
    """A Celery worker subprocess (`beat`: "embedded" = -B, "separate" = its own process, "none") on the
    queues `consume` ("tasks": drains, sends, the scan; "ai": the bots' search, workers/ai.py); with `idle`,
    in the CPU's idle class (BGB_CPU_IDLE, workers/priority.py: an AI pool sharing cores with people's
    work); with `cpus`, on those cores only (the bench's AI pool on cores of its own).
    They exit by themselves if this process dies without stopping them (BGB_PARENT_PID)."""
    env = {**env, "BGB_PARENT_PID": str(os.getpid()), **({"BGB_CPU_IDLE": "1"} if idle else {})}
    celery = [sys.executable, "-m", "celery", "-A", "workers"]
    schedule = os.path.join(tempfile.mkdtemp(prefix="bgb-beat-"), "schedule")
    out = log_file or subprocess.DEVNULL
    worker = [*celery, "worker", "-Q", queues(env, *consume), "--pool", pool, "--concurrency", str(concurrency),
              "--without-gossip", "--without-mingle", "--without-heartbeat",
              "--loglevel", env.get("BGB_LOG_LEVEL", "WARNING").lower()]
    if consume == ("ai",):
        worker += ["--prefetch-multiplier", "1"]  # a search is long: a free child takes the next one
    if beat == "embedded":
        worker += ["-B", "--schedule", schedule]
    pin = (lambda: os.sched_setaffinity(0, cpus)) if cpus else None
    procs = [subprocess.Popen(worker, env=env, stdout=out, stderr=out, start_new_session=True, preexec_fn=pin)]
    if beat == "separate":
        procs.append(subprocess.Popen([*celery, "beat", "--schedule", schedule, "--loglevel", "warning"],
                                      env=env, stdout=out, stderr=out, start_new_session=True))
    return procs


def stop_processes(procs: list[subprocess.Popen], sig: int = signal.SIGTERM, timeout: float = 10) -> None:
    for p in procs:
        if p.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, sig)
    for p in procs:
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
            p.wait(timeout=5)


def demo(control, api_base: str, token: str) -> dict:
    """Three demo users who have started the bot, and a group with all of them."""
    users = {}
    for name, username in DEMO_USERS:
        uid = control.create_user(name, username=username, language_code="pt-br")
        control.send(uid, uid, "/start")
        users[name] = uid
    group = control.create_group(DEMO_GROUP, list(users.values()))
    return {"users": users, "group": group}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(args: argparse.Namespace) -> int:
    from bot.app import Webhook
    from bot.setup import register as register_bot
    from emulator import ControlClient, EmulatorConfig, create_app
    from workers.heap import freeze_startup
    from workers.logs import setup as setup_logs
    from workers.telegram_api import BotApi

    setup_logs(level=30)

    def stop_on_sigterm(_signum, _frame):
        raise KeyboardInterrupt  # so that the `finally` below stops the worker too

    signal.signal(signal.SIGTERM, stop_on_sigterm)
    store = None
    redis_url = args.redis_url
    if not redis_url:
        store = EmbeddedRedis().start()
        redis_url = store.url
    base = f"http://{args.host}:{args.port}"
    config = EmulatorConfig()
    secret = secrets.token_urlsafe(24)
    env_settings = {"REDIS_URL": redis_url, "TELEGRAM_BOT_TOKEN": config.token, "BOT_API_BASE_URL": base,
                    "WEBHOOK_SECRET": secret, "WEBHOOK_URL": f"{base}/webhook"}
    os.environ.update(env_settings)
    from workers.celery_app import configure

    settings = configure()  # the webhook wakes the worker through the Celery app's broker
    hook = Webhook(settings, eager=False)
    # /metrics and /healthz beside the webhook: this composition listens on 127.0.0.1 only
    app = create_app(config, extra_routes=hook.routes() + hook.admin_routes(), lifespan=hook.lifespan)
    server = uvicorn.Server(uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                                           access_log=False, timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, name="web", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            print(f"could not serve on {base} (is the port taken? try --port)", file=sys.stderr)
            return 1
        time.sleep(0.02)
    procs = start_worker(worker_env(**env_settings, BGB_LOG_LEVEL=os.environ.get("BGB_LOG_LEVEL", "WARNING")))
    try:
        api = BotApi(base, config.token)
        for res in register_bot(api, f"{base}{settings.webhook_path}", secret):
            if not res.ok:
                print(f"registration failed: {res.description}", file=sys.stderr)
                return 1
        control = ControlClient(base)
        info = demo(control, base, config.token)
        freeze_startup()  # what startup built, out of the collector's full passes (workers/heap.py)
        print(f"BoardGamesBot is running on the embedded default.\n"
              f"  Web chat:    {base}/\n"
              f"  Control API: {base}/_emulator/...\n"
              f"  Demo group \"{DEMO_GROUP}\" ({info['group']}) with {', '.join(info['users'])}.\n"
              "  In the group, type /novojogo spellbook or /novojogo trickerion. Ctrl+C stops.", flush=True)
        if not args.no_browser:
            with contextlib.suppress(Exception):
                webbrowser.open(f"{base}/")
        while thread.is_alive() and all(p.poll() is None for p in procs):
            time.sleep(0.5)
        if any(p.poll() is not None for p in procs):
            print("the worker stopped; shutting down", file=sys.stderr)
            return 1
        return 0
    except KeyboardInterrupt:
        return 0
    finally:
        stop_processes(procs)
        server.should_exit = True
        thread.join(timeout=5)
        if store is not None:
            store.stop()


def wait_http(url: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url, timeout=1).status_code < 500:
                return
        time.sleep(0.1)
    raise TimeoutError(url)
