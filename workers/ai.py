"""The AI task: a bot's move, computed off the drain path and committed like a press.

A command that leaves a table waiting on a seat the AI plays (a bot, a player who left) says so in its
Result (`bot_turn`); its commit records the turn in `ai:due` (the time the bot may move: the bots' pace
after the group's status last changed) and the drainer queues `workers.think` on the AI's own Celery
queue. There, `Thinker.think(table)`:

1. takes the table's think lease (one thinker per table; renewed while it thinks);
2. reads `ai:due` (nothing pending: done; not yet due: queued again for then), a snapshot of the
   table and the bot's memory of its last search (`ai:mem`, workers/tables/bots.py), and runs the
   search (`workers.tables.bots.next_move`: seeded from the table and the match's version, so the
   same snapshot and memory give the same move);
3. pushes the move as a command — "/_bot <seat> <table version> <choice>" from user 0 — onto the
   table's inbox in one Lua call that checks the lease is still its own, the table is still at the
   version it read and the turn is still pending, forgets the turn and stores the memory the move
   leaves, in the same call. A table that changed while it thought is read again and the move
   recomputed;
4. drains the table itself, with the same drainer as every worker (the route's lease, one atomic
   commit): the bot's move is applied in the AI's pool, so bots' moves never queue on the tasks' queue
   in front of people's presses. (If a tasks' worker holds the route, it applies the move in turn.)

The drain applies the move like a press: only at that version (workers/tables/bots.py), once (its
update id comes from the same counter as the beat's ticks). Nothing is lost on kill -9: until the move
is in the inbox the turn stays in `ai:due`, which the beat's scan re-wakes once it is overdue and no
task holds or was lately queued for it; once it is in the inbox it is an ordinary pending command,
which the scan's janitor drains if this task died before it could.
"""

from __future__ import annotations

import base64
import logging
import time
from collections.abc import Callable

from workers.logs import table_context
from workers.protocol import Command
from workers.store import LeaseKeeper, Store, decode_doc
from workers.tables import bots

log = logging.getLogger("workers.ai")

AI_WAKE_GRACE = 20.0  # seconds a queued AI task may take to start before the beat queues another
MEMORY_TTL = 7 * 86400  # seconds a bot's memory of its last search outlives its move (then it thinks afresh)
THINK_ROUNDS = 20  # snapshots read in one task when the table keeps changing while the AI thinks

# KEYS: the think lease, the table, ai:due, the table's inbox, pending, tickseq, m:c, ai:mem
# ARGV: lease token, the table version the move was computed at, table id, the command's JSON with
#       "%d" for its update id (every other "%" doubled), the memory the move leaves ("": none), its TTL
PUSH_LUA = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('HGET', KEYS[2], 'ver') ~= ARGV[2] then return -1 end
if not redis.call('ZSCORE', KEYS[3], ARGV[3]) then return -2 end
local seq = redis.call('INCR', KEYS[6])
redis.call('RPUSH', KEYS[4], string.format(ARGV[4], -seq))
redis.call('SADD', KEYS[5], ARGV[3])
redis.call('ZREM', KEYS[3], ARGV[3])
redis.call('HINCRBY', KEYS[7], 'bot_commands', 1)
if ARGV[5] == '' then
  redis.call('DEL', KEYS[8])
else
  redis.call('SET', KEYS[8], ARGV[5], 'EX', ARGV[6])
end
return 1
"""

# No bot is to move at this version after all (a turn recorded by an older command): forget it, unless
# the table moved on meanwhile (its commit decided again). KEYS: the table, ai:due; ARGV: version, table id
FORGET_LUA = """
if redis.call('HGET', KEYS[1], 'ver') ~= ARGV[1] then return 0 end
redis.call('ZREM', KEYS[2], ARGV[2])
return 1
"""

Decide = Callable[[dict, "bytes | None"], "bots.BotMove | None"]  # (table doc, the bot's memory)


def command_template(move: bots.BotMove, now: float) -> str:
    """The bot's command as inbox JSON, with "%d" where the push puts its update id."""
    cmd = Command(update_id=0, kind="message", route=move.table_id, chat_id=0, chat_type="group",
                  user_id=bots.BOT_USER, user_name="", text=move.text(), received_at=now)
    raw = cmd.model_dump_json().replace("%", "%%")
    head = '{"update_id":0,'
    assert raw.startswith(head)
    return '{"update_id":%d,' + raw[len(head):]


