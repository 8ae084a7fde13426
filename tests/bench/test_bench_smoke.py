"""CI's smoke test of `boardgamesbot bench --quick`: it runs end to end, prints every table, and
leaves docs/performance.md alone (only a full run, or --write, rewrites it). Timings are
machine-dependent and are not asserted."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

import pytest

from bench.stack import ROOT, bench_redis_url, redis_available
from boardgamesbot.commands import bench


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_quick_bench_prints_every_table_and_writes_nothing():
    doc = ROOT / "docs" / "performance.md"
    before = doc.read_text() if doc.exists() else None
    out = subprocess.run([sys.executable, "-m", "boardgamesbot", "bench", "--quick"], cwd=ROOT,
                         capture_output=True, text=True, timeout=560, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr[-3000:]
    for title in ("## Engine", "## Pictures", "## Whole system", "## Bot API requests per move, by method",
                  "## Anatomy of a move", "## Telegram ceiling", "## Memory per Spellbook game", "## Goals"):
        assert title in out.stdout, (title, out.stdout[-2000:])
    assert "| embedded | spellbook | 3 |" in out.stdout
    if redis_available(bench_redis_url()) is None:
        assert "| distributed | spellbook | 3 |" in out.stdout and "| distributed | trickerion | 3 |" in out.stdout
        assert "## Distributed against embedded" in out.stdout
    assert "written to" not in out.stdout
    assert (doc.read_text() if doc.exists() else None) == before
    print(out.stdout[out.stdout.index("## Goals"):])


def test_quick_bots_beside_people_prints_its_table_and_goal():
    """`bench --quick --only bots` (bench/bots.py): people alone, beside a bot table, alone again — once on
    shared cores, once with the AI's pool on a core of its own."""
    if redis_available(bench_redis_url()) is not None:
        pytest.skip("the bots-beside-people run needs the distributed mode's Redis")
    out = subprocess.run([sys.executable, "-m", "boardgamesbot", "bench", "--quick", "--only", "bots", "--no-write"],
                         cwd=ROOT, capture_output=True, text=True, timeout=560,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr[-3000:]
    assert "## Bots beside people" in out.stdout
    # both layouts: every core shared (the pool in the idle class), then the pool on a core of its own
    assert "| distributed: every core shared, the AI's pool in the idle class | 3 | 1 |" in out.stdout
    if len(os.sched_getaffinity(0)) > 1:
        assert "| distributed: the AI's pool on core " in out.stdout
    assert out.stdout.count("issue 16: human p99 unchanged beside 1 bot games") == min(2, len(os.sched_getaffinity(0)))
def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    bench.register(parser)
    return parser.parse_args(argv)


def test_only_a_full_run_or_an_explicit_write_rewrites_the_figures():
    assert bench.writes(_args())
    assert not bench.writes(_args("--no-write"))
    for partial in (["--quick"], ["--only", "system"], ["--games", "10"], ["--game", "trickerion"], ["--flood"]):
        assert not bench.writes(_args(*partial)), partial
        assert bench.writes(_args(*partial, "--write")), partial


def test_whole_games_judge_the_cost_of_a_move_and_a_window_shows_its_stretch():
    """Issue 14's requests-per-move goal is judged over whole games (bench/whole_games.py); a window's
    figure over the goal is shown as that stretch's, not as the verdict — unless no whole games ran."""
    from bench.system import SystemFigure
    from bench.whole_games import WholeGames

    window = SystemFigure("embedded", 10, 60.0, 3.0, 100, 0, 0, [0.1], 132, 0, 0, 1.0, 0, game="trickerion")
    cheap = WholeGames("distributed", "trickerion", 6, 6, 1000, 0, 300.0, 1210, {}, {}, 0, 9)
    dear = WholeGames("distributed", "trickerion", 6, 6, 1000, 0, 300.0, 1310, {}, {}, 0, 9)
    alone = [line for line in bench.goal_lines([window], [], []) if "requests per move" in line]
    assert alone and alone[0].endswith("| **missed** |")
    judged = [line for line in bench.goal_lines([window], [], [], [cheap]) if "requests per move" in line]
    assert judged[0].startswith("| 14 |") and "6 whole games" in judged[0] and judged[0].endswith("| met |")
    assert judged[1].endswith("| over in this stretch of the games (whole games above) |")
    assert bench.goal_lines([window], [], [], [dear])[2].endswith("| **missed** |")


@pytest.mark.slow
def test_quick_whole_games_play_one_game_to_the_end():
    """`bench --quick --only whole --whole-games 1 --game spellbook`: one table played to its end through
    the stack, every request counted."""
    out = subprocess.run([sys.executable, "-m", "boardgamesbot", "bench", "--quick", "--only", "whole",
                          "--whole-games", "1", "--game", "spellbook", "--no-write"],
                         cwd=ROOT, capture_output=True, text=True, timeout=560,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr[-3000:]
    assert "## Whole games" in out.stdout
    row = next(line for line in out.stdout.splitlines() if "| spellbook | 1 (1) |" in line)
    moves = int(row.split("|")[4])
    assert moves > 20  # a whole game, not its opening
    assert "1 whole games" in out.stdout and "written to" not in out.stdout
