"""A small synchronous Bot API client for the workers (the webhook uses python-telegram-bot).

Workers are plain synchronous Celery tasks; all they need is "call a method, tell me how it
went", with Telegram's errors sorted into what the outbox does about them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import httpx


@dataclass
class ApiResult:
    ok: bool
    result: Any = None
    error_code: int = 0
    description: str = ""
    retry_after: float = 0.0

    @property
    def not_modified(self) -> bool:
        return self.error_code == 400 and "message is not modified" in self.description.lower()

    @property
    def edit_target_gone(self) -> bool:
        d = self.description.lower()
        return self.error_code == 400 and ("message to edit not found" in d or "message_id_invalid" in d
                                           or "message can't be edited" in d)

    @property
    def delete_target_gone(self) -> bool:
        d = self.description.lower()
        return self.error_code == 400 and ("message to delete not found" in d or "message can't be deleted" in d)

    @property
    def transient(self) -> bool:
        """Worth retrying later: flood control, server errors, timeouts."""
        return self.error_code == 429 or self.error_code >= 500 or self.error_code == 0


class BotApi:
    def __init__(self, base_url: str, token: str, timeout: float = 15.0) -> None:
        self.url = f"{base_url.rstrip('/')}/bot{token}/"
        self.client = httpx.Client(timeout=timeout)

    def call(self, method: str, params: dict[str, Any], files: dict[str, tuple[str, bytes, str]] | None = None
             ) -> ApiResult:
        try:
            if files:
                data = {k: (json.dumps(v) if isinstance(v, (dict, list)) else str(v)) for k, v in params.items()}
                resp = self.client.post(self.url + method, data=data, files=files)
            else:
                resp = self.client.post(self.url + method, json=params)
        except httpx.HTTPError as exc:
            return ApiResult(ok=False, error_code=0, description=f"{type(exc).__name__}: {exc}")
        try:
            body = resp.json()
        except ValueError:
            return ApiResult(ok=False, error_code=resp.status_code or 0, description=resp.text[:200])
        if body.get("ok"):
            return ApiResult(ok=True, result=body.get("result"))
        params_ = body.get("parameters") or {}
        return ApiResult(ok=False, error_code=int(body.get("error_code") or resp.status_code),
                         description=str(body.get("description", "")),
                         retry_after=float(params_.get("retry_after") or 0))

    def close(self) -> None:
        self.client.close()
