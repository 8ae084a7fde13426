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
import select
import socket
import subprocess
import sys
import threading
import time


def _nodelay_server(address: tuple[str, int]):
    """A TcpFakeServer whose connections set TCP_NODELAY (without it every small reply waits for
    Nagle's algorithm and the peer's delayed ACK, ~40 ms: each Celery task on the embedded store
    cost ~90 ms) and whose connection threads sleep until there is something to do (`_Handler`)."""
    from fakeredis import TcpFakeServer

    class NoDelayFakeServer(TcpFakeServer):
        def get_request(self):
            conn, addr = super().get_request()
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            return conn, addr

    server = NoDelayFakeServer(address, server_type="redis")
    server.RequestHandlerClass = _handler_class()
    server.daemon_threads = True
    return server


# seconds a connection thread sleeps with nothing to do; it wakes at once for a command or a message
# (tests/plumbing/test_embedded_store.py counts on it being longer than half a second)
IDLE_WAIT = 1.0


def _handler_class():
    from fakeredis._clients._tcp_server import TCPFakeRequestHandler
    from fakeredis._typing import RaiseErrorTypes

    class _Handler(TCPFakeRequestHandler):
        """fakeredis's connection thread polls its client every 10 ms for replies that other
        connections queue for it (a PUBLISH to a channel it listens on). With the webhook's,
        the worker's and Celery's connections, 30 idle connections cost this process 15% of a
        core and asked for the interpreter lock 3 000 times a second while commands waited for
        it. This one sleeps in select() on its socket and on a wake-up pipe that a reply queued for
        its client by another connection writes to, so it wakes for a command or a message at
        once and otherwise not at all."""

        def handle(self) -> None:
            fake = self.current_client.get_socket()
            wake_r, wake_w = socket.socketpair()
            wake_r.setblocking(False)
            wake_w.setblocking(False)
            queue_reply = fake.put_response
            me = threading.get_ident()

            def queue_and_wake(msg) -> None:
                queue_reply(msg)
                if threading.get_ident() != me:  # another connection's doing (its own replies it sends itself)
                    with contextlib.suppress(OSError):  # the pipe is full: a wake-up is already waiting
                        wake_w.send(b"\0")

            fake.put_response = queue_and_wake
            try:
                self._serve(fake, wake_r)
            finally:
                fake.put_response = queue_reply
                wake_r.close()
                wake_w.close()

        def _serve(self, fake, wake_r: socket.socket) -> None:
            while not self.server._shutdown_event.is_set():
                try:
                    if self.current_client.can_read():
                        try:
                            response = self.current_client.read_response()
                        except RaiseErrorTypes as exc:  # an error reply: send it, keep serving
                            response = exc
                        self.writer.dump(response)
                        continue
                    data = self.rfile.readline()
                    if data == b"":  # nothing buffered: wait for the client or a queued reply
                        readable, _, _ = select.select([self.connection, wake_r], [], [], IDLE_WAIT)
                        if wake_r in readable:
                            with contextlib.suppress(BlockingIOError):
                                while wake_r.recv(4096):
                                    pass
                        if self.connection not in readable:
                            continue
                        data = self.rfile.readline()
                        if data == b"":  # readable yet empty: the peer closed
                            break
                    fake.sendall(data)
                except ConnectionError:
                    break
                except Exception as exc:  # as fakeredis's own handler: report it and drop the connection
                    self.writer.dump(exc)
                    break

    return _Handler


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
