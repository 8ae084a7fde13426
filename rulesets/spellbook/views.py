"""What players see: the public table as JSON (`view`), as status lines (`table`), and the
prompt of whoever must decide. Spellbook hides nothing but the bag, of which only the number
of tokens is shown."""

from __future__ import annotations

from typing import Any

from rulesets.core import Choice, Msg, Prompt, msg
from rulesets.spellbook import cards
from rulesets.spellbook.data import (
    FAMILIAR_SPACES,
    KIND_BY_ID,
    KIND_IDS,
    NRUNE,
    RUNES,
    SPELL_COLOUR,
    SPELLS,
)
from rulesets.spellbook.day import phase_options
from rulesets.spellbook.learning import max_level
from rulesets.spellbook.scoring import familiar_points, seat_lines, track_points
from rulesets.spellbook.state import DUSK, MATERIA, OVER, PHASE_NAMES, SEATS, SETUP, SPELL_NAMES, State, materia_list
from rulesets.spellbook.steps import STEPS, actor, step_options

SPELL_CHOICE_STEPS = {"learn", "upgrade", "pick_spell"}


def _phase_name(st: State) -> str:
    return PHASE_NAMES.get(st.phase) or {SETUP: "setup", DUSK: "dusk", OVER: "over"}[st.phase]


def view(st: State, seat: int | None) -> dict[str, Any]:
    players = []
    for i, pl in enumerate(st.players):
        players.append({
            "seat": i,
            "pool": [KIND_IDS[k] for k in pl.pool],
            "familiar": [KIND_IDS[k] for k in pl.fam],
            "familiar_points": familiar_points(len(pl.fam)),
            "spells": {st.spells[c]: {"level": lv, "rune": RUNES[pl.tok[c] % NRUNE]}
                       for c, lv in enumerate(pl.lv) if lv},
            "days": pl.days,
            # the score as it stands (Spellbook's scoring reads nothing hidden): the summary's chart
            "points": sum(line.points for line in seat_lines(st, i)),
        })
    out: dict[str, Any] = {
        "game": "spellbook",
        "mode": st.mode,
        "spells": list(st.spells),
        "first": st.first,
        "day_player": st.cur,
        "phase": _phase_name(st),
        "to_act": None if st.over else actor(st),
        "step": st.q[0]["do"] if st.q else None,
        "altar": [KIND_IDS[k] for k in sorted(st.altar)],
        "bag": sum(st.bag),
        "discard": sum(st.disc),
        "players": players,
        "ending": st.ending or None,
        "over": st.over,
        "you": seat,
    }
    if st.solo:
        out["solo"] = {"difficulty": st.difficulty, "track": [KIND_IDS[k] for k in st.opp],
                       "track_points": track_points(len(st.opp)), "bottom": [KIND_IDS[k] for k in st.bottom]}
    return out


def table(st: State, seat: int | None) -> list[Msg]:
    """The group's status message, line by line, drawn from `view` (so it shows nothing more)."""
    v = view(st, seat)
    lines = [_status(v),
             msg("spellbook.table.altar", materia=_materia(v["altar"]), count=len(v["altar"])),
             msg("spellbook.table.bag", bag=v["bag"], discard=v["discard"])]
    for pl in v["players"]:
        spells = [msg("spellbook.table.spell", spell=SPELL_NAMES[name], level=card["level"],
                      rune=msg(f"spellbook.rune.{card['rune']}")) for name, card in pl["spells"].items()]
        lines.append(msg("spellbook.table.player", player=SEATS[pl["seat"]], pool=_materia(pl["pool"]),
                         count=len(pl["pool"]), stored=len(pl["familiar"]), spaces=FAMILIAR_SPACES,
                         points=msg("spellbook.points", count=pl["familiar_points"]), spells=spells))
    if "solo" in v:
        solo = v["solo"]
        lines.append(msg("spellbook.table.solo", count=len(solo["track"]),
                         points=msg("spellbook.points", count=solo["track_points"]), bottom=len(solo["bottom"])))
    if v["ending"] and not v["over"]:
        lines.append(msg(f"spellbook.table.ending_{v['ending']}"))
    return lines


