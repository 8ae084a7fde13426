"""The web chat in headless Chromium: pick a user, send a command, press buttons, see edits in place.

The test plays the bot itself through the Bot API (python-telegram-bot's Bot, long polling).
With UPDATE_SCREENSHOT=1 it also refreshes docs/images/webchat.png, the screenshot in the README.
"""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path

import pytest
from PIL import Image, ImageDraw
from telegram import Bot, BotCommand, InlineKeyboardButton, InlineKeyboardMarkup

CHROMIUM = "/usr/bin/chromium"
SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "images" / "webchat.png"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM),
                       reason=f"no Chromium at {CHROMIUM}: install it with `apt-get install chromium` to run the "
                              "web chat browser test"),
]


def board_image() -> bytes:
    """A small drawn game board, so the screenshot shows a real photo."""
    import io

    image = Image.new("RGB", (360, 180), "#2f5d46")
    draw = ImageDraw.Draw(image)
    colors = ["#e9c46a", "#f4a261", "#e76f51", "#8ab17d", "#2a9d8f", "#a8dadc"]
    for row in range(3):
        for col in range(6):
            x, y = 18 + col * 56, 18 + row * 50
            draw.rounded_rectangle((x, y, x + 46, y + 40), radius=6, fill=colors[(row + col) % 6], outline="#1d3b2c")
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


class ScriptedBot:
    """A minimal game bot: /jogar shows a board with buttons, a press answers and edits in place."""

    def __init__(self, emu):
        self.emu = emu
        self.stop = threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self.main()), daemon=True)
        self.errors: list[BaseException] = []

    async def main(self):
        try:
            async with Bot(self.emu.token, base_url=self.emu.bot_api_url) as bot:
                await bot.set_my_commands([BotCommand("jogar", "Mostrar a mesa")])
                offset = None
                while not self.stop.is_set():
                    for update in await bot.get_updates(offset=offset, timeout=0.5):
                        offset = update.update_id + 1
                        await self.handle(bot, update)
        except BaseException as exc:  # surfaced by the test
            self.errors.append(exc)

    async def handle(self, bot: Bot, update):
        link = f"https://t.me/{bot.username}?start=join_42"
        if update.message and update.message.text.startswith("/jogar"):
            chat = update.message.chat.id
            await bot.send_chat_action(chat, "typing")
            await bot.send_photo(chat, board_image(), caption="<b>Mesa de Spellbook</b> — rodada 1",
                                 parse_mode="HTML")
            await bot.send_message(chat, "Vez de <b>Ana</b>: escolha uma ação.", parse_mode="HTML",
                                   reply_markup=InlineKeyboardMarkup([
                                       [InlineKeyboardButton("Comprar carta", callback_data="buy")],
                                       [InlineKeyboardButton("Entrar na mesa", url=link),
                                        InlineKeyboardButton("Ajuda", callback_data="help")],
                                   ]))
        elif update.message and update.message.text.startswith("/start"):
            await update.message.reply_text(f"Bem-vinda! Convite: {update.message.text[7:]}", do_quote=True)
        elif update.callback_query and update.callback_query.data == "help":
            await update.callback_query.answer("Compre cartas ou passe a vez.", show_alert=True)
        elif update.callback_query:
            query = update.callback_query
            await query.answer("Carta comprada!")
            await query.edit_message_text(f"{query.from_user.first_name} comprou uma carta.")

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(5)


