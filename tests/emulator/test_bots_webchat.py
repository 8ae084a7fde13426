"""Ana alone against three bots, in the web chat of `make local`'s stack (headless Chromium): she opens a
Trickerion table, joins through the Entrar button, seats a fácil, a médio and a difícil bot with the
lobby's 🤖 + Bot and starts — all by clicking in the browser — then plays her turns while the bots play
theirs through the AI's queue; the group's status shows whose turn it is, bots included.

With UPDATE_SCREENSHOT=1 the screenshots refresh docs/images/bots-lobby.png (the README shows it),
bots-group.png and bots-private.png; otherwise they go to the test's temporary folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bench import driver
from emulator.server import ControlAPIError
from tests.emulator.test_trickerion_webchat import CHROMIUM, FAST_LIMITS, FAST_RATES, _choices
from tests.integration.stack import embedded
from tests.trickerion import route

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"
BOTS = ("Bot Fácil 1", "Bot Médio 1", "Bot Difícil 1")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.timeout(900),
    pytest.mark.skipif(not os.path.exists(CHROMIUM),
                       reason=f"no Chromium at {CHROMIUM}: install it with `apt-get install chromium` to run the "
                              "web chat browser test"),
]


def play_ana(control, ana: int, table_id: str, turns: int) -> int:
    """Ana answers her prompts as tests/trickerion/route.py would (at a trick placement: the first slot)
    until she has pressed `turns` times (her next prompt comes after the bots' turns)."""
    def fresh(seen):
        prompt = next((m for m in reversed(control.messages(ana))
                       if m["from_bot"] and not m["deleted"] and _choices(m, table_id)), None)
        return prompt if prompt is not None and (prompt["message_id"], prompt["edit_count"]) != seen else None

    seen = None
    presses = 0
    while presses < turns:
        prompt = driver.wait_for(lambda seen=seen: fresh(seen), 120, "Ana's next prompt", interval=0.2)
        buttons = _choices(prompt, table_id)
        text, labels = prompt.get("caption") or prompt.get("text") or "", [b["text"] for b in buttons]
        index = route.next_press(text, labels)
        if index is None:  # a trick's placement: the first numbered slot
            index = next(i for i, label in enumerate(labels) if route.is_spot_label(label))
        try:
            answer = control.press(ana, prompt["message_id"], ana, buttons[index]["callback_data"], wait=20)
        except ControlAPIError as exc:  # the prompt was redrawn meanwhile (the bots moved): read it again
            assert exc.status == 409, exc
            continue
        seen = (prompt["message_id"], prompt["edit_count"])
        assert answer.get("answered"), answer
        presses += 1
    return presses


def test_ana_alone_against_three_bots_in_the_web_chat(tmp_path):
    from playwright.sync_api import expect, sync_playwright

    rates = {**FAST_RATES, "BGB_BOT_PACE": "1"}
    with embedded(tmp_path, rates=rates, limits=FAST_LIMITS) as stack:
        control, group = stack.control, stack.group
        ana = next(c["chat_id"] for c in control._call("GET", "chats")["chats"]
                   if c["type"] == "private" and c["title"] == "Ana")
        target = IMAGES if os.environ.get("UPDATE_SCREENSHOT") else tmp_path
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                         args=["--no-sandbox", "--disable-gpu", "--no-first-run"])
            try:
                page = browser.new_page(viewport={"width": 1000, "height": 1120})
                errors: list[str] = []
                page.on("pageerror", lambda error: errors.append(str(error)))
                page.goto(f"{stack.base_url}/?lang=pt_BR")
                page.locator(".user-chip", has_text="Ana").click()
                page.locator(f'#chat-list li[data-chat-id="{group}"]').click()
                page.fill("#text", "/novojogo trickerion")
                page.click("#send")
                page.locator(".kb-button", has_text="Entrar").last.click()  # the deep link: Ana's private chat
                expect(page.locator(".message.from-bot").last).to_contain_text("Trickerion", timeout=15_000)
                page.locator(f'#chat-list li[data-chat-id="{group}"]').click()
                expect(page.locator(".message.from-bot").last).to_contain_text("Jogadores (1/4): Ana", timeout=15_000)
                for n, level in enumerate(("Fácil", "Médio", "Difícil"), start=2):
                    if page.locator(".kb-button", has_text=f"🤖 + Bot {level}").count() == 0:
                        page.locator(".kb-button", has_text="🤖 + Bot").last.click()
                    page.locator(".kb-button", has_text=f"🤖 + Bot {level}").last.click()
                    expect(page.locator(".message.from-bot", has_text=f"Jogadores ({n}/4)")).to_have_count(
                        1, timeout=15_000)
                    if n == 3:  # two bots seated, the level buttons still open: the README's picture
                        expect(page.locator(".kb-button", has_text="🤖 + Bot Difícil")).to_be_visible()
                        page.evaluate("document.querySelector('#toast').hidden = true")
                        page.screenshot(path=str(target / "bots-lobby.png"))
                table_id = next(b["url"] for m in control.messages(group) for row in m.get("reply_markup") or []
                                for b in row if "start=j" in (b.get("url") or "")).rsplit("start=", 1)[1][1:]
                lobby = page.locator(".message.from-bot", has_text="Jogadores (4/4)")
                expect(lobby).to_contain_text("Ana, Bot Fácil 1, Bot Médio 1 e Bot Difícil 1")
                page.locator(".kb-button", has_text="Começar").last.click()
                expect(page.locator(".message.from-bot", has_text="a partida começou com")).to_contain_text(
                    "Bot Difícil 1", timeout=15_000)
                play_ana(control, ana, table_id, turns=25)
                # the bots have played: the status (a picture of the table) names whose turn it is
                status = driver.wait_for(lambda: next((m for m in reversed(control.messages(group))
                                                       if m["from_bot"] and m["has_photo"] and not m["deleted"]),
                                                      None), 60, "the status picture")
                assert "Trickerion" in (status["caption"] or "")
                page.reload()
                page.locator(".user-chip", has_text="Ana").click()
                page.locator(f'#chat-list li[data-chat-id="{group}"]').click()
                picture = page.locator(f'.message[data-message-id="{status["message_id"]}"] .bubble img')
                expect(picture).to_be_visible(timeout=15_000)
                page.locator(f'.message[data-message-id="{status["message_id"]}"]').evaluate(
                    "m => m.scrollIntoView({block: 'end'})")
                page.screenshot(path=str(target / "bots-group.png"))
                page.locator(f'#chat-list li[data-chat-id="{ana}"]').click()
                expect(page.locator(".message.from-bot").last).to_be_visible(timeout=15_000)
                page.screenshot(path=str(target / "bots-private.png"))
                assert errors == []
            finally:
                browser.close()
        # the bots played in the group's view: their turns are in the status' digest or its "waiting on"
        group_text = "\n".join(m.get("text") or m.get("caption") or "" for m in control.messages(group))
        assert all(name in group_text for name in BOTS)
        for name in ("bots-lobby.png", "bots-group.png", "bots-private.png"):
            assert (target / name).stat().st_size > 20_000
