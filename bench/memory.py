"""Memory: bytes a Spellbook game holds in Redis at its start, middle and end, and the
worker's resident memory.

Games are played to the end through the whole system (distributed mode, a real Redis, whose
MEMORY USAGE is what is reported; the emulator's limits off and the bot's rates raised, so
a game finishes in seconds — bytes do not depend on pace). Per game:
- table: MEMORY USAGE of `table:<id>` (the saved document with its match, zlib-compressed by
  the store), and its uncompressed JSON split into the match state, the match log and the rest
  (seats, shown messages, digests);
- everything else: all other keys of the deployment (outbox slots and message ids, indexes,
  rate buckets, per-update dedupe markers `upd:`/`done:` that expire after 1 and 7 days,
  metrics), divided by the number of games; Celery's own keys are left out.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from bench.live import Live
from bench.stack import Stack, rss_bytes
from bench.system import setup_games
from workers.store import decode_doc

FAST_RATES = {"BGB_RATE_CHAT": "50/1:10", "BGB_RATE_GROUP": "100/60:20", "BGB_RATE_GLOBAL": "200/1:20",
              "BGB_RATE_VIEWS": "200/1:20", "BGB_FLOOD_BURST": "100000",
              "BGB_FLOOD_RATE": "100000"}  # players with no thinking time


@dataclass
class MemorySample:
    moment: str
    moves: int  # match log entries
    table_bytes: int  # MEMORY USAGE of the table key
    state_json: int
    log_json: int
    rest_json: int
    other_bytes: int  # everything else, per game
    worker_rss: int


def sample(stack: Stack, moment: str, table_ids: list[str]) -> MemorySample:
    r, p = stack.redis, stack.prefix
    tables = {f"{p}table:{t}" for t in table_ids}
    sizes, docs = [], []
    for key in tables:
        sizes.append(int(r.memory_usage(key, samples=0) or 0))
        docs.append(decode_doc(r.hget(key, "doc")))
    other = 0
    for key in r.scan_iter(match=f"{p}*", count=1000):
        if key in tables or key.startswith(f"{p}celery:"):
            continue
        other += int(r.memory_usage(key, samples=0) or 0)
    n = len(table_ids)

    def js(x) -> int:
        return len(json.dumps(x, ensure_ascii=False, separators=(",", ":")).encode())

    state = sum(js(d["match"]["state"]) for d in docs) // n
    log = sum(js(d["match"]["log"]) for d in docs) // n
    whole = sum(js(d) for d in docs) // n
    moves = sum(len(d["match"]["log"]) for d in docs) // n
    return MemorySample(moment, moves, sum(sizes) // n, state, log, whole - state - log, other // n,
                        sum(rss_bytes(pid) for pid in stack.worker_pids()))


def run(stack: Stack, games: int = 2, expected_moves: int = 110, timeout: float = 300) -> list[MemorySample]:
    played = setup_games(stack, games)
    stack.wait_quiet()
    ids = [g.table_id for g in played]
    samples = [sample(stack, "start", ids)]
    live = Live(stack.world)
    future = __import__("asyncio").run_coroutine_threadsafe(
        live.play(played, timeout, (0.0, 0.0), seed=3, to_the_end=True), stack.loop)
    deadline = time.monotonic() + timeout
    while not future.done() and time.monotonic() < deadline:
        docs = [stack.redis.hget(f"{stack.prefix}table:{t}", "doc") for t in ids]
        if min(len(decode_doc(d)["match"]["log"]) for d in docs) >= expected_moves // 2:
            samples.append(sample(stack, "middle", ids))
            break
        time.sleep(0.2)
    future.result(timeout)
    stack.wait_quiet()
    samples.append(sample(stack, "end", ids))
    return samples


def table(samples: list[MemorySample]) -> list[str]:
    lines = ["| moment | log entries | table key in Redis (bytes) | state JSON | log JSON | rest of the table JSON "
             "| everything else per game (bytes) | worker RSS (MiB) |", "|---|---|---|---|---|---|---|---|"]
    for s in samples:
        lines.append(f"| {s.moment} | {s.moves} | {s.table_bytes} | {s.state_json} | {s.log_json} | {s.rest_json} | "
                     f"{s.other_bytes} | {s.worker_rss / 2**20:.0f} |")
    return lines
