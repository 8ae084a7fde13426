"""The drawing toolkit's text: what DejaVu Sans cannot draw (most emoji, as the 🤖 records put before a
bot's name) is left out of the pictures instead of drawn as empty boxes."""

from __future__ import annotations

from functools import cache

import pytest

import locales
from rulesets.core import Match, act, new_match
from rulesets.core.ai.players import decide
from rulesets.core.drawing import _has_glyph, drawable, fit, fit_text
from rulesets.core.summary import Summary, SummarySeat, timeline
from rulesets.registry import get_game

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


@cache
def _played() -> Match:
    match = new_match(SPELLBOOK, {}, 2, 7)
    while not SPELLBOOK.is_over(match.state):
        seat = SPELLBOOK.to_act(match.state)[0]
        match, _ = act(match, seat, decide(SPELLBOOK, match.state, seat, "stand-in", len(match.log)).choice)
    return match


def _summary(match: Match) -> Summary:
    score = SPELLBOOK.score(match.state)
    line = timeline(SPELLBOOK, match)
    ranks = sorted(score.seats, key=lambda s: -s.total)
    return Summary(game="spellbook", score=score, rounds=line.rounds, start=line.start,
                   view=SPELLBOOK.view(match.state, None),
                   seats=[SummarySeat(seat=s.seat, rank=ranks.index(s) + 1) for s in score.seats])


def test_a_bots_name_is_drawn_without_the_robot_in_the_table_and_summary_pictures():
    """The pictures of a game with "🤖 Bot Difícil 1" are the pictures with "Bot Difícil 1": the robot is
    left out, not drawn as a box (the end-of-game summary showed one before)."""
    match = _played()
    plain = ["Ana", "Bot Difícil 1"]

    def say(m):
        return locales.render(m, "pt_BR", plain)

    for names in (["Ana", "🤖 Bot Difícil 1"], ["Ana 🎲", "Bot Difícil 1"]):
        assert SPELLBOOK.summary_picture(_summary(match), names, say) == \
            SPELLBOOK.summary_picture(_summary(match), plain, say)
        view = SPELLBOOK.view(match.state, None)
        assert SPELLBOOK.picture(view, names, say) == SPELLBOOK.picture(view, plain, say)
    # and the names matter to the picture (the comparison above can fail)
    assert SPELLBOOK.summary_picture(_summary(match), ["Ana", "Bruno"], say) != \
        SPELLBOOK.summary_picture(_summary(match), plain, say)
