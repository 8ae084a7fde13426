"""A Oficina Secreta (The Secret Workshop promo), option `secret_workshop`.

A new place for the Fase de Alocar Personagens, beside the main board. A character goes there with a
Oficina (Workshop) assignment card — the player picks the Workshop or the Secret Workshop when
placing — and gets +1 AP. None of the normal Workshop actions is available there; its only action is

    Arquitetar com Maestria (EN Expert Preparation): ignore the AP cost printed on the trick card; the
    card may still hold trick markers; every AP spent puts 1 marker of that trick on its card.

Rulings (docs/rulings/trickerion.md, "Secret Workshop and quick game"): one character space in total,
+1 AP as the space's modifier (Reforçar o Personagem may add to it); the trick's components must be
met; the 4 markers of a symbol (card and Theater together) are the limit; no Engineer bonus marker;
several tricks may be served AP by AP in one placement.

Choice ids: `sx:<trick>` (Arquitetar com Maestria on that trick), then `sn:<k>` (k markers for k AP).
"""

from __future__ import annotations

import yaml

from rulesets.core import Event, Rng, msg
from rulesets.core.messages import Msg

from . import hooks
from .data import HERE
from .placement import card_location
from .rules import (
    MARKERS_PER_SYMBOL,
    acted,
    comp_name,
    effective,
    log,
    markers_in_theater,
    meets,
    owned,
    qty,
    trick_name,
    who,
)
from .state import Owned, State

NAME = "secret_workshop"
with (HERE / "variants.yaml").open(encoding="utf-8") as _fh:
    DATA: dict[str, int] = yaml.safe_load(_fh)[NAME]
SPACES = DATA["spaces"]   # one character space in total (the promo card), see the rulings
SPACE_AP = DATA["ap"]     # "+1 AP" for the character placed there


def room(state: State, s: int, o: Owned) -> int:
    """Markers that may still go on this trick card: a symbol has 4 markers, on its card and in the Theater."""
    return max(0, MARKERS_PER_SYMBOL - o.on - markers_in_theater(state, s, o.sym))


def expert_tricks(state: State, s: int) -> list[str]:
    """Tricks the character acting now could serve: components met and a marker left to place."""
    p = state.p[s]
    if state.cur is None or state.cur.ap < 1:
        return []
    return [o.t for o in p.tricks if meets(p, o.t) and room(state, s, o) > 0]


class SecretWorkshop:
    """The place: its space, action menu and the step that asks how many markers."""

    def spaces(self, state: State, s: int, char: str) -> list[str]:
        return [k for k in (f"{NAME}.{i}" for i in range(SPACES)) if k not in state.occ]

    def space_ap(self, key: str) -> int:
        return SPACE_AP

    def menu(self, state: State, s: int) -> list[str]:
        return [f"sx:{t}" for t in expert_tricks(state, s)]

    def opened_by_returns(self, state: State, s: int) -> bool:
        """Arquitetar com Maestria needs components met and markers of the trick's own symbol: giving
        things back opens it for no trick."""
        return False

    def start(self, state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
        state.ctx = {"t": choice[3:]}
        state.step = "perito"

    STEPS: dict[str, tuple] = {}  # filled below: the step that asks how many markers


def perito_opcoes(state: State, s: int) -> list[str]:
    o = owned(state.p[s], state.ctx["t"])
    return [f"sn:{k}" for k in range(1, min(state.cur.ap, room(state, s, o)) + 1)] + ["voltar"]


def preparacao_especializada(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    """Arquitetar com Maestria: k AP put k markers on the trick card, whatever it already holds."""
    if choice != "voltar":
        k = int(choice[3:])
        o = owned(state.p[s], state.ctx["t"])
        o.on += k
        state.cur.ap -= k
        log(events, "expert_prepare", player=who(s), trick=trick_name(o.t), count=k, on=o.on)
        # Not Arquitetar: a special card framed for Arquitetar loses its bonus here (PT p.13).
        acted(state, s, "arquitetar_maestria", events, trick=o.t, count=k)
    state.step, state.ctx = "acoes", {}
    return False


SecretWorkshop.STEPS = {"perito": (perito_opcoes, preparacao_especializada)}
PLACE = SecretWorkshop()


class Module(hooks.Module):
    name = NAME

    def places(self, state: State) -> dict:
        return {NAME: PLACE}

    def more_locations(self, state: State, s: int, card: str) -> list[str]:
        """Any Workshop assignment card (a permanent one, or a special one of the Dark Alley) may send
        its character here instead."""
        return [NAME] if card_location(state, card) == "workshop" else []

    def label(self, state: State, seat: int, choice: str) -> Msg | None:
        head, _, arg = choice.partition(":")
        if head == "sx" and state.step == "acoes" and state.cur and state.cur.loc == NAME:
            return msg("trickerion.choice.expert", trick=trick_name(arg))
        if head == "sn" and state.step == "perito":
            return msg("trickerion.choice.expert_n", count=int(arg))
        return None

    def info(self, state: State, seat: int) -> list[Msg]:
        """At the Secret Workshop the player sees their components and tricks (markers on each card)."""
        if state.cur is None or state.cur.loc != NAME or state.turn != seat:
            return []
        p = state.p[seat]
        out = [msg("trickerion.info.comps", comps=[
            msg("trickerion.table.comp", comp=comp_name(c), n=effective(p, c)) for c in p.comps])]
        out.append(msg("trickerion.info.tricks", tricks=[
            msg("trickerion.table.trick", trick=trick_name(o.t), on=o.on) for o in p.tricks]))
        if state.step == "perito":
            o = owned(p, state.ctx["t"])
            out.append(msg("trickerion.info.expert", trick=trick_name(o.t), on=qty("markers", o.on),
                           room=room(state, seat, o)))
        return out


hooks.register(Module())
