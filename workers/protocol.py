"""The seam between the plumbing and the table logic.

The plumbing (webhook in `bot/`, Celery tasks, Redis store and outbox in `workers/`) moves
`Command`s in and `Outbound` messages out, durably, once each, in order, within Telegram's
limits. The table logic (`workers/tables/`) decides what a command means for a table — a
lobby or a game in progress — and what each chat should now show. It is a pure function:

    tables.handle(table, command, directory, now) -> Result

with no Redis, no Telegram and no clock of its own (`now` is passed in), so it is tested
without either and the plumbing can retry it safely: handling the same command on the same
table version always gives the same Result.

Routing: every Command carries a `route`, the key of the inbox it goes to. A command about a
known table routes to that table's id; one that is not about a table yet (a `/novojogo` in a
group with no table, `/jogos` or `/idioma` in private) routes to `chat:<chat_id>`, whose
commands are handled with `table=None`.
"""

from __future__ import annotations

from typing import Literal, Protocol

from pydantic import BaseModel, Field

# --------------------------------------------------------------------------- in


class Command(BaseModel):
    """One Telegram update, reduced to what the table logic needs. Built by the webhook."""

    update_id: int
    kind: Literal["message", "callback"]
    route: str  # "<table id>" or "chat:<chat_id>"
    chat_id: int
    chat_type: Literal["private", "group", "supergroup", "channel"]
    user_id: int
    user_name: str  # first name (+ last name), for display
    username: str | None = None
    language_code: str | None = None
    text: str | None = None  # message text, commands included ("/novojogo spellbook")
    callback_data: str | None = None
    callback_query_id: str | None = None
    message_id: int | None = None  # the message the pressed button sits on
    is_chat_admin: bool = False  # filled by the worker for group commands that need it
    # Filled by the worker for "/start j<table id>": is the sender a member of the table's
    # group (getChatMember)? None = not known (not asked, or Telegram did not answer).
    is_chat_member: bool | None = None
    received_at: float  # webhook's wall clock, seconds (for press -> prompt latency)

    @property
    def idem_key(self) -> str:
        """Applying a command twice is prevented by this key (Telegram's update_id)."""
        return f"u{self.update_id}"


# -------------------------------------------------------------------------- out


class Button(BaseModel):
    text: str
    callback_data: str | None = None  # ≤ 64 bytes, see `callback` below
    url: str | None = None


class Outbound(BaseModel):
    """A message a chat should now show.

    `slot` names a message that is edited in place rather than sent again: the group's status
    message of a table ("status"), a player's current prompt ("prompt"), the lobby ("lobby").
    The outbox remembers slot -> message_id per chat, so a retried send edits instead of
    duplicating, and when several updates of one slot wait in the outbox only the newest is
    sent. `slot=None` is a one-off message (a digest line, a reminder, the final scores).

    `background` (slots only): a view that may lag behind — the group's status, a finished
    turn's note. It rides the outbox's view lane (workers/views.py): after every prompt, only
    while the bot has room to spare, the newest content of its slot winning while it waits.
    `supersedes`: a slot of the same table in the same chat that this message takes over from
    (a player's new turn message after their last one): a background update of that slot still
    waiting loses its buttons, which the chat has moved on from, and still goes out in its turn.
    """

    chat_id: int
    table_id: str | None = None
    slot: str | None = None
    text: str  # Telegram HTML (parse_mode="HTML"); ≤ 4096 characters, ≤ 1024 with a photo
    buttons: list[list[Button]] = []
    photo_png: bytes | None = None  # a picture of the table; text becomes its caption
    # a picture drawn when the message is sent rather than now (views only: a status the view
    # lane may replace before it goes out is never drawn): {"game", "view", "names", "lang",
    # "key"}, the public view it is drawn from and its fingerprint (workers/tables/picture.py)
    picture: dict | None = None
    # a file (sendDocument; one-off messages only): its name and bytes; text becomes its caption
    document_name: str | None = None
    document: bytes | None = None
    silent: bool = False  # disable_notification (status edits and digests should not buzz)
    delete_slot: bool = False  # remove the slot's message (e.g. a prompt that was answered)
    # pin the slot's message, without a notification, when it is sent as a new message (the group's
    # status): best effort — without the right to pin, the message is simply not pinned
    pin: bool = False
    background: bool = False
    supersedes: str | None = None


