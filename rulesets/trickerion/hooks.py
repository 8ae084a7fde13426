"""Where later rule modules (the Dark Alley, the Secret Workshop, the quick game) plug into the base game.

A module is registered under a name and is active in a match when that name is in `State.modules`.
Every hook has a neutral default, so the base game runs with no module at all. The base rules call
them where those modules change the game: the starting hand and anything after the setup; extra
places (with spaces, actions and decision steps) and further places a card may open; assignment
cards of the module's own; the Shard's +1 AP; AP when a character is placed and effects right after;
action costs; the trick levels on offer; decisions of the module's own (e.g. before the
performances); the yield modifiers of a performed trick (applied in order); the start and end of a
round (prophecies, special card discards); the number of rounds; extra end-game score lines.
For the Dark Alley also: decisions right after a placement (`placement_step`), every completed action
of a place (`acted`, which may queue a follow-up decision), the Quick Order before it returns
(`orders_arrive`), before/after a performance choice (`before_perform`, `performing`, `performed`),
the offered magicians, the base score items, and labels/info lines of the module's choices."""

from __future__ import annotations

from typing import Any

from rulesets.core import Event, Rng
from rulesets.core.contract import ScoreLine
from rulesets.core.messages import Msg

from .state import State


class Module:
    """Override what the module changes; the defaults change nothing."""

    name = ""

    def places(self, state: State) -> dict[str, Any]:
        """Extra locations a card may name (e.g. the Dark Alley), each an object with the same
        `menu(state, seat)` / `start(state, seat, choice, rng, events)` / `STEPS` as the base places."""
        return {}

    def steps(self, state: State) -> dict[str, tuple]:
        """Decision steps of the module's own (step -> (choices, apply)), e.g. a magician's power
        asked before the performances; a hook sets state.turn/step to one of them."""
        return {}

    def enhance(self, state: State, loc: str, allowed: bool) -> bool:
        """Whether a Shard may buy +1 AP at `loc` (a prophecy lifts the Theater's ban)."""
        return allowed

    def max_trick_level(self, state: State, level: int) -> int:
        """The highest trick level in Dahlgaard's Residence (3 with the Dark Alley)."""
        return level

    def before_performances(self, state: State, rng: Rng, events: list[Event]) -> None:
        return None

    def hand(self, state: State, s: int, hand: dict[str, int]) -> dict[str, int]:
        return hand

    def action_cost(self, state: State, action: str, cost: int) -> int:
        """The AP cost of an action (a prophecy may make one cheaper)."""
        return cost

    def placed(self, state: State, s: int, char: str, space: str, events: list[Event]) -> None:
        """Right after a character is placed (e.g. a magician who gains Fame when placed)."""
        return None

    def card_location(self, state: State, card: str) -> str | None:
        """The location of an assignment card this module adds (special cards); None if not its card."""
        return None

    def more_locations(self, state: State, s: int, card: str) -> list[str]:
        """Further locations player s's card may send a character to (the Secret Workshop takes Workshop
        cards; the Great Optico's copy of Freelancer sends a permanent Workshop card anywhere)."""
        return []

    def after_setup(self, state: State, rng: Rng, events: list[Event]) -> None:
        """After the players' setup and initiative, before round 1 (a quick game starts at round 2).
        It may set state.turn/step to a decision of the module's own: the first round starts after it."""
        return None

    def adjust_initiative(self, state: State, adjust: bool) -> bool:
        """Whether this round starts with Ajustar a Ordem de Iniciativa (a quick game's first round skips it)."""
        return adjust

    def placement_ap(self, state: State, s: int, char: str, loc: str) -> int:
        return 0

    def yield_modifiers(self, state: State, owner: int, performer: int, tid: str) -> list[int]:
        return []

    def start_round(self, state: State, rng: Rng, events: list[Event]) -> None:
        return None

    def end_round(self, state: State, rng: Rng, events: list[Event]) -> None:
        return None

    def rounds(self, state: State, rounds: int) -> int:
        return rounds

    def score_lines(self, state: State, s: int) -> list[ScoreLine]:
        return []

    # Hooks added for the prophecies (issue 7); each leaves the base game unchanged by default.

    def base_ap(self, state: State, s: int, char: str, ap: int) -> int:
        """A character's base AP when placed (a prophecy sets every character to 1)."""
        return ap

    def enhance_ap(self, state: State, ap: int) -> int:
        """AP a Shard buys with Reforçar o Personagem (1; a prophecy makes it 2)."""
        return ap

    def spaces(self, state: State, s: int, char: str, keys: list[str]) -> list[str]:
        """Filter the free spaces a character may take (a prophecy forces the lowest modifier, or
        closes +2 spaces to a player who cannot pay for them)."""
        return keys

    def placements_per_turn(self, state: State, n: int) -> int:
        """Characters a player may place per turn of the placement phase (a prophecy allows two)."""
        return n

    def reveal(self, state: State, events: list[Event]) -> bool:
        """At the end of the assignment phase: True if the module keeps the cards face down (it then
        logs instead of the base reveal)."""
        return False

    def plans_hidden(self, state: State) -> bool:
        """After the assignment phase: whether cards under characters not placed stay secret this round."""
        return False

    def shards_gained(self, state: State, s: int, n: int, events: list[Event]) -> None:
        """Right after player s gained n >= 1 Shards (a trick yield, a link's shard circle, a bonus)."""
        return None

    def set_up(self, state: State, s: int, tid: str, events: list[Event]) -> None:
        """Right after a trick marker was set up in the Theater (Preparar um Truque)."""
        return None

    def component_cost(self, state: State, comp: str, price: int) -> int:
        """A component's price before any Quick Order surcharge."""
        return price

    def buy_area(self, state: State, comps: list[str]) -> list[str]:
        """Component types Comprar may take at the Buy area's price."""
        return comps

    def coins_taken(self, state: State, coins: int) -> int:
        """Coins Pegar Moedas gives for a Bank die showing `coins`."""
        return coins

    def weekday(self, state: State, owner: int, performer: int, day: int) -> int:
        """Whose weekday yield modifier applies to the owner of a performed trick."""
        return day

    def day_yield(self, state: State, day: int, value: int) -> int:
        """A weekday's yield modifier (Thursday -1, Sunday +1)."""
        return value

    def yields_of(self, state: State, index: int, slot: str, tid: str) -> tuple[str, int]:
        """For the marker at `slot` of card `index`, being performed: the trick whose yields its owner
        receives (`tid`, the marker's own, unless a power takes another trick's) and a change to the Fame
        its owner receives for it (the Red Lotus' Roubo de Truque: her victim receives 1 less)."""
        return tid, 0

    def trick_yield(self, state: State, owner: int, performer: int, fame: int, coins: int) -> tuple[int, int]:
        """A performed trick's Fame and coin yield after the modifiers."""
        return fame, coins

    def performer_bonus(self, state: State, s: int, fame: int, coins: int, shards: int) -> tuple[int, int, int]:
        """The performer's bonus (links, specialists backstage, the card's printed bonus)."""
        return fame, coins, shards

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Public parts of the module's state for the JSON view (never hidden information)."""
        return {}

    def table(self, state: State, seat: int | None) -> list[Msg]:
        """Extra lines of the table as text."""
        return []

    def base_score_items(self, state: State, items: list[str]) -> list[str]:
        """Which base end-game items score (the Dark Alley drops apprentices and specialists)."""
        return items

    def offers_magician(self, state: State, magician: str) -> bool:
        """Whether a magician may be chosen (without prophecies, not the Priestess of Mysticism)."""
        return True

    def placement_step(self, state: State, s: int) -> None:
        """Right after a placed character's AP are set (state.cur), before Reforçar/actions: a module may
        send the player to a decision of its own first (a special card's bonus or +1 AP)."""
        return None

    def acted(self, state: State, s: int, action: str, info: dict[str, Any], events: list[Event]) -> None:
        """After an action of a place is completed (info: what it did, e.g. the trick, the coins paid); a
        module may apply an effect and may set state.step to a follow-up decision of its own."""
        return None

    def orders_arrive(self, state: State, events: list[Event]) -> None:
        """At the start of Chegada das Encomendas, while the Quick Order slot still holds its component."""
        return None

    def label(self, state: State, seat: int, choice: str) -> Any:
        """The button text (a Msg) of a choice this module added; None if not its choice."""
        return None

    def performing(self, state: State, s: int, index: int, events: list[Event]) -> None:
        """A magician is about to perform card `index` (its markers are still on it)."""
        return None

    def before_perform(self, state: State, s: int, events: list[Event]) -> None:
        """Player s is about to choose the card to perform (state.step "apresentar"); a module may point
        state.turn/step at a decision of its own first."""
        return None

    def performed(self, state: State, s: int, events: list[Event]) -> None:
        """Player s has performed (the card's markers are back); a module may set a decision of its own."""
        return None

    def info(self, state: State, seat: int) -> list[Any]:
        """Extra info lines of the seat's prompt."""
        return []

    def secret_step(self, state: State, step: str) -> bool:
        """Whether the choices of this decision of the module's are seen by the deciding player only (the
        special card kept at the Beco Escuro): a single answer applied without asking is told to them only."""
        return False


REGISTRY: dict[str, Module] = {}
_LAST: tuple[list[str], tuple[Module, ...]] = ([], ())  # the last list of names asked for, and its modules


def register(module: Module) -> None:
    global _LAST
    REGISTRY[module.name] = module
    _LAST = ([], ())


def active(state: State) -> tuple[Module, ...]:
    # the last answer remembered, and a tuple rather than a generator: the rules ask this thousands of times
    # a game, nearly always for the same names
    global _LAST
    names, modules = _LAST
    if state.modules != names:
        modules = tuple(REGISTRY[name] for name in state.modules)
        _LAST = (list(state.modules), modules)
    return modules
