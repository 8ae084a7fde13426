"""The table document: one lobby or game in one group chat, as the store saves it.

A table is plain JSON (`Table.model_dump(mode="json")`); the match inside it is the rules
core's `Match` JSON, so a game in progress can be loaded with `rulesets.core.load_match` and
replayed from its log. `version` increases with every saved change; every button carries the
version at which its message was drawn, so a button from an older drawing of that message is
stale ("Essa opção não vale mais").

What each chat shows is remembered here as `Shown` records (slot name, the version its
buttons carry, a fingerprint of the content): that is how the table logic edits in place,
skips unchanged messages and recognises a press on an outdated message.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from rulesets.core import Match, load_match

Status = Literal["lobby", "playing", "over", "cancelled"]

DEFAULT_REMINDER_HOURS = [12.0, 24.0]
SEEN_UPDATES = 40  # update ids remembered to make redelivered commands no-ops
STAND_IN_LEVEL = "medio"  # the AI that plays for a player who left or whose turn the others handed over


class Shown(BaseModel):
    """A message a chat currently shows for this table."""

    slot: str  # the Outbound slot name
    version: int  # table version carried by its buttons
    digest: str  # fingerprint of its content (text, buttons, picture)
    kind: Literal["prompt", "note", "lobby", "status", "confirm"] = "prompt"
    # a prompt: its cards' texts are open (ℹ️), and the lines of what just happened drawn above it
    # (kept so that opening the texts redraws the same message)
    explain: bool = False
    recap: list[str] = []
    # a photo message (a prompt's or note's private picture): the picture's subject, redrawn from the
    # seat's view at every edit; the message stays a photo until it is replaced
    picture: str | None = None


class SeatInfo(BaseModel):
    user_id: int
    name: str
    lang: str = "pt_BR"  # from the user's Telegram language when they joined
    left: bool = False  # played by the médio AI since they left (workers/tables/bots.py)
    bot: str | None = None  # the AI level playing this seat (a bot seat: rated as "bot:<level>"); None: a person
    # the others voted after the reminders: the médio AI plays this seat until the table no longer waits on it
    covered: bool = False
    joined_at: float = 0.0
    last_active: float = 0.0  # last move or command at this table
    waiting_since: float | None = None  # when the table started waiting on this seat
    reminded: int = 0  # reminders sent during the current wait
    gen: int = 0  # how many prompt messages this seat was sent (slot "prompt.<gen>")
    seen_to: int = 0  # match log entries before this one were shown to this player
    moves: int = 0  # moves the player made (the stand-in's are not counted)
    think: float = 0.0  # seconds those moves took, each from the moment the table waited on them
    shown: Shown | None = None  # the private message holding this seat's prompt or note
    joined_slot: str | None = None  # the private "you joined" message, with its Sair button (lobby)

    @property
    def played_by(self) -> str | None:
        """The AI level that makes this seat's moves now, or None when its person does."""
        if self.bot:
            return self.bot
        return STAND_IN_LEVEL if self.left or self.covered else None

    @property
    def person(self) -> bool:
        """A person sits here and still plays (has a private chat with the bot for this table)."""
        return self.bot is None and not self.left


class Table(BaseModel):
    id: str
    game: str
    chat_id: int
    creator: int
    status: Status = "lobby"
    version: int = 1
    created_at: float = 0.0
    started_at: float | None = None
    ended_at: float | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatInfo] = Field(default_factory=list)
    match: dict[str, Any] | None = None  # rulesets.core.Match JSON
    # group messages
    lobby: Shown | None = None
    lobby_view: Literal["main", "options", "remove", "bots"] = "main"
    lobby_active_at: float = 0.0  # the lobby's last change (it is cancelled after 48 h idle)
    status_msg: Shown | None = None
    status_gen: int = 0
    status_posted_at: float = 0.0
    status_at: float = 0.0  # when the status message last changed (the bots' pace counts from it)
    confirm: Shown | None = None  # the /cancelar confirmation
    # The status message's digest shows the public events of match log entries
    # [digest_from, digest_to): the last turn, read straight from the log, so an undo
    # cannot leave an undone move in it.
    digest_from: int = 0
    digest_to: int = 0
    # reminders and pings
    reminder_hours: list[float] = Field(default_factory=lambda: list(DEFAULT_REMINDER_HOURS))
    last_ping: float | None = None
    votes: dict[str, list[int]] = Field(default_factory=dict)  # seat -> users voting the AI in for a turn
    # bots (workers/tables/bots.py): the seats the match waits on, as of the last move (so whether a bot is to
    # act is known without loading the match), and the log's length right after the AI's last move (a
    # person's undo never takes back a move the AI made, even on their own seat)
    acting: list[int] = Field(default_factory=list)
    ai_log: int = 0
    seen: list[int] = Field(default_factory=list)

    # ------------------------------------------------------------------ helpers

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s.user_id == user_id:
                return i
        return None

    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def humans(self) -> list[int]:
        """Seats whose person still plays (neither a bot nor a player who left)."""
        return [i for i, s in enumerate(self.seats) if s.person]

    def load(self) -> Match:
        if self.match is None:
            raise ValueError(f"table {self.id} has no match")
        return load_match(self.match)

    def store(self, match: Match) -> None:
        self.match = match.model_dump(mode="json")

    @property
    def open(self) -> bool:
        return self.status in ("lobby", "playing")
