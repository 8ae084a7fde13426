"""The outbox: what each chat should see, delivered in order, within Telegram's limits.

Two lanes. The prompt lane carries what a player waits for — prompts, one-off messages,
lobbies, deletions — in each chat's order, as fast as the limits allow. The view lane carries
views that may lag behind (Outbound.background: the group's status, a finished turn's note):
it sends only while the bot has room to spare, so a prompt never waits behind a status picture,
and while a view waits its slot's newest content replaces the older one (workers/views.py).

Writing (inside a command's commit, see drain.py): `plan_outbound` adds an Outbound to its
lane's queue for the chat. A slot message (status, lobby, prompt) is stored as the slot's
newest content and queued once; a newer update of a slot that has not been sent yet just
replaces the content (coalescing). One-off messages are queued as they come. A message that
`supersedes` another slot takes the buttons off that slot's update still waiting on the view lane.

Sending the prompt lane (`Sender.send_chat`, one sender per chat under a lease): take the head
of the queue, take a token from the shared buckets (global, the chat, the group; and draw on the
views' room), call the Bot API, and only then remove the item — so a crash re-sends rather than
loses. Slots remember their message_id, so a re-send of a slot edits the message it already
sent. A 429 moves the chat's next attempt to now + retry_after; nothing is dropped. "message is
not modified" counts as delivered, "message to edit not found" sends the slot anew.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from workers import metrics
from workers.config import Rate, ViewCredit
from workers.logs import table_context
from workers.protocol import Outbound
from workers.store import Plan, Store
from workers.telegram_api import ApiResult, BotApi

log = logging.getLogger("workers.outbox")

TEXT_MAX, CAPTION_MAX = 4096, 1024
MID_TTL = 90 * 24 * 3600  # a chat's slot -> message_id memory, refreshed by every write
# A sender's hold on a chat, renewed before each item: long enough for one Bot API call
# (timeout 15 s), short enough that a killed sender's chats resume soon.
SEND_LEASE_MS = 20_000
# A bucket wait this short is slept by the sender rather than bounced through a delayed Celery
# task: a delayed task wakes late (timer granularity, queueing), and while every sender is
# waiting that way the global bucket refills unused — the outbox then delivered ~76% of the
# 30/s ceiling instead of the ~90% its refill allows (`boardgamesbot bench`, ceiling table).
SHORT_WAIT = 0.25

# Take one send from every limit, or none. Per key three ARGV:
#   capacity, refill per ms, 't'  a token bucket (HASH tokens, ts): a token is needed
#   capacity, refill per ms, 'd'  a token bucket drawn on whether a token is there or not, down
#                                 to a second's debt (prompts on the views' room)
#   capacity, refill per ms, 'aX' a token bucket a send puts X tokens into, up to its capacity
#                                 (a prompt-lane send earns the views their share: views' credit)
#   limit, span ms, 'wB'          a booking in a sliding window (LIST: the last `limit` booked
#                                 moments, oldest first): a send books the first moment at which
#                                 no `span` ms hold more than `limit` sends and no span × B / limit
#                                 more than B, up to LEAD ms ahead, and its sender waits for it,
#                                 so no moment is lost to a sender waking up late (the overall
#                                 limit). Moments are booked in order (FIFO across all senders).
# Returns {0, 0, ms until the booked slot, the slot (its entry in the log)}, or
# {ms to wait, index of the binding key, 0, 0}.
BUCKET_LUA = """
local LEAD = 250
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local wait, which, slot = 0, 0, 0
local tokens = {}
for i, key in ipairs(KEYS) do
  local a, b, mode = tonumber(ARGV[3 * i - 2]), tonumber(ARGV[3 * i - 1]), ARGV[3 * i]
  local w = 0
  if string.sub(mode, 1, 1) == 'w' then
    local log = redis.call('LRANGE', key, 0, -1)
    for j = 1, #log do log[j] = tonumber(log[j]) end
    table.sort(log)  -- a late departure may have moved an entry past later bookings (LATE_LUA)
    local n, burst = #log, tonumber(string.sub(mode, 2))
    slot = now
    if n > 0 then slot = math.max(slot, log[n]) end
    if n >= a then slot = math.max(slot, log[n - a + 1] + b) end
    if burst < a and n >= burst then slot = math.max(slot, log[n - burst + 1] + b * burst / a) end
    slot = math.ceil(slot)
    w = slot - now - LEAD
  else
    local v = redis.call('HMGET', key, 'tokens', 'ts')
    local have = tonumber(v[1]) or a
    local ts = tonumber(v[2]) or now
    have = math.min(a, have + math.max(0, now - ts) * b)
    tokens[i] = have
    if mode == 't' and have < 1 then
      if b > 0 then w = math.ceil((1 - have) / b) else w = 1000 end  -- no refill of its own: look again in 1 s
    end
  end
  if w > wait then wait = math.ceil(w) which = i end
