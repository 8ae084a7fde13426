"""The drawing toolkit's text: what DejaVu Sans cannot draw (most emoji, as the 🤖 records put before a
bot's name) is left out of the pictures instead of drawn as empty boxes."""

from __future__ import annotations

import pytest

import locales
from rulesets.core.drawing import _has_glyph, drawable, fit, fit_text
from rulesets.registry import get_game
from tests.spellbook.test_summary_picture import _solo, _summary

SPELLBOOK = get_game("spellbook")


@pytest.mark.parametrize("name,shown", [
    ("🤖 Bot Difícil 1", "Bot Difícil 1"),
    ("Ana 🎲", "Ana"),
    ("João · Conceição", "João · Conceição"),  # Portuguese and the middle dot are drawn
    ("José 😀", "José 😀"),  # DejaVu has the emoticons' block: kept
    ("中文", "?"),  # nothing left: a mark, not an empty name
    ("Plain ASCII", "Plain ASCII"),
])
def test_what_the_font_cannot_draw_is_left_out(name, shown):
    assert drawable(name) == shown and drawable(name, bold=True) == shown


def test_the_missing_glyph_check_tells_drawn_from_absent():
    assert not _has_glyph("🤖", False) and not _has_glyph("🤖", True)
    assert all(_has_glyph(ch, bold) for ch in "Aãç·…★" for bold in (False, True))


def test_fitting_a_name_never_keeps_an_undrawable_character():
    from PIL import Image, ImageDraw

    d = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    assert fit("🤖 Bot Médio 2", 14, 1000) == "Bot Médio 2"
    assert fit_text(d, "🤖 Bot Médio 2", 14, 1000) == "Bot Médio 2"
    assert fit("🤖 Bot Médio 2", 14, 60).startswith("Bot") and "🤖" not in fit_text(d, "🤖 Bot Médio 2", 14, 60)


def test_a_bots_name_is_drawn_without_the_robot_in_the_table_and_summary_pictures():
    """The pictures of a game with "🤖 Bot Difícil 1" are the pictures with "Bot Difícil 1": the robot is
    left out, not drawn as a box (the end-of-game summary showed one before)."""
    match = _solo()
    plain = ["Bot Difícil 1"]

    def say(m):
        return locales.render(m, "pt_BR", plain)

    for names in (["🤖 Bot Difícil 1"], ["Bot Difícil 1 🎲"]):
        assert SPELLBOOK.summary_picture(_summary(match), names, say) == \
            SPELLBOOK.summary_picture(_summary(match), plain, say)
        view = SPELLBOOK.view(match.state, None)
        assert SPELLBOOK.picture(view, names, say) == SPELLBOOK.picture(view, plain, say)
    # and the names matter to the picture (the comparison above can fail)
    assert SPELLBOOK.summary_picture(_summary(match), ["Bruno"], say) != \
        SPELLBOOK.summary_picture(_summary(match), plain, say)
