"""Health checks for containers: `python -m workers.health bot|worker|beat` exits 0 when
healthy. bot: its /healthz on the admin port (BGB_ADMIN_PORT) says Redis is up; worker: its /metrics answers
(BGB_METRICS_PORT); beat: the scan it schedules ran recently (it leaves a heartbeat key)."""

from __future__ import annotations

import sys
import time
import urllib.request

from workers.config import Settings
from workers.keys import Keys


def check(role: str) -> str | None:
    """None when healthy, else what is wrong."""
    s = Settings.from_env()
    try:
        if role == "bot":
            urllib.request.urlopen(f"http://127.0.0.1:{s.admin_port}/healthz", timeout=3).read()
        elif role == "worker":
            urllib.request.urlopen(f"http://127.0.0.1:{s.metrics_port or 9808}/metrics", timeout=3).read()
        elif role == "beat":
            from workers.store import connect

            last = connect(s.redis_url).get(Keys(s.prefix).beat)
            if last is None or time.time() - float(last) > max(30.0, 10 * s.scan_interval):
                return f"no scan since {last}"
        else:
            return f"unknown role {role!r}"
    except Exception as exc:  # any failure is "unhealthy", with its reason
        return f"{type(exc).__name__}: {exc}"
    return None


if __name__ == "__main__":
    problem = check(sys.argv[1] if len(sys.argv) > 1 else "")
    if problem:
        print(problem, file=sys.stderr)
    sys.exit(1 if problem else 0)
