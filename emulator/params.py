"""Reading Bot API parameters the three ways clients send them.

python-telegram-bot sends `application/x-www-form-urlencoded` bodies whose values are strings
(non-string values JSON-encoded), or `multipart/form-data` when a file is uploaded (the other
parameters become plain form fields). Other clients send JSON bodies or query strings. So every
value may arrive either typed (JSON) or as text, and the getters below accept both.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request

from emulator.errors import MARKUP_JSON, ApiError, invalid, missing


@dataclass
class Upload:
    filename: str
    data: bytes
    content_type: str


def parse_multipart(content_type: str, body: bytes) -> tuple[dict[str, str], dict[str, Upload]]:
    message = BytesParser(policy=HTTP).parsebytes(b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body)
    values: dict[str, str] = {}
    files: dict[str, Upload] = {}
    if not message.is_multipart():
        return values, files
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if not name:
            continue
        payload = part.get_payload(decode=True) or b""
        filename = part.get_filename()
        if filename is not None:
            files[str(name)] = Upload(filename, payload, part.get_content_type())
        else:
            values[str(name)] = payload.decode(part.get_content_charset() or "utf-8")
    return values, files


async def read_request(request: Request) -> Params:
    return parse_body(request.headers.get("content-type", ""), await request.body(), dict(request.query_params))


def parse_body(content_type: str, body: bytes, values: dict[str, Any] | None = None) -> Params:
    """Parameters from a body of any of the three kinds (on top of `values`, a query string's).
    Also how a webhook's answer is read when it carries a method call (delivery.py)."""
    values = dict(values or {})
    files: dict[str, Upload] = {}
    if body:
        if content_type.startswith("application/json"):
            try:
                data = json.loads(body)
            except ValueError as exc:
                raise ApiError(400, "Bad Request: can't parse JSON object") from exc
            if isinstance(data, dict):
                values.update(data)
        elif content_type.startswith("multipart/form-data"):
            form, files = parse_multipart(content_type, body)
            values.update(form)
        else:
            try:
                values.update(parse_qsl(body.decode("utf-8"), keep_blank_values=True))
            except UnicodeDecodeError as exc:
                raise ApiError(400, "Bad Request: can't parse parameters") from exc
    return Params(values, files)


class Params:
    def __init__(self, values: dict[str, Any], files: dict[str, Upload] | None = None):
        self.values = values
        self.files = files or {}

    def has(self, name: str) -> bool:
        return self.values.get(name) not in (None, "")

    def str(self, name: str, default: str | None = None) -> str | None:
        value = self.values.get(name)
        if value is None:
            return default
        return value if isinstance(value, str) else json.dumps(value)

    def int(self, name: str, required: bool = True) -> int | None:
        value = self.values.get(name)
        if value in (None, ""):
            if required:
                raise missing(name)
            return None
        if isinstance(value, bool):
            raise invalid(name)
        try:
            return int(value)
        except (TypeError, ValueError) as exc:
            raise invalid(name) from exc

    def float(self, name: str, default: float) -> float:
        value = self.values.get(name)
        if value in (None, ""):
            return default
        try:
            return float(value)
        except (TypeError, ValueError) as exc:
            raise invalid(name) from exc

    def bool(self, name: str) -> bool:
        value = self.values.get(name)
        if isinstance(value, str):
            return value.lower() in ("true", "1")
        return bool(value)

    def json(self, name: str, error: str = MARKUP_JSON) -> Any:
        value = self.values.get(name)
        if isinstance(value, str):
            if value == "":
                return None
            try:
                return json.loads(value)
            except ValueError as exc:
                raise ApiError(400, error) from exc
        return value
