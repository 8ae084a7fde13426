"""What each seat sees: the view (JSON), the table as text lines, and prompts with short labels.

Hidden information: during the Fase de Atribuição each player's cards under characters (and the one
being chosen) are visible to that player only; the performance deck is face down (only its size shows)."""

from __future__ import annotations

from typing import Any

from rulesets.core import Choice, Prompt, msg
from rulesets.core.messages import Msg

from . import cards, hooks, ledger
from .data import BOARD, CARDS, COST, MAGICIANS, TRICKS
from .market import SURCHARGE, unit_price
from .placement import card_location, cards_left, char_msg, enhance_ap, loc_msg, shown_plan, space_msg
from .placement import card_msg as assignment_msg
from .rules import (
    characters,
    comp_cost,
    comp_name,
    component_counts,
    cost,
    deciding,
    initiative_space,
    link_count,
    links_of,
    owned,
    qty,
    slot_msg,
    slot_number,
    step_of,
    taken_tricks,
    trick_name,
    wages,
    who,
)
from .state import Marker, State
from .town_center import _learnable, coins_of, dice_msg, face_msg, learn_price


def _secret(state: State) -> bool:
    return state.phase == "assign"


def _visible_plan(state: State, s: int, seat: int | None) -> dict[str, str]:
    """The cards under player s's characters that `seat` may see: all of them once revealed; a module
    may keep those of characters not placed face down for the round (a prophecy)."""
    return shown_plan(state, s, seat)


def view(state: State, seat: int | None) -> dict[str, Any]:
    players = []
    for s, p in enumerate(state.p):
        d = p.model_dump(mode="json", exclude={"plan", "pick", "rest", "start"})
        d["components"] = component_counts(p)  # what every text and picture shows (`comps`: physical units)
        if s != seat:  # a module's cards in hand (special assignments) are secret: only their number shows
            d["hand"] = {c: n for c, n in p.hand.items() if card_location(state, c) == c}
            d["hidden_cards"] = sum(n for c, n in p.hand.items() if card_location(state, c) != c)
        if not _secret(state) or s == seat:
            d["plan"] = _visible_plan(state, s, seat)
            if s == seat:
                d["pick"], d["rest"] = p.pick, list(p.rest)
        # where each assignment card this view shows sends a character (the pictures name the place)
        shown = set(d["hand"]) | set(d.get("plan", {}).values())
        d["card_places"] = {c: card_location(state, c) for c in sorted(shown)}
        players.append(d)
    out = {
        "round": state.round, "rounds": state.rounds, "phase": state.phase, "order": state.order,
        "spaces": state.spaces, "dice": state.dice, "stock": state.stock, "orders": state.orders,
        "quick": state.quick, "deck": len(state.deck), "occ": state.occ, "days": state.days,
        "row": [c.model_dump(mode="json") if c else None for c in state.row],
        "turn": state.turn, "players": players,
        "cur": state.cur.model_dump(mode="json") if state.cur else None,
        "fame_from": ledger.sources(state),  # each seat's Fame by source (public, as the Fame track)
    }
    for m in hooks.active(state):
        out.update(m.view(state, seat))
    if seat is not None and (seat == state.turn or str(seat) in state.steps):
        out["step"], out["ctx"] = step_of(state, seat), state.ctx
    return out