class Thinker:
    def __init__(self, store: Store, drain: Callable[[str], object], wake_ai: Callable[[str, float], None],
                 clock: Callable[[], float] = time.time, decide: Decide = bots.next_move) -> None:
        """`drain(table)` applies the table's waiting commands (Drainer.drain); `wake_ai(table, due)` queues
        this task again."""
        self.store, self.k, self.r = store, store.k, store.r
        self.drain, self.wake_ai, self.clock, self.decide = drain, wake_ai, clock, decide
        self._push = self.r.register_script(PUSH_LUA)
        self._forget = self.r.register_script(FORGET_LUA)

    def memory(self, table_id: str) -> bytes | None:
        """The bot's memory of its last search, as the push of its move stored it (base64: the store's
        client reads text), or None."""
        kept = self.r.get(self.k.ai_memory(table_id))
        try:
            return base64.b64decode(kept, validate=True) if kept else None
        except ValueError:
            return None  # damaged: the bot thinks afresh

    def think(self, table_id: str) -> str:
        """Decide and queue the pending bot move of a table, if there is one; says what happened."""
        with table_context(table_id):
            lease_key = self.k.ai_lease(table_id)
            token = self.store.acquire(lease_key)
            if token is None:
                return "busy"  # another task thinks for this table; it pushes or queues again
            try:
                with LeaseKeeper(self.store, lease_key, token) as keeper:
                    outcome = self._think(table_id, token, keeper)
            finally:
                self.store.release(lease_key, token)
            if outcome == "pushed":
                self.drain(table_id)  # (after letting go of the think lease: the next turn may be thought at once)
            if outcome == "changed":
                # the table kept changing: leave the turn to the task its last commit queued (or the beat)
                due = self.r.zscore(self.k.ai_due, table_id)
                if due is not None:
                    self.wake_ai(table_id, float(due))
            return outcome

    def _think(self, table_id: str, token: str, keeper: LeaseKeeper) -> str:
        k = self.k
        for _ in range(THINK_ROUNDS):
            due = self.r.zscore(k.ai_due, table_id)
            if due is None:
                return "idle"
            if float(due) > self.clock() + 0.005:
                self.wake_ai(table_id, float(due))  # woken early (the beat, a duplicate): again at its time
                return "early"
            doc, version = self.r.hmget(k.table(table_id), "doc", "ver")  # one read: the doc is that version
            memory = self.memory(table_id)  # stamped: used only if it is for this very match version
            table = decode_doc(doc)
            if table is None or version is None:
                self._forget(keys=[k.table(table_id), k.ai_due], args=[str(version or ""), table_id])
                return "gone"
            started = time.thread_time()
            try:
                move = self.decide(table, memory)
            except Exception:
                # a bug in a game's knowledge: the move comes from the game's stand-in instead (never stall)
                log.exception("the AI failed; the stand-in moves instead")
                move = bots.next_move(table, fallback=True)
            spent = round((time.thread_time() - started) * 1000)
            self.r.hincrby(k.m_counters, "bot_think_ms", spent)
            if keeper.lost.is_set():
                return "lost"
            if move is None:
                self._forget(keys=[k.table(table_id), k.ai_due], args=[version, table_id])
                return "none"
            rc = self._push(keys=[k.ai_lease(table_id), k.table(table_id), k.ai_due, k.inbox(table_id), k.pending,
                                  k.tickseq, k.m_counters, k.ai_memory(table_id)],
                            args=[token, version, table_id, command_template(move, self.clock()),
                                  base64.b64encode(move.memory).decode(), MEMORY_TTL])
            if rc == 1:
                log.info("bot move queued: seat %d plays %s (%s, %d ms)", move.seat, move.choice, move.level, spent)
                return "pushed"
            if rc == 0:
                return "lost"
            if rc == -2:
                return "idle"  # nobody waits for it any more (another task pushed it, the table moved on)
            # rc == -1: the table changed while we thought: think again from the new snapshot
        return "changed"
