"""Every Redis key the bot uses, in one place. All keys start with the prefix (`BGB_PREFIX`,
default ``bgb:``), so several bots or test runs can share one Redis database.

Webhook (bot/)
    upd:{update_id}            STRING "1", EX 1 day. Seen update ids: Telegram's redeliveries
                               become no-ops. Set in the same Lua call that queues the command.

    flood:{user id}            HASH tokens, ts: the user's admission bucket (BGB_FLOOD_BURST,
                               BGB_FLOOD_RATE), taken in the intake's Lua call; PEXPIRE when
                               full again.
    flood:told:{user id}       STRING "1", EX 60: the user was told to slow down this minute.
    cbq:{callback query id}    STRING "wait" / "v"+JSON verdict / "late", PX 60 s: who answers a
                               queued press (workers/answers.py). "wait" is set in the intake's
                               Lua call, the verdict by the commit that handles the press.
    answers                    pub/sub channel: verdicts for the webhooks waiting on them
                               ({"q": query id, "t": text, "a": alert}).

Commands and tables (workers/drain.py)
    inbox:{route}              LIST of protocol.Command JSON, oldest first. route = table id or
                               "chat:<chat id>". A command leaves its inbox only in the same
                               atomic commit that saves its effects. No TTL.
    pending                    SET of routes whose inbox may hold commands; the beat's janitor
                               re-wakes those nobody is draining (e.g. after kill -9).
    lease:{route}              STRING random token, PX lease_ms (renewed while draining). One
                               writer per route; every commit checks the token (fencing).
    done:{idem_key}            STRING "1", EX 7 days. The command was applied; written in the
                               commit, so a redelivered command is skipped.
    table:{table id}           HASH doc = the table document (from tables.handle) as
                               "zlib:" + base64(zlib level 6 of its JSON); a doc without
                               the marker is plain JSON from before compression and still
                               loads. Read and written only via store.decode_doc/encode_doc.
                               rev = save counter (checked and bumped by every commit),
                               ver = the table's own "version" (stale-button check in the
                               webhook). No TTL while open; closed: EXPIRE set in the commit
                               that closes it (workers/retention.py) — finished:
                               BGB_FINISHED_TTL_DAYS (30 days), cancelled: 1 day. Records of
                               finished games for ranking/replay are other keys with their
                               own retention (written from retention.plan_saved).
    active                     HASH chat id -> table id open in that group (lobby or game).
    utables:{user id}          SET of table ids the user sits at.
    ulobbies:{user id}         SET of lobbies the user opened that are still lobbies (at most
                               3 open at once); a table leaves it when it starts or closes.
    opened:{chat id}           ZSET table id scored by when it was opened in that group (at
                               most 10 an hour); trimmed to the last hour, EX 1 hour.
    lang                       HASH chat id -> language chosen with /idioma.
    member:{chat id}:{user id} STRING "admin" / "member" / "outsider": the getChatMember answer,
                               EX admin_cache ("outsider": 60 s, so someone who was just
                               added to the group can join soon).
    rem                        ZSET "{table id}|{key}" scored by due time (epoch seconds);
                               the beat moves due ones into the table's inbox as "/_tick key".
    tickseq                    STRING counter; ticks get update_id = -counter.
    beat                       STRING epoch seconds of the last scan (the beat's health check).

Bots' turns (workers/ai.py; the AI's own Celery queue, "{prefix}ai")
    ai:due                     ZSET table id scored by when its bot may move (the bots' pace,
                               BGB_BOT_PACE, after the group's status last changed): the table
                               waits on a seat the AI plays. Added in the commit of the command
                               that announced the turn, removed by a commit that leaves no bot to
                               act and by the push of the bot's move (atomically with it). The
                               durable record of a pending bot turn: the beat re-wakes overdue ones.
    ai:lease:{table id}        STRING random token, PX lease_ms (renewed while thinking): one AI
                               task thinks for a table at a time; the push of its move checks it.
    ai:woke:{table id}         STRING "1", PX (the wait + AI_WAKE_GRACE): an AI task for the table
                               was queued lately; the beat queues another only once it is gone.
    ai:mem:{table id}          STRING base64 of a bot's memory of its last search (workers/tables/
                               bots.py `keep`: seat, match version, move, then rulesets.core.ai.
                               memory's zlib'd tree), for games whose knowledge reuses it (Spellbook solo).
                               Written or deleted by the push of the bot's move, atomically with
                               it; EX MEMORY_TTL (7 days). Losing it costs only its head start.

Finished games (workers/archive.py; written in the commit that ends the game, workers/retention.py)
    arch:{table id}            STRING the finished game's record (workers.tables.record.GameRecord:
                               seats, scores, places, rating changes, points per round, and the
                               match with its whole log) as "zlib:" + base64, like table docs;
                               EX BGB_ARCHIVE_DAYS (365). /partidas, the replay and /exportar read
                               it (the hot table key expires after 30 days). Measured: Spellbook
                               3-7 KB; Trickerion with 4 players, the Dark Alley and the
                               prophecies ~20 KB (≈900 log entries); ≤ 64 KB (tested in
                               tests/tables/test_finished_trickerion.py).
    fin:{owner}                ZSET table id scored by when the game ended: owner "u<user id>" (a
                               person's finished games) or "g<chat id>" (a group's); trimmed at
                               each write to the newest BGB_ARCHIVE_LIST (100) and to the
                               retention; EX BGB_ARCHIVE_DAYS, renewed by every write.
    rt:{game}:{scope}:{entity} HASH mu, sigma, games, wins, name, rev: an openskill rating; scope
                               "all" (everyone) or "g<chat id>" (that group); entity "u<user id>"
                               or "bot:<level>". rev is checked and bumped by the commit that ends
                               a game (two games ending at once for one player: the second is
                               handled again). No TTL (a few hundred bytes per player and game).
    rk:{game}:{scope}          ZSET entity scored by its ordinal (mu - 3 sigma): /ranking. No TTL.
    st:{game}:{entity}         HASH a person's statistics for a game, summed over their finished
                               games: games, wins, score, best (max), moves, think (seconds),
                               l:{score line key} (points), c:{card ref} (games played with it).
                               No TTL.

Outbox (workers/outbox.py: the prompt lane; workers/views.py: the view lane)
    ob:q:{chat id}             LIST of markers, oldest first: "s:{table}|{slot}" (a slot) or
                               "m:{id}" (a one-off message). A marker leaves only after its
                               send succeeded (or failed for good).
    ob:pend:{chat id}          SET of slot markers already in ob:q (coalescing: a newer update
                               of a slot replaces the content, not the queue position).
    ob:bq:{chat id}            LIST of slot markers of the view lane (Outbound.background:
                               status, notes), oldest first; ob:bpend:{chat id} its SET.
    ob:bdue                    ZSET chat id scored by when its view lane may send next (FIFO
                               over chats: a chat goes to the back after each send).
    ob:vlease                  STRING token, PX: the one view pump sending at a time.
    ob:slot:{chat}:{table}|{slot}  STRING JSON, the newest content for that slot.
    ob:msg:{id}                STRING JSON of a one-off message.
    ob:due                     ZSET chat id scored by the earliest time it may send again
                               (rate limits, retry_after); the janitor wakes due chats.
    ob:lease:{chat id}         STRING token, PX: one sender per chat (keeps order).
    ob:sched:{chat id}         STRING "1", PX = the wait: a delayed send task is already queued.
    ob:mid:{chat id}           HASH "{table}|{slot}" -> JSON {"m": message_id, "p": photo hash}:
                               slot -> message id, so a retry edits instead of re-sending.
                               EX 90 days, renewed by every write.
    rl:chat:{id}, rl:group:{id}
                               HASH tokens, ts: shared token buckets (PEXPIRE when idle).
    rl:global:next             STRING epoch ms: the overall limit's next free moment; a send
                               books it (and the one after moves on by 1/rate), PX when idle.
    rl:views                   HASH tokens, ts: the room views may use (BGB_RATE_VIEWS); every
                               prompt-lane send draws on it too (down to a second's debt), so
                               views only send while prompts leave room.
    rl:vcredit                 HASH tokens, ts: the views' credit (BGB_VIEW_CREDIT): every
                               prompt-lane send adds its share, a view takes a token.

Metrics (workers/metrics.py)
    m:c                        HASH counter name -> integer (moves applied, rejected:<reason>,
                               429s, api calls, ...), summed over every process.
    m:h:{name}                 HASH histogram: bucket upper bound -> count, "sum", "count".
    m:lat                      LIST of the last 10,000 press->prompt latencies (seconds).
    m:anat:hook, m:anat:work   LIST of JSON stamps per press (workers/anatomy.py), only with
                               BGB_ANATOMY=1 (the bench); the newest 50,000.
"""

