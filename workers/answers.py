"""Who answers a pressed button, and with what: the webhook in its HTTP reply, or the worker.

A press the webhook queues is judged by the table logic, in a worker, after the webhook has
received it. To answer it in the webhook's reply (no request, no rate-limit token: Bot API,
"Making requests when getting updates") the webhook waits a short, bounded time for the
worker's verdict, and the two agree through one key per callback query, `cbq:{query id}`:

    "wait"        the webhook queued the press and is waiting (set in the intake's Lua call);
    "v" + JSON    the verdict {"t": text, "a": alert}, written by the commit that applies the
                  command, in the same atomic write as its effects, and published on the
                  answers channel — only while the key says "wait";
    "late"        the webhook stopped waiting (CLAIM_LUA) before a verdict came.

So exactly one of them answers: a commit that finds "wait" hands the verdict to the webhook;
a commit that finds anything else ("late", or no key: nobody waits) reports it, and the worker
answers with a request (answerCallbackQuery) as before. A webhook that stops waiting either
claims the answer for the worker or finds the verdict that just arrived. A verdict is only
ever written by the commit that saves the move, so a press acknowledged is a move saved.
"""

from __future__ import annotations

import json

WAIT, LATE, VERDICT = "wait", "late", "v"
TTL_MS = 60_000  # Telegram lets a callback query be answered for a short while only (~15 s)

# KEYS[1] = cbq key. The webhook stops waiting: "late" unless a verdict is there; returns the
# key's value as it was ("wait" when the worker will answer, else the verdict or nothing).
CLAIM_LUA = """
local v = redis.call('GET', KEYS[1])
if v == 'wait' then redis.call('SET', KEYS[1], 'late', 'PX', ARGV[1]) end
return v
"""


def verdict(text: str, alert: bool) -> str:
    """The key's value once the table logic has judged the press."""
    return VERDICT + json.dumps({"t": text, "a": alert}, ensure_ascii=False, separators=(",", ":"))


def notice(query_id: str, text: str, alert: bool) -> str:
    """What is published on the answers channel for the webhooks that wait."""
    return json.dumps({"q": query_id, "t": text, "a": alert}, ensure_ascii=False, separators=(",", ":"))


def read_verdict(value: str | None) -> tuple[str, bool] | None:
    """(text, alert) from the key's value, or None when it holds no verdict."""
    if not value or not value.startswith(VERDICT):
        return None
    data = json.loads(value[len(VERDICT):])
    return str(data.get("t") or ""), bool(data.get("a"))


def reply(query_id: str, text: str, alert: bool = False) -> dict:
    """The webhook's reply body that answers the press (Telegram runs the method)."""
    body: dict = {"method": "answerCallbackQuery", "callback_query_id": query_id}
    if text:
        body["text"] = text[:200]
        if alert:
            body["show_alert"] = True
    return body
