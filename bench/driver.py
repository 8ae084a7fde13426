"""Scripted people for end-to-end games and benchmarks: they read what the emulator shows and
press buttons, like someone in the web chat would (nothing reaches into the bot's internals)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

import locales
from emulator.server import ControlAPIError


@dataclass
class GameRun:
    table_id: str = ""
    presses: int = 0
    refused: int = 0
    finished: bool = False
    final_text: str = ""
    log: list[str] = field(default_factory=list)


def refused(answer: dict) -> bool:
    """A press's answer that refuses it (stale, not yours, ...). A move's answer is empty or, when it
    ends the mover's turn, says so: "✔ Feito. Aguardando Bia." (workers/tables/play.py)."""
    text = answer.get("text") or ""
    return bool(text) and not text.startswith("✔")


def _callback_buttons(message: dict) -> list[dict]:
    rows = message.get("reply_markup") or []
    return [b for row in rows for b in row if b.get("callback_data")]


def _url_buttons(message: dict) -> list[dict]:
    rows = message.get("reply_markup") or []
    return [b for row in rows for b in row if b.get("url")]


def aside_buttons(lang: str = "pt_BR") -> set[str]:
    """Labels of the buttons a scripted player leaves alone: they are not moves. People rarely
    take moves back (a random player would do it a third of the time); nor do they open their
    board or the cards' texts at every step (they send a picture or change the prompt's text,
    and no move is made, so counting them as moves would break every "acknowledged => logged"
    check)."""
    return {locales.text(f"tables.button.{key}", lang) for key in ("undo", "board", "cards", "cards_hide")}


