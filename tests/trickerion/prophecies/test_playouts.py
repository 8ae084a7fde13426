"""Random playouts with the prophecies: the base invariants (or the Dark Alley's), the track in order
after every action, no pile token in any view or event, every prompt renders in both languages, and
log replay gives the same state. Across the batch every prophecy must have been Active."""

from __future__ import annotations

import json
import re

import pytest

import locales
from rulesets.core import replay, state_hash
from rulesets.core.playout import random_playout
from rulesets.trickerion import prophecies as P

from ..helpers import GAME, Invariants, purposeful_playout
from .helpers import TrackCheck, forced_module

TOKEN = re.compile(r"trickerion\.prophecy\.(P\d\d)")


class EventCheck:
    """The last action's events name no token still in the face-down pile."""

    def __call__(self, game, match) -> None:
        t = match.state.proph
        if t is None or not match.log:
            return
        text = json.dumps([e.text.model_dump() for e in match.log[-1].events])
        if "trickerion.prophecies.log.reshuffled" in text:
            return  # tokens named earlier in the same action went back into the pile with the discards
        assert not set(TOKEN.findall(text)) & set(t.pile), text


class PromptCheck:
    """Every prompt of the seats to act renders in pt-BR and English, with a keyboard-sized number of buttons."""

    def __call__(self, game, match) -> None:
        st = match.state
        for s in game.to_act(st)[:1]:
            prompt = game.prompt(st, s)
            assert len(prompt.choices) <= 40, (st.step, len(prompt.choices))
            for lang in ("pt_BR", "en"):
                for c in prompt.choices[:6]:
                    locales.render(c.label, lang, names=["A", "B", "C", "D"])
                for line in prompt.info:
                    locales.render(line, lang, names=["A", "B", "C", "D"])


def _checks(base):
    track = TrackCheck()
    parts = [base, track, EventCheck()]

    def check(game, match):
        for part in parts:
            part(game, match)

    return check, track


def _forced_batch(players: int, seeds: range, prompts: bool = False) -> set[str]:
    seen: set[str] = set()
    with forced_module(P.NAME):
        for seed in seeds:
            for play in (purposeful_playout, _uniform):
                check, track = _checks(Invariants())
                if prompts:
                    prompt_check = PromptCheck()
                    inner = check

                    def check(game, match, inner=inner, prompt_check=prompt_check):
                        inner(game, match)
                        prompt_check(game, match)

                match = play(players, seed, {}, check=check)
                assert GAME.is_over(match.state) and match.state.proph is not None
                assert state_hash(replay(match)) == state_hash(match)
                seen |= track.seen
    return seen


def _uniform(players, seed, options, check):
    return random_playout(GAME, players, seed, options, check=check).match


# 3 player counts x 2 batches x 21 seeds x 2 drivers = 252 five-round games with the module forced in.
@pytest.mark.slow
@pytest.mark.parametrize("batch", range(2))
@pytest.mark.parametrize("players", (2, 3, 4))
def test_base_games_with_prophecies(players, batch):
    base = 500 + 100 * batch
    assert len(_forced_batch(players, range(base, base + 21))) > 20


def test_quick_games_with_prophecies_and_prompts():
    seen = set()
    for players in (2, 3, 4):
        seen |= _forced_batch(players, range(2), prompts=True)
    assert seen


def _coverage(options: dict, seeds: range) -> set[str]:
    """Uniform playouts with only the track's check: which prophecies were Active. Each game shuffles the
    pile once and activates a handful, so many seeds are needed (the drivers share a seed's shuffle)."""
    seen: set[str] = set()
    for seed in seeds:
        track = TrackCheck()
        random_playout(GAME, 2 + seed % 3, seed, options, check=track)
        seen |= track.seen
    return seen


def test_every_prophecy_was_active_in_the_playouts():
    with forced_module(P.NAME):
        seen = _coverage({}, range(900, 960))
    assert seen == set(P.PROPHECIES), sorted(set(P.PROPHECIES) - seen)


# ---------------------------------------------------------------------------------------------- with the Dark Alley

DARK = {"dark_alley": True, "prophecies": True}


def _dark_batch(players: int, seeds: range) -> set[str]:
    from rulesets.trickerion.game import Options

    if "dark_alley" not in Options.model_fields:
        pytest.skip("the Dark Alley's options are not in the game yet")
    checks = pytest.importorskip("tests.trickerion.dark_alley.checks")
    seen: set[str] = set()
    for seed in seeds:
        for play in (purposeful_playout, _uniform):
            check, track = _checks(checks.Invariants())
            match = play(players, seed, DARK, check=check)
            assert GAME.is_over(match.state) and match.state.round == 7 and P.NAME in match.state.modules
            assert state_hash(replay(match)) == state_hash(match)
            seen |= track.seen
    return seen


# 3 player counts x 2 batches x 21 seeds x 2 drivers = 252 seven-round games with the Dark Alley and prophecies.
@pytest.mark.slow
@pytest.mark.parametrize("batch", range(2))
@pytest.mark.parametrize("players", (2, 3, 4))
def test_dark_alley_games_with_prophecies(players, batch):
    base = 700 + 100 * batch
    assert len(_dark_batch(players, range(base, base + 21))) > 20


def test_dark_alley_every_prophecy_was_active():
    from rulesets.trickerion.game import Options

    if "dark_alley" not in Options.model_fields:
        pytest.skip("the Dark Alley's options are not in the game yet")
    seen = _coverage(DARK, range(950, 990))
    assert seen == set(P.PROPHECIES), sorted(set(P.PROPHECIES) - seen)
