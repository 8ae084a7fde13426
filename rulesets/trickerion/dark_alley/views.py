"""Button labels and prompt info lines of the Dark Alley's choices (texts: trickerion_dark_alley.po)."""

from __future__ import annotations

from rulesets.core import msg
from rulesets.core.messages import Msg

from ..data import TRICKS
from ..market import unit_price
from ..placement import char_msg
from ..rules import comp_name, cost, trick_name, who
from ..state import State
from ..town_center import face_msg
from . import beco_escuro, special_cards
from .facts import SPECIALS

MENU_HEADS = ("bx", "hh", "tk", "ig", "sp", "gp", "nt", "df", "cs", "sg", "bp", "el")
YES_NO = {"me": "mechanic", "fe": "empower", "mr": "recruit", "tm": "merchant", "en": "test_run", "eh": "enhance"}


def label(state: State, seat: int, cid: str) -> Msg | None:
    step, head, arg = state.step, cid[:2], cid[3:]
    if step == "acoes" and head in MENU_HEADS and cid[2:3] == ":":
        return _menu_label(state, cid, head, arg)
    if not step.startswith("da_"):
        return None
    if cid == "voltar":
        return msg("trickerion.choice.voltar")
    mine = step_label(state, seat, cid)
    if mine is not None:
        return mine
    if cid in ("sb", "sa"):
        return msg(f"trickerion.da.choice.{cid}", card=special_cards.card_msg(state.alley.card))
    if cid == "ju":
        return msg("trickerion.da.choice.roll", die=msg(f"trickerion.die.{state.ctx['die']}"))
    if head in YES_NO:
        return msg(f"trickerion.da.choice.{YES_NO[head]}{arg}")
    if head == "dk":
        n = len(state.alley.decks[arg])
        return msg("trickerion.da.choice.deck", loc=msg(f"trickerion.loc.{arg}"), n=n, count=n)
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
    if head == "el":
        return msg("trickerion.da.choice.el", trick=trick_name(arg), ap=cost(state, "preparar"))
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
    if head in ("gp", "nt"):
        return msg(f"trickerion.da.choice.{head}", trick=trick_name(arg), ap=cost(state, "preparar"), card=card)
    if head in ("df", "cs", "sg", "bp"):
        ap = cost(state, "reagendar" if head == "df" else "comprar")
        return msg(f"trickerion.da.choice.{head}", ap=ap, card=card)
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
            msg("trickerion.da.count", what=msg(f"trickerion.loc.{loc}"), n=len(d)) for loc, d in a.decks.items()]))
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




def step_label(state: State, seat: int, cid: str) -> Msg | None:
    """Labels of the choices of the steps added for the cards and powers of the second batch."""
    from ..placement import card_msg as assignment_msg
    from ..rules import slot_msg
    from ..views import card_msg as perf_card
    from ..views import spot_label

    head, arg, ctx = cid[:2], cid[3:], state.ctx
    if arg == "-":
        special = {"ks": "done", "iv": "done", "up": "done", "cm": "end_cm", "yo": "end_yo"}
        return msg(f"trickerion.da.choice.{special.get(head, 'none')}")
    if head in ("pl", "gc", "tw", "dd", "cc", "yo"):
        i = int(arg)
        return msg("trickerion.choice.card", n=i + 1, card=perf_card(state.row[i].id))
    if head in ("ps", "te", "de", "ce"):
        return spot_label(state, seat, cid)
    if head == "ht":
        return msg(f"trickerion.char.{arg}")
    if head == "hy":
        return assignment_msg(state, arg)
    if head == "dm":
        i, slot = arg.split(":", 1)
        m = state.row[int(i)].m[slot]
        return msg("trickerion.da.choice.marker", player=who(m.seat), trick=trick_name(m.t), n=int(i) + 1,
                   slot=slot_msg(slot))
    if head in ("ks", "sg"):
        return msg("trickerion.choice.bt", comp=comp_name(arg), price=unit_price(state, arg))
    if head == "sq":
        k = int(arg)
        return msg("trickerion.da.choice.smuggle", count=k, comp=comp_name(ctx["comp"]),
                   fame=k * unit_price(state, ctx["comp"]) - 1)
    if head == "du":
        return trick_name(arg)
    if head == "ge":
        tid, kind = arg.split(":")
        first = next(f for f in state.alley.premiere[str(seat)] if f.startswith(tid + ":")).split(":")
        n = int(first[1 + ("fame", "coins", "shards").index(kind)])
        return msg("trickerion.da.choice.premiere", trick=trick_name(tid), what=msg(f"trickerion.da.yield.{kind}",
                   n=n, count=n))
    if head == "mi":
        return special_cards.card_msg(arg)
    if head == "cb":
        n, level = ctx["links"], TRICKS[ctx["t"]].level
        return msg("trickerion.choice.lf", fame=int(arg) * level, coins=(n - int(arg)) * level)
    if head == "rl":
        i, own, opp = arg.split(":")
        card = state.row[int(i)]
        return msg("trickerion.da.choice.steal", n=int(i) + 1, trick=trick_name(card.m[opp].t),
                   own=trick_name(card.m[own].t))
    return None