class Reminder(BaseModel):
    """Wake the table at `due` (epoch seconds) with a `/_tick` command, via the beat's
    sorted set. One pending reminder per (table, key); scheduling again replaces it."""

    table_id: str
    key: str
    due: float


class RatingUpdate(BaseModel):
    """One entity's new rating in one (game, scope), computed from the record of revision `rev`: the
    commit that ends the game checks that revision is still the stored one (else the command is
    handled again, from the newer rating)."""

    game: str
    scope: str  # "all" or "g<chat id>"
    entity: str  # "u<user id>" or "bot:<level>"
    mu: float
    sigma: float
    ordinal: float  # what rankings sort by (mu - 3 sigma)
    games: int
    wins: int
    name: str
    rev: int


class StatsUpdate(BaseModel):
    """What one finished game adds to a person's statistics for that game: sums (`add`) and
    best values (`best`, kept when larger)."""

    game: str
    entity: str
    add: dict[str, int]
    best: dict[str, int] = Field(default_factory=dict)


class Finished(BaseModel):
    """What a finished game leaves behind, written in the commit that ends it (workers/retention.py):
    its archived record (summary + match with its log), the players' and the group's lists of
    finished games, ratings and statistics."""

    table_id: str
    game: str
    chat_id: int
    ended_at: float
    record: dict  # workers.tables.record.GameRecord JSON
    users: list[int]  # the people who sat at the table: the game joins their lists
    ratings: list[RatingUpdate] = []
    stats: list[StatsUpdate] = []


class BotTurn(BaseModel):
    """A seat the AI plays is to act at this table (workers/tables/bots.py). The plumbing records it in the
    commit and wakes the AI task (workers/ai.py) on its own queue no sooner than the bots' pace
    (BGB_BOT_PACE) after `since`, the moment the group's status message last changed: bots move at a
    pace the group can follow, and never faster than its status can be edited (20 messages a minute)."""

    table_id: str
    since: float


class Result(BaseModel):
    """What handling one command decided."""

    table: dict | None = None  # the table document to save (None = unchanged)
    outbound: list[Outbound] = []
    callback_answer: str | None = None  # toast text for the pressed button ("" = silent)
    callback_alert: bool = False
    reminders: list[Reminder] = []
    cancel_reminders: list[str] = []  # keys
    # Index changes the plumbing applies with the save (chat -> active table, user -> tables).
    set_active: dict[int, str | None] = Field(default_factory=dict)  # chat_id -> table id / None
    user_tables_add: dict[int, list[str]] = Field(default_factory=dict)
    user_tables_remove: dict[int, list[str]] = Field(default_factory=dict)
    # Lobbies a user opened and that are still lobbies (the cap per user), and tables opened
    # in a group (chat_id -> table id, recorded at `now`: the cap per group and hour).
    user_lobbies_add: dict[int, list[str]] = Field(default_factory=dict)
    user_lobbies_remove: dict[int, list[str]] = Field(default_factory=dict)
    table_opened: dict[int, str] = Field(default_factory=dict)
    chat_lang: dict[int, str] = Field(default_factory=dict)  # /idioma
    finished: Finished | None = None  # a game ended with this command
    # A bot is to move (None with a saved table: no bot is; the plumbing forgets the table's pending turn)
    bot_turn: BotTurn | None = None
    metrics: dict[str, int] = Field(default_factory=dict)  # e.g. {"moves_applied": 1, "rejected:stale": 1}


# ---------------------------------------------------------------- callback data
# callback_data = "<table id>:<version>:<arg>", ≤ 64 bytes. The table id routes the press
# without any lookup; the version makes every button of an older state stale; the arg is
# interpreted by the table logic (a choice index, a lobby action, ...) and validated there
# against the presser and the current prompt. Anything else is forged or garbage.

TABLE_ID_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789"


def callback(table_id: str, version: int, arg: str) -> str:
    data = f"{table_id}:{version}:{arg}"
    if len(data.encode()) > 64:
        raise ValueError(f"callback_data too long: {data!r}")
    return data