end
if wait > 0 then return {wait, which, 0, 0} end
for i, key in ipairs(KEYS) do
  local a, b, mode = tonumber(ARGV[3 * i - 2]), tonumber(ARGV[3 * i - 1]), ARGV[3 * i]
  if string.sub(mode, 1, 1) == 'w' then
    redis.call('RPUSH', key, tostring(slot))
    redis.call('LTRIM', key, -a, -1)
    redis.call('PEXPIRE', key, math.ceil(slot - now + b) + 1000)
  else
    local left = tokens[i] - 1
    if mode == 'd' then left = math.max(left, -b * 1000) end
    if string.sub(mode, 1, 1) == 'a' then left = math.min(a, tokens[i] + tonumber(string.sub(mode, 2))) end
    redis.call('HSET', key, 'tokens', tostring(left), 'ts', tostring(now))
    if b > 0 then redis.call('PEXPIRE', key, math.ceil((a - left) / b) + 1000)
    else redis.call('PEXPIRE', key, 86400000) end
  end
end
return {0, 0, slot - now, slot}
"""

# A send that left later than its booked moment (its thread waited for the CPU) moves its entry in
# the overall window's log to when it really left, so the send `limit` places later keeps the whole
# window from it: otherwise that one, on time, would find `limit` sends in the last second.
LATE_LUA = """
local log = redis.call('LRANGE', KEYS[1], 0, -1)
for j = 1, #log do
  if log[j] == ARGV[1] then
    redis.call('LSET', KEYS[1], j - 1, tostring(tonumber(ARGV[1]) + tonumber(ARGV[2])))
    return 1
  end
end
return 0
"""
LATE_MS = 20  # lateness under this fits in the window's 31 ms of slack: not worth a round trip

# A slot item is finished only if nobody replaced its content while we were sending it.
FINISH_SLOT_LUA = """
if redis.call('GET', KEYS[3]) == ARGV[2] then
  redis.call('DEL', KEYS[3])
  redis.call('SREM', KEYS[2], ARGV[1])
  if redis.call('LINDEX', KEYS[1], 0) == ARGV[1] then redis.call('LPOP', KEYS[1]) end
  return 1