def table(state: State, seat: int | None) -> list[Msg]:
    lines: list[Msg] = [_heading(state)]
    if state.dice:
        lines.append(msg("trickerion.table.dice", dice=dice_msg(state)))
    lines.append(msg("trickerion.table.market", stock=[comp_name(c) for c in state.stock if c],
                     orders=[comp_name(c) for c in state.orders if c],
                     quick=comp_name(state.quick or "none")))
    for i, card in enumerate(state.row):
        if card:
            lines.append(msg("trickerion.table.card", n=i + 1, card=card_msg(card.id), markers=[
                msg("trickerion.table.marker", player=who(m.seat), trick=trick_name(m.t), slot=slot_msg(slot))
                for slot, m in sorted(card.m.items())]))
    for s in state.order or range(state.n):
        p = state.p[s]
        lines.append(msg("trickerion.table.player", player=who(s),
                         magician=msg(f"trickerion.magician.{p.magician}") if p.magician else msg("trickerion.none"),
                         fame=p.fame, coins=p.coins, shards=p.shards,
                         tricks=[msg("trickerion.table.trick", trick=trick_name(o.t), on=o.on) for o in p.tricks],
                         comps=comps_msgs(p)))
        lines.append(msg("trickerion.table.team", player=who(s), team=[char_msg(c) for c in characters(p)]))
        if p.hires:
            lines.append(msg("trickerion.table.hired", player=who(s), chars=[hire_msg(h) for h in p.hires]))
        if p.placed:
            lines.append(msg("trickerion.table.placed", items=[
                msg("trickerion.plan_item", char=char_msg(c), loc=space_msg(key, state))
                for c, key in p.placed.items()]))
        plan = _visible_plan(state, s, seat)
        if plan and (not _secret(state) or s == seat):
            lines.append(msg("trickerion.table.plan", plan=[
                msg("trickerion.plan_item", char=char_msg(c), loc=assignment_msg(state, card))
                for c, card in plan.items()]))
    for m in hooks.active(state):
        lines += m.table(state, seat)
    waiting = deciding(state)
    if waiting:
        lines.append(msg("trickerion.table.waiting", players=[msg("trickerion.seat", player=who(s)) for s in waiting],
                         phase=msg(f"trickerion.phase.{state.phase}")))
    return lines


def comps_msgs(p) -> list[Msg]:
    """'2× Madeira' for each component, from the one count every view uses."""
    return [msg("trickerion.table.comp", comp=comp_name(c), n=n) for c, n in component_counts(p).items()]


def hire_msg(kind: str) -> Msg:
    """A character hired this round (it joins the team at the end of the round)."""
    return msg(f"trickerion.char.{kind}")


def _heading(state: State) -> Msg:
    """"Rodada 2/7 — Fase de Atribuição"; before round 1, the setup (there is no round 0)."""
    rounds = state.rounds
    for m in hooks.active(state):
        rounds = m.rounds(state, rounds)
    phase = msg(f"trickerion.phase.{state.phase}")
    if state.phase in ("magician", "start"):
        return msg("trickerion.table.setup", phase=phase, rounds=rounds)
    return msg("trickerion.table.round", round=state.round, rounds=rounds, phase=phase)


def card_msg(cid: str) -> Msg:
    return msg(f"trickerion.theater.{CARDS[cid].theater}", id=cid)


# ---------------------------------------------------------------------------------------------- prompts


def title(state: State, seat: int) -> Msg:
    """The question the seat is asked now."""
    step = step_of(state, seat)
    p = state.p[seat]
    if step == "assign" and p.pick:
        return msg("trickerion.prompt.assign_char", char=char_msg(p.pick))
    return msg(f"trickerion.prompt.{step}")


def prompt(state: State, seat: int, choices: list[str]) -> Prompt:
    step = step_of(state, seat)
    p = state.p[seat]
    info = [msg("trickerion.info.purse", coins=p.coins, fame=p.fame, shards=p.shards)]
    if state.cur is not None and state.turn == seat:
        info.append(msg("trickerion.info.ap", count=state.cur.ap, char=char_msg(state.cur.c),
                        loc=msg(f"trickerion.at.{state.cur.loc}")))
        if state.cur.loc in ("market", "workshop"):
            info.append(msg("trickerion.info.comps", comps=comps_msgs(p)))
        if state.cur.loc in ("workshop", "theater"):
            info.append(msg("trickerion.info.tricks", tricks=[
                msg("trickerion.table.trick", trick=trick_name(o.t), on=o.on) for o in p.tricks]))
    if step == "assign":
        info.append(msg("trickerion.info.plan", plan=[
            msg("trickerion.plan_item", char=char_msg(c), loc=assignment_msg(state, card))
                for c, card in p.plan.items()] + [msg("trickerion.plan_idle", char=char_msg(c)) for c in p.rest]))
        info.append(msg("trickerion.info.hand", cards=[
            msg("trickerion.table.comp", comp=assignment_msg(state, card), n=cards_left(state, seat, card))
            for card in p.hand if cards_left(state, seat, card) > 0]))
    info += wages_info(state, seat)
    if step in ("comps_iniciais", "comps_gerente"):
        info.append(msg("trickerion.info.value", n=p.start.get("value", 0)))
    if step in ("truque_inicial", "truque_engenheiro", "aprender_t"):
        info += [trick_info(c.split(":")[1]) for c in choices if c != "voltar"]
    if step in ("apresentar", "preparar_c", "reagendar_c"):
        info += [card_info(state, int(c.split(":")[1])) for c in choices if c != "voltar"]
    if step == "conexao":
        info.append(msg("trickerion.info.links", count=state.ctx["links"], level=TRICKS[state.ctx["t"]].level))
    for m in hooks.active(state):
        info += m.info(state, seat)
    spot = next((c for c in choices if is_spot(c)), None)
    picture = f"card:{moving(state, seat, spot[:2])[0]}" if spot else None  # the card, with numbered slots
    return Prompt(seat=seat, title=title(state, seat),
                  choices=[Choice(id=c, label=label(state, seat, c)) for c in choices], info=info,
                  cards=cards.prompt_cards(state, seat, choices), picture=picture)