from __future__ import annotations


class Keys:
    def __init__(self, prefix: str) -> None:
        self.p = prefix

    def upd(self, update_id: int) -> str:
        return f"{self.p}upd:{update_id}"

    def flood(self, user_id: int) -> str:
        return f"{self.p}flood:{user_id}"

    def flood_told(self, user_id: int) -> str:
        return f"{self.p}flood:told:{user_id}"

    def cbq(self, query_id: str) -> str:
        return f"{self.p}cbq:{query_id}"

    @property
    def answers(self) -> str:
        return f"{self.p}answers"

    def inbox(self, route: str) -> str:
        return f"{self.p}inbox:{route}"

    @property
    def pending(self) -> str:
        return f"{self.p}pending"

    def lease(self, route: str) -> str:
        return f"{self.p}lease:{route}"

    def done(self, idem: str) -> str:
        return f"{self.p}done:{idem}"

    def table(self, table_id: str) -> str:
        return f"{self.p}table:{table_id}"

    @property
    def active(self) -> str:
        return f"{self.p}active"

    def utables(self, user_id: int) -> str:
        return f"{self.p}utables:{user_id}"

    @property
    def lang(self) -> str:
        return f"{self.p}lang"

    def member(self, chat_id: int, user_id: int) -> str:
        return f"{self.p}member:{chat_id}:{user_id}"

    def ulobbies(self, user_id: int) -> str:
        return f"{self.p}ulobbies:{user_id}"

    def opened(self, chat_id: int) -> str:
        return f"{self.p}opened:{chat_id}"

    @property
    def rem(self) -> str:
        return f"{self.p}rem"

    @property
    def beat(self) -> str:
        return f"{self.p}beat"

    @property
    def tickseq(self) -> str:
        return f"{self.p}tickseq"

    # bots' turns
    @property
    def ai_due(self) -> str:
        return f"{self.p}ai:due"

    def ai_lease(self, table_id: str) -> str:
        return f"{self.p}ai:lease:{table_id}"

    def ai_memory(self, table_id: str) -> str:
        return f"{self.p}ai:mem:{table_id}"

    def ai_woke(self, table_id: str) -> str:
        return f"{self.p}ai:woke:{table_id}"

    # finished games
    def archive(self, table_id: str) -> str:
        return f"{self.p}arch:{table_id}"

    def finished(self, owner: str) -> str:
        return f"{self.p}fin:{owner}"

    def rating(self, game: str, scope: str, entity: str) -> str:
        return f"{self.p}rt:{game}:{scope}:{entity}"

    def ranking(self, game: str, scope: str) -> str:
        return f"{self.p}rk:{game}:{scope}"

    def stats(self, game: str, entity: str) -> str:
        return f"{self.p}st:{game}:{entity}"

    # outbox
    def ob_q(self, chat_id: int) -> str:
        return f"{self.p}ob:q:{chat_id}"

    def ob_pend(self, chat_id: int) -> str:
        return f"{self.p}ob:pend:{chat_id}"

    def ob_slot(self, chat_id: int, slot_key: str) -> str:
        return f"{self.p}ob:slot:{chat_id}:{slot_key}"

    def ob_msg(self, msg_id: str) -> str:
        return f"{self.p}ob:msg:{msg_id}"

    @property
    def ob_due(self) -> str:
        return f"{self.p}ob:due"

    def ob_bq(self, chat_id: int) -> str:
        return f"{self.p}ob:bq:{chat_id}"

    def ob_bpend(self, chat_id: int) -> str:
        return f"{self.p}ob:bpend:{chat_id}"

    @property
    def ob_bdue(self) -> str:
        return f"{self.p}ob:bdue"

    @property
    def ob_vlease(self) -> str:
        return f"{self.p}ob:vlease"

    def ob_lease(self, chat_id: int) -> str:
        return f"{self.p}ob:lease:{chat_id}"

    def ob_sched(self, chat_id: int) -> str:
        return f"{self.p}ob:sched:{chat_id}"

    def ob_mid(self, chat_id: int) -> str:
        return f"{self.p}ob:mid:{chat_id}"

    @property
    def rl_global(self) -> str:
        return f"{self.p}rl:global:log"  # a LIST of booked moments (workers/outbox.py)

    def rl_chat(self, chat_id: int) -> str:
        return f"{self.p}rl:chat:{chat_id}"

    def rl_group(self, chat_id: int) -> str:
        return f"{self.p}rl:group:{chat_id}"

    @property
    def rl_views(self) -> str:
        return f"{self.p}rl:views"

    @property
    def rl_vcredit(self) -> str:
        return f"{self.p}rl:vcredit"

    # metrics
    @property
    def m_counters(self) -> str:
        return f"{self.p}m:c"

    def m_hist(self, name: str) -> str:
        return f"{self.p}m:h:{name}"

    @property
    def m_lat(self) -> str:
        return f"{self.p}m:lat"

    def m_anatomy(self, where: str) -> str:
        return f"{self.p}m:anat:{where}"