def parse_callback(data: str | None) -> tuple[str, int, str] | None:
    """(table id, version, arg) or None when the data is not ours."""
    if not data or len(data.encode()) > 64:
        return None
    parts = data.split(":", 2)
    if len(parts) != 3:
        return None
    table_id, version, arg = parts
    if not (1 <= len(table_id) <= 16) or any(c not in TABLE_ID_CHARS for c in table_id):
        return None
    number = ascii_int(version)
    if number is None:
        return None
    return table_id, number, arg


# A finished game's buttons (its replay, its export) and /partidas pages belong to the chat they sit
# in, not to an open table (the table's own key may have expired; the game lives on in its archived
# record): their data is "~<arg>", routed to the chat's own route "chat:<chat id>". The arg names the
# archived game; the table logic checks it against the presser and the chat.

CHAT_BUTTON = "~"


def chat_callback(arg: str) -> str:
    data = CHAT_BUTTON + arg
    if len(data.encode()) > 64:
        raise ValueError(f"callback_data too long: {data!r}")
    return data


def parse_chat_callback(data: str | None) -> str | None:
    """The arg of a chat button, or None when the data is not one."""
    if not data or not data.startswith(CHAT_BUTTON) or len(data.encode()) > 64:
        return None
    return data[len(CHAT_BUTTON):]


def ascii_int(s: str, max_len: int = 9) -> int | None:
    """A number sent by a user (callback data, command arguments): ASCII digits only, at
    most `max_len` of them. "²" and "٣" are digits to str.isdigit(), and int() then raises
    on the first and accepts the second, so isdigit() alone is never the check."""
    if s and len(s) <= max_len and s.isascii() and s.isdigit():
        return int(s)
    return None


# ------------------------------------------------------------ deep-link joining
# Joining a table goes through https://t.me/<bot>?start=<payload> so every player has opened
# the bot's private chat (Telegram forbids a bot to write first). The webhook routes
# "/start <payload>" to the table named in the payload.

JOIN_PREFIX = "j"


def join_payload(table_id: str) -> str:
    return f"{JOIN_PREFIX}{table_id}"


def parse_join_payload(payload: str | None) -> str | None:
    if not payload or not payload.startswith(JOIN_PREFIX):
        return None
    table_id = payload[len(JOIN_PREFIX):]
    if 1 <= len(table_id) <= 16 and all(c in TABLE_ID_CHARS for c in table_id):
        return table_id
    return None


# ------------------------------------------------------------------ read access


class Directory(Protocol):
    """Read-only look-ups the table logic may make while handling a command."""

    def active_table(self, chat_id: int) -> str | None:
        """The table currently open in a group chat (lobby or game), if any."""

    def user_tables(self, user_id: int) -> list[str]:
        """Ids of the tables a user sits at (any status)."""

    def load_table(self, table_id: str) -> dict | None:
        """Another table's saved document (e.g. for `/jogos`)."""

    def user_lobbies(self, user_id: int) -> list[str]:
        """Ids of the lobbies a user opened that were still lobbies when last saved."""

    def tables_opened(self, chat_id: int, since: float) -> int:
        """How many tables were opened in a group chat since `since` (epoch seconds)."""

    def chat_lang(self, chat_id: int) -> str | None:
        """The language chosen with /idioma for that chat, if any."""

    def new_table_id(self) -> str:
        """A fresh unique table id (lowercase letters and digits, ≤ 16 chars)."""

    # finished games (workers/archive.py): ratings, statistics, records and their lists

    def ratings(self, game: str, scope: str, entities: list[str]) -> dict[str, dict]:
        """The stored rating records (mu, sigma, games, wins, name, rev) of those entities that have one."""

    def top(self, game: str, scope: str, count: int) -> list[tuple[str, dict]]:
        """The `count` best-rated entities of (game, scope), best first, with their records."""

    def place(self, game: str, scope: str, entity: str) -> tuple[int, int] | None:
        """(place, how many are rated) of an entity in (game, scope); None when it has no rating."""

    def stats(self, game: str, entity: str) -> dict[str, int]:
        """A person's statistics for a game (empty: never finished one)."""

    def finished(self, owner: str, start: int, count: int) -> tuple[list[str], int]:
        """Finished games of a person ("u<id>") or a group ("g<chat id>"), newest first: the ids from
        `start` on (at most `count`) and how many there are."""

    def load_record(self, table_id: str) -> dict | None:
        """A finished game's archived record (workers.tables.record.GameRecord JSON)."""
