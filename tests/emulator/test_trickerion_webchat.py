"""Trickerion at the table, in the web chat of `make local`'s stack (headless Chromium): a 3-player game
with the Dark Alley and the prophecies shows the table picture in the group from round 1 on, and the
prompt that sets a trick marker up shows its performance card.

The players press what a person heading for the Theater would (tests/trickerion/route.py reads the
prompts' texts and labels through patterns built from the catalogue). With UPDATE_SCREENSHOT=1 the
screenshots refresh docs/images/trickerion-group.png and trickerion-place-trick.png (the README
shows the first); otherwise they go to the test's temporary folder.

Slow (a whole stack, about forty presses through the bot, a browser): the one test that shows the
pictures reach a person's screen the way Telegram shows them."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import locales
from bench import driver
from tests.integration.stack import embedded
from tests.trickerion import route

CHROMIUM = "/usr/bin/chromium"
IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"
# Scripted players press as fast as the bot answers: wider outgoing limits, and an admission
# bucket no person would fill (a real player's pace never meets the default 10 + 3/s).
FAST_RATES = {"BGB_RATE_CHAT": "20/1:5", "BGB_RATE_GROUP": "60/60:10", "BGB_FLOOD_BURST": "1000",
              "BGB_FLOOD_RATE": "1000"}
FAST_LIMITS = {"per_chat": "20/1", "per_group": "60/60"}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.timeout(600),
    pytest.mark.skipif(not os.path.exists(CHROMIUM),
                       reason=f"no Chromium at {CHROMIUM}: install it with `apt-get install chromium` to run the "
                              "web chat browser test"),
]


STALE = locales.text("tables.error.stale", "pt_BR")


def _buttons(message: dict) -> list[dict]:
    return [b for row in message.get("reply_markup") or [] for b in row if b.get("callback_data")]


def _message(control, chat: int, message_id: int) -> dict | None:
    return next((m for m in control.messages(chat) if m["message_id"] == message_id), None)


def _press(control, chat: int, message: dict, user: int, button: dict, edited: bool = False) -> None:
    """Press and wait for the answer (and, with `edited`, for that message's next drawing)."""
    answer = control.press(chat, message["message_id"], user, button["callback_data"], wait=10)
    assert answer.get("answered") and not driver.refused(answer), (button["text"], answer)
    if edited:
        driver.wait_for(lambda: (_message(control, chat, message["message_id"]) or {}).get("edit_count", 0)
                        > message["edit_count"], 30, f"the message after {button['text']!r}")


def open_table(control, group: int, users: list[int]) -> str:
    """/novojogo trickerion, the beginner setup, the Dark Alley and the prophecies on, everyone in, start."""
    control.send(group, users[0], "/novojogo trickerion")
    lobby = driver.wait_for(lambda: driver.lobby_message(control, group), 30, "the lobby")
    join = next(b["url"] for row in lobby["reply_markup"] for b in row if "start=" in (b.get("url") or ""))
    table_id = join.rsplit("start=", 1)[1][1:]
    _press(control, group, lobby, users[0], next(b for b in _buttons(lobby) if b["callback_data"].endswith(":Lo")),
           edited=True)
    for label in route.option_labels():
        def options(label=label):
            return next((m for m in reversed(control.messages(group))
                         if m["from_bot"] and any(b["text"].startswith(label) for b in _buttons(m))), None)

        lobby = driver.wait_for(options, 30, f"the option {label}")
        _press(control, group, lobby, users[0], next(b for b in _buttons(lobby) if b["text"].startswith(label)),
               edited=True)
        lobby = _message(control, group, lobby["message_id"])
    _press(control, group, lobby, users[0], next(b for b in _buttons(lobby) if b["callback_data"].endswith(":Lb")),
           edited=True)
    for i, uid in enumerate(users):
        control.deep_link(uid, join)
        driver.wait_for(lambda n=i + 1: f"({n}/" in (driver.lobby_message(control, group) or {}).get("text", ""),
                        30, f"{i + 1} players in the lobby")
    lobby = driver.lobby_message(control, group)
    _press(control, group, lobby, users[0], next(b for b in _buttons(lobby) if b["callback_data"].endswith(":Ls")))
    return table_id


def _choices(message: dict, table_id: str) -> list[dict]:
    """A prompt's buttons ("<table>:<version>:<seat>.<choice>", ↩ and the others too), if it has choices."""
    buttons = [b for b in _buttons(message) if b["callback_data"].startswith(f"{table_id}:")]
    return buttons if any(re.fullmatch(r"\d+\.\d+", b["callback_data"].split(":")[2]) for b in buttons) else []


def current_prompt(control, uid: int, table_id: str) -> dict | None:
    """The player's newest message of the table, if it asks for a choice. Only the newest: an older turn's
    message may keep its buttons for a while (its "done" note waits on the view lane behind the groups'
    statuses: workers/views.py), and a press there is answered "Essa opção não vale mais"."""
    newest = next((m for m in reversed(control.messages(uid)) if m["from_bot"] and not m["deleted"]
                   and any(b["callback_data"].startswith(f"{table_id}:") for b in _buttons(m))), None)
    return newest if newest is not None and _choices(newest, table_id) else None


def to_placement(control, users: list[int], table_id: str, seen: dict[int, tuple],
                 limit: int = 200) -> tuple[int, dict]:
    """Each player presses what the route says, until someone's prompt sets a trick marker up. `seen`: the
    message (id, edits) each last pressed on, kept across calls — a turn's "done" note rides the view lane
    and may come later, so a message already pressed is not pressed again as if it were new."""
    for _ in range(limit):
        pressed = False
        for uid in users:
            prompt = current_prompt(control, uid, table_id)
            if prompt is None or seen.get(uid) == (prompt["message_id"], prompt["edit_count"]):
                continue
            buttons = _choices(prompt, table_id)
            text, labels = prompt["caption"] or prompt["text"] or "", [b["text"] for b in buttons]
            if route.at_placement(text, labels):
                return uid, prompt
            index = route.next_press(text, labels)
            assert index is not None, (text, labels)
            seen[uid] = (prompt["message_id"], prompt["edit_count"])
            answer = control.press(uid, prompt["message_id"], uid, buttons[index]["callback_data"], wait=10)
            if answer.get("text") == STALE:  # the prompt was redrawn under the finger (another's choice
                seen.pop(uid)                 # changed it): read it again and press, as a person would
                continue
            assert answer.get("answered") and not driver.refused(answer), (buttons[index]["text"], answer)
            pressed = True
        if not pressed:
            driver.wait_for(lambda: any(
                (p := current_prompt(control, u, table_id)) is not None
                and seen.get(u) != (p["message_id"], p["edit_count"]) for u in users), 30, "a new prompt")
    raise AssertionError("no trick placement reached")


def status_picture(control, group: int) -> dict:
    return driver.wait_for(lambda: next((m for m in reversed(control.messages(group))
                                         if m["from_bot"] and m["has_photo"] and not m["deleted"]), None),
                           60, "the status picture")


def set_up(control, users: list[int], table_id: str, placements: int) -> tuple[int, dict]:
    """Reach `placements` trick placements, setting each marker where it links most but the last;
    returns the last placement prompt (its player, its message)."""
    seen: dict[int, tuple] = {}
    for n in range(placements):
        user, prompt = to_placement(control, users, table_id, seen)
        if n == placements - 1:
            return user, prompt
        spots = [b for b in _choices(prompt, table_id) if route.is_spot_label(b["text"])]
        best = max(spots, key=lambda b: route.spot_links(b["text"]))
        _press(control, user, prompt, user, best, edited=True)  # (the same photo message, edited)
    raise AssertionError("unreachable")


def test_the_group_sees_the_table_and_the_placement_prompt_shows_its_card(tmp_path):
    from playwright.sync_api import expect, sync_playwright

    with embedded(tmp_path, rates=FAST_RATES, limits=FAST_LIMITS) as stack:
        control, group, users = stack.control, stack.group, stack.users
        table_id = open_table(control, group, users)
        assert "Trickerion" in status_picture(control, group)["caption"]  # from round 1's first turn on
        user, prompt = set_up(control, users, table_id, placements=3)  # a Theater with markers on it
        assert prompt["has_photo"], "the placement prompt carries its performance card"
        spots = [b["text"] for b in _buttons(prompt) if route.is_spot_label(b["text"])]
        assert spots, "its buttons name the card's numbered slots"
        status = status_picture(control, group)
        target = IMAGES if os.environ.get("UPDATE_SCREENSHOT") else tmp_path
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                         args=["--no-sandbox", "--disable-gpu", "--no-first-run"])
            try:
                page = browser.new_page(viewport={"width": 1000, "height": 1120})
                errors: list[str] = []
                page.on("pageerror", lambda error: errors.append(str(error)))
                page.goto(f"{stack.base_url}/?lang=pt_BR")
                page.locator(".user-chip").first.click()
                page.locator(f'#chat-list li[data-chat-id="{group}"]').click()
                picture = page.locator(f'.message[data-message-id="{status["message_id"]}"] .bubble img')
                expect(picture).to_be_visible(timeout=15_000)
                page.locator(f'.message[data-message-id="{status["message_id"]}"]').evaluate(
                    "m => m.scrollIntoView({block: 'end'})")
                page.screenshot(path=str(target / "trickerion-group.png"))
                # the player who is setting a trick up, in their private chat with the bot
                name = next(c["title"] for c in control._call("GET", "chats")["chats"]
                            if c["type"] == "private" and c["chat_id"] == user)
                page.locator(".user-chip", has_text=name).click()
                page.locator(f'#chat-list li[data-chat-id="{user}"]').click()
                card = page.locator(f'.message[data-message-id="{prompt["message_id"]}"] .bubble img')
                expect(card).to_be_visible(timeout=15_000)
                expect(page.locator(".kb-button", has_text=spots[0]).first).to_be_visible()
                page.locator(f'.message[data-message-id="{prompt["message_id"]}"]').evaluate(
                    "m => m.scrollIntoView({block: 'start'})")  # the card on top, its buttons below it
                page.screenshot(path=str(target / "trickerion-place-trick.png"))
                assert errors == []
            finally:
                browser.close()
        for name in ("trickerion-group.png", "trickerion-place-trick.png"):
            assert (target / name).stat().st_size > 20_000
