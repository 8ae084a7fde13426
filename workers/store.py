"""Redis access for the workers: leases, the guarded commit, the directory, reminders.

The one write path for a command is `Store.commit(Plan)`: a single Lua call that first checks
its guards (the route's lease token is still ours; each saved table still has the revision we
loaded) and only then applies every write — table, processed marker, removal from the inbox,
outbox entries, index changes, reminders, metrics, the pressed button's verdict. Either all
of a command's effects exist or none do, so a worker killed at any instant leaves the command
in its inbox, unapplied.
"""

from __future__ import annotations

import base64
import binascii
import json
import secrets
import threading
import zlib
from dataclasses import dataclass, field

import redis

from workers.config import Settings
from workers.keys import Keys
from workers.protocol import TABLE_ID_CHARS

# Guards first (all of them), then the writes. Ops are flattened into ARGV as
# name, argc, args...  The keys travel in ARGV too: fine on a single Redis (not Cluster).
COMMIT_LUA = """
local unpack = unpack or table.unpack
local n = tonumber(ARGV[1])
local ops = {}
local i = 2
for _ = 1, n do
  local name = ARGV[i]
  local argc = tonumber(ARGV[i + 1])
  local args = {}
  for j = 1, argc do args[j] = ARGV[i + 1 + j] end
  ops[#ops + 1] = {name, args}
  i = i + 2 + argc
end
for _, op in ipairs(ops) do
  local name, a = op[1], op[2]
  if name == 'GLEASE' then
    if redis.call('GET', a[1]) ~= a[2] then return 0 end
  elseif name == 'GREV' then
    local rev = redis.call('HGET', a[1], 'rev')
    if (rev or '0') ~= a[2] then return -1 end
  end
end
local answer_here = false
for _, op in ipairs(ops) do
  local name, a = op[1], op[2]
  if name == 'C' then
    redis.call(unpack(a))
  elseif name == 'SAVE' then
    redis.call('HSET', a[1], 'doc', a[2], 'ver', a[3])
    redis.call('HINCRBY', a[1], 'rev', 1)
  elseif name == 'POPEQ' then
    if redis.call('LINDEX', a[1], 0) == a[2] then redis.call('LPOP', a[1]) end
  elseif name == 'SPUSH' then
    if redis.call('SADD', a[1], a[2]) == 1 then redis.call('RPUSH', a[3], a[2]) end
  elseif name == 'HMAX' then
    local cur = redis.call('HGET', a[1], a[2])
    if (not cur) or tonumber(cur) < tonumber(a[3]) then redis.call('HSET', a[1], a[2], a[3]) end
  elseif name == 'DUE' then
    local cur = redis.call('ZSCORE', a[1], a[2])
    if (not cur) or tonumber(cur) > tonumber(a[3]) then redis.call('ZADD', a[1], a[3], a[2]) end
  elseif name == 'SCLOSE' then
    -- a slot superseded in its chat (the player's next turn has a message of its own): its update
    -- still waiting on the view lane only is kept, without its stale buttons (the outbox computed
    -- that content from the one it read; anything newer in between is left as it is)
    if redis.call('SISMEMBER', a[1], a[4]) == 1 and redis.call('SISMEMBER', a[2], a[4]) == 0
        and redis.call('GET', a[3]) == a[5] then
      redis.call('SET', a[3], a[6])
      redis.call('HINCRBY', a[7], 'superseded', 1)
    end
  elseif name == 'ANSWER' then
    if redis.call('GET', a[1]) == 'wait' then
      redis.call('SET', a[1], a[2], 'PX', a[3])
      redis.call('PUBLISH', a[4], a[5])
    else
      answer_here = true
    end
  end
end
if answer_here then return 2 end
return 1
"""

RELEASE_LUA = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

RENEW_LUA = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""

# Forget a route as pending only if its inbox is really empty (a push may have just landed).
SETTLE_LUA = """
if redis.call('LLEN', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], ARGV[1]) return 1 end
return 0
"""

