"""A finished Trickerion game, through `handle` alone: the summary picture in the group, /estatisticas
(favourite magicians, tricks and Specialists, the average of each kind of Fame), the replay stepping
through the group's table picture round by round to the saved final position, that the replay and the
summary show only what the group may see, and that a 4-player Dark Alley game's archived record stays
within 64 KB."""

from __future__ import annotations

import random
from functools import cache

import pytest

import locales
from rulesets.core import act, load_match, new_match, state_hash
from rulesets.core.ai.players import decide
from rulesets.core.match import dump_match
from rulesets.core.summary import positions
from rulesets.registry import get_game
from rulesets.trickerion.dark_alley.facts import SPECIALS
from rulesets.trickerion.rules import characters
from tests.tables.harness import ANA, BIA, CAIO, GROUP, FakeDirectory, World
from workers.protocol import Command
from workers.store import encode_doc
from workers.tables import picture, record
from workers.tables import replay as replay_mod
from workers.tables.context import Ctx
from workers.tables.model import SeatInfo, Table
from workers.tables.record import GameRecord

GAME = get_game("trickerion")
DORA = 104
ALLEY = {"dark_alley": True, "prophecies": True}


def finish(world: World, users: list[int], seed: int, options: dict | None = None) -> GameRecord:
    world.open_lobby("trickerion", users)
    world.table()["options"] = dict(options or {})  # as the lobby's Opções would set them
    world.press(ANA, GROUP, "Começar")
    world.play_out(users, seed=seed, max_presses=20_000)
    return GameRecord.model_validate(world.dir.records[world.table()["id"]])


@cache
def _played() -> tuple[World, GameRecord]:
    """A two-player game to the end (the table logic saves and reloads the whole match at every press:
    a short game keeps this quick)."""
    world = World()
    return world, finish(world, [ANA, BIA], seed=5)  # a seed where both learn tricks (asserted below)


@pytest.fixture
def played() -> tuple[World, GameRecord]:
    return _played()


def test_the_group_gets_trickerions_summary_picture(played):
    world, record = played
    summary = [m for m in world.chat(GROUP).oneoffs if m.photo is not None and "Resumo" in m.text][-1]
    assert "Resumo da partida: Trickerion" in summary.text and "1º" in summary.text
    names = [s.name for s in record.seats]
    view = GAME.view(load_match(record.match).state, None)
    assert summary.photo == GAME.summary_picture(record.summary(view), names, picture.say("pt_BR", names))
    assert record.rounds[-1].final and [r.round for r in record.rounds[:-1]] == [1, 2, 3, 4]
    assert record.start_points == [5, 5] and record.rated


def test_statistics_name_the_favourite_magician_tricks_and_specialists_and_each_kind_of_fame(played):
    world, record = played
    world.say(ANA, ANA, "/estatisticas trickerion")
    text = world.chat(ANA).transcript[-1]
    assert "<b>Trickerion</b>" in text and "1 partida" in text and "Fama na partida" in text
    assert all(p.tricks for p in load_match(record.match).state.p), "the random play learned no trick"
    assert "Mágicos favoritos:" in text and "Truques mais aprendidos:" in text
    magician = load_match(record.match).state.p[0].magician
    assert locales.text(f"trickerion.magician.{magician}", "pt_BR") in text
    world.dir.langs[ANA] = "en"
    world.say(ANA, ANA, "/stats trickerion")
    text = world.chat(ANA).transcript[-1]
    assert "Favourite magicians:" in text and "Fame during the game" in text
    assert locales.text(f"trickerion.magician.{magician}", "en") in text
    world.dir.langs.pop(ANA)


def _slot(world: World, chat: int) -> str:
    return [s for s in world.chat(chat).slots if s.startswith("replay.")][-1]


def test_the_replay_steps_through_the_group_picture_round_by_round_to_the_saved_final_position(played):
    world, record = played
    summary = [m for m in world.chat(GROUP).oneoffs if m.photo is not None and "Resumo" in m.text][-1]
    world.click(BIA, GROUP, summary.buttons[0][0].callback_data)
    slot = _slot(world, GROUP)
    first = world.chat(GROUP).slots[slot]
    assert "Reprise: Trickerion" in first.text and first.photo is not None
    world.press(BIA, GROUP, "Rodada 1 ⏩")
    assert "rodada 1" in world.chat(GROUP).slots[slot].text
    world.press(BIA, GROUP, "Rodada 2 ⏩")
    assert "rodada 2" in world.chat(GROUP).slots[slot].text
    world.press(CAIO, GROUP, "⏭")
    final = world.chat(GROUP).slots[slot]
    assert "Posição final" in final.text
    match = load_match(record.match)
    saved = load_match(world.table(record.id)["match"])
    stops = replay_mod.steps(match)
    rebuilt = replay_mod.position(match, stops[-1])
    assert state_hash(match.model_copy(update={"state": rebuilt})) == state_hash(saved)
    names = [s.name for s in record.seats]
    assert final.photo == picture.table(GAME, GAME.view(saved.state, None), names, "pt_BR")
    world.press(ANA, GROUP, "◀")
    assert f"passo {len(stops) - 1} de {len(stops)}" in world.chat(GROUP).slots[slot].text
    world.press(ANA, GROUP, "▶")
    assert world.chat(GROUP).slots[slot].photo == final.photo


