"""What a group keeps after a game, in the web chat of `make local`'s stack (headless Chromium): a
two-player Trickerion quick game played to its end, then the group sees the end-of-game summary picture
with its Rever / Exportar buttons, and `/ranking` answers with the group's ranking.

The players press what the fácil AI would choose (read from the table's saved match in the embedded
store), so the game has performances, links and wages as people's games do and the summary shows where
the Fame came from. With UPDATE_SCREENSHOT=1 the screenshot of the group (the summary, then the ranking)
refreshes docs/images/records-group.png and the summary picture as the group got it
docs/images/trickerion-summary.png (the README shows both); otherwise they go to the test's temporary
folder.

Slow (a whole stack, a game of some two hundred presses through the bot, a browser)."""

from __future__ import annotations

import os

import httpx
import pytest

import locales
from bench import driver
from bench.stack import embedded
from emulator import Limits
from rulesets.core import load_match
from rulesets.core.ai.players import decide
from rulesets.registry import get_game
from tests.emulator.test_trickerion_webchat import CHROMIUM, FAST_LIMITS, FAST_RATES, IMAGES
from tests.integration.lobby import open_table, text_of
from workers.store import decode_doc

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.timeout(900),
    pytest.mark.skipif(not os.path.exists(CHROMIUM),
                       reason=f"no Chromium at {CHROMIUM}: install it with `apt-get install chromium` to run the "
                              "web chat browser test"),
]

GAME = get_game("trickerion")


def play_like_the_ai(stack, table_id: str, seed: int) -> int:
    """Whoever the table waits on presses the button of the fácil AI's choice — on the prompt the table
    says that player's chat shows now — until the game ends."""
    control, presses = stack.control, 0
    while True:
        doc = decode_doc(stack.redis.hget(f"{stack.prefix}table:{table_id}", "doc"))
        if doc["status"] != "playing":
            return presses
        match = load_match(doc["match"])
        seat = GAME.to_act(match.state)[0]
        user, shown = doc["seats"][seat]["user_id"], doc["seats"][seat]["shown"]
        legal = GAME.legal_choices(match.state, seat)
        choice = legal.index(decide(GAME, match.state, seat, "facil", seed).choice)
        wanted = f"{table_id}:{shown['version']}:{seat}.{choice}"

        def prompt(wanted=wanted, user=user):
            return next((m for m in reversed(control.messages(user)) if m["from_bot"] and not m["deleted"]
                         and any(b.get("callback_data") == wanted for row in m.get("reply_markup") or []
                                 for b in row)), None)

        m = driver.wait_for(prompt, 60, f"the prompt with {wanted}")
        answer = control.press(user, m["message_id"], user, wanted, wait=30)
        assert answer.get("answered") and not driver.refused(answer), (wanted, answer)
        presses += 1


def test_the_group_sees_the_summary_picture_and_the_ranking(tmp_path):
    from playwright.sync_api import expect, sync_playwright

    with embedded(limits=Limits().updated(FAST_LIMITS), rates=FAST_RATES, log_dir=str(tmp_path)) as stack:
        control = stack.control
        users = []
        for name in ("Ana", "Bruno"):
            uid = control.create_user(name, language_code="pt-br")
            control.send(uid, uid, "/start")
            users.append(uid)
        group = control.create_group("Mesa de Teste", users)
        for uid in users:
            driver.wait_for(lambda u=uid: any(m["from_bot"] for m in control.messages(u)), 60, "the bot's /start")
        table_id, _ = open_table(control, group, users, "trickerion", ["trickerion.option.quick_game"])
        play_like_the_ai(stack, table_id, seed=3)
        marker = locales.text("tables.record.summary", "pt_BR").split("<b>")[1].split("{")[0]
        summary = driver.wait_for(lambda: next((m for m in control.messages(group) if m["from_bot"] and m["has_photo"]
                                                and text_of(m).startswith("📊 " + marker)), None), 120, "the summary")
        before = len(control.messages(group))
        control.send(group, users[1], "/ranking")
        ranking = driver.wait_for(lambda: next((m for m in control.messages(group)[before:] if m["from_bot"]
                                                and "Ranking do grupo: Trickerion" in text_of(m)), None), 60,
                                  "the ranking")
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
                shown = page.locator(f'.message[data-message-id="{summary["message_id"]}"]')
                expect(shown.locator(".bubble img")).to_be_visible(timeout=15_000)
                replay = locales.text("tables.button.replay", "pt_BR")
                expect(shown.locator(".kb-button", has_text=replay)).to_be_visible()
                answer = page.locator(f'.message[data-message-id="{ranking["message_id"]}"]')
                expect(answer).to_contain_text("Ranking do grupo: Trickerion")
                answer.evaluate("m => m.scrollIntoView({block: 'end'})")
                page.screenshot(path=str(target / "records-group.png"))
                assert errors == []
            finally:
                browser.close()
        got = httpx.get(stack.base_url + summary["photo_url"], timeout=30).content
        assert got.startswith(b"\x89PNG")
        (target / "trickerion-summary.png").write_bytes(got)
        assert (target / "records-group.png").stat().st_size > 20_000
