"""Everything one `handle` call works with: the table, the command, read-only look-ups, the
clock value it was given, and the Result being built."""

from __future__ import annotations

import locales
from rulesets.core import Msg
from workers.protocol import Button, Command, Directory, Outbound, Result
from workers.tables import render
from workers.tables.model import SEEN_UPDATES, Table


class Ctx:
    def __init__(self, table: Table | None, command: Command, directory: Directory, now: float) -> None:
        self.table = table
        self.cmd = command
        self.dir = directory
        self.now = now
        self.result = Result()
        self.changed = False

    # ------------------------------------------------------------------ languages

    def chat_lang(self, chat_id: int, fallback: str | None = None) -> str:
        chosen = self.dir.chat_lang(chat_id)
        return render.lang_or_default(chosen or fallback)

    @property
    def user_lang(self) -> str:
        """The presser's language: their private chat's /idioma, else their Telegram app's."""
        return self.chat_lang(self.cmd.user_id, locales.normalize(self.cmd.language_code))

    @property
    def here_lang(self) -> str:
        """The language of the chat the command came from."""
        if self.cmd.chat_type == "private":
            return self.user_lang
        return self.chat_lang(self.cmd.chat_id)

    @property
    def group_lang(self) -> str:
        assert self.table is not None
        return self.chat_lang(self.table.chat_id)

    def seat_lang(self, i: int) -> str:
        assert self.table is not None
        seat = self.table.seats[i]
        return self.chat_lang(seat.user_id, seat.lang)

    # ------------------------------------------------------------------ changes

    def touch(self) -> None:
        """The table changes: the new version is the one every button drawn now carries."""
        assert self.table is not None
        if not self.changed:
            self.table.version += 1
            self.changed = True

    def metric(self, name: str, n: int = 1) -> None:
        self.result.metrics[name] = self.result.metrics.get(name, 0) + n

    # ------------------------------------------------------------------ output

    def send(self, chat_id: int, text: str, buttons: list[list[Button]] | None = None, *,
             slot: str | None = None, silent: bool = False, photo: bytes | None = None, pin: bool = False,
             document: bytes | None = None, document_name: str | None = None, background: bool = False,
             supersedes: str | None = None, picture: dict | None = None) -> None:
        """Queue a message (protocol.Outbound): `background` for a view that may lag (status,
        notes), `supersedes` for a player's new turn message after their last one, `picture` for
        a picture drawn when it is sent (picture.spec)."""
        limit = render.CAPTION_LIMIT if photo or document or picture else render.TEXT_LIMIT
        if render.utf16_len(text) > limit:
            text = render.fit(text.split("\n"), limit)
        self.result.outbound.append(Outbound(
            chat_id=chat_id, table_id=self.table.id if self.table else None, slot=slot, text=text,
            buttons=buttons or [], photo_png=photo, silent=silent, pin=pin, document=document,
            document_name=document_name, background=background and slot is not None, supersedes=supersedes,
            picture=picture))

    def delete(self, chat_id: int, slot: str) -> None:
        self.result.outbound.append(Outbound(
            chat_id=chat_id, table_id=self.table.id if self.table else None, slot=slot, text="",
            delete_slot=True))

    def reply(self, key: str, **params: object) -> None:
        """A short one-off answer in the chat the command came from, in that chat's language."""
        self.send(self.cmd.chat_id, render.t(key, self.here_lang, **params))

    def answer(self, text: str, alert: bool = False) -> None:
        self.result.callback_answer = text
        self.result.callback_alert = alert

    def refuse(self, reason: str | Msg, metric: str, **params: object) -> None:
        """Bad input: a short answer in the user's language and nothing else changes.

        A pressed button gets a toast; a typed command gets a one-line reply."""
        self.metric(f"rejected:{metric}")
        if self.cmd.kind == "callback":
            lang = self.user_lang
            text = (render.game_plain(reason, lang, self.table.names() if self.table else [])
                    if isinstance(reason, Msg) else render.plain(reason, lang, **params))
            self.answer(text)
        else:
            lang = self.here_lang
            text = (render.game_text(reason, lang, self.table.names() if self.table else [])
                    if isinstance(reason, Msg) else render.t(reason, lang, **params))
            self.send(self.cmd.chat_id, text)

    def finish(self) -> Result:
        if self.changed and self.table is not None:
            seen = [u for u in self.table.seen if u != self.cmd.update_id] + [self.cmd.update_id]
            self.table.seen = seen[-SEEN_UPDATES:]
            self.result.table = self.table.model_dump(mode="json")
        if self.cmd.kind == "callback" and self.result.callback_answer is None:
            self.result.callback_answer = ""
        return self.result