def _materia(ids: list[str]) -> list[Msg]:
    return [MATERIA[KIND_BY_ID[k]] for k in ids]


def _status(v: dict[str, Any]) -> Msg:
    if v["over"]:
        return msg("spellbook.table.over")
    if v["phase"] == "setup":
        return msg("spellbook.table.setup", player=SEATS[v["first"]])
    player = v["players"][v["day_player"]]
    return msg("spellbook.table.status", player=SEATS[v["day_player"]], day=player["days"] + 1,
               phase=msg(f"spellbook.phase.{v['phase']}"))


def choice_label(st: State, choice: str) -> Msg:
    step = st.q[0]["do"] if st.q else None
    if step == "upgrade":
        level = st.players[st.cur].lv[SPELL_COLOUR[choice]]
        return msg("spellbook.choice.upgrade_to", spell=SPELL_NAMES[choice], level=level, next=level + 1)
    if step == "learn":
        top = max_level(st, st.cur, SPELL_COLOUR[choice], st.q[0])
        return msg("spellbook.choice.learn_up_to", spell=SPELL_NAMES[choice], level=top)
    if step in SPELL_CHOICE_STEPS:
        return SPELL_NAMES[choice]
    k = KIND_BY_ID.get(choice)
    if k is not None:
        return MATERIA[k]
    head, dot, rest = choice.partition(".")
    if dot and head in ("take", "store"):
        return msg(f"spellbook.choice.{head}", materia=MATERIA[KIND_BY_ID[rest]])
    if dot and head == "s":
        return msg("spellbook.choice.copy_solo", action=msg(f"spellbook.choice.{rest}"))
    if dot and head.startswith("c") and head != "c":
        return msg("spellbook.choice.copy", player=SEATS[int(head[1:])], action=msg(f"spellbook.choice.{rest}"))
    return msg(f"spellbook.choice.{choice}")


def prompt(st: State, seat: int) -> Prompt:
    if st.q:
        task = st.q[0]
        step = STEPS[task["do"]]
        title = step.title(st, task)  # type: ignore[misc]
        choices = step_options(st, task)
    else:
        title = msg("spellbook.prompt.phase", phase=msg(f"spellbook.phase.{_phase_name(st)}"))
        choices = phase_options(st, st.cur, st.phase)
    pl = st.players[seat]
    info = [msg("spellbook.info.pool", materia=materia_list(pl.pool), count=len(pl.pool)),
            msg("spellbook.info.altar", materia=materia_list(sorted(st.altar))),
            msg("spellbook.info.familiar", stored=len(pl.fam), spaces=FAMILIAR_SPACES,
                points=msg("spellbook.points", count=familiar_points(len(pl.fam))))]
    if st.q and st.q[0]["do"].startswith("learn_") and "sp" in st.q[0]:
        task = st.q[0]
        info.append(msg("spellbook.info.learning", spell=SPELL_NAMES[st.spells[task["c"]]], level=task["lv"],
                        token=MATERIA[task["t"]], spent=materia_list(task["sp"]), count=task["need"]))
    if st.q and st.q[0]["do"] in SPELL_CHOICE_STEPS:  # what each spell does, to choose from the prompt
        for c in choices:
            texts = {f"l{n}": msg(f"spellbook.spell.{c}.level{n}") for n in (3, 4, 5)}
            points = {f"p{n}": SPELLS[c].points_at(n) for n in (3, 4, 5)}
            info.append(msg("spellbook.info.spell", spell=SPELL_NAMES[c], **texts, **points))
    if st.q and st.q[0]["do"] == "storm_pick":
        info.append(msg("spellbook.info.storm", materia=materia_list(st.q[0]["sel"])))
    return Prompt(seat=seat, title=title, choices=[Choice(id=c, label=choice_label(st, c)) for c in choices],
                  info=info, cards=cards.prompt_cards(choices))

