"""The group stays oriented: a pinned status, one summary message per Trickerion round, and /historico
paging through the whole log (public lines only in the group)."""

from __future__ import annotations

import html
import random

import locales
from rulesets.core import load_match
from tests.tables.harness import ANA, BIA, GROUP, World
from workers.tables import history


def _start(world: World, game: str = "trickerion") -> None:
    world.open_lobby(game, [ANA, BIA])
    world.press(ANA, GROUP, "Começar")


def _press_until(world: World, done, seed: int = 3, limit: int = 3000) -> None:
    rng = random.Random(seed)
    for _ in range(limit):
        if done():
            return
        movers = [u for u in (ANA, BIA) if world.prompt_buttons(u)]
        user = rng.choice(movers)
        offered = world.prompt_buttons(user)
        keen = [b for b in offered if not b.text.startswith(("Pronto", "Passar", "Fim"))]  # players who do things
        world.click(user, user, rng.choice(keen if keen and rng.random() < 0.8 else offered).callback_data)
    raise AssertionError("not reached")


def _group_outbound(world: World):
    return world.chat(GROUP).outbound


def test_the_status_is_pinned_when_posted_and_not_on_edits():
    world = World()
    _start(world)
    posted = [o for o in _group_outbound(world) if o.slot == "status"]
    assert len(posted) == 1 and posted[0].pin
    _press_until(world, lambda: len([o for o in _group_outbound(world) if o.slot == "status"]) > 1)
    assert not [o for o in _group_outbound(world) if o.slot == "status"][-1].pin  # edits are not re-pinned
    world.now += 120
    world.say(BIA, GROUP, "/status")  # posted again at the bottom: the new message is pinned
    assert [o for o in _group_outbound(world) if o.slot == "status.1"][0].pin


def test_each_finished_round_sends_one_summary_message_to_the_group():
    world = World()
    _start(world)

    def round_two() -> bool:
        return load_match(world.table()["match"]).state.round >= 2

    _press_until(world, round_two)
    summaries = [o for o in _group_outbound(world) if o.slot is None and "Resumo da Rodada" in o.text]
    assert len(summaries) == 1 and summaries[0].text.startswith("<b>Resumo da Rodada 1</b>")
    assert "• Ana: Fama" in summaries[0].text and "• Bia: Fama" in summaries[0].text
    assert summaries[0].silent
    statuses = [o.text for o in _group_outbound(world) if o.slot == "status"]
    assert not any("Resumo da Rodada" in t for t in statuses)  # not repeated in the status digest


def test_history_pages_through_the_whole_log_in_one_message_and_shows_no_private_line():
    world = World()
    _start(world)
    _press_until(world, lambda: load_match(world.table()["match"]).state.round >= 2)
    match = load_match(world.table()["match"])
    names = ["Ana", "Bia"]
    public = [html.escape(locales.render(e.text, "pt_BR", names), quote=False)
              for entry in match.log for e in entry.events if e.audience is None]
    private = {html.escape(locales.render(e.text, "pt_BR", names), quote=False)
               for entry in match.log for e in entry.events if e.audience is not None} - set(public)
    assert private  # the assignment is secret: there is something to keep out
    world.say(BIA, GROUP, "/historico")
    slot = next(s for s in world.chat(GROUP).slots if s.startswith("history."))
    total = history.pages(len(public))
    assert total > 1
    seen: list[str] = []
    for page in range(total, 0, -1):
        message = world.chat(GROUP).slots[slot]
        assert f"página {page} de {total}" in message.text.split("\n")[0]
        seen = message.text.split("\n")[1:] + seen
        assert not any(line in message.text for line in private)
        if page > 1:
            sent = len(world.chat(GROUP).outbound)
            result = world.press(ANA, GROUP, "◀ Anteriores")
            assert result.table is None and len(world.chat(GROUP).outbound) == sent + 1  # one edit, same slot
    assert seen == ["• " + line for line in public]  # every public line, in order, once
    world.press(ANA, GROUP, "Seguintes ▶")
    assert f"página 2 de {total}" in world.chat(GROUP).slots[slot].text


def test_history_in_private_shows_the_seats_own_lines_even_from_a_forwarded_button():
    world = World()
    _start(world)
    _press_until(world, lambda: load_match(world.table()["match"]).state.round >= 2)
    match = load_match(world.table()["match"])
    names = ["Ana", "Bia"]
    ana_only = {html.escape(locales.render(e.text, "pt_BR", names), quote=False)
                for entry in match.log for e in entry.events if e.audience == [0]}
    world.say(ANA, ANA, "/historico")
    message = next(m for s, m in world.chat(ANA).slots.items() if s.startswith("history."))
    older = next(b for row in message.buttons for b in row if b.text == "◀ Anteriores").callback_data
    forwarded = world.click(BIA, BIA, older)  # in Bia's chat the button pages Bia's own history
    assert [o.chat_id for o in forwarded.outbound] == [BIA]
    assert not any(line in forwarded.outbound[0].text for line in ana_only)
    assert world.click(BIA, -999, older).callback_answer == "Esse botão não é válido."  # another group
    before = world.table()
    world.click(ANA, ANA, older)
    assert world.table() == before  # turning pages changes nothing
    assert history.parse("H3.17") == (3, 17) and history.parse("H3") is None and history.parse("Hx.1") is None
    assert history.parse("H².1") is None