# Move due reminders into their table's inbox as tick commands; ZREM makes it exactly once
# even with several beats or overlapping scans.
SCAN_LUA = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local routes = {}
for _, member in ipairs(due) do
  if redis.call('ZREM', KEYS[1], member) == 1 then
    local sep = string.find(member, '|', 1, true)
    local table_id = string.sub(member, 1, sep - 1)
    local key = string.sub(member, sep + 1)
    local seq = redis.call('INCR', KEYS[2])
    local cmd = string.format(ARGV[4], -seq, table_id, key)
    redis.call('RPUSH', ARGV[3] .. 'inbox:' .. table_id, cmd)
    redis.call('SADD', ARGV[3] .. 'pending', table_id)
    redis.call('HINCRBY', ARGV[3] .. 'm:c', 'ticks', 1)
    routes[#routes + 1] = table_id
  end
end
return routes
"""


# The table document as saved in `table:{id}` field `doc`: zlib (level 6) of the compact JSON,
# base64 so it stays text for the decode_responses clients every process uses, behind a marker.
# A finished 4-player Spellbook game drops from ~47 KB of JSON to ~4 KB. Docs saved before the
# marker existed are plain JSON and always start with "{", so both forms are told apart by the
# first bytes and old games keep loading; each is rewritten compressed at its next save.
DOC_MARKER = "zlib:"
DOC_LEVEL = 6


def encode_doc(table: dict) -> str:
    """The `doc` field for a table document (the only place that writes the format)."""
    raw = json.dumps(table, ensure_ascii=False, separators=(",", ":")).encode()
    return DOC_MARKER + base64.b64encode(zlib.compress(raw, DOC_LEVEL)).decode("ascii")


def decode_doc(doc: str | bytes | None) -> dict | None:
    """A table document from its `doc` field, compressed or legacy plain JSON; None if absent.
    A damaged compressed doc raises ValueError rather than passing for an empty table."""
    if not doc:
        return None
    if isinstance(doc, bytes):
        doc = doc.decode()
    if not doc.startswith(DOC_MARKER):
        return json.loads(doc)
    try:
        raw = zlib.decompress(base64.b64decode(doc[len(DOC_MARKER):], validate=True))
    except (binascii.Error, zlib.error) as exc:
        raise ValueError(f"damaged table document: {exc}") from exc
    return json.loads(raw)


class LeaseLost(Exception):
    """Another worker holds the route now: stop without writing anything."""


@dataclass
class Plan:
    """The guards and writes of one commit, built up then sent as one Lua call."""

    ops: list[tuple[str, list[str]]] = field(default_factory=list)

    def add(self, name: str, *args: object) -> None:
        self.ops.append((name, [a if isinstance(a, str) else str(a) for a in args]))

    def call(self, *args: object) -> None:
        self.add("C", *args)

    def argv(self) -> list[str]:
        out = [str(len(self.ops))]
        for name, args in self.ops:
            out += [name, str(len(args)), *args]
        return out


def connect(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, decode_responses=True, health_check_interval=30)


class Store:
    def __init__(self, r: redis.Redis, settings: Settings) -> None:
        self.r = r
        self.s = settings
        self.k = Keys(settings.prefix)
        self._commit = r.register_script(COMMIT_LUA)
        self._release = r.register_script(RELEASE_LUA)
        self._renew = r.register_script(RENEW_LUA)
        self._settle = r.register_script(SETTLE_LUA)
        self._scan = r.register_script(SCAN_LUA)

    # ------------------------------------------------------------------ leases
    def acquire(self, key: str, ms: int | None = None) -> str | None:
        token = secrets.token_hex(8)
        ok = self.r.set(key, token, nx=True, px=ms or self.s.lease_ms)
        return token if ok else None

    def release(self, key: str, token: str) -> bool:
        return bool(self._release(keys=[key], args=[token]))

    def renew(self, key: str, token: str, ms: int | None = None) -> bool:
        return bool(self._renew(keys=[key], args=[token, ms or self.s.lease_ms]))

    def commit(self, plan: Plan) -> int:
        """1 = applied; 2 = applied, and no webhook waits for the press's verdict (an ANSWER op
        found no "wait": the caller answers it, workers/answers.py); 0 = the lease is no longer
        ours; -1 = a table changed under us."""
        return int(self._commit(keys=[], args=plan.argv()))

    def settle(self, route: str) -> bool:
        return bool(self._settle(keys=[self.k.inbox(route), self.k.pending], args=[route]))

    # ------------------------------------------------------------------ tables
    def load_table(self, table_id: str) -> tuple[dict | None, int]:
        doc, rev = self.r.hmget(self.k.table(table_id), "doc", "rev")
        return decode_doc(doc), int(rev or 0)

    # --------------------------------------------------------------- reminders
    def scan_reminders(self, now: float, limit: int = 200) -> list[str]:
        template = ('{"update_id":%d,"kind":"message","route":"%s","chat_id":0,"chat_type":"group",'
                    '"user_id":0,"user_name":"","text":"/_tick %s","received_at":' + repr(now) + "}")
        return list(self._scan(keys=[self.k.rem, self.k.tickseq],
                               args=[repr(now), limit, self.s.prefix, template]))


class LeaseKeeper:
    """Renews a lease in the background while a worker drains; `lost` is set if it could not."""

    def __init__(self, store: Store, key: str, token: str) -> None:
        self.store, self.key, self.token = store, key, token
        self.lost = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name=f"lease:{key}")

    def __enter__(self) -> LeaseKeeper:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        period = self.store.s.lease_ms / 3000
        while not self._stop.wait(period):
            try:
                if not self.store.renew(self.key, self.token):
                    self.lost.set()
                    return
            except redis.RedisError:
                continue  # the commit's fencing check still protects the data


class RedisDirectory:
    """protocol.Directory over Redis (reads only; tables loaded here are remembered with their
    revision so a commit that saves one of them can check it did not change meanwhile)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.revs: dict[str, int] = {}
        self._langs: dict[int, str | None] = {}  # read once per command: the table logic asks often

    def active_table(self, chat_id: int) -> str | None:
        return self.store.r.hget(self.store.k.active, str(chat_id))

    def user_tables(self, user_id: int) -> list[str]:
        return sorted(self.store.r.smembers(self.store.k.utables(user_id)))

    def load_table(self, table_id: str) -> dict | None:
        doc, rev = self.store.load_table(table_id)
        self.revs.setdefault(table_id, rev)
        if doc is not None:  # the languages of its group and its players, in one round trip
            chats = [c for c in [doc.get("chat_id"), *(s.get("user_id") for s in doc.get("seats") or [])]
                     if isinstance(c, int) and c not in self._langs]
            if chats:
                self._langs.update(zip(chats, self.store.r.hmget(self.store.k.lang, [str(c) for c in chats]),
                                       strict=True))
        return doc

    def chat_lang(self, chat_id: int) -> str | None:
        if chat_id not in self._langs:
            self._langs[chat_id] = self.store.r.hget(self.store.k.lang, str(chat_id))
        return self._langs[chat_id]

    def user_lobbies(self, user_id: int) -> list[str]:
        return sorted(self.store.r.smembers(self.store.k.ulobbies(user_id)))

    def tables_opened(self, chat_id: int, since: float) -> int:
        return int(self.store.r.zcount(self.store.k.opened(chat_id), repr(since), "+inf"))

    # finished games (written by workers/archive.py; keys in workers/keys.py)
    def ratings(self, game: str, scope: str, entities: list[str]) -> dict[str, dict]:
        pipe = self.store.r.pipeline(transaction=False)
        for entity in entities:
            pipe.hgetall(self.store.k.rating(game, scope, entity))
        return {e: _rating(raw) for e, raw in zip(entities, pipe.execute(), strict=True) if raw.get("mu")}

    def top(self, game: str, scope: str, count: int) -> list[tuple[str, dict]]:
        best = self.store.r.zrevrange(self.store.k.ranking(game, scope), 0, max(0, count - 1))
        found = self.ratings(game, scope, best)
        return [(e, found[e]) for e in best if e in found]

    def place(self, game: str, scope: str, entity: str) -> tuple[int, int] | None:
        key = self.store.k.ranking(game, scope)
        pipe = self.store.r.pipeline(transaction=False)
        pipe.zrevrank(key, entity)
        pipe.zcard(key)
        rank, total = pipe.execute()
        return None if rank is None else (int(rank) + 1, int(total))

    def stats(self, game: str, entity: str) -> dict[str, int]:
        return {k: int(v) for k, v in self.store.r.hgetall(self.store.k.stats(game, entity)).items()}

    def finished(self, owner: str, start: int, count: int) -> tuple[list[str], int]:
        key = self.store.k.finished(owner)
        pipe = self.store.r.pipeline(transaction=False)
        pipe.zrevrange(key, start, start + max(0, count - 1))
        pipe.zcard(key)
        ids, total = pipe.execute()
        return list(ids), int(total)

    def load_record(self, table_id: str) -> dict | None:
        return decode_doc(self.store.r.get(self.store.k.archive(table_id)))

    def new_table_id(self) -> str:
        while True:
            table_id = "".join(secrets.choice(TABLE_ID_CHARS) for _ in range(10))
            if not self.store.r.exists(self.store.k.table(table_id)):
                self.revs[table_id] = 0
                return table_id


def _rating(raw: dict[str, str]) -> dict:
    return {"mu": float(raw["mu"]), "sigma": float(raw["sigma"]), "games": int(raw.get("games", 0)),
            "wins": int(raw.get("wins", 0)), "name": raw.get("name", ""), "rev": int(raw.get("rev", 0))}