def wait_for(predicate, timeout: float, what: str, interval: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out waiting for {what}")


def lobby_message(control, group: int) -> dict | None:
    for m in reversed(control.messages(group)):
        if m["from_bot"] and not m["deleted"] and any(b["url"].startswith("https://t.me/") for b in _url_buttons(m)):
            return m
    return None


def option_label(game: str, name: str, lang: str = "pt_BR") -> str:
    """The start of a lobby option button's label (as the lobby draws it) for a game's option."""
    from rulesets.core import msg

    if f"{game}.option.{name}" in locales.catalog(lang):
        return locales.render(msg(f"{game}.option.{name}"), lang)
    return locales.text(f"tables.option.{game}.{name}", lang)


def set_options(control, group: int, user: int, game: str, names: list[str], timeout: float = 30,
                press_wait: float | None = None) -> None:
    """The creator opens Opções, presses each named (off by default) option once, and goes back."""
    def edited(message_id: int, count: int):
        return lambda: next((m for m in control.messages(group) if m["message_id"] == message_id
                             and m["edit_count"] > count), None)

    def press(message: dict, button: dict) -> dict:
        answer = control.press(group, message["message_id"], user, button["callback_data"], wait=press_wait)
        assert answer.get("answered") and not answer.get("text"), (button["text"], answer)
        return wait_for(edited(message["message_id"], message["edit_count"]), timeout,
                        f"the lobby after {button['text']}")

    lobby = lobby_message(control, group)
    lobby = press(lobby, next(b for b in _callback_buttons(lobby) if b["callback_data"].endswith(":Lo")))
    for name in names:
        label = option_label(game, name)
        lobby = press(lobby, next(b for b in _callback_buttons(lobby) if b["text"].startswith(label)))
    press(lobby, next(b for b in _callback_buttons(lobby) if b["callback_data"].endswith(":Lb")))


def open_and_join(control, group: int, users: list[int], game: str = "spellbook", timeout: float = 30,
                  press_wait: float | None = None, options: tuple[str, ...] = ()) -> str:
    """The first user opens a table in the group, turns `options` on; everyone joins through
    the deep link; the creator presses Começar. Returns the table id."""
    control.send(group, users[0], f"/novojogo {game}")
    lobby = wait_for(lambda: lobby_message(control, group), timeout, "the lobby message")
    join_url = next(b["url"] for b in _url_buttons(lobby) if "start=" in b["url"])
    table_id = join_url.rsplit("start=", 1)[1][1:]
    if options:
        set_options(control, group, users[0], game, list(options), timeout, press_wait)
    for i, uid in enumerate(users):
        control.deep_link(uid, join_url)
        wait_for(lambda n=i + 1: f"({n}/" in (lobby_message(control, group) or {}).get("text", ""), timeout,
                 f"{i + 1} players in the lobby")
    lobby = lobby_message(control, group)
    start = next(b for b in _callback_buttons(lobby) if b["callback_data"].endswith(":Ls"))
    answer = control.press(group, lobby["message_id"], users[0], start["callback_data"], wait=press_wait)
    assert answer.get("answered"), answer
    return table_id


def version_of(message: dict, table_id: str) -> int:
    """The table version a message was drawn at (its buttons carry it), or -1."""
    for b in _callback_buttons(message):
        parts = b["callback_data"].split(":")
        if parts[0] == table_id and len(parts) == 3 and parts[1].isdigit():
            return int(parts[1])
    return -1


def current_prompt(control, uid: int, table_id: str, min_version: int = -1) -> dict | None:
    """The newest message in the user's private chat with buttons of this table, drawn at
    `min_version` or later: a person does not go back to press an older turn's message whose
    note never came (the outbox's view lane skips a note its player's next turn overtook)."""
    for m in reversed(control.messages(uid)):
        if m["from_bot"] and not m["deleted"]:
            buttons = [b for b in _callback_buttons(m) if b["callback_data"].startswith(f"{table_id}:")]
            if buttons:
                return m if version_of(m, table_id) >= min_version else None
    return None


def play(control, group: int, users: list[int], table_id: str, is_over, seed: int = 1, timeout: float = 600,
         max_presses: int = 5000, press_wait: float = 5.0, between=None, think: float = 0.0) -> GameRun:
    """Press buttons until `is_over()` says the game ended. Each round, every user with a
    prompt whose buttons changed since their last press picks one at random."""
    rng = random.Random(seed)
    run = GameRun(table_id=table_id)
    last_seen: dict[int, tuple] = {}
    pressed_version: dict[int, int] = {}
    deadline = time.monotonic() + timeout
    idle_since = time.monotonic()
    next_check = 0.0
    while time.monotonic() < deadline and run.presses < max_presses:
        if time.monotonic() >= next_check:  # (reading the whole group transcript is not free)
            if is_over():
                run.finished = True
                break
            next_check = time.monotonic() + 0.5
        pressed = False
        for uid in users:
            m = current_prompt(control, uid, table_id, pressed_version.get(uid, -1))
            if m is None:
                continue
            buttons = [b for b in _callback_buttons(m) if b["callback_data"].startswith(f"{table_id}:")]
            fingerprint = (m["message_id"], m["edit_count"], tuple(b["callback_data"] for b in buttons))
            if last_seen.get(uid) == fingerprint:
                continue
            aside = aside_buttons()
            choice = rng.choice([b for b in buttons if b["text"] not in aside] or buttons)
            if think:
                time.sleep(think)  # a person reads the prompt before pressing
            try:
                answer = control.press(uid, m["message_id"], uid, choice["callback_data"], wait=press_wait)
            except ControlAPIError as exc:
                if exc.status != 409:
                    raise
                # the message was edited between reading and pressing (its note, a new prompt): a
                # person's tap on a message that changed under the finger, refused
                answer = {"answered": True, "text": "(the message changed under the finger)"}
            run.presses += 1
            last_seen[uid] = fingerprint
            pressed_version[uid] = version_of(m, table_id)
            if refused(answer):
                run.refused += 1
                run.log.append(f"{uid} {choice['text']!r}: {answer['text']}")
            pressed = True
        if pressed:
            idle_since = time.monotonic()
            if between is not None:
                between(run)
        elif time.monotonic() - idle_since > 6:
            # Nothing new for a while: re-press (a refused press leaves the same prompt).
            last_seen.clear()
            idle_since = time.monotonic()
        else:
            time.sleep(0.05)
    if is_over():
        run.finished = True
    texts = [m.get("text") or m.get("caption") or "" for m in control.messages(group) if m["from_bot"]]
    run.final_text = "\n---\n".join(texts[-3:])
    return run


def final_scores_marker(lang: str = "pt_BR") -> str:
    """The start of the end-of-game message, as the chat shows it (tags stripped)."""
    import re

    import locales

    return re.sub(r"<[^>]+>", "", locales.text("tables.score.header", lang)).split("{")[0]


def group_shows_final_scores(control, group: int) -> bool:
    marker = final_scores_marker()
    return any(m["from_bot"] and (m.get("text") or "").startswith(marker) for m in control.messages(group))
