"""Texts within Telegram's limits, escaped, and keyboards of the right shape."""

import html
import re

from tests.tables.harness import ANA, BIA, GROUP, World
from workers.protocol import Button
from workers.tables import render


def balanced(text: str) -> bool:
    tags = re.findall(r"<(/?)(\w+)[^>]*>", text)
    stack = []
    for closing, name in tags:
        if closing:
            if not stack or stack.pop() != name:
                return False
        else:
            stack.append(name)
    return not stack


def test_fit_keeps_whole_lines_and_cuts_safely():
    lines = ["<b>título</b>"] + [f"linha {i} &amp; mais <i>coisas</i>" for i in range(400)]
    text = render.fit(lines, 1024)
    assert render.utf16_len(text) <= 1024 and balanced(text)
    assert text.startswith("<b>título</b>\nlinha 0")
    long = "<b>" + "á&lt;" * 3000 + "</b>"
    cut = render.fit([long], 100)
    assert render.utf16_len(cut) <= 100 and balanced(cut) and cut.endswith("…")
    assert not re.search(r"&[#a-z0-9]*…$", cut)  # never half an entity


def test_emoji_count_double_towards_the_limit():
    text = render.fit(["🎲" * 3000], 4096)
    assert render.utf16_len(text) <= 4096 and len(text) <= 2048


def test_keyboard_rows():
    short = [Button(text=str(i), callback_data=f"t:1:0.{i}") for i in range(150)]
    rows = render.keyboard(short)
    assert all(len(r) <= 8 for r in rows) and sum(map(len, rows)) == 100
    long = [Button(text="uma opção com um nome comprido " + str(i), callback_data="x") for i in range(3)]
    assert [len(r) for r in render.keyboard(long)] == [1, 1, 1]


def test_names_cannot_break_the_markup():
    world = World()
    world.say(ANA, GROUP, "/novojogo spellbook")
    world.run(world.command(BIA, BIA, text=f"/start j{world.last_table}", name="<b>Bia & Co</i>"))
    world.say(ANA, ANA, f"/start j{world.last_table}")
    world.press(ANA, GROUP, "Começar")
    for chat in world.chats.values():
        for text in chat.transcript:
            assert "<b>Bia" not in text
            assert balanced(text), text
    assert html.escape("<b>Bia & Co</i>", quote=False) in world.chat(GROUP).slots["lobby"].text


def test_a_huge_digest_stays_within_the_caption():
    world = World()
    world.open_lobby("spellbook", [ANA, BIA])
    world.press(ANA, GROUP, "Começar")
    world.play_out([ANA, BIA], seed=8)
    for out in world.chat(GROUP).outbound:
        limit = 1024 if out.photo_png else 4096
        assert render.utf16_len(out.text) <= limit
