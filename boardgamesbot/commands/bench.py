"""`boardgamesbot bench [--quick] [--no-write]`: measure and write docs/performance.md.

Sections: the engine (one core); the pictures (drawing time and size, one core); the whole
system with G concurrent games in both modes and their ratio; Telegram's ceiling; memory per
game; the goals of issue 5, each with the figure measured. The distributed mode needs a Redis
server (REDIS_URL's host, database BGB_BENCH_REDIS_DB, default 13); without one its rows are
left out, and the tables say so.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

from bench import engine, pictures, report

NAME = "bench"
HELP = "Run the benchmarks, print the tables and write docs/performance.md."

FULL = {"engine": 3.0, "pictures": 60, "games": (10, 100, 300), "embedded_games": (10, 100), "window": 45.0,
        "ceiling": (600, 200), "memory_games": 3, "flood": (10, 10.0, True), "bots": (100, 20, 60.0)}
QUICK = {"engine": 0.1, "pictures": 6, "games": (3,), "embedded_games": (3,), "window": 6.0, "ceiling": (90, 45),
         "memory_games": 0, "flood": (3, 3.0, False), "bots": (3, 1, 8.0)}
# flood: games, seconds, admission-off comparison; bots: human games, bot games, seconds


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true", help="short runs (under a minute), for smoke tests")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/performance.md alone")
    parser.add_argument("--games", default=None, help="comma-separated G values for the whole-system runs")
    parser.add_argument("--only", default=None,
                        help="comma-separated sections: engine,pictures,system,ceiling,memory,flood,bots "
                             "(default all; --quick: all but bots)")
    parser.add_argument("--flood", action="store_true", help="only the flood drill (bench/flood.py)")
    parser.add_argument("--bot-load", default=None, metavar="HUMANS,BOTS",
                        help="human and bot games of the bots-beside-people run (default 100,20; --quick 3,1)")
    parser.set_defaults(run=run)


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    from bench import ceiling, memory, system
    from bench.live import Live
    from bench.stack import bench_redis_url, distributed, embedded, redis_available

    conf = QUICK if args.quick else FULL
    # (--quick leaves the bots out unless asked: its smoke test has them apart, tests/bench/)
    default = "engine,pictures,system,ceiling,memory,flood" + ("" if args.quick else ",bots")
    only = set((args.only or default).split(","))
    if args.flood:
        only = {"flood"}
    games = tuple(int(g) for g in args.games.split(",")) if args.games else conf["games"]
    emb_games = games if args.games else conf["embedded_games"]
    sections: list[tuple[str, list[str]]] = []
    notes: list[str] = []
    started = time.monotonic()

    if "engine" in only:
        _say("engine ...")
        sections.append(("Engine: random full games on one core", engine.table(engine.run(conf["engine"]))))
    if "pictures" in only:
        _say("pictures ...")
        sections.append(("Pictures: drawing one on one core", pictures.table(pictures.run(conf["pictures"]))))

    figures: list = []
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

    if "system" in only or "ceiling" in only:
        for mode in ("embedded", "distributed"):
            if mode == "distributed" and why_not:
                continue
            stack_cm = embedded() if mode == "embedded" else distributed(url)
            with stack_cm as st:
                live = Live(st.world)
                if "system" in only:
                    for g in (emb_games if mode == "embedded" else games):
                        _say(f"{mode}: {g} games ...")
                        sample_here = (mode == "distributed" and g == min(games) and "memory" in only
                                       and not conf["memory_games"])
                        hooks = memory_hooks(st) if sample_here else (None, None)
                        figures.append(system.run(st, g, conf["window"], live=live, after_setup=hooks[0],
                                                  after_window=hooks[1]))
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
        if not why_not and compare:
            with distributed(url, rates=flood.NO_ADMISSION) as st:
                floods += flood.run(st, games=games_, seconds=seconds, label=", admission control off")

    if args.bot_load:
        humans, bot_games = (int(n) for n in args.bot_load.split(","))
        conf = {**conf, "bots": (humans, bot_games, conf["bots"][2])}
    bot_figures = run_bots(conf, url, why_not, notes) if "bots" in only else []

    if figures:
        sections.append(("Whole system: concurrent Spellbook games, Telegram's limits on", system.table(figures)))
        if len({f.mode for f in figures}) == 2:
            sections.append(("Distributed against embedded", system.ratio_table(figures)))
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
    goals = goal_lines(figures, ceilings, samples)
    if floods:
        goals = (goals or ["| goal | measured | verdict |", "|---|---|---|"]) + flood.goal_lines(floods)
    if bot_figures:
        from bench import bots

        goals = (goals or ["| goal | measured | verdict |", "|---|---|---|"]) + bots.goal_lines(bot_figures)
    if goals:
        sections.append(("Goals (issue 5)", goals))
    if notes:
        sections.append(("Notes", [f"- {n}" for n in notes]))
    if figures or ceilings or samples or floods or bot_figures:
        from bench import bots

        method = METHOD + (bots.METHOD if bot_figures else [])
        sections.append(("How these were measured", [f"- {line}" for line in method]))
    for title, lines in sections:
        print(f"\n## {title}\n")
        print("\n".join(lines))
    print(f"\n(bench took {time.monotonic() - started:.0f} s)")
    if not args.no_write:
        path = report.write(sections, args.quick)
        print(f"\nwritten to {path}")
    return 0


def run_bots(conf: dict, url: str, why_not: str | None, notes: list[str]) -> list:
    """Issue 16: human games alone, then beside bot games (bench/bots.py), on the distributed stack."""
    from bench import bots
    from bench.stack import distributed

    if why_not:
        notes.append("No Redis server: the bots-beside-people run (distributed mode) was not measured.")
        return []
    humans, bot_games, window = conf["bots"]
    _say(f"distributed: {humans} human games, then beside {bot_games} bot games ...")
    with distributed(url, ai_pool=True) as st:
        return [bots.run(st, humans, bot_games, window)]


METHOD = [
    "Everything runs on this machine: emulator, webhook, workers, Redis and the scripted players.",
    "embedded = composed as `boardgamesbot local` composes it: fakeredis's TcpFakeServer, the emulator and the "
    "webhook in one process and one event loop, one Celery worker subprocess (threads, 4) with the beat inside. "
    "distributed = a real Redis server (database BGB_BENCH_REDIS_DB), `boardgamesbot serve` as its own process, "
    "a Celery worker (prefork, 2) and a beat process.",
    "Each game is played by scripted people (bench/live.py) who think before pressing: uniformly 0.5–1.5 × "
    "`think` seconds, with `think` ≥ 3 s and G/15 s, so all games together offer about 15 moves a second — "
    "below the ~25 moves/s that Telegram's 30 messages/s allow at ≥ 1.2 messages a move. The bench measures the "
    "system at that load; the ceiling table measures the outbox against Telegram's limit itself.",
    "press→prompt = from the moment the emulator queues the button's callback query to the moment it stores "
    "the first message sent or edited in a private chat of that game's players (the mover's next prompt, or "
    "their note and the next player's new prompt), timed in the emulator's process.",
    "API calls/move = every Bot API call the emulator received during the window (sends, edits, group status "
    "edits with the table picture, answerCallbackQuery) divided by the moves the bot acknowledged.",
    "Telegram's limits are on in the emulator (per chat 3/3 s, per group 20/60 s, overall 30/s) and the bot "
    "runs with its production rates; 429s are the emulator's answers. setup = opening, joining and starting "
    "the G games through the bot (not part of the per-move figures).",
    "Flood (bench/flood.py): 10 games, each pressed about once a second, measured for 10 s without and "
    "10 s with a bystander sending 60 updates/s (/jogos in private and presses of the group's status, alternately); "
    "then again on a stack whose webhook admits everything (--quick: 3 games, 3 s, no second stack). 'delivery "
    "backlog' is the most updates waiting in the emulator's webhook queue, which delivers over up to 40 "
    "connections at once with each chat's updates in order, as Telegram does.",
    "Memory: MEMORY USAGE of the keys in the real Redis; 'everything else' includes the per-update dedupe "
    "markers (upd: 1 day, done: 7 days), which expire.",
]


def _verdict(ok: bool) -> str:
    return "met" if ok else "**missed**"


def goal_lines(figures, ceilings, samples) -> list[str]:
    lines = ["| goal | measured | verdict |", "|---|---|---|"]
    for f in figures:
        if f.games >= 100 or f.games == max(x.games for x in figures):
            p99 = f.pct(0.99) * 1000
            if not math.isnan(p99):
                lines.append(f"| p99 press→prompt < 250 ms ({f.mode}, {f.games} games) | {p99:.0f} ms "
                             f"({p99 / 250:.1f}× the goal) | {_verdict(p99 < 250)} |")
    by = {(f.mode, f.games): f for f in figures}
    for g in sorted({f.games for f in figures}):
        e, d = by.get(("embedded", g)), by.get(("distributed", g))
        if e and d and e.latencies and d.latencies:
            r = d.median / e.median
            lines.append(f"| distributed median within 2× of embedded ({g} games) | {r:.2f}× | {_verdict(r <= 2)} |")
    for f in figures:
        if f.moves:
            lines.append(f"| ≤ 1.5 Bot API calls per move ({f.mode}, {f.games} games) | {f.calls_per_move:.2f} "
                         f"({f.calls_per_move_without_answers:.2f} without answerCallbackQuery) | "
                         f"{_verdict(f.calls_per_move <= 1.5)} |")
    e429 = sum(f.errors_429 for f in figures)
    if figures:
        lines.append(f"| zero 429s in normal play | {e429} | {_verdict(e429 == 0)} |")
    for c in ceilings:
        share = c.per_second / 30
        lines.append(f"| ceiling run ≥ 90% of 30/s, zero 429s ({c.mode}) | {share:.0%}, {c.errors_429} 429s | "
                     f"{_verdict(share >= 0.9 and c.errors_429 == 0)} |")
    if samples:
        state = max(s.state_json for s in samples)
        lines.append(f"| a game's state < 8 KB | {state} bytes (JSON; largest sample) | {_verdict(state < 8192)} |")
        end = [s for s in samples if s.moment == "end"]
        if end:
            whole = end[-1].table_bytes
            lines.append(f"| finished game with its log < 64 KB | {whole} bytes in Redis (+{end[-1].other_bytes} of "
                         f"expiring markers and outbox memory) | {_verdict(whole < 65536)} |")
    return lines if len(lines) > 2 else []
