"""The typed state of a Trickerion match. Field names are short on purpose: the state lives in Redis."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class Model(BaseModel):
    """The base of every part of the state. The rules assign fields thousands of times a game (and the
    AI's search millions); pydantic's `__setattr__` bookkeeping (assignment validation, which is off
    here anyway, and the set-fields record, which nothing reads) doubled the cost of each. A loaded
    state is validated as ever; assignments are the rules' own and plain. `__delattr__` too: while pydantic's
    own is there, Python dispatches every assignment through a generic hook that looks `__setattr__` up and
    calls it as a method (no field of the state is ever deleted)."""

    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__


class Owned(Model):
    """A trick in a player's Workshop."""

    t: str              # trick id
    sym: int            # the Symbol marker put on it when learned (0-3)
    on: int = 0         # trick markers on the trick card
    eng: bool = False   # on the Engineer extension's trick slot


class Marker(Model):
    """A trick marker on a performance card. `d`: where its own-category corner points (0 up .. 3 left)."""

    seat: int
    sym: int
    t: str
    d: int
    n: int = 1          # markers stacked on the slot (Electra's Supercarga stacks two: one trick)


class Card(Model):
    """A performance card in the Theater and the markers on it (slot -> marker)."""

    id: str
    m: dict[str, Marker] = {}


class Player(Model):
    magician: str | None = None
    coins: int = 0
    fame: int = 5
    shards: int = 1
    tricks: list[Owned] = []
    comps: dict[str, int] = {}            # components in the Workshop (physical units)
    multi: list[str | None] = [None, None]  # stacks on the Manager's multi-component slots
    specs: list[str] = []                 # specialists on the team (their extension is on the board)
    apps: list[str] = []                  # apprentices on the team ("a1".."a4")
    app_ext: str | None = None            # the apprentice on the Assistant's extension (paid nothing)
    hires: list[str] = []                 # hired this round: they join in the End of Round phase
    hand: dict[str, int] = {}             # permanent assignment cards by location
    plan: dict[str, str] = {}             # character -> location of the card under it (secret until revealed)
    pick: str | None = None               # assignment phase: the character being given a card
    rest: list[str] = []                  # assignment phase: characters left idle (secret like the plan)
    ready: bool = False                   # assignment phase: this player has finished
    placed: dict[str, str] = {}           # character -> space key, this round
    idle: list[str] = []                  # characters left idle this round
    poster: bool = False
    day: int | None = None                # the Theater weekday this player holds this round
    start: dict[str, Any] = {}            # setup bookkeeping (starting choices still to make)


class Current(Model):
    """The character placed and acting now, and its action points."""

    c: str
    loc: str
    sp: str
    ap: int
    shard: bool = True  # Reforçar o Personagem may still be bought (at placement: before any action)


class Alley(Model):
    """The Dark Alley's table (rulesets/trickerion/dark_alley): special decks and this round's effects."""

    decks: dict[str, list[str]] = {}     # location -> face-down special assignment cards, top first
    used: list[str] = []                 # special cards played this round (to the bottom of their decks)
    card: str | None = None              # the special card under the character acting now
    mode: str = ""                       # its bonus: "ready", "used", "lost", or "ap" (+1 AP taken instead)
    drew: bool = False                   # Comprar a Primeira Carta done in this placement
    clar: bool = False                   # Clarividência done in this placement
    once: list[str] = []                 # "seat:power" used this round (once-per-round abilities)
    enhanced: list[str] = []             # tricks with Enhance Trick's permanent +1 Fame/+1 coin
    performed: list[str] = []            # tricks performed at least once this game (Grand Premiere)
    perf: dict[str, str] = {}            # seat -> perform-framed special card of its performing magician
    dubious: list[int] = []              # seats that take the Quick Order component at round end
    share: list[int] = []                # seats collecting opponents' Market spending (Business Share)
    durable: dict[str, list[str]] = {}   # seat -> own tricks just performed (Durable Components)
    premiere: dict[str, list[str]] = {}  # seat -> "trick:fame:coins:shards" performed a first time (Grand Premiere)
    talent: dict[str, str] = {}          # seat -> "apprentice:specialist" swapped at Retornar (Hidden Talent)
    electra: bool = False                # the set-up in progress stacks a second marker (Supercarga)
    stacked: list[str] = []              # "seat:trick" stacked on the card being performed
    steal: list[str] = []                # the Red Lotus' slot and the stolen trick's, on the card being performed


class Prophecies(Model):
    """The prophecy track (optional with the Dark Alley; rulesets/trickerion/prophecies.py)."""

    active: str | None = None            # rules this round (none in round 1)
    pending: list[str] = []              # the orb's spaces, leftmost (next to become active) first
    pile: list[str] = []                 # face down, top first: secret, only its size is shown
    discard: list[str] = []
    delayed: bool = False                # this round's assignment cards stay face down until placed


class Show(Model):
    """A performance of the round: who performed which performance card on which weekday."""

    seat: int
    card: str
    day: str


class Tally(Model):
    """What the round's summary needs (round_summary.py): each seat's (Fame, coins, Shards) when the round
    began and when the Performance phase began, the performances, and the wages."""

    start: list[list[int]] = []          # per seat: [Fame, coins, Shards]
    before_shows: list[list[int]] = []
    shows: list[Show] = []
    wages: dict[str, list[int]] = {}     # seat -> [coins paid, Fame lost for what was not paid]


class Ledger(Model):
    """Where a player's Fame came from so far (ledger.py): public, as the Fame track is."""

    start: int = 0                       # the Fame the first round began with
    advertise: int = 0                   # Propaganda
    yields: int = 0                      # the Rendimentos of the player's own tricks performed
    links: int = 0                       # the performer's Bônus de Conexões
    bonus: int = 0                       # the performer's card and Specialist bonuses
    wages: int = 0                       # lost for unpaid wages (0 or less)


class State(Model):
    n: int                               # number of players
    beginner: bool = False
    rounds: int = 5
    round: int = 0
    phase: str = "magician"
    order: list[int] = []                # initiative order (seats); its position i is space spaces[i]
    spaces: list[int] = []               # the initiative spaces in use (2 players: 1 and 3)
    p: list[Player]
    dice: dict[str, str] = {}
    stock: list[str | None] = []         # the Market's Buy area
    orders: list[str | None] = []        # the Market's Order area (slot i replaces Buy slot i)
    quick: str | None = None             # the Quick Order slot
    row: list[Card | None] = []          # performance card spaces in the Theater, left to right
    deck: list[str] = []                 # the face-down performance deck, top first
    occ: dict[str, str] = {}             # space key -> "seat:character"
    days: list[int | None] = [None, None, None, None]   # weekday -> the seat holding it
    turn: int | None = None              # whose sequential decision it is
    step: str = ""                       # which decision that is
    steps: dict[str, str] = {}           # seat -> its own decision, made at the same time as the others'
                                         # (the players' setup, Propaganda, the quick game's components)
    ctx: dict[str, Any] = {}             # intermediate choices of a composite decision
    cur: Current | None = None
    pi: int = 0                          # position in the initiative order whose turn comes next
    perf_day: int = 0
    modules: list[str] = []              # rule modules in play (the base game has none; see hooks.py)
    tp: int = 0                          # characters the player on turn has placed this turn (placement)
    proph: Prophecies | None = None      # the prophecy track when that module is in play
    alley: Alley | None = None           # the Dark Alley's table when that module is in play
    tally: Tally = Field(default_factory=Tally)  # this round so far, for its summary
    ledger: list[Ledger] = []            # per seat, the whole game's Fame by source (from round 1 on)
