"""Button labels and prompt info lines of the Dark Alley's choices (texts: trickerion_dark_alley.po)."""

from __future__ import annotations

from rulesets.core import msg
from rulesets.core.messages import Msg

from ..data import TRICKS
from ..market import unit_price
from ..placement import char_msg
from ..rules import comp_name, cost, trick_name
from ..state import State
from ..town_center import face_msg
from . import beco_escuro, special_cards
from .facts import SPECIALS

MENU_HEADS = ("bx", "hh", "tk", "ig", "sp")
YES_NO = {"fe": "empower", "mr": "recruit", "tm": "merchant", "en": "test_run", "eh": "enhance"}


def label(state: State, seat: int, cid: str) -> Msg | None:
    step, head, arg = state.step, cid[:2], cid[3:]
    if step == "acoes" and head in MENU_HEADS and cid[2:3] == ":":
        return _menu_label(state, cid, head, arg)
    if not step.startswith("da_"):
        return None
    if cid == "voltar":
        return msg("trickerion.choice.voltar")
    if cid in ("sb", "sa"):
        return msg(f"trickerion.da.choice.{cid}", card=special_cards.card_msg(state.alley.card))
    if cid == "ju":
        return msg("trickerion.da.choice.roll", die=msg(f"trickerion.die.{state.ctx['die']}"))
    if head in YES_NO:
        return msg(f"trickerion.da.choice.{YES_NO[head]}{arg}")
    if head == "dk":
        return msg("trickerion.da.choice.deck", loc=msg(f"trickerion.loc.{arg}"), n=len(state.alley.decks[arg]))
    if head == "kp":
        return special_cards.card_msg(arg)
    if head in ("ro", "rp"):
        return msg("trickerion.da.choice.none") if arg == "-" else trick_name(arg)
    if head in ("iv", "up"):
        if arg == "-":
            return msg("trickerion.da.choice.done")
        if head == "iv":
            return msg("trickerion.choice.bt", comp=comp_name(arg), price=unit_price(state, arg))
        return comp_name(arg)
    if head == "fu":
        return comp_name(arg)
    if head == "bt":
        if arg == "-":
            return msg("trickerion.da.choice.none")
        i, j = arg.split(":")
        return msg("trickerion.da.choice.swap", a=int(i) + 1, b=int(j) + 1)
    if head == "ck":
        return msg(f"trickerion.cat.{arg}")
    if head == "td":
        return msg("trickerion.da.choice.pending", n=int(arg) + 1)
    return None


def _menu_label(state: State, cid: str, head: str, arg: str) -> Msg:
    if head == "bx":
        action = {"1": "comprar_primeira", "2": "comprar_adicionais", "cv": "clarividencia", "td": "tecer_destino"}[arg]
        return msg(f"trickerion.da.action.{action}", ap=beco_escuro.cost(state, action))
    card = special_cards.card_msg(state.alley.card)
    if head == "hh":
        die, kind = arg.split(":")
        return msg("trickerion.da.choice.headhunter", char=char_msg(kind) if kind != "apprentice"
                   else msg("trickerion.char.apprentice"), ap=cost(state, "contratar"), card=card)
    if head == "tk":
        return msg("trickerion.da.choice.thirst", die=face_msg(arg, state.dice[arg]), ap=cost(state, "aprender"),
                   card=card)
    if head == "ig":
        return msg("trickerion.da.choice.ingenuity", trick=trick_name(arg), ap=TRICKS[arg].prepare_ap, card=card)
    i, slot = arg.split(":", 1)
    m = state.row[int(i)].m[slot]
    return msg("trickerion.da.choice.street", trick=trick_name(m.t), n=int(i) + 1, card=card)


def info(state: State, seat: int) -> list[Msg]:
    a = state.alley
    if a is None:
        return []
    out = []
    if state.step == "assign" or (state.cur is not None and state.cur.loc == "alley" and state.turn == seat):
        out.append(msg("trickerion.da.info.decks", decks=[
            msg("trickerion.table.comp", comp=msg(f"trickerion.loc.{loc}"), n=len(d)) for loc, d in a.decks.items()]))
    if state.turn == seat and a.card and state.cur is not None:
        out.append(msg("trickerion.da.info.card", card=special_cards.card_msg(a.card),
                       text=msg(f"trickerion.cardtext.{a.card}"), state=msg(f"trickerion.da.mode.{a.mode or 'new'}")))
    if state.step == "da_manter" and state.turn == seat:
        out += [msg("trickerion.da.info.text", card=special_cards.card_msg(c), text=msg(f"trickerion.cardtext.{c}"))
                for c in state.ctx["drawn"]]
    if state.step == "assign":
        out += [msg("trickerion.da.info.text", card=special_cards.card_msg(c), text=msg(f"trickerion.cardtext.{c}"))
                for c in state.p[seat].hand if c in SPECIALS]
    return out


