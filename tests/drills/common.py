"""What the drills share: the distributed stack with limits people never reach, games played
by the scripted players of bench/live.py, and the checks of "nothing lost, nothing doubled"."""

from __future__ import annotations

from bench import driver
from bench.live import Live, LiveGame
from bench.stack import Stack, bench_redis_url, distributed, redis_available
from bench.system import setup_games
from rulesets.core import load_match, replay, state_hash
from workers.store import decode_doc

# The bot's rates and the emulator's limits raised together (they stay consistent, so no
# 429 comes from them), so scripted players who press at once are not paced at 1/s a chat.
# Scripted players also press faster than people can, so the webhook's admission bucket is
# widened as well (tests/plumbing/test_webhook.py and bench/flood.py measure it at its default).
FAST_RATES = {"BGB_RATE_CHAT": "20/1:5", "BGB_RATE_GROUP": "60/60:10", "BGB_FLOOD_BURST": "1000",
              "BGB_FLOOD_RATE": "1000"}
FAST_LIMITS = {"per_chat": "20/1", "per_group": "60/60"}


def redis_url_or_skip(db: int | None = None) -> str:
    import pytest

    url = bench_redis_url(db) if db is not None else bench_redis_url()
    why = redis_available(url)
    if why:
        pytest.skip(f"no Redis server at {url} ({why}); the drills need one (CI has 127.0.0.1:6379)")
    return url


def stack(tmp_path, url: str | None = None, **kw):
    from emulator import Limits

    return distributed(url or redis_url_or_skip(), limits=Limits().updated(FAST_LIMITS), rates=FAST_RATES,
                       log_dir=str(tmp_path), lease_ms=3000, scan_interval=1, **kw)


def start_games(st: Stack, count: int) -> tuple[Live, list[LiveGame]]:
    games = setup_games(st, count)
    return Live(st.world), games


def doc(st: Stack, table_id: str) -> dict:
    return decode_doc(st.redis.hget(f"{st.prefix}table:{table_id}", "doc"))


def moves_in_log(st: Stack, table_id: str) -> int:
    """Players' actions in the saved match log (the setup entry has no seat)."""
    return sum(1 for e in doc(st, table_id)["match"]["log"] if e["seat"] is not None)


def replays(st: Stack, table_id: str) -> bool:
    match = load_match(doc(st, table_id)["match"])
    return state_hash(replay(match)) == state_hash(match)


def settled_exactly_once(st: Stack, timeout: float = 90) -> dict:
    """Every command queued (by the webhook, the beat or the AI task) handled exactly once, none waiting."""

    def settled():
        c = st.counters()
        done = c.get("commands", 0) == c.get("queued", 0) + c.get("ticks", 0) + c.get("bot_commands", 0)
        return c if done and st.quiet() else None

    try:
        return driver.wait_for(settled, timeout, "every queued command handled exactly once", interval=0.2)
    except AssertionError as exc:
        p = st.prefix
        state = {"counters": st.counters(), "pending": sorted(st.redis.smembers(f"{p}pending")),
                 "ob:due": st.redis.zrange(f"{p}ob:due", 0, -1, withscores=True),
                 "processes alive": [proc.poll() is None for proc in st.procs]}
        raise AssertionError(f"{exc}: {state}") from None


def group_doubles(st: Stack, group: int) -> int:
    """Consecutive identical bot messages in a group (a message sent twice)."""
    texts = [m.get("text") or m.get("caption") for m in st.control.messages(group)
             if m["from_bot"] and not m["deleted"]]
    return sum(a == b for a, b in zip(texts, texts[1:], strict=False))


def live_prompts(st: Stack, uid: int, table_id: str) -> int:
    """Messages in a player's private chat that still carry this table's buttons of the
    newest version shown there (two would mean a prompt sent twice)."""
    msgs = [m for m in st.control.messages(uid) if m["from_bot"] and not m["deleted"] and m.get("reply_markup")]
    versions = []
    for m in msgs:
        datas = [b.get("callback_data") or "" for row in m["reply_markup"] for b in row]
        vs = {d.split(":")[1] for d in datas if d.startswith(f"{table_id}:")}
        versions += list(vs)
    return max((versions.count(v) for v in set(versions)), default=0)
