"""Fase de Atribuição (secret, simultaneous) and Fase de Alocar Personagens (initiative order, one
character at a time, its actions spent at once)."""

from __future__ import annotations

from functools import cache

from rulesets.core import Event, Rng, msg
from rulesets.core.unchecked import unchecked

from . import hooks, market, theater, town_center, workshop
from .data import BOARD, DAYS
from .rules import base_ap, characters, comp_name, kind, log, qty, remove_component, return_trick, trick_name, who
from .state import Current, Player, State

PLACES = {"downtown": town_center, "market": market, "workshop": workshop, "theater": theater}


def place(state: State, loc: str):
    """The place at a location: the base game's, or a module's (a later module's over an earlier one's).
    One location looked up, not the whole table built: a move asks this several times."""
    found = PLACES.get(loc)
    for m in hooks.active(state):
        found = m.places(state).get(loc, found)
    if found is None:
        raise KeyError(loc)
    return found


def card_location(state: State, card: str) -> str:
    """Permanent assignment cards are named by their location; a module's cards say where they go."""
    if card in PLACES:
        return card
    for m in hooks.active(state):
        loc = m.card_location(state, card)
        if loc:
            return loc
    raise KeyError(card)


def card_msg(state: State, card: str):
    return _card_msg(card)


@cache
def _card_msg(card: str):
    return loc_msg(card) if card in PLACES else msg(f"trickerion.card.{card}")


def shown_plan(state: State, s: int, viewer: int | None) -> dict[str, str]:
    """The cards under player s's characters that `viewer` may see (and so base a choice on): all of them
    once revealed; while a module keeps plans face down (prophecy P20), only those of placed characters.
    Every view, prompt and power that looks at an opponent's plan goes through here."""
    p = state.p[s]
    if s != viewer and any(m.plans_hidden(state) for m in hooks.active(state)):
        return {c: card for c, card in p.plan.items() if c in p.placed}
    return dict(p.plan)


def cards_left(state: State, s: int, card: str) -> int:
    p = state.p[s]
    return p.hand.get(card, 0) - sum(1 for v in p.plan.values() if v == card)


# ---------------------------------------------------------------------------------------------- assignment


def hand_left(p: Player) -> dict[str, int]:
    """cards_left for the whole hand at once (the assignment prompt asks for every card each time).
    Read only: with nothing assigned yet it is the hand itself."""
    if not p.plan:
        return p.hand
    left = dict(p.hand)
    for card in p.plan.values():
        if card in left:
            left[card] -= 1
    return left


# One press a character (issue 13): the prompt asks for the card of the next character still without
# one (`pick`), in the team's order; the player may leave it idle, take a card back, or stop. A player
# is done when every character has a card or is left idle, or no card is left (PT p.11-12: "até que
# todos tenham colocado ... ou decidam não colocar mais"), or when they say so ("Pronto").


def iniciar_atribuicao(state: State) -> None:
    """The Fase de Atribuição begins: each player is asked for their first character's card."""
    for p in state.p:
        p.rest, p.pick = [], None
        p.pick = next_pick(p)


def next_pick(p: Player, after: str | None = None) -> str | None:
    """The next character (after `after`, in the team's order, round again) with no card that was not
    left idle; None when there is none or no card is left to give."""
    if max(hand_left(p).values(), default=0) <= 0:  # no card left to give
        return None
    team = characters(p)
    start = team.index(after) + 1 if after in team else 0
    for c in team[start:] + team[:start]:
        if c not in p.plan and c not in p.rest:
            return c
    return None


def atribuir_opcoes(state: State, s: int) -> list[str]:
    p = state.p[s]
    out = []
    if p.pick is not None:
        out += [f"l:{card}" for card, n in hand_left(p).items() if n > 0] + [f"o:{p.pick}"]
    out += [f"r:{c}" for c in characters(p) if c in p.plan or c in p.rest]
    return out + ["pronto"]


