"""The end-of-game chart when seats scored alike: a line under another stays visible as a stripe along its
edges (three players tied round by round showed only the last one's colour)."""

from __future__ import annotations

import io

from PIL import Image

import locales
from rulesets.core.contract import FinalScore, ScoreLine, SeatScore
from rulesets.core.messages import msg
from rulesets.core.summary import RoundPoints, Summary, SummarySeat
from rulesets.core.summary_picture import CHART, SEAT_COLOURS, WIDTH, draw

NAMES = ["Ana", "Bruno", "Carla"]


def _summary(per_round: list[list[int]]) -> Summary:
    finals = per_round[-1]
    seats = [SeatScore(seat=s, total=t, lines=[ScoreLine(label=msg("core.summary.final"), points=t)])
             for s, t in enumerate(finals)]
    top = max(finals)
    score = FinalScore(seats=seats, winners=[s for s, t in enumerate(finals) if t == top], end_reason="x")
    rounds = [RoundPoints(round=i + 1, points=p, final=i == len(per_round) - 1) for i, p in enumerate(per_round)]
    return Summary(game="spellbook", score=score, rounds=rounds, view={},
                   seats=[SummarySeat(seat=s, rank=1 + sum(t > finals[s] for t in finals)) for s in range(3)])


def _plotted(summary: Summary, right: int = WIDTH - 150) -> list[int]:
    """Pixels of each seat's colour in the chart's plot, from its left edge to `right` (its legend is
    further right)."""
    png = draw(summary, NAMES, lambda m: locales.render(m, "pt_BR", NAMES), msg("core.summary.final"))
    image = Image.open(io.BytesIO(png)).convert("RGB")
    counts = {rgb: n for n, rgb in image.crop((40, image.height - CHART, right, image.height)).getcolors(1 << 20)}
    return [counts.get(tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)), 0) for c in SEAT_COLOURS[:3]]


def test_three_seats_tied_round_by_round_each_show_in_the_chart():
    tied = _plotted(_summary([[4, 4, 4], [9, 9, 9], [18, 18, 18]]))
    apart = _plotted(_summary([[2, 4, 6], [7, 9, 12], [15, 18, 21]]))
    assert min(tied) > min(apart) / 2  # each colour shows, about as much as a line of its own would
    # a line shared by none is drawn as before: the same width for every seat
    assert max(apart) < 1.5 * min(apart)


def test_seats_that_part_after_a_shared_start_show_where_they_shared_it():
    # the plot runs from x 60 (the start) to 710 (the final scores), a round every 217 px: the three
    # lines are one until the second round's end, at x 493
    shared_start = _plotted(_summary([[5, 5, 5], [5, 5, 5], [9, 12, 15]]), right=480)
    assert min(shared_start) > 200