def test_web_chat_command_button_and_deep_link(emu, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    c = emu.control
    ana = c.create_user("Ana", "ana")
    bia = c.create_user("Bia", "bia")
    group = c.create_group("Mesa de jogo", [ana, bia])
    with ScriptedBot(emu) as scripted, sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run"])
        try:
            page = browser.new_page(viewport={"width": 900, "height": 680})
            page_errors: list[str] = []
            page.on("pageerror", lambda error: page_errors.append(str(error)))
            page.goto(f"{emu.base_url}/?lang=pt_BR")
            expect(page.locator("#whoami")).to_have_text("Você é")
            page.locator(".user-chip", has_text="Bia").click()
            expect(page.locator(".user-chip.active")).to_have_text("Bia")
            page.locator(".user-chip", has_text="Ana").click()  # switching is one click
            expect(page.locator(".user-chip.active")).to_have_text("Ana")
            page.locator(f'#chat-list li[data-chat-id="{group}"]').click()
            page.fill("#text", "/jogar")
            page.click("#send")
            button = page.locator(".kb-button", has_text="Comprar carta")
            expect(button).to_be_visible(timeout=10_000)
            expect(page.locator(".bubble img")).to_be_visible()
            button.click()
            expect(page.locator("#toast")).to_have_text("Carta comprada!", timeout=10_000)
            edited = page.locator(".message.from-bot", has_text="Ana comprou uma carta.")
            expect(edited).to_contain_text("editada", timeout=10_000)
            # The edit replaced the message in place: same message id, buttons gone.
            assert page.locator(".kb-button", has_text="Comprar carta").count() == 0
            messages = c.messages(group)
            assert messages[-1]["text"] == "Ana comprou uma carta." and messages[-1]["reply_markup"] is None
            assert edited.get_attribute("data-message-id") == str(messages[-1]["message_id"])

            # A URL button with a deep link opens the private chat with "/start <payload>".
            c.send(group, bia, "/jogar")
            page.locator(".kb-button", has_text="Entrar na mesa").last.click()
            expect(page.locator("#chat-title")).to_have_text(emu.config.bot_name, timeout=10_000)
            expect(page.locator(".message.mine .text")).to_have_text("/start join_42")
            expect(page.locator(".message.from-bot").last).to_contain_text("Bem-vinda! Convite: join_42",
                                                                           timeout=10_000)
            expect(page.locator(".message.from-bot .quote").last).to_contain_text("/start join_42")  # a reply
            page.locator(f'#chat-list li[data-chat-id="{group}"]').click()
            page.fill("#text", "bom jogo a todos")
            page.click("#send")
            expect(page.locator(".message.mine").last).to_contain_text("bom jogo a todos")
            page.evaluate("document.querySelector('#toast').hidden = true")
            target = SCREENSHOT if os.environ.get("UPDATE_SCREENSHOT") else tmp_path / "webchat.png"
            page.screenshot(path=str(target))
            assert target.stat().st_size > 10_000
            assert page_errors == []
        finally:
            browser.close()
    assert not scripted.errors, scripted.errors


def test_web_chat_start_button_and_new_user_on_a_phone(emu):
    from playwright.sync_api import expect, sync_playwright

    with ScriptedBot(emu), sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--disable-gpu", "--no-first-run"])
        try:
            page = browser.new_page(viewport={"width": 390, "height": 760})  # phone-sized
            page.goto(f"{emu.base_url}/?lang=en")
            expect(page.locator("#no-users")).to_be_visible()
            page.once("dialog", lambda dialog: dialog.accept("Caio"))
            page.click("#new-user")
            expect(page.locator(".user-chip.active")).to_have_text("Caio")
            page.locator("#chat-list li").first.click()
            expect(page.locator("#start")).to_have_text("START")
            expect(page.locator("#composer")).to_be_hidden()  # like Telegram: press START first
            page.click("#start")
            expect(page.locator(".message.from-bot")).to_contain_text("Bem-vinda!", timeout=10_000)
            expect(page.locator("#composer")).to_be_visible()
            page.click("#back")
            expect(page.locator("#chat-list")).to_be_visible()
            expect(page.locator("#chat")).to_be_hidden()  # on a phone the list and the chat take turns
            page.click("#new-group")
            page.fill("#group-title", "Mesa do Caio")
            page.click("#group-create")
            expect(page.locator("#chat-title")).to_have_text("Mesa do Caio")
            expect(page.locator("#sidebar")).to_be_hidden()
            page.fill("#text", "/jogar")
            page.click("#send")
            expect(page.locator(".kb-button", has_text="Comprar carta")).to_be_visible(timeout=10_000)
            page.locator(".kb-button", has_text="Ajuda").click()  # show_alert answers open a dialog
            expect(page.locator("#alert")).to_be_visible(timeout=10_000)
            expect(page.locator("#alert-text")).to_have_text("Compre cartas ou passe a vez.")
            page.locator("#alert button").click()
            expect(page.locator("#alert")).to_be_hidden()
        finally:
            browser.close()
