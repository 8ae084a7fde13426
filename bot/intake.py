"""Reading an update defensively: what the webhook trusts of a request body, and how much.

Everything in an update body is untrusted (people type it, and the secret header only proves
Telegram relayed it). Before anything is built from it the body is bounded (Content-Length,
then a counted read), its JSON nesting is bounded (a cheap scan, so `json.loads` never
recurses deeply), and the fields the bot reads are validated by a strict pydantic model of
the subset of the Bot API's Update it uses — exact types, bounded integers and strings,
no lone surrogates (which Redis' and JSON's UTF-8 encoders reject). A body that fails any
step is a `BadUpdate` with a short reason; the webhook answers it 200 and counts it, so a
poison update is never redelivered and never blocks the updates behind it.

Update kinds the bot does not use (edited messages, channel posts, chat member changes...)
validate as an `Update` with neither `message` nor `callback_query` and are ignored.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

MAX_BODY = 1 << 20  # Telegram's updates are a few KB; the largest real one is far below this
MAX_DEPTH = 32  # a real update nests about 6 levels (update > callback_query > message > chat)
MAX_ID = 1 << 53  # user and chat ids fit in 52 bits (Bot API); anything above is forged
MAX_UPDATE_ID = 1 << 31  # update ids are positive 32-bit numbers; negative ones are the beat's
MAX_DATE = 1 << 33  # epoch seconds (year 2242); `date = 1e14` used to overflow datetime
MAX_TEXT = 8192  # Telegram caps a message at 4096 characters (entities can lengthen the JSON)


class BadUpdate(Exception):
    """The body is not an update we can read; `reason` is its metric label."""

    def __init__(self, reason: str, update_id: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.update_id = update_id


# ------------------------------------------------------------------ the body


async def read_body(headers, stream: AsyncIterator[bytes], limit: int = MAX_BODY) -> bytes:
    """The whole body, or BadUpdate("too_large") as soon as it is known to exceed `limit`
    (from Content-Length before reading, or while counting the chunks)."""
    declared = headers.get("content-length")
    if declared is not None:
        if not (declared.isascii() and declared.isdigit() and len(declared) <= 12):
            raise BadUpdate("not_json")
        if int(declared) > limit:
            raise BadUpdate("too_large")
    chunks: list[bytes] = []
    size = 0
    async for chunk in stream:
        size += len(chunk)
        if size > limit:
            raise BadUpdate("too_large")
        chunks.append(chunk)
    return b"".join(chunks)


def too_deep(body: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether arrays and objects nest more than `limit` levels (brackets inside strings do
    not count). Linear, no recursion; stops at the first level past the limit."""
    if body.count(b"[") + body.count(b"{") <= limit:  # the usual case: no scan needed
        return False
    depth = 0
    in_string = escaped = False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return False


# ------------------------------------------------------------------ the model


def _encodable(s: str) -> str:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("lone surrogate") from None
    return s


Text = Annotated[str, Field(max_length=MAX_TEXT), AfterValidator(_encodable)]
Short = Annotated[str, Field(max_length=256), AfterValidator(_encodable)]
Id = Annotated[int, Field(strict=True, gt=-MAX_ID, lt=MAX_ID)]


class _Strict(BaseModel):
    # strict: "12" is not 12, 1.0 is not 1, true is not 1; unknown fields are ignored
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True, populate_by_name=True)


class User(_Strict):
    id: Id
    is_bot: bool = False
    # Telegram caps a name at 64 characters; longer ones are accepted and cut when stored
    first_name: Text = ""
    last_name: Text | None = None
    username: Short | None = None
    language_code: Annotated[str, Field(max_length=35), AfterValidator(_encodable)] | None = None


class Chat(_Strict):
    id: Id
    type: Literal["private", "group", "supergroup", "channel"]


class Message(_Strict):
    message_id: Annotated[int, Field(strict=True, ge=0, lt=MAX_ID)]
    date: Annotated[int, Field(strict=True, ge=0, lt=MAX_DATE)] = 0
    chat: Chat
    from_user: User | None = Field(default=None, alias="from")
    text: Text | None = None


class PressedMessage(_Strict):
    """The message a pressed button sits on (possibly an "inaccessible message": date 0)."""

    message_id: Annotated[int, Field(strict=True, ge=0, lt=MAX_ID)]
    chat: Chat


class CallbackQuery(_Strict):
    id: Short
    from_user: User = Field(alias="from")
    data: Short | None = None
    message: PressedMessage | None = None


class Update(_Strict):
    update_id: Annotated[int, Field(strict=True, ge=0, lt=MAX_UPDATE_ID)]
    message: Message | None = None
    callback_query: CallbackQuery | None = None


def parse_update(body: bytes) -> Update:
    """The update in `body`, or BadUpdate with the reason it could not be read."""
    if too_deep(body):
        raise BadUpdate("too_deep")
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        raise BadUpdate("not_json") from None
    if not isinstance(data, dict):
        raise BadUpdate("not_json")
    raw_id = data.get("update_id")
    update_id = raw_id if type(raw_id) is int and 0 <= raw_id < MAX_UPDATE_ID else None
    try:
        return Update.model_validate(data)
    except ValidationError:
        raise BadUpdate("invalid", update_id) from None

