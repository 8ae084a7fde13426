"""`boardgamesbot serve` as production runs it: configured by the environment, it registers
the webhook and both command lists, then queues what Telegram delivers."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import httpx
import pytest
import redis

from bench.driver import wait_for
from boardgamesbot.commands.local import free_port, stop_processes, wait_http, worker_env
from tests.integration.stack import ROOT, redis_url_or_skip

pytestmark = pytest.mark.timeout(120)


@pytest.mark.redis
def test_serve_registers_and_queues_updates(tmp_path):
    from emulator import EmulatorServer

    url = redis_url_or_skip()
    prefix = f"srv{uuid.uuid4().hex[:8]}:"
    r = redis.Redis.from_url(url, decode_responses=True)
    port, admin_port = free_port(), free_port()
    with EmulatorServer() as emu:
        env = worker_env(REDIS_URL=url, BGB_PREFIX=prefix, TELEGRAM_BOT_TOKEN=emu.token,
                         BOT_API_BASE_URL=emu.base_url, WEBHOOK_SECRET="abc123",
                         WEBHOOK_URL=f"http://127.0.0.1:{port}/hook/telegram", BGB_ADMIN_PORT=str(admin_port))
        log = open(tmp_path / "serve.log", "ab")  # noqa: SIM115
        proc = subprocess.Popen([sys.executable, "-m", "boardgamesbot", "serve", "--port", str(port)], env=env,
                                cwd=ROOT, stdout=log, stderr=log,
                                start_new_session=True)
        try:
            wait_http(f"http://127.0.0.1:{admin_port}/healthz")
            info = emu.control._call("GET", "info")
            assert info["webhook_url"] == f"http://127.0.0.1:{port}/hook/telegram"
            assert [c["command"] for c in info["commands"]][:2] == ["novojogo", "status"]
            bot = httpx.post(f"{emu.bot_api_url}{emu.token}/getMyCommands", json={"language_code": "en"}).json()
            assert bot["result"][0]["description"].startswith("Open a table")
            uid = emu.control.create_user("Ana")
            emu.control.send(uid, uid, "/jogos")
            queued = wait_for(lambda: r.lrange(f"{prefix}inbox:chat:{uid}", 0, -1), 10, "the command in its inbox")
            assert '"text":"/jogos"' in queued[0]
            assert httpx.post(f"http://127.0.0.1:{port}/hook/telegram", json={"update_id": 1}).status_code == 403
            assert "bgb_updates_total" in httpx.get(f"http://127.0.0.1:{admin_port}/metrics").text
            assert httpx.get(f"http://127.0.0.1:{admin_port}/healthz").text == "redis: up"
            # the public port serves the webhook path only
            assert httpx.get(f"http://127.0.0.1:{port}/metrics").status_code == 404
            assert httpx.get(f"http://127.0.0.1:{port}/healthz").status_code == 404
            # and both listen on 127.0.0.1 only unless told otherwise (BGB_HOST, BGB_ADMIN_HOST)
            listening = _listening_addresses(proc.pid)
            assert {("127.0.0.1", port), ("127.0.0.1", admin_port)} <= listening, listening
            assert not any(host in ("0.0.0.0", "::") for host, _ in listening), listening
        finally:
            stop_processes([proc])
            for key in r.scan_iter(match=f"{prefix}*"):
                r.delete(key)
            r.close()


def _listening_addresses(pid: int) -> set[tuple[str, int]]:
    """(host, port) of the TCP sockets the process listens on, from /proc."""
    inodes = set()
    for fd in (Path(f"/proc/{pid}/fd")).iterdir():
        try:
            target = os.readlink(fd)
        except FileNotFoundError:  # closed since the listing (the server's other threads open and close files)
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as fh:
            next(fh)
            for line in fh:
                cols = line.split()
                local, state, inode = cols[1], cols[3], cols[9]
                if state != "0A" or inode not in inodes:  # 0A = LISTEN
                    continue
                hexip, hexport = local.split(":")
                if len(hexip) == 8:
                    host = socket.inet_ntop(socket.AF_INET, bytes.fromhex(hexip)[::-1])
                else:
                    host = "::" if set(hexip) == {"0"} else hexip
                found.add((host, int(hexport, 16)))
    return found


def test_serve_refuses_to_start_without_its_configuration():
    env = worker_env()
    for name in ("TELEGRAM_BOT_TOKEN", "WEBHOOK_SECRET", "WEBHOOK_URL"):
        env.pop(name, None)
    out = subprocess.run([sys.executable, "-m", "boardgamesbot", "serve"], env=env, cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 2 and "TELEGRAM_BOT_TOKEN" in out.stderr