def atribuir(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    p = state.p[s]
    head, _, arg = choice.partition(":")
    if head == "l":
        p.plan[p.pick] = arg
        log(events, "assigned", audience=[s], char=char_msg(p.pick), loc=card_msg(state, arg))
        p.pick = next_pick(p, p.pick)
    elif head == "o":
        p.rest.append(arg)
        log(events, "assigned_idle", audience=[s], char=char_msg(arg))
        p.pick = next_pick(p, arg)
    elif head == "r":
        if arg in p.plan:
            del p.plan[arg]
        else:
            p.rest.remove(arg)
        log(events, "unassigned", audience=[s], char=char_msg(arg))
        p.pick = arg
    if choice == "pronto":
        p.ready, p.pick = True, None
        log(events, "assign_done", player=who(s))
        return True
    if p.pick is None:  # every character has a card or stays idle (or no card is left): done
        p.ready = True
        log(events, "assign_done", player=who(s))
    return False


def revelar(state: State, events: list[Event]) -> None:
    for s in state.order:
        p = state.p[s]
        p.idle = [c for c in characters(p) if c not in p.plan]
        p.rest, p.pick = [], None
    if any([m.reveal(state, events) for m in hooks.active(state)]):
        return  # a module keeps the cards face down (and says so)
    for s in state.order:
        p = state.p[s]
        plan = [plan_item(c, card) for c, card in p.plan.items()]
        log(events, "reveal", player=who(s), plan=plan)


@cache
def char_msg(c: str):
    if kind(c) == "apprentice":  # apprentices are told apart by number ("a2" -> Aprendiz 2)
        return msg("trickerion.char.apprentice_n", n=int(c[1:]))
    return msg(f"trickerion.char.{'magician' if c == 'mag' else c}")


@cache
def loc_msg(loc: str):
    return msg(f"trickerion.loc.{loc}")


# ---------------------------------------------------------------------------------------------- placement


def waiting(state: State, s: int) -> list[str]:
    p = state.p[s]
    return [c for c in p.plan if c not in p.placed and c not in p.idle]


def next_seat(state: State) -> int | None:
    for k in range(state.n):
        i = (state.pi + k) % state.n
        if waiting(state, state.order[i]):
            state.pi = i
            return state.order[i]
    return None


def free_spaces(state: State, s: int, char: str) -> list[str]:
    card = state.p[s].plan[char]
    out = _free_spaces(state, s, char, card_location(state, card))
    modules = hooks.active(state)  # (once: the modules are those of the setup)
    for m in modules:
        for loc in m.more_locations(state, s, card):
            out += _free_spaces(state, s, char, loc)
    for m in modules:
        out = m.spaces(state, s, char, out)
    return out


def has_space(state: State, s: int, char: str) -> bool:
    """Whether the character has a free space: its card's own location first (the usual answer, and
    the cheap one), then every location a module opens to it."""
    p = state.p[s]
    own = _free_spaces(state, s, char, card_location(state, p.plan[char]))
    for m in hooks.active(state):
        own = m.spaces(state, s, char, own)
    return bool(own) or bool(free_spaces(state, s, char))


def _free_spaces(state: State, s: int, char: str, loc: str) -> list[str]:
    if loc == "theater":
        p = state.p[s]
        days = [p.day] if p.day is not None else [d for d in range(len(DAYS)) if state.days[d] is None]
        out = []
        for d in days:
            out += _day_spaces(d, char == "mag")
        occ = state.occ  # (read once, not per space)
        return [k for k in out if k not in occ]
    if loc == "workshop":
        keys = _board_spaces("workshop", s)
    elif loc not in BOARD.locations:
        keys = place(state, loc).spaces(state, s, char)
    else:
        keys = _board_spaces(loc, state.n)
    occ = state.occ
    return [k for k in keys if k not in occ]


# The space keys are the same all game: built once (the placement prompt asks for them every move).
@cache
def _day_spaces(d: int, magician: bool) -> list[str]:
    return [f"theater.{d}.b{k}" for k in range(DAYS[d].backstage_spaces)] + ([f"theater.{d}.p"] if magician else [])


@cache
def _board_spaces(loc: str, n: int) -> list[str]:
    """A board location's spaces in a game of n players; the Workshop's, of seat n's own board."""
    if loc == "workshop":
        return [f"workshop.{n}.{i}" for i in range(len(BOARD.locations["workshop"].spaces))]
    return [f"{loc}.{i}" for i, sp in enumerate(BOARD.locations[loc].spaces) if sp.from_players <= n]


def space_ap(key: str, state: State | None = None) -> int | None:
    """The space's AP modifier; None for a performance space (the magician's AP are lost)."""
    parts = key.split(".")
    if parts[0] not in BOARD.locations:
        return place(state, parts[0]).space_ap(key)
    if parts[0] == "theater":
        return None if parts[2] == "p" else DAYS[int(parts[1])].backstage_ap
    return BOARD.locations[parts[0]].spaces[int(parts[-1])].ap


def space_kind(key: str, state: State | None = None) -> tuple:
    """What a space is to the rules: its location and AP modifier, and in the Theater its weekday and
    whether it is the performance space. Two free spaces of one kind are the same choice (PT p.12: a
    character takes the location's modifier; nothing else tells a location's spaces apart)."""
    found = _board_kind(key)
    return found if found is not None else (key.split(".")[0], space_ap(key, state))


@cache  # a board space's kind never changes (the placement prompt asks for every free one, every move)
def _board_kind(key: str) -> tuple | None:
    """A board space's kind; None for a module's space (a module may change it)."""
    parts = key.split(".")
    if parts[0] not in BOARD.locations:
        return None
    if parts[0] == "theater":
        return parts[0], parts[1], parts[2][0]
    return parts[0], space_ap(key)


def distinct_spaces(state: State, s: int, char: str) -> list[str]:
    """The free spaces the character may take, one of each kind (the first free one stands for it)."""
    seen: set[tuple] = set()
    out = []
    for key in free_spaces(state, s, char):
        kind_ = _board_kind(key) or space_kind(key, state)  # (the cached board kind first: asked every move)
        if kind_ not in seen:
            seen.add(kind_)
            out.append(key)
    return out


DIRECT = 16  # buttons of characters and spaces in one prompt at most; beyond, the busiest characters go in two steps


def alocar_opcoes(state: State, s: int) -> list[str]:
    """One press a character: "al:<character>:<space>" for each kind of free space its card allows; a
    character with too many (a card opening every location, or a crowded prompt) is "a:<character>",
    then its location and space. Then leaving a character idle ("ocioso", which asks which when
    several could be), and ending the turn when a further placement is optional."""
    waiting_ = waiting(state, s)
    kinds = {c: distinct_spaces(state, s, c) for c in waiting_}
    direct = {c for c in waiting_ if kinds[c]}
    while sum(len(kinds[c]) for c in direct) > DIRECT:
        direct.discard(max(direct, key=lambda c: (len(kinds[c]), waiting_.index(c))))
    out = []
    for c in waiting_:
        out += [f"al:{c}:{k}" for k in kinds[c]] if c in direct else [f"a:{c}"] if kinds[c] else []
    out.append("ocioso")
    return out + ["passar"] if state.tp else out  # a further placement this turn is optional


def ocioso_opcoes(state: State, s: int) -> list[str]:
    return [f"o:{c}" for c in waiting(state, s)] + ["voltar"]


def placements_per_turn(state: State) -> int:
    n = 1
    for m in hooks.active(state):
        n = m.placements_per_turn(state, n)
    return n


def alocar_personagem(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    if choice == "passar":
        state.step, state.tp = "", 0
        state.pi = (state.pi + 1) % state.n
        return True
    if choice == "ocioso":
        state.step = "ocioso"
        return False
    if choice == "voltar":
        state.step = "alocar"
        return False
    head, _, arg = choice.partition(":")
    if head == "al":
        c, key = arg.split(":", 1)
        return alocar(state, s, c, key, events)
    if head == "o":
        state.step = "alocar"
        idle = not free_spaces(state, s, arg)
        state.p[s].idle.append(arg)
        if idle:  # no free space for it: the only thing left is to flip its card (ruling 15)
            log(events, "idle_full", player=who(s), char=char_msg(arg),
                loc=card_msg(state, state.p[s].plan[arg]))
        else:
            log(events, "idle", player=who(s), char=char_msg(arg))
        encerrar_personagem(state)
        return True
    state.ctx = {"c": arg}
    state.step = "espaco"
    return False


MAX_SPACES = 12  # more kinds of free space than this (a card sending a character anywhere): the location first


def espaco_opcoes(state: State, s: int) -> list[str]:
    keys = distinct_spaces(state, s, state.ctx["c"])
    loc = state.ctx.get("loc")
    if loc is None and len(keys) > MAX_SPACES:
        return [f"lc:{x}" for x in dict.fromkeys(k.split(".")[0] for k in keys)] + ["voltar"]
    return [f"es:{k}" for k in keys if loc is None or k.split(".")[0] == loc] + ["voltar"]


def alocar_no_espaco(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    if choice == "voltar":
        if state.ctx.pop("loc", None) is None:
            state.step, state.ctx = "alocar", {}
        return False
    if choice.startswith("lc:"):
        state.ctx["loc"] = choice[3:]
        return False
    return alocar(state, s, state.ctx["c"], choice[3:], events)


def alocar(state: State, s: int, c: str, key: str, events: list[Event]) -> bool:
    """Character c takes the space: its AP are set (Reforçar o Personagem stays open until its first
    action), then a module's decisions right after a placement, then the actions."""
    p = state.p[s]
    loc = key.split(".")[0]
    state.occ[key] = f"{s}:{c}"
    p.placed[c] = key
    if loc == "theater":
        d = int(key.split(".")[1])
        p.day, state.days[d] = d, s
    mod = space_ap(key, state)
    log(events, "placed", player=who(s), char=char_msg(c), space=space_msg(key, state))
    modules = hooks.active(state)  # (once: the modules are those of the setup)
    for m in modules:
        m.placed(state, s, c, key, events)
    if mod is None:  # a performance space: the magician performs later, its AP are lost
        encerrar_personagem(state)
        return True
    base = base_ap(c)
    for m in modules:
        base = m.base_ap(state, s, c, base)
    ap = base + mod
    for m in modules:
        ap += m.placement_ap(state, s, c, loc)
    enhance = BOARD.locations[loc].enhance if loc in BOARD.locations else True
    for m in modules:
        enhance = m.enhance(state, loc, enhance)
    # unvalidated (every placement builds one): the rules' own str, int and bool
    state.cur = unchecked(Current, c=c, loc=loc, sp=key, ap=max(0, ap), shard=enhance)
    state.ctx = {}
    state.step = "acoes"
    for m in modules:
        m.placement_step(state, s)
    return False


@cache
def plan_item(char: str, card: str):
    return msg("trickerion.plan_item", char=char_msg(char), loc=_card_msg(card))


def space_msg(key: str, state: State | None = None):
    if key.split(".")[0] in BOARD.locations:
        return _space_msg(key)
    return _space_msg_of(key, state)


@cache  # a board space's name never changes: built once (placements log it, buttons show it)
def _space_msg(key: str):
    return _space_msg_of(key, None)


def _space_msg_of(key: str, state: State | None):
    parts = key.split(".")
    if parts[0] == "theater":
        where = "perf" if parts[2] == "p" else "backstage"
        return msg(f"trickerion.space.{where}", day=msg(f"trickerion.day.{DAYS[int(parts[1])].key}"),
                   ap=f"{DAYS[int(parts[1])].backstage_ap:+d}")
    return msg("trickerion.space.plain", loc=loc_msg(parts[0]), ap=f"{space_ap(key, state):+d}")


def enhance_ap(state: State) -> int:
    ap = 1
    for m in hooks.active(state):
        ap = m.enhance_ap(state, ap)
    return ap


def can_enhance(state: State, s: int) -> bool:
    """Reforçar o Personagem: +1 AP for a Shard "uma vez ao alocar um Personagem em qualquer Local,
    exceto no Teatro" (PT p.12). Offered in the action menu until the character's first action, and
    only to a player with a Shard where the location allows it (ruling 16)."""
    return state.cur is not None and state.cur.shard and state.p[s].shards > 0


def reforcar(state: State, s: int, events: list[Event]) -> None:
    state.p[s].shards -= 1
    state.cur.ap += enhance_ap(state)
    state.cur.shard = False
    log(events, "enhance", player=who(s), ap=enhance_ap(state))


def _menu(state: State, s: int, extra: int = 0) -> list[str]:
    """The location's actions the character can pay for (with `extra` AP more)."""
    if not extra:  # (the usual case, every move: no AP to lend and take back)
        return place(state, state.cur.loc).menu(state, s)
    state.cur.ap += extra
    try:
        return place(state, state.cur.loc).menu(state, s)
    finally:
        state.cur.ap -= extra


def surely_busy(state: State, s: int) -> bool:
    """A quick look (the full menu is the costly part of a move): whether the place surely offers the
    character an action now, by the places that can tell at once (an action always there)."""
    here = place(state, state.cur.loc)
    return hasattr(here, "surely_busy") and here.surely_busy(state, s)


def opened_by_returns(state: State, s: int) -> bool:
    """Whether giving components or tricks back could let the character act here (room for a purchase, a
    trick slot to learn into, a Theater slot freed...): each place says; one that does not, perhaps."""
    here = place(state, state.cur.loc)
    return here.opened_by_returns(state, s) if hasattr(here, "opened_by_returns") else True


def acoes_opcoes(state: State, s: int) -> list[str]:
    """The location's actions the character can pay for; Reforçar o Personagem while it is open and buys
    an action; Devolver à reserva while the character can act, or when giving back could let it; and the
    end. A character with nothing left to do has only the end, which then is not asked (PT p.12: "Uma vez
    que o jogador tenha realizado todas as Ações"; ruling 18)."""
    out = _menu(state, s)
    if can_enhance(state, s) and (out or _menu(state, s, enhance_ap(state))):
        out.insert(0, "fr:1")
    p = state.p[s]
    if (p.comps or p.tricks) and (out or opened_by_returns(state, s)):
        out.append("devolver")
    return out + ["fim"]


def escolher_acao(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    if choice == "fim":
        done = state.ctx.pop("spent", False)  # nothing left to do: it ended by itself (game.settle), and says why
        log(events, "char_spent" if done else "char_done", player=who(s), char=char_msg(state.cur.c),
            ap=qty("ap", state.cur.ap))
        encerrar_personagem(state)
        return True
    if choice == "fr:1":
        reforcar(state, s, events)
        return False
    if choice == "devolver":
        state.step = "devolver"
        return False
    state.cur.shard = False  # an action begins: the placement's Reforçar is past
    place(state, state.cur.loc).start(state, s, choice, rng, events)
    return False


def encerrar_personagem(state: State) -> None:
    """This character is done: the next player in initiative order places one (unless a module lets
    this player place another first)."""
    state.cur, state.step, state.ctx = None, "", {}
    state.tp += 1
    if state.tp < placements_per_turn(state) and waiting(state, state.order[state.pi]):
        return
    state.tp = 0
    state.pi = (state.pi + 1) % state.n


def devolver_opcoes(state: State, s: int) -> list[str]:
    p = state.p[s]
    return [f"dc:{c}" for c in p.comps] + [f"dt:{o.t}" for o in p.tricks] + ["voltar"]


def devolver(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    """Components and tricks may be given back at any time (the trick's markers return to the supply)."""
    if choice.startswith("dc:"):
        remove_component(state.p[s], choice[3:])
        log(events, "return_component", player=who(s), comp=comp_name(choice[3:]))
    elif choice.startswith("dt:"):
        n = return_trick(state, s, choice[3:])
        log(events, "return_trick", player=who(s), trick=trick_name(choice[3:]), count=n)
    state.step = "acoes"
    return False


STEPS = {
    "assign": (atribuir_opcoes, atribuir),
    "alocar": (alocar_opcoes, alocar_personagem),
    "ocioso": (ocioso_opcoes, alocar_personagem),
    "espaco": (espaco_opcoes, alocar_no_espaco),
    "acoes": (acoes_opcoes, escolher_acao),
    "devolver": (devolver_opcoes, devolver),
}