end
return 0
"""

FINISH_MSG_LUA = """
if redis.call('LINDEX', KEYS[1], 0) == ARGV[1] then redis.call('LPOP', KEYS[1]) end
redis.call('DEL', KEYS[2])
return 1
"""

SETTLE_CHAT_LUA = """
if redis.call('LLEN', KEYS[1]) == 0 then redis.call('ZREM', KEYS[2], ARGV[1]) return 1 end
return 0
"""


def slot_key(o_table: str | None, slot: str) -> str:
    return f"{o_table or '-'}|{slot}"


def encode(o: Outbound, received_at: float | None) -> str:
    data = o.model_dump(mode="python", exclude={"photo_png", "document"})
    data["photo"] = base64.b64encode(o.photo_png).decode() if o.photo_png else None
    if o.document is not None:
        data["doc"] = base64.b64encode(o.document).decode()
    data["rcv"] = received_at
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def plan_outbound(store: Store, plan: Plan, o: Outbound, received_at: float | None, now: float) -> int | None:
    """Add the writes that queue `o` to a commit plan; returns the chat id whose prompt lane
    to wake (None: a view, which the view pump finds by itself)."""
    k, chat = store.k, o.chat_id
    content = encode(o, received_at)
    if o.supersedes and o.supersedes != o.slot:
        # the player's previous message, if its note still waits on the view lane, loses its buttons (they
        # are stale now) and waits on, behind every group's status (workers/views.py)
        old_sk = slot_key(o.table_id, o.supersedes)
        waiting = store.r.get(k.ob_slot(chat, old_sk))
        if waiting is not None:
            closed = _without_buttons(waiting)
            if closed != waiting:
                plan.add("SCLOSE", k.ob_bpend(chat), k.ob_pend(chat), k.ob_slot(chat, old_sk), f"s:{old_sk}",
                         waiting, closed, k.m_counters)
    if o.slot:
        sk = slot_key(o.table_id, o.slot)
        marker = f"s:{sk}"
        plan.call("SET", k.ob_slot(chat, sk), content)
        if o.background and not o.delete_slot:
            plan.add("SPUSH", k.ob_bpend(chat), marker, k.ob_bq(chat))
            plan.call("ZADD", k.ob_bdue, "NX", repr(now), str(chat))
            return None
        plan.add("SPUSH", k.ob_pend(chat), marker, k.ob_q(chat))
    else:
        msg_id = uuid.uuid4().hex
        plan.call("SET", k.ob_msg(msg_id), content)
        plan.call("RPUSH", k.ob_q(chat), f"m:{msg_id}")
    plan.add("DUE", k.ob_due, str(chat), repr(now))
    return chat


def _without_buttons(raw: str) -> str:
    data = json.loads(raw)
    if not data.get("buttons"):
        return raw
    data["buttons"] = []
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _markup(buttons: list[list[dict]]) -> dict:
    rows = []
    for row in buttons:
        out = []
        for b in row:
            btn = {"text": b["text"]}
            if b.get("url"):
                btn["url"] = b["url"]
            else:
                btn["callback_data"] = b.get("callback_data") or "-"
            out.append(btn)
        rows.append(out)
    return {"inline_keyboard": rows}


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Photo:
    """A message's picture: the PNG it was queued with, or a spec drawn the first time it is
    needed (Outbound.picture) — an edit that keeps the picture never draws it. `hash` tells
    pictures apart without drawing them: of the bytes, or the spec's fingerprint."""

    def __init__(self, item: dict, draw: Callable[[dict], bytes | None] | None) -> None:
        self._data = base64.b64decode(item["photo"]) if item.get("photo") else None
        self._spec = item.get("picture") if self._data is None else None
        self._draw = draw
        if self._data is not None:
            self.hash = hashlib.sha1(self._data).hexdigest()[:16]
        else:
            self.hash = str(self._spec["key"])[:16] if self._spec else ""

    def __bool__(self) -> bool:
        return bool(self.hash)

    def data(self) -> bytes:
        if self._data is None:
            drawn = self._draw(self._spec) if self._draw is not None and self._spec else None
            if drawn is None:
                raise RuntimeError("a picture to draw but no way to draw it")
            self._data = drawn
        return self._data


@dataclass
class Step:
    """What one send attempt decided: delivered (remove the item) or retry after `delay`."""

    done: bool
    delay: float = 0.0


BUCKETS = ("global", "chat", "group", "views", "credit")