def wages_info(state: State, seat: int) -> list[Msg]:
    """A warning while the round's wages are more than the player's coins (each unpaid coin costs 2 Fame
    at the end of the round): the characters with a card under them during the assignment, the placed
    ones and those still to place afterwards."""
    p = state.p[seat]
    if state.phase == "assign":
        chars = list(p.plan)
    elif state.phase in ("place", "perform"):
        chars = [*p.placed, *(c for c in p.plan if c not in p.placed and c not in p.idle)]
    else:
        return []
    due = wages(p, chars)
    if due <= p.coins:
        return []
    return [msg("trickerion.info.wages", due=qty("coins", due), coins=qty("coins", p.coins),
                fame=2 * (due - p.coins))]


def trick_info(tid: str) -> Msg:
    t = TRICKS[tid]
    return msg("trickerion.info.trick", trick=trick_name(tid), level=t.level,
               comps=[msg("trickerion.table.comp", comp=comp_name(c), n=k) for c, k in t.components.items()],
               ap=t.prepare_ap, markers=t.markers, fame=t.yields.fame, coins=t.yields.coins, shards=t.yields.shards)


def card_info(state: State, index: int) -> Msg:
    card = state.row[index]
    return msg("trickerion.info.card", n=index + 1, card=card_msg(card.id), links=link_count(card), markers=[
        msg("trickerion.table.marker", player=who(m.seat), trick=trick_name(m.t), slot=slot_msg(slot))
        for slot, m in sorted(card.m.items())])


# The choices that set a trick marker up (or move one) on a performance card: "<head>:<slot>:<direction>".
# pe: Preparar um Truque; re: Reagendar; ps / te: a Dark Alley card setting up one's own marker;
# de / ce: a Dark Alley card moving a marker that is already on a card.
SPOT_HEADS = ("pe", "re", "ps", "te", "de", "ce")


def is_spot(cid: str) -> bool:
    return cid[:2] in SPOT_HEADS and cid[2:3] == ":"


def moving(state: State, seat: int, head: str) -> tuple[int, Marker, str | None]:
    """For a spot choice of the current step: the card it goes on, the marker (its owner, symbol and
    trick; direction 0) and the slot it leaves on that same card (a marker moved within one card)."""
    ctx = state.ctx
    if head in ("pe", "ps", "te"):
        o = owned(state.p[seat], ctx["t"])
        return ctx["card"], Marker(seat=seat, sym=o.sym if o else -1, t=ctx["t"], d=0), None
    src = state.row[ctx["from"]].m[ctx["slot"]]
    leaving = ctx["slot"] if ctx["to"] == ctx["from"] else None
    return ctx["to"], Marker(seat=src.seat, sym=src.sym, t=src.t, d=0), leaving


