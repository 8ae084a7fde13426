"""Trickerion's pictures: drawn from a view alone (nothing hidden reaches them), within Telegram's and
our limits, in both languages, with the card picture numbered like its buttons."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

import locales
from rulesets.core import Match, contract
from rulesets.trickerion import picture
from rulesets.trickerion.dark_alley.facts import SPECIALS
from rulesets.trickerion.rules import slot_number
from rulesets.trickerion.views import is_spot, would_link

from .helpers import GAME, LAZY, weighted_playout

NAMES = ["Ana", "Bruno", "Carla", "Duda"]
DARK = {"dark_alley": True, "prophecies": True, "beginner_setup": True}
THEATRICAL = {"aq": 40, "preparar": 30, "pp": 30, "pt": 10, "pc": 5, "pe": 3, "re": 2, "reagendar": 3, "comprar": 4,
              "cp": 2}


def _theatrical(state, choice: str) -> float:
    """Odds that send characters to the Workshop and the Theater and set tricks up: tables full of
    markers and links, and many placement prompts."""
    space = choice.split(":")[-1] if choice.startswith(("es:", "al:")) else ""
    if choice in ("l:workshop", "l:theater") and state.step == "assign" or space.startswith(("workshop", "theater")):
        return 8.0
    if choice in LAZY or choice.startswith(("r:", "o:", "dc:", "dt:")):
        return 0.3 if choice != "pronto" else 0.8
    return THEATRICAL.get(choice.split(":")[0], 1)


def theatrical_playout(players: int, seed: int, options: dict, check=None) -> Match:
    return weighted_playout(players, seed, options, check, _theatrical, (17, 5))


def say(lang: str = "pt_BR", names=NAMES):
    return lambda m: locales.render(m, lang, names)


def snapshots(players: int, seed: int, options: dict, every: int = 23) -> list[Match]:
    """Positions of one purposeful game: every `every`-th action and each first one of a phase (and of a
    secret assignment under way)."""
    out: list[Match] = []
    seen: set[tuple[int, str]] = set()
    count = [0]

    def keep(game, match: Match) -> None:
        count[0] += 1
        st = match.state
        key = (st.round, st.phase, st.phase == "assign" and any(p.plan for p in st.p if not p.ready))
        if key not in seen or count[0] % every == 0:
            seen.add(key)
            out.append(match.model_copy(deep=True))

    theatrical_playout(players, seed, options, keep)
    return out


def group_png(match: Match, lang: str = "pt_BR") -> bytes:
    return GAME.picture(GAME.view(match.state, None), NAMES[:match.state.n], say(lang, NAMES[:match.state.n]))


def board_png(match: Match, seat: int) -> bytes:
    return GAME.seat_picture(GAME.view(match.state, seat), seat, NAMES[:match.state.n], say(), contract.BOARD)


def hide_differently(match: Match, keep: int | None = None) -> Match:
    """A copy where everything hidden from the group (and from seat `keep`) is changed: the face-down
    decks (performance, special, prophecy pile) reordered and replaced, other seats' hidden plans,
    current pick, setup bookkeeping and special cards in hand swapped, the decision in progress."""
    other = match.model_copy(deep=True)
    st = other.state
    rnd = random.Random(7)
    st.deck = list(reversed(st.deck))[1:] + list(reversed(st.deck))[:1]
    if st.alley is not None:
        for loc, deck in st.alley.decks.items():
            pool = [c for c in SPECIALS if SPECIALS[c].location == loc]
            st.alley.decks[loc] = rnd.sample(pool, len(deck))
        st.alley.card = None
    if st.proph is not None:
        st.proph.pile = list(reversed(st.proph.pile))
    group = GAME.view(match.state, None)["players"]
    for s, p in enumerate(st.p):
        if s == keep:
            continue
        visible = group[s].get("plan", {})
        for char in p.plan:
            if char not in visible:
                p.plan[char] = "market" if p.plan[char] != "market" else "downtown"
        p.pick = "mag" if p.pick != "mag" else None
        p.rest = [] if p.rest else ["mag"]
        p.start = {"hidden": rnd.randrange(1000)}
        specials = [c for c in p.hand if c in SPECIALS and c not in visible.values()]  # a revealed one is public
        for c in specials:
            swap = next(x for x in SPECIALS if x not in p.hand and SPECIALS[x].location == SPECIALS[c].location)
            p.hand[swap] = p.hand.pop(c)
            p.plan = {k: (swap if v == c else v) for k, v in p.plan.items()}
    if st.turn is not None and st.turn != keep:
        st.ctx = dict(st.ctx, hidden=rnd.randrange(1000))
    return other


@pytest.mark.parametrize(("players", "seed"), [(4, 1), (3, 2)])
def test_the_group_picture_is_drawn_from_the_group_view_alone(players, seed):
    checked, secret_plans = 0, 0
    for match in snapshots(players, seed, DARK, every=61)[::2]:
        changed = hide_differently(match)
        assert changed.state != match.state
        secret_plans += any(a.plan != b.plan for a, b in zip(changed.state.p, match.state.p, strict=True))
        assert GAME.view(changed.state, None) == GAME.view(match.state, None)
        assert group_png(changed) == group_png(match)
        checked += 1
    assert checked >= 5 and secret_plans >= 1  # some positions were in the secret assignment
    # the comparison can fail: a public change is drawn
    richer = match.model_copy(deep=True)
    richer.state.p[0].fame += 1
    assert group_png(richer) != group_png(match)


def test_a_board_picture_never_shows_another_seats_hidden_information():
    checked = 0
    for match in snapshots(4, 3, DARK, every=53)[::3]:
        assert hide_differently(match, keep=0).state != match.state
        for seat in range(4):
            assert board_png(hide_differently(match, keep=seat), seat) == board_png(match, seat), seat
        checked += 1
    assert checked >= 5
    # and a player's own hidden cards are on their own board
    richer = match.model_copy(deep=True)
    richer.state.p[1].coins += 3
    assert board_png(richer, 1) != board_png(match, 1)


def _png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image


@pytest.mark.parametrize("lang", ["pt_BR", "en"])
def test_every_phase_draws_within_the_limits(lang):
    """4 players with the Dark Alley and prophecies (the largest table), every phase, both languages."""
    phases = set()
    for match in snapshots(4, 5, DARK, every=97):
        data = group_png(match, lang)
        image = _png(data)
        assert image.width <= 1280 and image.height <= 1280 and len(data) <= 250_000
        phases.add(match.state.phase)
    assert {"magician", "assign", "place", "over"} <= phases


def test_the_base_game_draws_without_the_dark_alley_panels():
    match = snapshots(2, 4, {}, every=400)[-1]
    view = GAME.view(match.state, None)
    assert "special_decks" not in view and "prophecies" not in view
    assert _png(group_png(match)).width == 1280


def test_the_placement_prompt_shows_its_card_numbered_like_its_buttons():
    """Wherever a prompt sets a marker up, it asks for that card's picture, the seat's view carries the
    same spots and links as the buttons, and the picture is drawn."""
    found = [0]

    def check(game, match: Match) -> None:
        st = match.state
        if st.turn is None or st.phase == "over":
            return
        seat = st.turn
        spots = [c for c in GAME.legal_choices(st, seat) if is_spot(c)]
        prompt = GAME.prompt(st, seat)
        if not spots:
            assert prompt.picture is None
            return
        view = GAME.view(st, seat)
        index = view["placing"]["card"]
        assert prompt.picture == f"card:{index}"
        places = {tuple(c.split(":")[1:3]): c for c in spots}  # a spot offered with each link bonus: once
        assert view["placing"]["spots"] == [[slot, int(d), would_link(st, seat, c)] for (slot, d), c in places.items()]
        labels = {c.id: locales.render(c.label, "pt_BR", NAMES[:3]) for c in prompt.choices}
        for c in spots:
            assert labels[c].startswith(f"Espaço {slot_number(st.row[index].id, c.split(':')[1])} ")
        if found[0] % 5 == 0:  # drawing is the slow part: some of them
            assert _png(GAME.seat_picture(view, seat, NAMES[:3], say(), prompt.picture)).width <= 1280
        found[0] += 1

    for seed in range(1, 4):
        theatrical_playout(3, seed, DARK, check)
    assert found[0] >= 20


def test_the_slot_numbers_read_like_a_page():
    assert [slot_number("P05", s) for s in ("1.0", "1.1", "0.2", "1.2")] == [1, 2, 3, 4]
    assert [slot_number("P13", s) for s in ("0.0", "1.0", "0.1", "1.1", "0.2")] == [1, 2, 3, 4, 5]


def test_players_letters_tell_them_apart():
    assert picture.style.letters(["Ana", "Bruno", "Carla"]) == ["A", "B", "C"]
    assert picture.style.letters(["Ana", "André", "Bia"]) == ["1", "2", "3"]
    assert picture.style.letters(["<3", "ü"]) == ["3", "Ü"]
