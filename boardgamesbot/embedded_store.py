"""The embedded store: fakeredis speaking the Redis protocol on 127.0.0.1, in a process of its own.

`boardgamesbot local` (and the bench's and tests' embedded stacks) use it instead of a Redis
server. It runs as a subprocess, not as a thread of the process that serves the emulator and the
webhook: fakeredis is pure Python, and every Redis command of the webhook, the worker and Celery's
broker is executed by it — in the same process it shared one interpreter lock with the emulator and
the webhook, so the worker's reads and commits queued behind the web chat's work and the other way
round (docs/performance.md, "The embedded store's own process"). In a process of its own it has its
own lock and, on a machine of two cores or more, a core.

    python -m boardgamesbot.embedded_store [--port P] [--parent PID]

prints `port <n>` once it listens, and exits when PID (the process that started it) is gone.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import socket
import subprocess
import sys
import threading
import time


def _nodelay_server(address: tuple[str, int]):
    """A TcpFakeServer whose connections set TCP_NODELAY: without it every small reply waits
    for Nagle's algorithm and the peer's delayed ACK (~40 ms), which made each Celery task on
    the embedded store cost ~90 ms."""
    from fakeredis import TcpFakeServer

    class NoDelayFakeServer(TcpFakeServer):
        def get_request(self):
            conn, addr = super().get_request()
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            return conn, addr

    server = NoDelayFakeServer(address, server_type="redis")
    server.daemon_threads = True
    return server


def _exit_with(parent: int) -> None:
    """Leave when the process that started the store is gone (a killed `boardgamesbot local`
    must not leave a store behind)."""

    def watch() -> None:
        while True:
            time.sleep(1.0)
            try:
                os.kill(parent, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:
                continue

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m boardgamesbot.embedded_store")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--parent", type=int, default=0)
    args = parser.parse_args(argv)
    server = _nodelay_server(("127.0.0.1", args.port))
    if args.parent:
        _exit_with(args.parent)
    # What startup built (fakeredis, lupa) lives as long as the store: out of the collector's full
    # passes, which otherwise walk it every time the stored data grows (as workers/heap.py does).
    gc.collect()
    gc.freeze()
    print(f"port {server.server_address[1]}", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
    return 0


class EmbeddedRedis:
    """The embedded store as a subprocess: `start()` waits until it listens, `url` reaches it,
    `stop()` ends it (its data is gone with it, as with `boardgamesbot local`'s Ctrl+C)."""

    def __init__(self, port: int = 0) -> None:
        self.requested_port = port
        self.port = 0
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 30.0) -> EmbeddedRedis:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "boardgamesbot.embedded_store", "--port", str(self.requested_port),
             "--parent", str(os.getpid())],
            stdout=subprocess.PIPE, stderr=None, text=True, start_new_session=True)
        line = _read_line(self.proc, timeout)
        if not line.startswith("port "):
            self.stop()
            raise RuntimeError(f"the embedded store did not start: {line!r}")
        self.port = int(line.split()[1])
        return self

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=5)


def _read_line(proc: subprocess.Popen, timeout: float) -> str:
    """The store's first line, or '' if it did not print one within `timeout` seconds."""
    box: list[str] = []
    reader = threading.Thread(target=lambda: box.append(proc.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    return box[0].strip() if box else ""


if __name__ == "__main__":
    sys.exit(main())