def would_link(state: State, seat: int, cid: str) -> int:
    """How many links a marker would be part of at that slot and rotation: the one figure the button's
    label and the card's picture both show."""
    head, slot, d = cid.split(":")[:3]
    index, marker, leaving = moving(state, seat, head)
    trial = state.row[index].model_copy(deep=True)
    if leaving:
        del trial.m[leaving]
    trial.m[slot] = marker.model_copy(update={"d": int(d)})
    return len(links_of(trial, slot))


WHO_NAMED = 1  # players named on a space button (it stays one line); the others are counted ("Bia +1")


def where_msg(state: State, key: str) -> Msg:
    """A space as its button says it: the location (or the Theater's day and kind) with its AP, and who
    already stands at that place (a weekday in the Theater, the player's own board in the Workshop)."""
    parts = key.split(".")
    place = ".".join(parts[:-1]) if len(parts) > 2 else parts[0]
    here = list(dict.fromkeys(int(who_.split(":")[0]) for k, who_ in state.occ.items()
                              if (".".join(k.split(".")[:-1]) if k.count(".") > 1 else k.split(".")[0]) == place))
    space = space_msg(key, state)
    if not here:
        return space
    named = [msg("trickerion.seat", player=who(x)) for x in here[:WHO_NAMED]]
    if len(here) > WHO_NAMED:
        return msg("trickerion.space.with_more", space=space, players=named, more=len(here) - WHO_NAMED)
    return msg("trickerion.space.with", space=space, players=named)


def spot_label(state: State, seat: int, cid: str) -> Msg:
    """'Espaço 3 ↓ · 1 conexão': the slot by the number the card's picture shows; with the link bonus
    when the choice takes it too ('… → Fama +1, Moedas +0')."""
    head, slot, d, *fame = cid.split(":")
    index = moving(state, seat, head)[0]
    links = would_link(state, seat, cid)
    spot = msg("trickerion.choice.spot", n=slot_number(state.row[index].id, slot), dir=msg(f"trickerion.dir.{d}"),
               count=links)
    if not fame:
        return spot
    level = TRICKS[state.ctx["t"]].level
    return msg("trickerion.choice.spot_bonus", spot=spot, fame=int(fame[0]) * level,
               coins=(links - int(fame[0])) * level)


def placing(state: State, seat: int, choices: list[str]) -> dict[str, Any] | None:
    """The marker this seat is setting up now, for its own view (and so its card picture): the card,
    the marker, the slot it leaves, and every spot offered with the links it would form."""
    spots = [c for c in choices if is_spot(c)]
    if not spots:
        return None
    index, marker, leaving = moving(state, seat, spots[0][:2])
    places = {tuple(c.split(":")[1:3]): c for c in spots}  # a spot offered with each link bonus: once
    return {"card": index, "seat": marker.seat, "t": marker.t, "sym": marker.sym, "leaving": leaving,
            "spots": [[slot, int(d), would_link(state, seat, c)] for (slot, d), c in places.items()]}


