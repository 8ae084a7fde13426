"""`boardgamesbot engine ...`: drive a ruleset with no Telegram at all.

    simulate GAME --players N --games K --seed S [--option k=v ...] [--json]
    new GAME --players N --seed S [--option k=v ...] [-o FILE]
    prompts FILE [--lang en]            who must decide now, and between what
    apply FILE SEAT CHOICE [-o FILE]    make a move (FILE is rewritten unless -o)
    view FILE [--seat N] [--lang en]    the table as that seat (default: the group) sees it
    replay FILE                         rebuild from the log; exit 1 if the final state differs
    tournament --game G --seats A,B[,C,D] --games N --seed S [--option k=v ...] [--json]
                                        seat kinds (random, stand-in, facil, medio, dificil)
                                        against each other, rotating through the positions

Saved games are the JSON of `rulesets.core.Match`, so any position from a bug report can be
reproduced, inspected and played on.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import locales
from rulesets.core import IllegalMove, ReplayMismatch, act, load_match, new_match, replay, state_hash
from rulesets.core.playout import random_playout
from rulesets.registry import get_game

NAME = "engine"
HELP = "Play, inspect and replay games from the command line (no Telegram)."


def _options(pairs: list[str]) -> dict[str, str]:
    out = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--option wants key=value, got {pair!r}")
        out[key.strip()] = value.strip()
    return out


def register(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="engine_command", required=True)

    p = sub.add_parser("simulate", help="play K games with uniformly random legal choices")
    p.add_argument("game")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--option", action="append", default=[])
    p.add_argument("--json", action="store_true", help="one JSON object per game per line")
    p.set_defaults(run=simulate)

    p = sub.add_parser("new", help="start a game and save it as JSON")
    p.add_argument("game")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--option", action="append", default=[])
    p.add_argument("-o", "--output")
    p.set_defaults(run=new)

    p = sub.add_parser("prompts", help="show who must decide now and the choices")
    p.add_argument("file")
    p.add_argument("--lang", default=locales.DEFAULT)
    p.set_defaults(run=prompts)

    p = sub.add_parser("apply", help="apply one move to a saved game")
    p.add_argument("file")
    p.add_argument("seat", type=int)
    p.add_argument("choice")
    p.add_argument("-o", "--output")
    p.add_argument("--lang", default=locales.DEFAULT)
    p.set_defaults(run=apply_move)

    p = sub.add_parser("view", help="show the table as one seat (or the group) sees it")
    p.add_argument("file")
    p.add_argument("--seat", type=int)
    p.add_argument("--lang", default=locales.DEFAULT)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=view)

    p = sub.add_parser("replay", help="replay a saved game's log and compare the final state")
    p.add_argument("file")
    p.set_defaults(run=replay_file)

    p = sub.add_parser("tournament", help="play AI levels and baselines against each other")
    p.add_argument("--game", required=True)
    p.add_argument("--seats", required=True, help="seat kinds, comma-separated, one per player: "
                   "random, stand-in, facil, medio, dificil")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--option", action="append", default=[])
    p.add_argument("--json", action="store_true", help="one JSON object keyed by seat kind")
    p.set_defaults(run=tournament)


def simulate(args: argparse.Namespace) -> int:
    options = _options(args.option)
    started = time.perf_counter()
    for i in range(args.games):
        result = random_playout(args.game, args.players, args.seed + i, options)
        summary = result.summary()
        if args.json:
            print(json.dumps(summary, ensure_ascii=False), flush=True)
        else:
            print(f"seed {summary['seed']}: scores {summary['scores']} winners {summary['winners']} "
                  f"({summary['actions']} actions, {summary['end_reason']}) {summary['state_hash']}")
    if not args.json:
        elapsed = time.perf_counter() - started
        print(f"{args.games} games in {elapsed:.2f}s ({args.games / elapsed:.1f} games/s)", file=sys.stderr)
    return 0


def tournament(args: argparse.Namespace) -> int:
    from rulesets.core.ai import tournament as tour

    seats = [kind.strip() for kind in args.seats.split(",") if kind.strip()]
    started = time.perf_counter()

    def progress(i: int, record: tour.GameRecord) -> None:
        rival = f" rival {record.rival}" if record.rival is not None else ""
        print(f"game {i + 1}/{args.games} seed {record.seed}: {','.join(record.kinds)} scores {record.scores}"
              f"{rival} winners {record.winners}", file=sys.stderr, flush=True)

    try:
        stats = tour.tournament(args.game, _options(args.option), seats, args.games, args.seed,
                                progress=None if args.json else progress)
    except (KeyError, ValueError) as exc:
        print(f"tournament: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(tour.summary(stats), ensure_ascii=False))
    else:
        for line in tour.table(stats):
            print(line)
        print(f"{args.games} games in {time.perf_counter() - started:.1f}s", file=sys.stderr)
    return 0


def _save(match, path: str | None) -> None:
    data = match.model_dump_json(indent=1)
    if path in (None, "-"):
        print(data)
    else:
        Path(path).write_text(data)


def _load(path: str):
    return load_match(Path(path).read_text() if path != "-" else sys.stdin.read())


def new(args: argparse.Namespace) -> int:
    _save(new_match(args.game, _options(args.option), args.players, args.seed), args.output)
    return 0


def prompts(args: argparse.Namespace) -> int:
    match = _load(args.file)
    game = get_game(match.game)
    if game.is_over(match.state):
        print(locales.render(locales_msg("core.cli.over"), args.lang))
        return 0
    for seat in game.to_act(match.state):
        prompt = game.prompt(match.state, seat)
        print(f"[{seat}] {locales.render(prompt.title, args.lang)}")
        for line in prompt.info:
            print(f"    {locales.render(line, args.lang)}")
        for choice in prompt.choices:
            print(f"    {choice.id:24} {locales.render(choice.label, args.lang)}")
    return 0


def locales_msg(key: str):
    from rulesets.core import msg

    return msg(key)


def apply_move(args: argparse.Namespace) -> int:
    match = _load(args.file)
    try:
        match, events = act(match, args.seat, args.choice)
    except IllegalMove as exc:
        print(locales.render(exc.reason, args.lang), file=sys.stderr)
        return 2
    for event in events:
        print(locales.render(event.text, args.lang), file=sys.stderr)
    _save(match, args.output or args.file)
    return 0


def view(args: argparse.Namespace) -> int:
    match = _load(args.file)
    game = get_game(match.game)
    if args.json:
        print(json.dumps(game.view(match.state, args.seat), ensure_ascii=False, indent=1))
    else:
        for line in game.table(match.state, args.seat):
            print(locales.render(line, args.lang))
    return 0


def replay_file(args: argparse.Namespace) -> int:
    match = _load(args.file)
    try:
        rebuilt = replay(match)
    except ReplayMismatch as exc:
        print(f"REPLAY FAILED: {exc}", file=sys.stderr)
        return 1
    expected, got = state_hash(match), state_hash(rebuilt)
    if expected != got:
        print(f"REPLAY FAILED: final state {got} differs from the saved {expected}", file=sys.stderr)
        return 1
    print(f"replay ok: {len(match.log)} log entries, final state {got}")
    return 0
