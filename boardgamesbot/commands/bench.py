"""`boardgamesbot bench [--quick] [--only ...] [--write | --no-write]`: measure, print, and (a full
run only, or with --write) rewrite docs/performance.md.

Sections: the engine (one core); the pictures (drawing time and size, one core); the whole
system with G concurrent games of Spellbook and of Trickerion in both modes, their ratio, the
Bot API requests per move by method and the anatomy of a move; the requests per move of whole
games, first move to last (bench/whole_games.py); Telegram's ceiling; memory per
game; the flood drill; the goals of issues 14 and 5 and the flood drill's, each with the figure
measured. The distributed mode needs a Redis server (REDIS_URL's host, database
BGB_BENCH_REDIS_DB, default 13); without one its rows are left out, and the tables say so.

A partial run (--quick, --only, --games, --game, --flood) prints its tables and leaves the
committed figures alone unless --write says otherwise.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

from bench import engine, pictures, report

NAME = "bench"
HELP = "Run the benchmarks, print the tables and (a full run) write docs/performance.md."

# Trickerion's lobby takes a few more group messages to set up (options), so its runs stop at 100
# games: 300 tables would spend minutes in the group limit before the first move.
# flood: games, seconds, admission-off comparison; bots: human games, bot games, seconds
FULL = {"engine": 3.0, "pictures": 60, "games": (10, 100, 300), "embedded_games": (10, 100), "window": 60.0,
        "ceiling": (600, 200), "memory_games": 3, "trickerion_games": (10, 100), "trickerion_embedded": True,
        "flood": (10, 10.0, True), "bots": (100, 20, 60.0), "warmup_moves": 6, "whole_games": 6}
QUICK = {"engine": 0.1, "pictures": 6, "games": (3,), "embedded_games": (3,), "window": 6.0, "ceiling": (90, 45),
         "memory_games": 0, "trickerion_games": (3,), "trickerion_embedded": False, "flood": (3, 3.0, False),
         "bots": (3, 1, 8.0), "warmup_moves": 0, "whole_games": 0}
KINDS = ("spellbook", "trickerion")
CALLS_GOAL = {"spellbook": 1.2, "trickerion": 1.3}  # issue 14: Bot API requests per move, every method


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true", help="short runs (under two minutes), for smoke tests")
    parser.add_argument("--write", action="store_true", help="write docs/performance.md even for a partial run")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/performance.md alone")
    parser.add_argument("--games", default=None, help="comma-separated G values for the whole-system runs")
    parser.add_argument("--whole-games", type=int, default=None, metavar="G",
                        help="tables of each game played to the end for the cost of whole games (default 6; "
                             "--quick: 0, none)")
    parser.add_argument("--game", default=None, help="comma-separated games for the whole-system runs "
                        f"({','.join(KINDS)}; default both)")
    parser.add_argument("--only", default=None,
                        help="comma-separated sections: engine,pictures,system,whole,ceiling,memory,flood,bots "
                             "(default all; --quick: all but bots and whole)")
    parser.add_argument("--flood", action="store_true", help="only the flood drill (bench/flood.py)")
    parser.add_argument("--bot-load", default=None, metavar="HUMANS,BOTS",
                        help="human and bot games of the bots-beside-people run (default 100,20; --quick 3,1)")
    parser.add_argument("--bot-cores", type=int, default=None, metavar="N",
                        help="the bots-beside-people run with the AI's pool on the last N cores and the rest of the "
                             "stack on the others, as a host whose ai service has cores of its own; 0: every core "
                             "shared, the pool in the idle class (default: both, 0 then 1)")
    parser.add_argument("--bot-window", type=float, default=None, metavar="SECONDS",
                        help="length of each of the bots-beside-people run's three windows (default 60; a p99 "
                             "of a 60 s window rests on its ten slowest moves, and two windows of people alone "
                             "differ by up to 40%%: longer windows compare better)")
    parser.set_defaults(run=run)


_STARTED = time.monotonic()


def _say(text: str) -> None:
    print(f"[{time.monotonic() - _STARTED:4.0f} s] {text}", file=sys.stderr, flush=True)


def writes(args: argparse.Namespace) -> bool:
    """A full run rewrites docs/performance.md; a partial one only when asked to."""
    if args.no_write:
        return False
    partial = args.quick or args.only or args.games or args.game or args.flood
    return bool(args.write or not partial)


def run(args: argparse.Namespace) -> int:
    from bench import ceiling, memory, system
    from bench.live import Live
    from bench.stack import bench_redis_url, distributed, embedded, redis_available

    conf = QUICK if args.quick else FULL
    # (--quick leaves the bots out unless asked: its smoke test has them apart, tests/bench/)
    default = "engine,pictures,system,whole,ceiling,memory,flood" + ("" if args.quick else ",bots")
    only = set((args.only or default).split(","))
    if args.flood:
        only = {"flood"}
    games = tuple(int(g) for g in args.games.split(",")) if args.games else conf["games"]
    emb_games = games if args.games else conf["embedded_games"]
    kinds = tuple(args.game.split(",")) if args.game else KINDS
    sections: list[tuple[str, list[str]]] = []
    notes: list[str] = []
    started = time.monotonic()
    load_at_start = report.load()
    _say(f"load average {load_at_start}")

    if "engine" in only:
        _say("engine ...")
        sections.append(("Engine: random full games on one core", engine.table(engine.run(conf["engine"]))))
    if "pictures" in only:
        _say("pictures ...")
        sections.append(("Pictures: drawing one on one core", pictures.table(pictures.run(conf["pictures"]))))

    figures: list = []
    wholes: list = []
    whole_tables = args.whole_games if args.whole_games is not None else conf["whole_games"]
    ceilings: list = []
    samples: list = []
    url = bench_redis_url()
    why_not = redis_available(url)
    if why_not:
        notes.append(f"No Redis server at {url} ({why_not}): the distributed rows were not measured.")

    def memory_hooks(st):
        def at_start(ids):
            samples.append(memory.sample(st, "start", ids))

        def at_window(ids):
            samples.append(memory.sample(st, "after the window", ids))
        return at_start, at_window

    if "system" in only or "ceiling" in only or "whole" in only:
        for mode in ("embedded", "distributed"):
            if mode == "distributed" and why_not:
                continue
            stack_cm = embedded() if mode == "embedded" else distributed(url)
            with stack_cm as st:
                live = Live(st.world)
                if "system" in only:
                    for kind in kinds:
                        runs = emb_games if mode == "embedded" else games
                        if kind == "trickerion" and not args.games:
                            if mode == "embedded" and not conf["trickerion_embedded"] and not why_not:
                                continue  # --quick: one Trickerion run, in the distributed mode
                            runs = tuple(g for g in runs if g in conf["trickerion_games"])
                        for g in runs:
                            _say(f"{mode}: {g} {kind} games ...")
                            sample_here = (mode == "distributed" and kind == "spellbook" and g == min(games)
                                           and "memory" in only and not conf["memory_games"])
                            hooks = memory_hooks(st) if sample_here else (None, None)
                            figures.append(system.run(st, g, conf["window"], live=live, after_setup=hooks[0],
                                                      after_window=hooks[1], game=kind,
                                                      warmup_moves=conf["warmup_moves"]))
                            st.wait_quiet(timeout=300)
                # whole games in one mode: the production one when it runs (a move's cost is the table
                # logic's and the outbox's, the same in both modes: the windows show it)
                if "whole" in only and whole_tables and mode == ("embedded" if why_not else "distributed"):
                    from bench import whole_games

                    for kind in kinds:
                        _say(f"{mode}: {whole_tables} {kind} games played to the end ...")
                        wholes.append(whole_games.run(st, kind, whole_tables, live=live,
                                                          think=(0.0, 0.0) if args.quick else whole_games.THINK))
                        st.wait_quiet(timeout=300)
                # --quick measures the ceiling once: in the distributed mode when it runs.
                if "ceiling" in only and not (args.quick and mode == "embedded" and not why_not):
                    _say(f"{mode}: Telegram ceiling ...")
                    st.wait_quiet(timeout=300)
                    ceilings.append(ceiling.run(st, *conf["ceiling"], live=live))
        skipped = sorted(set(games) - set(emb_games))
        if skipped and "system" in only:
            notes.append(f"The embedded mode was not run with {', '.join(map(str, skipped))} games: it is the "
                         "one-process way to try the bot on a laptop; large loads are the distributed mode's job.")
    if "memory" in only and conf["memory_games"] and not why_not:
        from emulator import Limits

        _say("memory: games played to the end ...")
        with distributed(url, limits=Limits.off(), rates=memory.FAST_RATES) as st:
            samples += memory.run(st, conf["memory_games"])

    floods: list = []
    if "flood" in only:
        from bench import flood

        _say("flood drill ...")
        games_, seconds, compare = conf["flood"]
        with (embedded() if why_not else distributed(url)) as st:
            floods = flood.run(st, games=games_, seconds=seconds)
        if not why_not and compare:  # (the comparison waits minutes for the flood's answers to go out)
            _say("flood drill, admission control off ...")
            with distributed(url, rates=flood.NO_ADMISSION) as st:
                floods += flood.run(st, games=games_, seconds=seconds, label=", admission control off")

    if args.bot_load:
        humans, bot_games = (int(n) for n in args.bot_load.split(","))
        conf = {**conf, "bots": (humans, bot_games, conf["bots"][2])}
    if args.bot_window:
        conf = {**conf, "bots": (*conf["bots"][:2], args.bot_window)}
    if args.bot_cores is not None:
        conf = {**conf, "bot_cores": (args.bot_cores,)}
    bot_figures = run_bots(conf, url, why_not, notes) if "bots" in only else []

    if figures:
        from bench import anatomy

        sections.append(("Whole system: concurrent games, Telegram's limits on", system.table(figures)))
        sections.append(("Bot API requests per move, by method", system.method_table(figures)))
        if len({f.mode for f in figures}) == 2:
            sections.append(("Distributed against embedded", system.ratio_table(figures)))
        big = [f for f in figures if f.games >= 100] or figures
        sections.append(("Anatomy of a move: where press→prompt goes",
                         anatomy.table([f.anatomy for f in big if f.anatomy is not None])
                         + ["", "Each column is one run (mode, game, games); see *How these were measured*."]))
    if wholes:
        from bench import whole_games

        sections.append(("Whole games: Bot API requests per move from the first move to the end",
                         whole_games.table(wholes)))
    if ceilings:
        sections.append(("Telegram ceiling: more to send than allowed", ceiling.table(ceilings)))
    if samples:
        sections.append(("Memory per Spellbook game (3 players)", memory.table(samples)))
    if floods:
        from bench import flood

        sections.append((f"Flood: one user at 60 updates/s while {conf['flood'][0]} games play", flood.table(floods)))
    if bot_figures:
        from bench import bots

        sections.append(("Bots beside people: human games alone, then beside bot games", bots.table(bot_figures)))
        sections.append(("Bots beside people: where a person's press→prompt goes, alone and beside the bots",
                         bots.anatomy_table(bot_figures)))
    goals = goal_lines(figures, ceilings, samples, wholes)
    if floods:
        goals = (goals or GOALS_HEAD[:]) + flood.goal_lines(floods, issue="flood drill")
    if bot_figures:
        from bench import bots

        goals = (goals or GOALS_HEAD[:]) + bots.goal_lines(bot_figures)
    if goals:
        sections.append(("Goals", goals))
    notes += design_notes(figures)
    if notes:
        sections.append(("Notes", [f"- {n}" for n in notes]))
    if figures or ceilings or samples or floods or bot_figures or wholes:
        from bench import bots

        method = METHOD + (bots.METHOD if bot_figures else [])
        sections.append(("How these were measured", [f"- {line}" for line in method]))
    for title, lines in sections:
        print(f"\n## {title}\n")
        print("\n".join(lines))
    print(f"\n(bench took {time.monotonic() - started:.0f} s; load average {load_at_start} at the start, "
          f"{report.load()} at the end)")
    if writes(args):
        path = report.write(sections, args.quick, load_at_start)
        print(f"\nwritten to {path}")
    return 0


def run_bots(conf: dict, url: str, why_not: str | None, notes: list[str]) -> list:
    """Issue 16: human games alone, then beside bot games (bench/bots.py), on the distributed stack."""

    if why_not:
        notes.append("No Redis server: the bots-beside-people run (distributed mode) was not measured.")
        return []
    humans, bot_games, window = conf["bots"]
    cores = sorted(os.sched_getaffinity(0))
    layouts = conf.get("bot_cores") or ((0, 1) if len(cores) > 1 else (0,))
    figures = []
    for own in layouts:
        if not 0 <= own < len(cores):
            raise SystemExit(f"--bot-cores {own}: this machine gives the bench {len(cores)} cores; leave people one")
        _say(f"distributed: {humans} human games, then beside {bot_games} bot games "
             f"({f'the AI pool on {own} core(s) of its own' if own else 'every core shared'}) ...")
        figures.append(_bots_run(url, humans, bot_games, window, cores, own))
    return figures


def _bots_run(url: str, humans: int, bot_games: int, window: float, cores: list[int], own: int):
    """One bots-beside-people run. With `own` > 0 the AI's pool is on the last `own` cores and the rest of
    the stack (webhook, worker, beat, this process's emulator and players, all started from here) on the
    others — a host whose `ai` service has cores of its own. (Affinity is per thread and inherited: it is
    set before the stack's threads and processes start, and put back after.)"""
    from bench import bots
    from bench.stack import distributed

    ai_cpus = set(cores[-own:]) if own else None
    before = os.sched_getaffinity(0)
    if ai_cpus:
        os.sched_setaffinity(0, set(cores) - ai_cpus)
    try:
        with distributed(url, ai_pool=True, ai_cpus=ai_cpus) as st:
            figure = bots.run(st, humans, bot_games, window)
    finally:
        os.sched_setaffinity(0, before)
    if ai_cpus:
        figure.layout = f"the AI's pool on core {_cores(ai_cpus)}, the rest on {_cores(set(cores) - ai_cpus)}"
    return figure


def _cores(cpus: set[int]) -> str:
    xs = sorted(cpus)
    return str(xs[0]) if len(xs) == 1 else f"{xs[0]}–{xs[-1]}"


METHOD = [
    "Everything runs on this machine: emulator, webhook, workers, Redis and the scripted players.",
    "embedded = composed as `boardgamesbot local` composes it: fakeredis's TcpFakeServer in a process of its "
    "own, the emulator and the webhook in one process and one event loop, one Celery worker subprocess "
    "(threads, 4) with the beat inside. "
    "distributed = a real Redis server (database BGB_BENCH_REDIS_DB), `boardgamesbot serve` as its own process, "
    "a Celery worker (prefork, 2) and a beat process.",
    "The games: Spellbook with 3 players; Trickerion with 3 and 4 players (every other table) and the Dark Alley "
    "on, each opened, set up in the lobby and started through the bot.",
    "Each game is played by scripted people (bench/live.py) who think before pressing: uniformly 0.5–1.5 × "
    "`think` seconds, with `think` ≥ 3 s and G/15 s, so all games together offer about 15 moves a second. The "
    "bench measures the system at that load for 60 s, after a warm-up of 6 × `think` seconds of the same play "
    "(none with --quick; bench/system.py `warmup_for`): the games are set up together and start at the same move,"
    " so at first they move in step, and at Trickerion's last magician every table sends three or four new turn "
    "messages in the same few seconds, more than Telegram's 30 a second — which tables begun at different times "
    "never do; the warm-up's moves are played but not counted. So the window holds, of Trickerion at 100 games, "
    "about moves 7 to 15 of each game: the players' own setup (Preparação individual, to about move 20 of a "
    "random game); at 10 games moves 7 to 26, into the first round's Propaganda and Fase de Atribuição. The "
    "ceiling table measures the outbox against Telegram's limit itself. A scripted person never goes back to "
    "press an older turn's message than the one they last pressed.",
    "press→prompt = from the moment the emulator queues the button's callback query to the moment it stores "
    "the first message sent or edited in a private chat of that game's players (the mover's next prompt, or "
    "the next player's new prompt, or the mover's note if it came first), timed in the emulator's process.",
    "Bot API requests/move = every request the emulator received during the window, of every method (sends, "
    "edits, deletions, pins, answerCallbackQuery, getChatMember), divided by the moves the bot acknowledged. "
    "Answers the webhook gave in its replies (Bot API, \"Making requests when getting updates\") are run by the "
    "emulator as Telegram runs them and counted apart: the bot made no request and took no rate-limit token "
    "for them.",
    "Whole games (bench/whole_games.py): because a window holds the same stretch of every game, the cost of a "
    "move is also measured over whole games: G tables of each game (Spellbook with 3 players; Trickerion with 3 "
    "and 4, Dark Alley on) set up through the bot and played by the same scripted people, thinking 0.3–1.2 s, "
    "from the first press to the end, every request counted until the system is quiet after the final scores "
    "(so the end's messages and pictures are paid for), in the distributed mode (embedded without Redis). The "
    "goal of issue 14 on requests per move is judged there; a window's figure is shown beside it.",
    "busiest group = the most messages (sends and edits) any one group got in a 60-second window of the run "
    "(Telegram: about 20 a minute per group).",
    "Telegram's limits are on in the emulator (per chat 3/3 s, per group 20/60 s, overall 30/s) and the bot "
    "runs with its production rates; 429s are the emulator's answers. setup = opening, joining and starting "
    "the G games through the bot (not part of the per-move figures).",
    "Anatomy: the stacks run with BGB_ANATOMY=1, so the webhook and the worker stamp each press "
    "(workers/anatomy.py, wall clock), lined up with the scripted player's own stamps by callback query id "
    "(bench/anatomy.py) for the presses that were moves.",
    "Flood (bench/flood.py): 10 games, each pressed about once a second, measured for 10 s without and "
    "10 s with a bystander sending 60 updates/s (/jogos in private and presses of the group's status, alternately); "
    "then again on a stack whose webhook admits everything (--quick: 3 games, 3 s, no second stack). 'delivery "
    "backlog' is the most updates waiting in the emulator's webhook queue (it delivers like Telegram: one update "
    "at a time per chat or user, 40 at once in all).",
    "Memory: MEMORY USAGE of the keys in the real Redis; 'everything else' includes the per-update dedupe "
    "markers (upd: 1 day, done: 7 days), which expire.",
]

GOALS_HEAD = ["| issue | goal | measured | verdict |", "|---|---|---|---|"]


def _verdict(ok: bool) -> str:
    return "met" if ok else "**missed**"


def goal_lines(figures, ceilings, samples, wholes=()) -> list[str]:
    lines = GOALS_HEAD[:]
    judged = {w.game for w in wholes if w.moves}
    for w in wholes:  # issue 14: requests per move, every method, over whole games
        goal = CALLS_GOAL.get(w.game)
        if w.moves and goal is not None:
            lines.append(f"| 14 | ≤ {goal} Bot API requests per move, every method ({w.mode}, {w.game}, "
                         f"{w.games} whole games, {w.moves_per_second:.1f} moves/s) | {w.calls_per_move:.2f} | "
                         f"{_verdict(w.calls_per_move <= goal)} |")
    for f in figures:  # the same in each window: judged there only when no whole games were played
        goal = CALLS_GOAL.get(f.game)
        if f.moves and goal is not None:
            verdict = _verdict(f.calls_per_move <= goal)
            if f.game in judged:
                verdict = "met" if f.calls_per_move <= goal else "over in this stretch of the games (whole games above)"
            lines.append(f"| 14 | ≤ {goal} Bot API requests per move, every method ({f.label} games, "
                         f"{f.moves_per_second:.1f} moves/s) | {f.calls_per_move:.2f} (+{f.replies_per_move:.2f} "
                         f"answers in webhook replies) | {verdict} |")
    for f in figures:  # issues 5 and 14: p99 at 100 games (both modes) and 300 (distributed)
        if f.games >= 100:
            p99 = f.pct(0.99) * 1000
            if not math.isnan(p99):
                lines.append(f"| 5, 14 | p99 press→prompt < 250 ms ({f.label} games) | {p99:.0f} ms "
                             f"({p99 / 250:.1f}× the goal) | {_verdict(p99 < 250)} |")
    by = {(f.mode, f.game, f.games): f for f in figures}
    for game, g in sorted({(f.game, f.games) for f in figures}):
        e, d = by.get(("embedded", game, g)), by.get(("distributed", game, g))
        if e and d and e.latencies and d.latencies:
            r = d.median / e.median
            lines.append(f"| 5, 14 | distributed median ≤ 2× embedded ({game}, {g} games) | {r:.2f}× | "
                         f"{_verdict(r <= 2)} |")
    runs = [(f.busiest_group, f.errors_429, f"{f.label} games") for f in figures]
    runs += [(w.busiest_group, w.errors_429, f"{w.mode}, {w.game}, {w.games} whole games") for w in wholes]
    if runs:
        e429 = sum(r[1] for r in runs)
        lines.append(f"| 5, 14 | 0 × 429 in every whole-system run | {e429} | {_verdict(e429 == 0)} |")
        busiest = max(runs)
        lines.append(f"| 14 | busiest group ≤ 20 messages a minute, every run | {busiest[0]} "
                     f"({busiest[2]}) | {_verdict(busiest[0] <= 20)} |")
    for c in ceilings:
        share = c.per_second / 30
        lines.append(f"| 14 | ceiling run ≥ 95% of 30/s, zero 429s ({c.mode}) | {share:.0%}, {c.errors_429} 429s | "
                     f"{_verdict(share >= 0.95 and c.errors_429 == 0)} |")
    for f in figures:  # issue 5's own bar, kept
        if f.moves and f.game == "spellbook":
            lines.append(f"| 5 | ≤ 1.5 Bot API calls per move ({f.label} games) | {f.calls_per_move:.2f} | "
                         f"{_verdict(f.calls_per_move <= 1.5)} |")
    for c in ceilings:
        share = c.per_second / 30
        lines.append(f"| 5 | ceiling run ≥ 90% of 30/s, zero 429s ({c.mode}) | {share:.0%}, {c.errors_429} 429s | "
                     f"{_verdict(share >= 0.9 and c.errors_429 == 0)} |")
    if samples:
        state = max(s.state_json for s in samples)
        lines.append(f"| 5 | a game's state < 8 KB | {state} bytes (JSON; largest sample) | "
                     f"{_verdict(state < 8192)} |")
        end = [s for s in samples if s.moment == "end"]
        if end:
            whole = end[-1].table_bytes
            lines.append(f"| 5 | finished game with its log < 64 KB | {whole} bytes in Redis (+{end[-1].other_bytes} "
                         f"of expiring markers and outbox memory) | {_verdict(whole < 65536)} |")
    return lines if len(lines) > 2 else []


def design_notes(figures) -> list[str]:
    """What the figures show about the outbox's lanes (views use only the room prompts leave)."""
    if not figures:
        return []
    from workers.config import Settings

    credit = Settings.from_env().view_credit
    share = (f"and spend the credit prompts earn them (BGB_VIEW_CREDIT {credit.spec}: each prompt-lane send adds "
             f"{credit.per_send:g} of a view, the bucket of {credit.capacity} refills by {credit.per_second:g} a "
             "second), a group's status before a player's note — so a move costs its prompts and a share of a view "
             "at any load, and a waiting view's newest content wins" if credit.on else
             "and, with BGB_VIEW_CREDIT off, go out at once whenever there is room, so requests per move are higher "
             "with few games")
    return ["Prompts (the mover's prompt edited in place, the next player's new prompt) go out at once; the group's "
            "status and the mover's finished-turn note are views (workers/views.py): they send only while all sends "
            f"stay under BGB_RATE_VIEWS (18/s) {share}. The press that ends a turn is answered \"✔ Feito. Aguardando "
            "…\" in the webhook's reply, so a note that waits behind the groups' statuses hides no news."]
