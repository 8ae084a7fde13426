"""Drill: every update delivered twice (a proxy in front of the webhook posts each one twice,
at the same time), and presses at the same instant — one person pressing a button twice, two
people pressing the same choice (one of them on a forged copy). Each move is applied at most
once: moves in the log = moves acknowledged, and every second delivery is dropped."""

from __future__ import annotations

import asyncio
import threading

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bench import driver
from boardgamesbot.commands.local import free_port
from tests.drills import common

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(600)]

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class Twice:
    """Posts every update it receives to the webhook twice, concurrently."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.forwarded = 0
        self.app = Starlette(routes=[Route("/hook", self.hook, methods=["POST"])])

    async def hook(self, request: Request) -> Response:
        body = await request.body()
        headers = {k: v for k, v in request.headers.items() if k.lower() in (SECRET_HEADER.lower(), "content-type")}
        async with httpx.AsyncClient(timeout=30) as http:
            first, _second = await asyncio.gather(http.post(self.target, content=body, headers=headers),
                                                  http.post(self.target, content=body, headers=headers))
        self.forwarded += 2
        return Response(first.content, status_code=first.status_code)


async def _at_once(live, game) -> tuple[int, int, int]:
    """Same button twice by its owner, then the mover's choice pressed by the mover and by
    another player (on a copy) at the same instant. Returns (tries, acknowledged, refused)."""
    tries = acked = refused = 0
    for uid in game.users:
        m, buttons = live._prompt(game, uid)
        if m is None:
            continue
        data = next((b["callback_data"] for b in buttons if b["text"] not in live._aside), buttons[0]["callback_data"])
        others = [u for u in game.users if u != uid]
        mine = [live.press(uid, m, uid, data)]
        copy_msg, _ = live._prompt(game, others[0])
        if copy_msg is not None:
            mine.append(live.press(others[0], copy_msg, others[0], data))
        answers = await asyncio.gather(live.press(uid, m, uid, data), *mine)
        assert all(a.get("answered") for a in answers), answers
        ok = sum(1 for a in answers if not driver.refused(a))
        assert ok <= 1, f"one choice applied {ok} times: {answers}"
        tries += len(answers)
        acked += ok
        refused += len(answers) - ok
        if ok:
            await asyncio.sleep(0.3)  # let the next prompt arrive before the next attempt
    return tries, acked, refused


def test_every_update_twice_and_presses_at_the_same_instant(tmp_path, drill_report):
    with common.stack(tmp_path) as st:
        live, games = common.start_games(st, 1)
        game = games[0]
        st.wait_quiet()
        real = st.world.webhook["url"]
        secret = st.world.webhook["secret_token"]
        twice = Twice(real)
        port = free_port()
        server = uvicorn.Server(uvicorn.Config(twice.app, host="127.0.0.1", port=port, log_level="warning",
                                               access_log=False))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        try:
            common.driver.wait_for(lambda: server.started, 10, "the proxy")
            res = httpx.post(f"{st.base_url}/bot{st.settings.token}/setWebhook",
                             json={"url": f"http://127.0.0.1:{port}/hook", "secret_token": secret,
                                   "allowed_updates": ["message", "callback_query"]}).json()
            assert res["ok"], res
            before = st.counters()
            tries = acked_now = refused_now = 0
            for round_ in range(8):
                st.in_loop(live.play(games, 2.0, (0.0, 0.1), seed=round_), 120)
                t, a, r = st.in_loop(_at_once(live, game), 120)
                tries, acked_now, refused_now = tries + t, acked_now + a, refused_now + r
            common.settled_exactly_once(st)
            after = st.counters()
        finally:
            server.should_exit = True
            thread.join(timeout=10)
        updates = after.get("updates", 0) - before.get("updates", 0)
        dropped = after.get("updates_duplicate", 0) - before.get("updates_duplicate", 0)
        logged = common.moves_in_log(st, game.table_id)
        acked = game.acked + acked_now
        assert game.unanswered == 0
        assert dropped == updates > 0  # every update came twice; each second copy was dropped
        assert logged == acked, (logged, acked)  # every acknowledged move once, nothing else
        assert after["moves_applied"] - before.get("moves_applied", 0) == acked
        assert common.replays(st, game.table_id)
        drill_report(f"duplicates: {updates} updates each delivered twice ({dropped} second copies dropped); "
                     f"{tries} simultaneous presses ({acked_now} applied, {refused_now} refused, never one choice "
                     f"twice); {acked} moves acknowledged, {logged} in the log: doubled 0, lost 0")
