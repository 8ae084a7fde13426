"""A stand-in for the plumbing: routes commands like the webhook, calls `handle`, saves the
table with a version check, applies the index changes and keeps every chat's messages by
slot, plus a transcript of everything each chat was ever sent (for leak checks)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from workers.protocol import Button, Command, Outbound, Result, parse_callback, parse_chat_callback, parse_join_payload
from workers.tables import bots, handle, lobby, picture, render

GROUP = -1000
ANA, BIA, CAIO = 101, 102, 103
NAMES = {ANA: "Ana", BIA: "Bia", CAIO: "Caio"}


class FakeDirectory:
    def __init__(self) -> None:
        self.tables: dict[str, dict] = {}
        self.active: dict[int, str] = {}
        self.user: dict[int, list[str]] = {}
        self.langs: dict[int, str] = {}
        self.lobbies: dict[int, list[str]] = {}
        self.opened: dict[int, list[tuple[float, str]]] = {}
        self.ids = 0
        # finished games, as workers/archive.py keeps them in Redis
        self.records: dict[str, dict] = {}
        self.lists: dict[str, dict[str, float]] = {}  # owner -> table id -> ended at
        self.rating: dict[tuple[str, str, str], dict] = {}  # (game, scope, entity) -> record
        self.stat: dict[tuple[str, str], dict[str, int]] = {}

    def ratings(self, game: str, scope: str, entities: list[str]) -> dict[str, dict]:
        return {e: dict(self.rating[(game, scope, e)]) for e in entities if (game, scope, e) in self.rating}

    def _ranked(self, game: str, scope: str) -> list[str]:
        found = [(r["ordinal"], e) for (g, sc, e), r in self.rating.items() if g == game and sc == scope]
        return [e for _, e in sorted(found, reverse=True)]

    def top(self, game: str, scope: str, count: int) -> list[tuple[str, dict]]:
        return [(e, dict(self.rating[(game, scope, e)])) for e in self._ranked(game, scope)[:count]]

    def place(self, game: str, scope: str, entity: str) -> tuple[int, int] | None:
        ranked = self._ranked(game, scope)
        return (ranked.index(entity) + 1, len(ranked)) if entity in ranked else None

    def stats(self, game: str, entity: str) -> dict[str, int]:
        return dict(self.stat.get((game, entity), {}))

    def finished(self, owner: str, start: int, count: int) -> tuple[list[str], int]:
        # as Redis' ZREVRANGE: newest first, ties by member, descending
        games = sorted(self.lists.get(owner, {}).items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
        return [t for t, _ in games[start:start + count]], len(games)

    def load_record(self, table_id: str) -> dict | None:
        return self.records.get(table_id)

    def keep(self, finished) -> None:
        """What the end-of-game commit writes (workers/archive.py), with its revision checks."""
        for r in finished.ratings:
            stored = self.rating.get((r.game, r.scope, r.entity), {"rev": 0})
            assert stored["rev"] == r.rev, "a rating computed from an old revision"
        self.records[finished.table_id] = finished.record
        for owner in [f"u{u}" for u in finished.users] + [f"g{finished.chat_id}"]:
            self.lists.setdefault(owner, {})[finished.table_id] = finished.ended_at
        for r in finished.ratings:
            key = (r.game, r.scope, r.entity)
            self.rating[key] = {"mu": r.mu, "sigma": r.sigma, "games": r.games, "wins": r.wins, "name": r.name,
                                "rev": self.rating.get(key, {"rev": 0})["rev"] + 1, "ordinal": r.ordinal}
        for st in finished.stats:
            into = self.stat.setdefault((st.game, st.entity), {})
            for k, v in st.add.items():
                into[k] = into.get(k, 0) + v
            for k, v in st.best.items():
                into[k] = max(into.get(k, v), v)

    def active_table(self, chat_id: int) -> str | None:
        return self.active.get(chat_id)

    def user_tables(self, user_id: int) -> list[str]:
        return list(self.user.get(user_id, []))

    def load_table(self, table_id: str) -> dict | None:
        return self.tables.get(table_id)

    def chat_lang(self, chat_id: int) -> str | None:
        return self.langs.get(chat_id)

    def user_lobbies(self, user_id: int) -> list[str]:
        return list(self.lobbies.get(user_id, []))

    def tables_opened(self, chat_id: int, since: float) -> int:
        return sum(1 for at, _ in self.opened.get(chat_id, []) if at >= since)

    def new_table_id(self) -> str:
        self.ids += 1
        return f"t{self.ids}"


@dataclass
class Message:
    text: str
    buttons: list[list[Button]]
    photo: bytes | None = None
    slot: str | None = None


@dataclass
class Chat:
    slots: dict[str, Message] = field(default_factory=dict)
    oneoffs: list[Message] = field(default_factory=list)
    transcript: list[str] = field(default_factory=list)
    outbound: list[Outbound] = field(default_factory=list)

    def live(self) -> list[Message]:
        return list(self.slots.values()) + self.oneoffs

    def text(self) -> str:
        return "\n".join(self.transcript)

    def final_scores(self) -> str:
        """The last end-of-game message (the summary picture's caption comes after it)."""
        return next(t for t in reversed(self.transcript) if t.startswith("🏁"))


class World:
    def __init__(self) -> None:
        self.dir = FakeDirectory()
        self.chats: dict[int, Chat] = {}
        self.now = 1_000_000.0
        self.update = 0
        self.results: list[Result] = []
        self.commands: list[Command] = []  # the command of each result
        self.admins: set[int] = set()
        self.outsiders: set[int] = set()  # users who are not members of the group (getChatMember)
        self.langs_app: dict[int, str] = {}
        self.reminders: dict[tuple[str, str], float] = {}
        self.last_table = ""
        # bots: what the AI task does (workers/ai.py), run right after the command that announced the turn;
        # `auto_bots = False` leaves the turns pending (`bot_turns` holds what was announced) for `run_bots`
        self.auto_bots = True
        self.bot_turns: list[tuple[str, float]] = []
        self.bot_moves = 0
        self.bot_memory: dict[str, bytes] = {}  # table id -> what the bots kept of their last search (ai:mem)
        self._machine = 0
        self._thinking = False

    def chat(self, chat_id: int) -> Chat:
        return self.chats.setdefault(chat_id, Chat())

    # ------------------------------------------------------------------ commands

    def command(self, user: int, chat_id: int, *, text: str | None = None, data: str | None = None,
                name: str | None = None) -> Command:
        self.update += 1
        chat_type = "private" if chat_id > 0 else "supergroup"
        joining = text is not None and text.startswith("/start j") and chat_id > 0
        return Command(update_id=self.update, kind="callback" if data is not None else "message",
                       route=self.route(chat_id, text, data), chat_id=chat_id, chat_type=chat_type,
                       user_id=user, user_name=name or NAMES.get(user, f"U{user}"),
                       language_code=self.langs_app.get(user, "pt-br"), text=text, callback_data=data,
                       callback_query_id="q" if data is not None else None, is_chat_admin=user in self.admins,
                       is_chat_member=(user not in self.outsiders) if joining else None,
                       received_at=self.now)

    def route(self, chat_id: int, text: str | None, data: str | None) -> str:
        if data is not None:
            parsed = parse_callback(data)
            return parsed[0] if parsed else f"chat:{chat_id}"
        if text and text.startswith("/start ") and chat_id > 0:
            table_id = parse_join_payload(text.split()[1])
            if table_id:
                return table_id
        if chat_id < 0 and self.dir.active_table(chat_id):
            return self.dir.active_table(chat_id)
        return f"chat:{chat_id}"

    def run(self, cmd: Command) -> Result:
        table = self.dir.tables.get(cmd.route)
        result = handle(table, cmd, self.dir, self.now)
        again = handle(table, cmd, self.dir, self.now)
        assert again == result, "handle is not deterministic"
        self.apply(result, table)
        self.results.append(result)
        self.commands.append(cmd)
        if result.bot_turn is not None:
            self.bot_turns.append((result.bot_turn.table_id, result.bot_turn.since))
            if self.auto_bots and not self._thinking:
                self.run_bots(result.bot_turn.table_id)
        return result

    def bot_command(self, move: bots.BotMove) -> Command:
        """The command the AI task queues on the table's route (workers/ai.py): from user 0, with a
        negative update id as the beat's ticks have."""
        self._machine += 1
        return Command(update_id=-self._machine, kind="message", route=move.table_id, chat_id=0, chat_type="group",
                       user_id=bots.BOT_USER, user_name="", text=move.text(), received_at=self.now)

    def run_bots(self, table_id: str | None = None, limit: int = 5000) -> int:
        """Play the bots' moves while the table waits on a seat the AI plays; returns how many were made."""
        table_id = table_id or self.last_table
        self._thinking = True
        made = 0
        try:
            while made < limit:
                doc = self.dir.tables.get(table_id)
                move = bots.next_move(doc, memory=self.bot_memory.get(table_id)) if doc is not None else None
                if move is None:
                    break
                self.bot_memory[table_id] = move.memory  # as the AI task's push keeps it (workers/ai.py)
                result = self.run(self.bot_command(move))
                assert result.table is not None, ("a bot's move was refused", result.metrics)
                made += 1
        finally:
            self._thinking = False
        self.bot_moves += made
        assert made < limit, "the bots never stopped"
        return made

    def last_command(self, i: int) -> Command:
        return self.commands[i]

    def say(self, user: int, chat_id: int, text: str) -> Result:
        return self.run(self.command(user, chat_id, text=text))

    def click(self, user: int, chat_id: int, data: str) -> Result:
        return self.run(self.command(user, chat_id, data=data))

    def apply(self, result: Result, before: dict | None) -> None:
        if result.finished is not None:
            assert result.table is not None and result.table["status"] == "over"
            self.dir.keep(result.finished)
        if result.table is not None:
            saved = self.dir.tables.get(result.table["id"])
            if saved is not None:
                assert result.table["version"] > saved["version"], "version did not increase"
            else:
                self.last_table = result.table["id"]
            self.dir.tables[result.table["id"]] = result.table
        for chat_id, table_id in result.set_active.items():
            if table_id is None:
                self.dir.active.pop(chat_id, None)
            else:
                self.dir.active[chat_id] = table_id
        for user, ids in result.user_tables_add.items():
            self.dir.user.setdefault(user, []).extend(i for i in ids if i not in self.dir.user.get(user, []))
        for user, ids in result.user_tables_remove.items():
            self.dir.user[user] = [i for i in self.dir.user.get(user, []) if i not in ids]
        for user, ids in result.user_lobbies_add.items():
            self.dir.lobbies.setdefault(user, []).extend(i for i in ids if i not in self.dir.lobbies.get(user, []))
        for user, ids in result.user_lobbies_remove.items():
            self.dir.lobbies[user] = [i for i in self.dir.lobbies.get(user, []) if i not in ids]
        for chat_id, table_id in result.table_opened.items():
            self.dir.opened.setdefault(chat_id, []).append((self.now, table_id))
        self.dir.langs.update(result.chat_lang)
        for key in result.cancel_reminders:
            table_id = result.table["id"] if result.table else (before or {}).get("id")
            self.reminders.pop((table_id, key), None)
        for r in result.reminders:
            self.reminders[(r.table_id, r.key)] = r.due
        for out in result.outbound:
            check_limits(out)
            chat = self.chat(out.chat_id)
            chat.outbound.append(out)
            if out.delete_slot:
                assert out.slot is not None
                chat.slots.pop(out.slot, None)
                continue
            chat.transcript.append(out.text)
            drawn = picture.draw(out.picture) if out.picture is not None else out.photo_png  # as the outbox does
            if out.slot is None:
                chat.oneoffs.append(Message(out.text, out.buttons, drawn))
            else:
                old = chat.slots.get(out.slot)
                photo = drawn if drawn is not None else (old.photo if old else None)
                chat.slots[out.slot] = Message(out.text, out.buttons, photo, out.slot)

    # ------------------------------------------------------------------ helpers

    def table(self, table_id: str | None = None) -> dict:
        return self.dir.tables[table_id or self.last_table]

    def buttons(self, chat_id: int) -> list[Button]:
        return [b for m in self.chat(chat_id).live() for row in m.buttons for b in row]

    def button(self, chat_id: int, text: str) -> Button:
        found = [b for b in self.buttons(chat_id) if b.text == text]
        assert found, f"no button {text!r} in chat {chat_id}: {[b.text for b in self.buttons(chat_id)]}"
        return found[-1]

    def press(self, user: int, chat_id: int, text: str) -> Result:
        return self.click(user, chat_id, self.button(chat_id, text).callback_data)

    def prompt_buttons(self, user: int) -> list[Button]:
        """The choice buttons of the user's live prompt (not undo, not notes)."""
        table = self.table()
        for seat in table["seats"]:
            if seat["user_id"] == user and seat["shown"] and seat["shown"]["kind"] == "prompt":
                msg = self.chat(user).slots.get(seat["shown"]["slot"])
                assert msg is not None
                return [b for row in msg.buttons for b in row if "." in b.callback_data.split(":")[2]]
        return []

    def open_lobby(self, game: str, users: list[int], creator: int = ANA) -> None:
        self.say(creator, GROUP, f"/novojogo {game}")
        table_id = self.dir.active_table(GROUP)
        for u in users:
            self.say(u, u, f"/start j{table_id}")

    def play_out(self, users: list[int], seed: int = 1, max_presses: int = 5000, avoid: str | None = None) -> int:
        """Everyone presses buttons of their live prompt until the game ends; returns presses.
        `avoid`: a label pressed only when nothing else is offered (like a player who does not
        skip phases)."""
        rng = random.Random(seed)
        presses = 0
        while self.table()["status"] == "playing":
            movers = [u for u in users if self.prompt_buttons(u)]
            assert movers, "nobody has a prompt but the game goes on"
            user = rng.choice(movers)
            offered = self.prompt_buttons(user)
            keen = [b for b in offered if b.text != avoid]
            choice = rng.choice(keen or offered)
            result = self.click(user, user, choice.callback_data)
            assert result.table is not None, (result.callback_answer, choice)
            presses += 1
            assert presses < max_presses
        return presses


def check_limits(out: Outbound) -> None:
    limit = render.CAPTION_LIMIT if out.photo_png or out.picture else render.TEXT_LIMIT
    assert render.utf16_len(out.text) <= limit
    assert out.delete_slot or out.text.strip()
    count = 0
    for row in out.buttons:
        assert 1 <= len(row) <= render.ROW_LIMIT
        for b in row:
            count += 1
            assert (b.callback_data is None) != (b.url is None)
            if b.callback_data is not None:
                assert len(b.callback_data.encode()) <= 64
                assert parse_callback(b.callback_data) is not None or parse_chat_callback(b.callback_data) is not None
    assert count <= render.BUTTON_LIMIT
    if out.photo_png is not None:
        assert out.photo_png.startswith(b"\x89PNG") and len(out.photo_png) < 100_000
    if out.picture is not None:  # drawn by the outbox when sent: a view that may wait, or a new status (pinned)
        assert (out.background or out.pin) and out.slot and out.photo_png is None
        assert out.picture["view"].get("you") is None


def bot_username() -> str:
    return lobby.BOT_USERNAME