def label(state: State, seat: int, cid: str) -> Msg:
    step = step_of(state, seat)
    for m in hooks.active(state):
        mine = m.label(state, seat, cid)
        if mine is not None:
            return mine
    p = state.p[seat]
    if ":" not in cid:
        if cid == "propaganda":
            return msg("trickerion.choice.propaganda", coins=qty("coins", initiative_space(state, seat)),
                       fame=BOARD.advertise["fame"])
        if cid == "encomenda_rapida":
            return msg("trickerion.action.encomenda_rapida", ap=cost(state, cid), extra=SURCHARGE)
        if cid in COST:
            return msg(f"trickerion.action.{cid}", ap=cost(state, cid))
        return msg(f"trickerion.choice.{cid}")
    head, _, arg = cid.partition(":")
    if head == "m":
        return msg("trickerion.choice.magician", magician=msg(f"trickerion.magician.{arg}"),
                   cat=msg(f"trickerion.cat.{MAGICIANS[arg].category}"))
    if head in ("t", "dt", "mt", "pt"):
        return msg(f"trickerion.choice.{head}", trick=trick_name(arg))
    if head == "c" and step in ("comps_iniciais", "comps_gerente"):
        return comp_name(arg)
    if head == "r":  # the assignment: a card taken back, or a character left idle given a card after all
        return msg("trickerion.choice.char_r" if arg in p.plan else "trickerion.choice.char_rest", char=char_msg(arg))
    if head in ("c", "a", "o"):
        return msg(f"trickerion.choice.char_{head}", char=char_msg(arg))
    if head == "al":
        char, key = arg.split(":", 1)
        return msg("trickerion.choice.place", char=char_msg(char), space=where_msg(state, key))
    if head == "e":
        return msg(f"trickerion.char.{arg}")
    if head == "l":
        return assignment_msg(state, arg)
    if head == "es":
        return where_msg(state, arg)
    if head == "lc":
        return loc_msg(arg)
    if head == "fr":
        return msg("trickerion.choice.shard1", ap=enhance_ap(state))
    if head == "ct":
        hired = state.dice[arg]
        return msg("trickerion.choice.hire", char=face_msg(arg, hired), ap=cost(state, "contratar"),
                   wage=qty("coins", BOARD.characters["apprentice" if hired == "apprentice" else "specialist"].wage))
    if head == "pm":
        return msg("trickerion.choice.coins", n=coins_of(state, arg), ap=cost(state, "pegar_moedas"))
    if head == "ad":
        die, cat = arg.split(":")
        price = min(learn_price(p, t) for t in _learnable(state, p, cat, taken_tricks(state)))
        key = "trickerion.choice.learn_die_price" if price else "trickerion.choice.learn_die"
        return msg(key, die=face_msg(die, state.dice[die]), cat=msg(f"trickerion.cat.{cat}"), coins=qty("coins", price))
    if head == "at":
        return msg("trickerion.choice.lt", trick=trick_name(arg), level=TRICKS[arg].level, coins=learn_price(p, arg))
    if head in ("rr", "aj"):
        return msg("trickerion.choice.die", die=msg(f"trickerion.die.{arg}"), face=face_msg(arg, state.dice[arg]))
    if head == "af":
        return face_msg(state.ctx["die"], arg)
    if head == "cp":
        comp, n = arg.split(":")
        return msg("trickerion.choice.bn", count=int(n), comp=comp_name(comp),
                   price=qty("coins", int(n) * unit_price(state, comp)))
    if head == "bg":
        total = state.ctx["n"] * unit_price(state, state.ctx["comp"])
        return msg("trickerion.choice.bg", ap=int(arg), price=total - int(arg))
    if head == "rt":  # the price it will sell at from the Quick Order slot
        price = comp_cost(arg)
        for m in hooks.active(state):
            price = m.component_cost(state, arg, price)
        return msg("trickerion.choice.rt", comp=comp_name(arg), price=qty("coins", price + SURCHARGE))
    if head in ("et", "dc"):
        return msg(f"trickerion.choice.{head}", comp=comp_name(arg))
    if head == "ee":
        old = state.stock[int(arg)]
        return msg("trickerion.choice.os", n=int(arg) + 1, comp=comp_name(old or "none"))
    if head == "aq":
        return msg("trickerion.choice.pr", trick=trick_name(arg), ap=TRICKS[arg].prepare_ap)
    if head == "ma":
        return msg("trickerion.choice.ma")
    if head == "mc":
        comp, k = arg.split(":")
        return msg("trickerion.choice.mc", comp=comp_name(comp), n=int(k) + 1)
    if head == "pp":
        return msg("trickerion.action.pp", n=int(arg) + 1, ap=cost(state, "preparar"))
    if head in ("pc", "rc", "ap"):
        i = int(arg)
        return msg("trickerion.choice.card", n=i + 1, card=card_msg(state.row[i].id))
    if head in ("pe", "re"):
        return spot_label(state, seat, cid)
    if head == "cf":
        n = state.ctx["links"]
        level = TRICKS[state.ctx["t"]].level
        return msg("trickerion.choice.lf", fame=int(arg) * level, coins=(n - int(arg)) * level)
    if head == "rm":
        i, slot = arg.split(":")
        m = state.row[int(i)].m[slot]
        return msg("trickerion.choice.rm", trick=trick_name(m.t), n=int(i) + 1, slot=slot_msg(slot))
    raise KeyError(cid)

