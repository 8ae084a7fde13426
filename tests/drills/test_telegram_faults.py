"""Drill: 429 storms (retry_after 1-2 s) and 5xx answers from the emulator while two games are
played. Messages are delayed, never lost (every player the game waits on holds a prompt of the
version the table last drew for them, the outbox empties, play goes on), never duplicated (no
chat shows a prompt twice, the group never shows a message twice in a row)."""

from __future__ import annotations

import random
import threading

import pytest

from tests.drills import common

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(600)]

METHODS = ["sendMessage", "editMessageText", "editMessageMedia", "sendPhoto", "deleteMessage", None]


def test_429_storms_and_5xx_delay_but_never_lose_or_double(tmp_path, drill_report):
    rng = random.Random(429)
    injected = {"429": 0, "500": 0, "502": 0}
    with common.stack(tmp_path) as st:
        live, games = common.start_games(st, 2)
        st.wait_quiet()
        before = st.control.stats()
        stop = threading.Event()

        def storms():
            while not stop.wait(rng.uniform(0.8, 1.6)):
                code = rng.choice(["429", "429", "500", "502"])
                count = rng.randint(2, 6)
                fields = {"count": count}
                method = rng.choice(METHODS)
                if method:
                    fields["method"] = method
                else:  # a storm on one group (any message method there)
                    fields["chat_id"] = rng.choice(games).group
                if code == "429":
                    fields["retry_after"] = rng.choice([1, 2])
                st.control.fault(int(code), **fields)
                injected[code] += count

        thread = threading.Thread(target=storms, daemon=True)
        thread.start()
        st.in_loop(live.play(games, 25, (0.05, 0.3), seed=5), 200)
        stop.set()
        thread.join(timeout=10)
        left: dict[str, int] = {}
        for f in st.control._call("GET", "faults")["faults"]:
            left[str(f["error_code"])] = left.get(str(f["error_code"]), 0) + f["count"]
        st.control._call("DELETE", "faults")
        common.settled_exactly_once(st, timeout=120)
        after = st.control.stats()
        answered = {c: int(after["errors"].get(c, 0)) - int(before["errors"].get(c, 0)) for c in injected}
        # Nothing lost: play goes on where it stopped, and every waiting player holds the
        # prompt the table last drew for them.
        st.in_loop(live.play(games, 4, (0.0, 0.05), seed=6), 120)
        st.wait_quiet()
        for g in games:
            doc = common.doc(st, g.table_id)
            for seat, uid in enumerate(g.users):
                shown = doc["seats"][seat].get("shown")
                m, buttons = live._prompt(g, uid)
                if shown and shown["kind"] == "prompt":
                    assert m is not None and all(b["callback_data"].split(":")[1] == str(shown["version"])
                                                 for b in buttons), (g.table_id, seat, shown)
                assert common.live_prompts(st, uid, g.table_id) <= 1
            assert common.group_doubles(st, g.group) == 0
            assert common.moves_in_log(st, g.table_id) == g.acked
        counters = st.counters()
        assert counters.get("api_429", 0) >= answered["429"] > 0
        assert answered["500"] + answered["502"] > 0
        assert sum(g.unanswered for g in games) == 0
        drill_report(f"429/5xx: injected {injected} (answered {answered}, {left or 'none'} left unused); "
                     f"{sum(g.acked for g in games)} moves in 2 games; outbox emptied; lost 0, doubled 0")
