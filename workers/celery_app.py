"""The Celery application: `celery -A workers worker` and `celery -A workers beat`.

Configured from the environment (REDIS_URL is broker and state; BGB_PREFIX also prefixes
Celery's own keys and queue, so several deployments or test runs can share one Redis).
"""

from __future__ import annotations

import logging
import os
import threading
import time

from celery import Celery, signals

from workers import logs
from workers.broker import TRANSPORT
from workers.config import Settings

app = Celery("workers", include=["workers.tasks"])


def configure(settings: Settings | None = None) -> Settings:
    """(Re)read the settings into the Celery app; call again after changing the environment
    in-process, before the first task is sent (`boardgamesbot local` does)."""
    settings = settings or Settings.from_env()
    app.conf.update(
        broker_url=settings.redis_url,
        broker_transport=TRANSPORT,  # kombu's redis transport, surviving a broker restart
        broker_transport_options={"global_keyprefix": f"{settings.prefix}celery:"},
        broker_connection_retry_on_startup=True,
        task_default_queue=settings.tasks_queue,
        # the AI's search on a queue of its own, for a pool of its own (`-Q <prefix>ai`; workers/ai.py)
        task_routes={"workers.think": {"queue": settings.ai_queue}},
        task_ignore_result=True,
        result_backend=None,
        task_serializer="json",
        accept_content=["json"],
        worker_prefetch_multiplier=4,
        worker_hijack_root_logger=False,
        beat_schedule={"scan": {"task": "workers.scan", "schedule": settings.scan_interval}},
        beat_schedule_filename=os.environ.get("BGB_BEAT_SCHEDULE", "celerybeat-schedule"),
        timezone="UTC",
    )
    return settings


settings = configure()


def sender_for(settings: Settings):
    """`route -> None` that wakes a drain on the deployment described by `settings`, through a
    Celery app of its own (for processes that talk to another prefix or Redis than the
    environment's, such as tests and benchmarks)."""
    other = Celery("workers-client")
    other.conf.update(broker_url=settings.redis_url,
                      broker_transport_options={"global_keyprefix": f"{settings.prefix}celery:"},
                      task_default_queue=f"{settings.prefix}tasks", task_ignore_result=True,
                      task_serializer="json", accept_content=["json"])

    def enqueue(route: str) -> None:
        other.send_task("workers.drain", args=[route])

    return enqueue


@signals.setup_logging.connect
def _json_logs(**_kwargs) -> None:
    logs.setup(getattr(logging, os.environ.get("BGB_LOG_LEVEL", "INFO").upper(), logging.INFO))


_task_tokens: dict[str, object] = {}


@signals.task_prerun.connect
def _task_table(task_id=None, task=None, args=None, **_kwargs) -> None:
    """Every log line of a drain task carries its table (the route it drains)."""
    if task is not None and task.name == "workers.drain" and args:
        _task_tokens[task_id] = logs.current_table.set(str(args[0]))


@signals.task_postrun.connect
def _task_table_done(task_id=None, **_kwargs) -> None:
    token = _task_tokens.pop(task_id, None)
    if token is not None:
        logs.current_table.reset(token)


def _exit_with_parent() -> None:
    """Started by `boardgamesbot local` or a test (BGB_PARENT_PID): leave when it is gone, so a
    killed parent never leaves a worker or beat behind, retrying a store that no longer exists."""
    parent = os.environ.get("BGB_PARENT_PID")
    if not parent:
        return

    def watch() -> None:
        while True:
            time.sleep(1.0)
            try:
                os.kill(int(parent), 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:
                continue

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


@signals.worker_init.connect
def _worker_watch(**_kwargs) -> None:
    _exit_with_parent()


@signals.worker_init.connect
@signals.worker_process_init.connect
def _yield_cpu(**_kwargs) -> None:
    """BGB_CPU_IDLE: the whole worker in SCHED_IDLE (workers/priority.py) — set in the main
    process before its pool starts, and again in each prefork child, whose search is the load."""
    if settings.cpu_idle:
        from workers.priority import yield_cpu

        if not yield_cpu():
            logging.getLogger(__name__).warning("BGB_CPU_IDLE: this system refused the CPU's idle class; "
                                                "the worker runs at its ordinary priority")


@signals.beat_init.connect
def _beat_watch(**_kwargs) -> None:
    _exit_with_parent()


@signals.worker_ready.connect
@signals.worker_process_init.connect
def _freeze_startup(**_kwargs) -> None:
    """Startup's objects out of the collector's full passes (workers/heap.py): in the worker's
    main process once it is ready (a threads pool runs the tasks there), and in each child of a
    prefork pool once it is forked."""
    from workers.heap import freeze_startup

    freeze_startup(games=True)


@signals.worker_init.connect
def _serve_metrics(**_kwargs) -> None:
    """The worker's /metrics (the system-wide numbers from Redis) on BGB_METRICS_HOST (default
    127.0.0.1: scraped from this host or, in compose, over the private network):BGB_METRICS_PORT."""
    if not settings.metrics_port:
        return
    from prometheus_client import CollectorRegistry, start_http_server

    from workers import runtime
    from workers.metrics import RedisCollector

    rt = runtime.get()
    registry = CollectorRegistry(auto_describe=False)
    registry.register(RedisCollector(rt.store.r, rt.store.k))
    start_http_server(settings.metrics_port, addr=settings.metrics_host, registry=registry)
