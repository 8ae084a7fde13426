"""Run the emulator in a background thread (tests, scripts) or in the foreground (CLI)."""

from __future__ import annotations

import socket
import threading
import time

import httpx
import uvicorn

from emulator.app import create_app
from emulator.config import EmulatorConfig


class EmulatorServer:
    """`with EmulatorServer() as emu: Bot(emu.token, base_url=emu.bot_api_url)`.

    port=0 picks a free port. `emu.control` is a small JSON client for the control API.
    """

    def __init__(self, config: EmulatorConfig | None = None, *, host: str = "127.0.0.1", port: int = 0):
        self.config = config or EmulatorConfig()
        self.host = host
        self.app = create_app(self.config)
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # Accepted connections inherit this: without it every answer written in two pieces
        # waits ~40 ms for the client's delayed ACK (Nagle), making each call ~20x slower.
        self._socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._socket.bind((host, port))
        self.port = self._socket.getsockname()[1]
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.control = ControlClient(self.base_url)

    @property
    def world(self):
        """The in-memory model; owned by the server's event loop (read it, don't mutate it)."""
        return self.app.state.world

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def bot_api_url(self) -> str:
        """What python-telegram-bot takes as base_url (it appends the token and the method)."""
        return f"{self.base_url}/bot"

    @property
    def token(self) -> str:
        return self.config.token

    def start(self) -> EmulatorServer:
        self._socket.listen(128)
        config = uvicorn.Config(self.app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1,
                                access_log=False)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._socket]},
                                        name=f"emulator-{self.port}", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the emulator did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        loop = getattr(self.app.state, "loop", None)
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.world.close)
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        self.control.close()
        self._socket.close()

    def __enter__(self) -> EmulatorServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class ControlClient:
    """Thin synchronous client for /_emulator/... (raises on HTTP errors, returns JSON)."""

    def __init__(self, base_url: str):
        self.http = httpx.Client(base_url=base_url, timeout=30.0)

    def close(self) -> None:
        self.http.close()

    def _call(self, verb: str, path: str, body: dict | None = None) -> dict:
        response = self.http.request(verb, f"/_emulator/{path}", json=body)
        if response.status_code >= 400:
            raise ControlAPIError(response.status_code, response.json().get("error", response.text))
        return response.json()

    def create_user(self, first_name: str, username: str | None = None, language_code: str | None = None) -> int:
        return self._call("POST", "users", {"first_name": first_name, "username": username,
                                            "language_code": language_code})["user_id"]

    def create_group(self, title: str, member_ids: list[int]) -> int:
        return self._call("POST", "groups", {"title": title, "member_ids": member_ids})["chat_id"]

    def bot_rights(self, chat_id: int, can_pin_messages: bool) -> dict:
        return self._call("POST", f"groups/{chat_id}/bot_rights", {"can_pin_messages": can_pin_messages})

    def send(self, chat_id: int, user_id: int, text: str) -> int:
        return self._call("POST", "messages", {"chat_id": chat_id, "user_id": user_id, "text": text})["message_id"]

    def deep_link(self, user_id: int, url: str) -> dict:
        return self._call("POST", "deeplinks", {"user_id": user_id, "url": url})

    def press(self, chat_id: int, message_id: int, user_id: int, callback_data: str, wait: float | None = None) -> dict:
        body = {"chat_id": chat_id, "message_id": message_id, "user_id": user_id, "callback_data": callback_data}
        if wait is not None:
            body["wait"] = wait
        return self._call("POST", "callbacks", body)

    def messages(self, chat_id: int) -> list[dict]:
        return self._call("GET", f"chats/{chat_id}/messages")["messages"]

    def stats(self) -> dict:
        return self._call("GET", "stats")

    def fault(self, error_code: int | str, count: int = 1, **fields) -> dict:
        return self._call("POST", "faults", {"error_code": error_code, "count": count, **fields})

    def limits(self, **limits) -> dict:
        return self._call("POST", "limits", limits)

    def reset(self) -> None:
        self._call("POST", "reset")


class ControlAPIError(Exception):
    def __init__(self, status: int, error: str):
        super().__init__(f"{status}: {error}")
        self.status = status
        self.error = error