class Sender:
    def __init__(self, store: Store, api: BotApi, rate_global: Rate, rate_chat: Rate, rate_group: Rate,
                 rate_views: Rate | None = None, draw: Callable[[dict], bytes | None] | None = None,
                 view_credit: ViewCredit | None = None) -> None:
        """`draw` turns a picture spec (Outbound.picture) into PNG bytes when a message needs it;
        `view_credit`: what prompts earn the views (None: no such limit, views take the room
        `rate_views` leaves)."""
        self.store, self.api = store, api
        self.draw = draw
        self.k = store.k
        self.r = store.r
        self.rates = (rate_global, rate_chat, rate_group, rate_views or Rate(18, 1.0, 1))
        self.credit = view_credit if view_credit is not None and view_credit.on else None
        self._bucket = self.r.register_script(BUCKET_LUA)
        self._finish_slot = self.r.register_script(FINISH_SLOT_LUA)
        self._finish_msg = self.r.register_script(FINISH_MSG_LUA)
        self._settle = self.r.register_script(SETTLE_CHAT_LUA)
        self._late = self.r.register_script(LATE_LUA)
        self._booked = threading.local()  # this thread's booked moment: (its log entry, monotonic due)

    # ------------------------------------------------------------------ limits
    def take(self, chat_id: int, view: bool = False) -> tuple[float, str]:
        """(0, "") once a message may go to `chat_id` now (a token taken from every bucket),
        else (seconds to wait, the bucket that binds: global, chat, group, views or credit). A
        prompt-lane send also draws on the views' room and earns them credit; a view needs a
        token of both."""
        g, c, grp, v = self.rates
        keys = [self.k.rl_global, self.k.rl_chat(chat_id)]
        args: list[Any] = [g.limit, g.span_ms, f"w{g.capacity}", c.capacity, c.refill_per_second / 1000, "t"]
        names = ["global", "chat"]
        if chat_id < 0:
            keys.append(self.k.rl_group(chat_id))
            args += [grp.capacity, grp.refill_per_second / 1000, "t"]
            names.append("group")
        keys.append(self.k.rl_views)
        args += [v.capacity, v.refill_per_second / 1000, "t" if view else "d"]
        names.append("views")
        if self.credit is not None:
            keys.append(self.k.rl_vcredit)
            args += [self.credit.capacity, self.credit.per_second / 1000,
                     "t" if view else f"a{self.credit.per_send!r}"]
            names.append("credit")
        wait, which, slot, booked = self._bucket(keys=keys, args=args)
        if int(wait):
            return int(wait) / 1000, names[int(which) - 1]
        self._booked.entry = (str(booked), time.monotonic() + max(0, int(slot)) / 1000)
        if int(slot) > 0:
            time.sleep(int(slot) / 1000)  # our booked moment in the overall limit
        return 0.0, ""

    def _departing(self) -> None:
        """Just before a call: if this thread's send leaves late, say so in the overall log."""
        entry = getattr(self._booked, "entry", None)
        if entry is None:
            return
        self._booked.entry = None
        late = (time.monotonic() - entry[1]) * 1000
        if late >= LATE_MS:
            self._late(keys=[self.k.rl_global], args=[entry[0], int(late)])
            metrics.incr(self.r, self.k, "late_sends")

    def take_token(self, chat_id: int) -> float:
        """0 if a prompt-lane message may go to `chat_id` now, else seconds to wait."""
        return self.take(chat_id)[0]

    def _token(self, chat_id: int) -> float:
        """Take a token, sleeping through short waits; 0 once taken, else the long wait."""
        for _ in range(20):
            wait = self.take_token(chat_id)
            if not wait or wait > SHORT_WAIT:
                return wait
            time.sleep(wait)
        return self.take_token(chat_id)

    # -------------------------------------------------------------------- send
    def send_chat(self, chat_id: int, max_items: int = 100) -> float | None:
        """Send what the prompt lane of `chat_id` has waiting. Returns None when its queue is
        empty (or another sender has it), else the seconds after which to try again."""
        lease_key = self.k.ob_lease(chat_id)
        while True:
            token = self.store.acquire(lease_key, ms=SEND_LEASE_MS)
            if token is None:
                return None
            try:
                delay = self._drain(chat_id, max_items, lease_key, token)
            finally:
                self.store.release(lease_key, token)
            if delay is not None:
                self.r.zadd(self.k.ob_due, {str(chat_id): time.time() + delay})
                return delay
            # An item may have landed between our last look and the release.
            if not self.r.llen(self.k.ob_q(chat_id)):
                return None

    def _drain(self, chat_id: int, max_items: int, lease_key: str, token: str) -> float | None:
        q = self.k.ob_q(chat_id)
        for _ in range(max_items):
            if not self.store.renew(lease_key, token, SEND_LEASE_MS):
                return 0.0  # we were too slow and another sender took over: let it
            marker = self.r.lindex(q, 0)
            if marker is None:
                if self._settle(keys=[q, self.k.ob_due], args=[str(chat_id)]):
                    return None
                continue
            step = self.send_item(chat_id, marker, lambda: self._token(chat_id))
            if not step.done:
                return step.delay
        return 0.0

    def send_item(self, chat_id: int, marker: str, take: Callable[[], float], view: bool = False) -> Step:
        """Send the item `marker` names, the head of the chat's prompt lane (or view lane);
        `take()` takes the tokens for one call (0) or says how long to wait."""
        q = self.k.ob_bq(chat_id) if view else self.k.ob_q(chat_id)
        pend = self.k.ob_bpend(chat_id) if view else self.k.ob_pend(chat_id)
        if marker.startswith("s:"):
            sk = marker[2:]
            content_key = self.k.ob_slot(chat_id, sk)
            raw = self.r.get(content_key)
            if raw is None:  # already sent by someone else (or superseded): just drop the marker
                self.r.eval("if redis.call('LINDEX', KEYS[1], 0) == ARGV[1] then redis.call('LPOP', KEYS[1]) end "
                            "redis.call('SREM', KEYS[2], ARGV[1])", 2, q, pend, marker)
                return Step(done=True)
            item = json.loads(raw)
            with table_context(item.get("table_id")):
                step = self._deliver(chat_id, item, sk, take)
            if step.done:
                if not self._finish_slot(keys=[q, pend, content_key], args=[marker, raw]):
                    metrics.incr(self.r, self.k, "coalesced")
            return step
        msg_key = self.k.ob_msg(marker[2:])
        raw = self.r.get(msg_key)
        if raw is None:
            step = Step(done=True)
        else:
            item = json.loads(raw)
            with table_context(item.get("table_id")):
                step = self._deliver(chat_id, item, None, take)
        if step.done:
            self._finish_msg(keys=[q, msg_key], args=[marker])
        return step

    def _call(self, chat_id: int, method: str, params: dict, files=None) -> ApiResult:
        self._departing()
        started = time.perf_counter()
        res = self.api.call(method, params, files)
        log.debug("%s to %s: %s in %.1f ms", method, chat_id, "ok" if res.ok else res.error_code,
                  (time.perf_counter() - started) * 1000, extra={"chat": chat_id, "method": method})
        metrics.incr(self.r, self.k, "api_calls")
        if res.error_code == 429:
            metrics.incr(self.r, self.k, "api_429")
        elif not res.ok and not res.not_modified:
            metrics.incr(self.r, self.k, "api_errors")
        if not res.ok:
            log.info("bot api %s failed: %s %s", method, res.error_code, res.description,
                     extra={"chat": chat_id, "method": method})
        return res

    def _deliver(self, chat_id: int, item: dict, sk: str | None, take: Callable[[], float]) -> Step:
        mids = self.k.ob_mid(chat_id)
        known = json.loads(self.r.hget(mids, sk) or "null") if sk else None
        if item.get("delete_slot"):
            if not known:
                return Step(done=True)
            wait = take()
            if wait:
                return Step(done=False, delay=wait)
            res = self._call(chat_id, "deleteMessage", {"chat_id": chat_id, "message_id": known["m"]})
            if res.ok or res.delete_target_gone or (not res.transient):
                self.r.hdel(mids, sk)
                return Step(done=True)
            return self._retry(res)

        wait = take()
        if wait:
            return Step(done=False, delay=wait)
        photo = Photo(item, self.draw)
        photo_hash = photo.hash
        markup = _markup(item.get("buttons") or [])
        text = item["text"]
        if known:
            res = self._edit(chat_id, known, item, text, markup, photo, photo_hash)
            if res is not None:
                if res.ok or res.not_modified:
                    if photo_hash != known.get("p"):
                        self._remember(mids, sk, known["m"], photo_hash)
                    self._delivered(item)
                    return Step(done=True)
                if not res.edit_target_gone:
                    return self._retry(res)
            # the old message is gone (or of the other kind): send the slot anew
        res = self._send_new(chat_id, item, text, markup, photo)
        if res.ok:
            if sk:
                self._remember(mids, sk, res.result["message_id"], photo_hash)
            self._delivered(item)
            if item.get("pin"):
                self._pin(chat_id, res.result["message_id"])
            return Step(done=True)
        return self._retry(res)

    def _pin(self, chat_id: int, message_id: int) -> None:
        """Pin a message just sent, silently. Best effort and never retried: a group may not give the
        bot the right to pin (Telegram answers 400), and the message works the same unpinned. Like a
        deletion it sends no message, so it takes no token (the emulator models the limits so too)."""
        res = self._call(chat_id, "pinChatMessage",
                         {"chat_id": chat_id, "message_id": message_id, "disable_notification": True})
        metrics.incr(self.r, self.k, "pins" if res.ok else "pins_refused")

    def _remember(self, mids: str, sk: str, message_id: int, photo_hash: str) -> None:
        pipe = self.r.pipeline(transaction=False)
        pipe.hset(mids, sk, json.dumps({"m": message_id, "p": photo_hash}))
        pipe.expire(mids, MID_TTL)
        pipe.execute()

    def _edit(self, chat_id: int, known: dict, item: dict, text: str, markup: dict, photo: Photo,
              photo_hash: str) -> ApiResult | None:
        """Edit the slot's message in place; None when it cannot be (text <-> photo)."""
        base = {"chat_id": chat_id, "message_id": known["m"], "reply_markup": markup}
        was_photo = bool(known.get("p"))
        if not photo and not was_photo:
            return self._call(chat_id, "editMessageText",
                              {**base, "text": _clip(text, TEXT_MAX), "parse_mode": "HTML"})
        if photo and was_photo:
            caption = _clip(text, CAPTION_MAX)
            if photo_hash == known.get("p"):  # the same picture: no drawing, no upload
                return self._call(chat_id, "editMessageCaption", {**base, "caption": caption, "parse_mode": "HTML"})
            media = {"type": "photo", "media": "attach://photo", "caption": caption, "parse_mode": "HTML"}
            return self._call(chat_id, "editMessageMedia", {**base, "media": media},
                              files={"photo": ("table.png", photo.data(), "image/png")})
        self._call(chat_id, "deleteMessage", {"chat_id": chat_id, "message_id": known["m"]})
        return None

    def _send_new(self, chat_id: int, item: dict, text: str, markup: dict, photo: Photo) -> ApiResult:
        params: dict[str, Any] = {"chat_id": chat_id, "parse_mode": "HTML"}
        if item.get("silent"):
            params["disable_notification"] = True
        if markup["inline_keyboard"]:
            params["reply_markup"] = markup
        if photo:
            params["caption"] = _clip(text, CAPTION_MAX)
            return self._call(chat_id, "sendPhoto", params, files={"photo": ("table.png", photo.data(), "image/png")})
        if item.get("doc"):  # a file (a finished game's log): always a one-off message
            params["caption"] = _clip(text, CAPTION_MAX)
            name = item.get("document_name") or "file.json"
            return self._call(chat_id, "sendDocument", params,
                              files={"document": (name, base64.b64decode(item["doc"]), "application/json")})
        params["text"] = _clip(text, TEXT_MAX)
        return self._call(chat_id, "sendMessage", params)

    def _retry(self, res: ApiResult) -> Step:
        if res.error_code == 429:
            return Step(done=False, delay=max(res.retry_after, 1.0))
        if res.transient:
            return Step(done=False, delay=2.0)
        # A permanent refusal (blocked by the user, bad request): retrying cannot help, and
        # keeping it would block every later message to this chat.
        log.warning("dropping an outbox message: %s %s", res.error_code, res.description)
        return Step(done=True)

    def _delivered(self, item: dict) -> None:
        pipe = self.r.pipeline(transaction=False)
        pipe.hincrby(self.k.m_counters, "sent", 1)
        if item.get("background"):
            pipe.hincrby(self.k.m_counters, "sent_views", 1)
        elif str(item.get("slot") or "").startswith("prompt") and item.get("rcv"):
            latency = max(0.0, time.time() - float(item["rcv"]))
            log.debug("prompt to %s, %.1f ms after the press", item.get("chat_id"), latency * 1000)
            for op in metrics.observe_latency_ops(self.k, latency):
                pipe.execute_command(*op)
        pipe.execute()
