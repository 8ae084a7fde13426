"""A scripted purposeful Trickerion player: what a person who knows what they want presses.

Each character goes where the player's tricks need it: the Market for the components a trick still
lacks, the Workshop to prepare (Arquitetar) a trick whose components are met, the Theater backstage
to set up prepared markers; the magician performs when the player has markers in the Theater and
otherwise sets up backstage. At the Market it buys what is missing (no more), in the Workshop it
prepares, backstage it sets markers up where they link most and takes the link bonuses as Fame.
It advertises when it has coins to spare, never spends a Shard, and ends a character's actions when
it has done what it came for.

`choose(state, seat, choices)` reads the rules' choice ids (the buttons the table logic shows are
the same choices, in order): the press-count test presses the button at that index and counts it."""

from __future__ import annotations

from rulesets.trickerion.ai.plans import missing
from rulesets.trickerion.market import buyable
from rulesets.trickerion.rules import characters, markers_in_theater, meets, owned, step_of
from rulesets.trickerion.state import State
from rulesets.trickerion.views import would_link

SPARE = 8  # coins kept back before advertising (wages and components come first)


def _lacking(state: State, s: int) -> dict[str, int]:
    """Components the player's tricks still lack, by type (the most any one trick lacks)."""
    p = state.p[s]
    out: dict[str, int] = {}
    for o in p.tricks:
        for c, k in missing(p, o.t).items():
            out[c] = max(out.get(c, 0), k)
    return out


def _on_cards(state: State, s: int) -> bool:
    return any(markers_in_theater(state, s, o.sym) for o in state.p[s].tricks)


def plan(state: State, s: int) -> dict[str, str | None]:
    """Where each character goes this round (None: left idle, it would only cost its wage): the magician
    to the Theater; then, in the team's order, one character to the Market while a trick lacks
    components, one to the Workshop for each trick ready to prepare, one backstage while markers wait
    on trick cards and the magician performs."""
    p = state.p[s]
    lacking = bool(_lacking(state, s))
    to_prepare = sum(1 for o in p.tricks if o.on == 0 and meets(p, o.t))
    prepared = any(o.on for o in p.tricks)
    performs = _on_cards(state, s)
    out: dict[str, str | None] = {"mag": "theater"}
    for c in characters(p)[1:]:
        if lacking and "market" not in out.values():
            out[c] = "market"
        elif to_prepare > sum(1 for x in out.values() if x == "workshop"):
            out[c] = "workshop"
        elif (prepared or to_prepare) and performs and list(out.values()).count("theater") < 2:
            out[c] = "theater"
        else:
            out[c] = None
    return out


def _space(state: State, s: int, choices: list[str]) -> str:
    """The placement: the character whose card is first in the plan, at its best space (the magician
    performs when the player has markers in the Theater, else goes backstage; others take the most AP)."""
    from rulesets.trickerion.placement import space_ap

    places = [c for c in choices if c.startswith("al:")]
    if not places:
        return next(c for c in choices if c.startswith(("a:", "o:")))
    chars = list(dict.fromkeys(c.split(":")[1] for c in places))
    char = next((c for c in chars if c != "mag"), chars[0])  # the others prepare what the magician performs
    mine = [c for c in places if c.split(":")[1] == char]
    if char == "mag":
        perform = [c for c in mine if c.endswith(".p")]
        backstage = [c for c in mine if not c.endswith(".p")]
        if _on_cards(state, s) and perform:
            return perform[-1]  # the latest weekday: markers set up this round join the show
        if backstage:
            return max(backstage, key=lambda c: space_ap(c.split(":")[2], state) or 0)
    return max(mine, key=lambda c: space_ap(c.split(":")[2], state) or 0)


def _card_value(state: State, s: int, index: int) -> tuple[int, int]:
    """A card to set a marker up on: the one holding most of the player's markers (they perform
    together), then the one staying longest in the Theater (the last space's card leaves this round)."""
    card = state.row[index]
    mine = sum(1 for m in card.m.values() if m.seat == s)
    return mine, -index if index == len(state.row) - 1 else 0


def _action(state: State, s: int, choices: list[str]) -> str:
    loc = state.cur.loc
    if loc == "market" and "comprar" in choices and set(_lacking(state, s)) & set(buyable(state, s)):
        return "comprar"
    if loc == "workshop":
        prepare = [c for c in choices if c.startswith("aq:")]
        if prepare:
            return prepare[0]
    cards = [c for c in choices if c.startswith("pp:")]
    if loc == "theater" and cards:
        return max(cards, key=lambda c: _card_value(state, s, int(c[3:])))
    if "fim" in choices:
        return "fim"
    return next(c for c in choices if c != "devolver")


def choose(state: State, s: int, choices: list[str]) -> str:
    step = step_of(state, s)
    p = state.p[s]
    if step == "propaganda":
        return "propaganda" if p.coins >= SPARE + 4 else "passar"
    if step == "assign":
        wanted = plan(state, s)
        if p.pick is None or all(wanted[c] is None for c in characters(p) if c not in p.plan and c not in p.rest):
            return "pronto"  # the characters still without a card stay idle
        want = f"l:{wanted[p.pick]}" if wanted[p.pick] else f"o:{p.pick}"
        return want if want in choices else f"o:{p.pick}"
    if step == "alocar":
        return _space(state, s, choices)
    if step == "acoes":
        return _action(state, s, choices)
    if step == "comprar_t":
        need = _lacking(state, s)
        wanted = [c for c in choices if c.startswith("cp:") and c.split(":")[1] in need]
        exact = [c for c in wanted if int(c.split(":")[2]) == need[c.split(":")[1]]]
        return (exact or wanted or [c for c in choices if c != "voltar"])[0]
    if step == "comprar_b":
        return max((c for c in choices if c != "voltar"), key=lambda c: int(c[3:]))  # spare AP save coins
    if step == "preparar_t":  # the trick with the most markers waiting
        return max((c for c in choices if c != "voltar"), key=lambda c: owned(p, c[3:]).on)
    if step in ("preparar_e", "reagendar_e"):
        return max((c for c in choices if c != "voltar"), key=lambda c: would_link(state, s, c))
    if step == "conexao":
        return choices[0]  # every link as Fame
    for safe in ("fim", "passar", "pronto"):
        if safe in choices:
            return safe
    return next(c for c in choices if c != "voltar")
