"""compose.yaml and the health checks its services use."""

from __future__ import annotations

import time
from pathlib import Path

import yaml

from workers import health
from workers.config import Settings
from workers.keys import Keys

ROOT = Path(__file__).resolve().parents[2]


def test_compose_runs_redis_with_aof_and_every_role_with_a_healthcheck():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"redis", "bot", "worker", "ai", "beat"}
    redis_cmd = services["redis"]["command"]
    assert redis_cmd[redis_cmd.index("--appendonly") + 1] == "yes"
    assert redis_cmd[redis_cmd.index("--appendfsync") + 1] == "everysec"
    assert any(v.endswith(":/data") for v in services["redis"]["volumes"]) and "redis-data" in compose["volumes"]
    for name, service in services.items():
        assert service.get("healthcheck", {}).get("test"), name
    assert services["worker"]["command"][:4] == ["celery", "-A", "workers", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "workers", "beat"]
    # the AI's search has a pool of its own: the tasks' worker does not consume its queue
    settings = Settings()
    queue = {name: services[name]["command"][services[name]["command"].index("-Q") + 1] for name in ("worker", "ai")}
    assert queue == {"worker": settings.tasks_queue, "ai": settings.ai_queue}
    for role in ("bot", "worker", "ai", "beat"):
        env = services[role]["environment"]
        assert {"TELEGRAM_BOT_TOKEN", "WEBHOOK_URL", "WEBHOOK_SECRET", "REDIS_URL", "BOT_API_BASE_URL"} <= set(env)
        # only the AI's pool yields the CPU (workers/priority.py); people's work keeps its class
        assert env.get("BGB_CPU_IDLE") == ("1" if role == "ai" else None), role
    dockerfile = (ROOT / "Dockerfile").read_text()
    for package in ("bot", "workers", "rulesets", "locales", "boardgamesbot"):
        assert f"COPY {package} /app/{package}" in dockerfile


def test_the_beat_health_check_follows_the_scans_heartbeat(store, monkeypatch):
    monkeypatch.setenv("REDIS_URL", store.s.redis_url)
    monkeypatch.setenv("BGB_PREFIX", store.s.prefix)
    assert health.check("beat")  # never scanned: unhealthy
    store.r.set(Keys(store.s.prefix).beat, repr(time.time()))
    assert health.check("beat") is None
    store.r.set(Keys(store.s.prefix).beat, repr(time.time() - 3600))
    assert health.check("beat")
    assert health.check("nonsense")
