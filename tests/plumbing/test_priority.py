"""The AI's pool yields the CPU to people's work: BGB_CPU_IDLE puts a worker in SCHED_IDLE
(workers/priority.py), from its main process (before the pool forks) and in each child."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="no SCHED_IDLE on this platform")

PROBE = ("import os; from workers.celery_app import _yield_cpu; _yield_cpu();"
         " pid = os.fork()\n"
         "if pid == 0: os._exit(0 if os.sched_getscheduler(0) == os.SCHED_IDLE else 3)\n"
         "_, status = os.waitpid(pid, 0); print(os.sched_getscheduler(0), os.waitstatus_to_exitcode(status))")


def _probe(**env: str) -> tuple[int, int]:
    full = {k: v for k, v in os.environ.items() if k != "BGB_CPU_IDLE"} | env
    out = subprocess.run([sys.executable, "-c", PROBE], env=full, capture_output=True, text=True, timeout=60,
                         check=True).stdout.split()
    return int(out[0]), int(out[1])


def test_the_setting_puts_the_worker_and_what_it_forks_in_the_idle_class() -> None:
    policy, child = _probe(BGB_CPU_IDLE="1")
    assert policy == os.SCHED_IDLE
    assert child == 0  # a prefork child inherits the class


def test_without_the_setting_the_worker_keeps_its_ordinary_class() -> None:
    policy, _ = _probe()
    assert policy == os.SCHED_OTHER


def test_a_system_that_refuses_the_idle_class_leaves_the_worker_running(monkeypatch) -> None:
    from workers import priority

    def refuse(*_args):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(priority.os, "sched_setscheduler", refuse)
    assert priority.yield_cpu() is False
