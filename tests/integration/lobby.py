"""Opening a table the way people do in the emulator's chats: /novojogo in the group, everyone joins
through the deep link, the creator sets options in Opções and presses Começar."""

from __future__ import annotations

import locales
from bench import driver


def text_of(m: dict) -> str:
    return m.get("text") or m.get("caption") or ""


def open_table(control, group: int, users: list[int], game: str, options: list[str] = ()) -> tuple[str, int]:
    """The first user opens the table, everyone joins, the listed options (catalogue keys of their labels)
    are switched on in Opções, and the game starts. Returns the table id and its lobby message's id."""
    control.send(group, users[0], f"/novojogo {game}")
    lobby_id = driver.wait_for(lambda: driver.lobby_message(control, group), 30, "the lobby")["message_id"]

    def lobby() -> dict:
        return next(m for m in control.messages(group) if m["message_id"] == lobby_id)

    url = next(b["url"] for row in lobby()["reply_markup"] for b in row if "start=" in (b.get("url") or ""))
    table_id = url.rsplit("start=", 1)[1][1:]
    for i, uid in enumerate(users):
        control.deep_link(uid, url)
        driver.wait_for(lambda n=i + 1: f"({n}/" in text_of(lobby()), 30, f"{i + 1} players in the lobby")

    def press(wanted) -> None:
        m = lobby()
        b = next(b for row in m["reply_markup"] for b in row if wanted(b))
        answer = control.press(group, m["message_id"], users[0], b["callback_data"], wait=10)
        assert answer.get("answered") and not answer.get("text"), answer
        driver.wait_for(lambda: lobby()["edit_count"] > m["edit_count"], 30, "the lobby redrawn")

    def arg(suffix: str):
        return lambda b: (b.get("callback_data") or "").endswith(suffix)

    if options:
        press(arg(":Lo"))
        for label in [locales.text(key, "pt_BR") for key in options]:
            press(lambda b, label=label: b["text"].startswith(label))
        press(arg(":Lb"))
    press(arg(":Ls"))
    return table_id, lobby_id