def scrambled(state, rnd: random.Random):
    """The same position with everything the group may not see changed: the performance deck, the Dark
    Alley's special decks and the prophecy pile in another order, another card under each character
    while the assignment is secret, the special cards in each hand swapped with cards of their decks."""
    st = state.model_copy(deep=True)
    rnd.shuffle(st.deck)
    if st.proph is not None:
        rnd.shuffle(st.proph.pile)
    if st.alley is not None:
        for deck in st.alley.decks.values():
            rnd.shuffle(deck)
    for p in st.p:
        if st.alley is not None and st.phase != "assign":
            for card in [c for c in p.hand if c in SPECIALS and c not in p.plan.values()]:
                deck = st.alley.decks[SPECIALS[card].location]
                if deck:
                    j = rnd.randrange(len(deck))
                    deck[j], swapped = card, deck[j]
                    p.hand = {(swapped if c == card else c): n for c, n in p.hand.items()}
        if st.phase == "assign":
            cards = [c for c, n in p.hand.items() for _ in range(n)]
            rnd.shuffle(cards)
            chars = characters(p)
            rnd.shuffle(chars)
            p.plan = dict(zip(chars, cards, strict=False))
            p.pick = rnd.choice([None, *chars])
    return st


@pytest.mark.parametrize("players,seed,options", [(3, 1, {}), (4, 2, ALLEY)])
def test_the_replay_and_the_summary_show_only_what_the_group_may_see(players, seed, options, monkeypatch):
    """Change what is private in replayed positions (the secret assignment among them) and, with the Dark
    Alley, in the final one (its decks, the prophecy pile and the special cards in hand stay secret after
    the game; without it nothing is hidden any more at the end): the replay's frames and the summary
    picture come out byte for byte the same."""
    match, kept, _ = ai_record(players, seed, tuple(sorted(options.items())))
    stops = replay_mod.steps(match)
    phases = {}
    for i, state in positions(match):
        phases[i] = state.phase
    secret = [k for k, i in enumerate(stops) if phases[i] == "assign"]
    picks = sorted({0, *secret[1:: max(1, len(secret) // 3)][:3], len(stops) - 1})
    assert len(picks) >= 4 and any(phases[stops[k]] == "assign" for k in picks)
    plain = [replay_mod.frame(GAME, kept, match, k, "pt_BR", 1)[:2] for k in picks]
    real = replay_mod.position
    rnd = random.Random(7)
    changed = []

    def hidden_changed(m, index):
        state = real(m, index)
        other = scrambled(state, rnd)
        changed.append(other != state)
        return other

    monkeypatch.setattr(replay_mod, "position", hidden_changed)
    assert [replay_mod.frame(GAME, kept, match, k, "pt_BR", 1)[:2] for k in picks] == plain
    assert sum(changed) >= 3  # the private parts did differ (a secret assignment in progress among them)
    if options:
        names = [s.name for s in kept.seats]
        say = picture.say("pt_BR", names)
        other = scrambled(match.state, rnd)
        assert other != match.state
        assert GAME.summary_picture(kept.summary(GAME.view(match.state, None)), names, say) == \
            GAME.summary_picture(kept.summary(GAME.view(other, None)), names, say)


def ai_match(players: int, seed: int, options: dict):
    match = new_match(GAME, options, players, seed)
    while not GAME.is_over(match.state):
        seat = GAME.to_act(match.state)[0]
        match, _ = act(match, seat, decide(GAME, match.state, seat, "facil", seed).choice, inplace=True)
    return match


@cache
def ai_record(players: int, seed: int, options: tuple) -> tuple:
    """A game the fácil AI played (people and the AI perform, link and do more per turn than random
    presses), and the record the table logic's end of game makes of it (record.ending)."""
    match = ai_match(players, seed, dict(options))
    names = ["Ana", "Bia", "Caio", "Dora"][:players]
    users = [ANA, BIA, CAIO, DORA][:players]
    table = Table(id="t1", game="trickerion", chat_id=GROUP, creator=ANA, status="playing", started_at=1.0,
                  seats=[SeatInfo(user_id=u, name=n) for u, n in zip(users, names, strict=True)],
                  match=match.model_dump(mode="json"))
    cmd = Command(update_id=1, kind="message", route="t1", chat_id=GROUP, chat_type="supergroup", user_id=ANA,
                  user_name="Ana", text="/x", received_at=2.0)
    ctx = Ctx(table, cmd, FakeDirectory(), 2.0)
    kept = record.ending(ctx, GAME, match)
    assert ctx.result.finished is not None
    return match, kept, encode_doc(ctx.result.finished.record)


def test_a_four_player_dark_alley_record_stays_within_64_kb():
    """The longest games there are: 4 players, 7 rounds with the Dark Alley and the prophecies, about 900
    log entries, some 240 KB of JSON. What the end-of-game commit archives (`arch:<id>`: record.ending's
    record, encoded as workers/archive.py stores it) is compressed."""
    match, kept, stored = ai_record(4, 2, tuple(sorted(ALLEY.items())))
    assert kept.rounds[-1].final and len(match.log) > 500 and len(dump_match(match)) > 150_000
    assert len(stored) <= 64 * 1024, len(stored)
    print(f"\n4-player Dark Alley record: {len(match.log)} log entries, {len(dump_match(match))} bytes of match "
          f"JSON, {len(stored)} bytes stored (arch:<id>)")
