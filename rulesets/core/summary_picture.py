"""The frame every game's end-of-game picture shares (`Game.summary_picture`): a title, one band per
seat in final order — place, name, total, rating change and the score's breakdown as a bar with its
parts named — with room for the game's own details in each band, then the points of every seat round
by round as a chart. A rival that is no seat (Spellbook's solo opponent) gets a band of its own in its
place, so a solo game lost 30 to 37 does not show the player first and alone. Drawn from a `Summary`
(public data) alone; labels through `say`."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import ImageDraw

from rulesets.core.contract import RivalScore, Say, SeatScore
from rulesets.core.drawing import canvas, encode, fit_text, font
from rulesets.core.messages import Msg, msg
from rulesets.core.summary import Summary, SummarySeat

WIDTH = 860
INK = "#2b2118"
FAINT = "#b9ad97"
PANEL = "#fbf8f1"
GOLD = "#c9a227"
SEAT_COLOURS = ("#c9372c", "#2d68b2", "#2f8f4e", "#7b3f9e")  # one per seat, in the chart and the bands
RIVAL_COLOUR = "#6b6256"  # a rival's band: no seat's colour
PART_COLOURS = ("#3f6e8c", "#d08c2c", "#6b9e4a", "#a8506b", "#4c4c9e", "#8c6d3f", "#5a9e9e", "#9e5a3f",
                "#9b7fc9", "#e0849a", "#7fb0d9", "#cfb53b")
BAND = 96
CHART = 230
OVERLAP = 4  # px wider a chart line is drawn for each later line on the same stretch

# (draw, seat, x, y, width): the game's own details of one seat, under its breakdown
Detail = Callable[[ImageDraw.ImageDraw, int, int, int, int], None]


def _decimal(value: float) -> Msg:
    """One decimal, as the language writes it (12,3 / 12.3): the catalogue puts the separator."""
    tenths = round(abs(value) * 10)
    return msg("core.summary.decimal", whole=tenths // 10, tenth=tenths % 10)


def _number(value: float, say: Say) -> str:
    return say(msg("core.summary.negative" if round(value * 10) < 0 else "core.summary.positive",
                   value=_decimal(value)))


def _signed(value: float, say: Say) -> str:
    key = "core.summary.up" if value >= 0.05 else "core.summary.down" if value <= -0.05 else "core.summary.same"
    return say(msg(key, value=_decimal(value)))


LEGEND_ROW = 17  # a further row of the breakdown's legend


Colours = dict[str, int]  # a part's name -> its colour: the same part has the same colour in every band


def _colours(summary: Summary, say: Say) -> Colours:
    out: Colours = {}
    for score in [*sorted(summary.score.seats, key=lambda s: s.seat), *summary.score.rivals]:
        for line in score.lines:
            if line.points > 0:
                out.setdefault(say(line.label), len(out) % len(PART_COLOURS))
    return out


def _legend(d: ImageDraw.ImageDraw, score: SeatScore | RivalScore, width: int, say: Say,
            colours: Colours) -> list[tuple[int, int, str, int | None]]:
    """Where each part of the breakdown is named: (row, x offset, text, colour), in rows as wide as
    `width`. A positive part has the colour of its piece of the bar; a negative one (points lost) none."""
    out: list[tuple[int, int, str, int | None]] = []
    row, lx = 0, 0
    for line in score.lines:
        if line.points == 0:
            continue
        name = say(line.label)
        text = fit_text(d, f"{name} {_integer(line.points, say)}", 12, 300)
        size = int(d.textlength(text, font=font(12))) + 22
        if lx and lx + size > width:
            row, lx = row + 1, 0
        out.append((row, lx, text, colours.get(name) if line.points > 0 else None))
        lx += size
    return out


def _integer(points: int, say: Say) -> str:
    return say(msg("core.summary.negative" if points < 0 else "core.summary.positive", value=abs(points)))


def _breakdown(d: ImageDraw.ImageDraw, score: SeatScore | RivalScore, x: int, y: int, bar: int, width: int, best: int,
               say: Say, colours: Colours) -> None:
    """The total's positive parts as a bar (`bar` px for the highest sum of parts), then every part's name
    and points below it, in as many rows as they need within `width`."""
    scale = bar / max(1, best)
    cx = x
    for line in score.lines:
        if line.points > 0:
            w = max(2, round(line.points * scale))
            d.rectangle((cx, y, cx + w - 1, y + 14), fill=PART_COLOURS[colours.get(say(line.label), 0)])
            cx += w
    d.rectangle((x, y, x + bar, y + 14), outline=FAINT)
    for row, lx, text, colour in _legend(d, score, width, say, colours):
        top = y + 21 + row * LEGEND_ROW
        chip = (x + lx, top, x + lx + 10, top + 10)
        if colour is None:
            d.rectangle(chip, fill="#ffffff", outline=INK)
        else:
            d.rectangle(chip, fill=PART_COLOURS[colour])
        d.text((x + lx + 14, top - 2), text, font=font(12), fill=INK)


def _chart(d: ImageDraw.ImageDraw, summary: Summary, names: Sequence[str], y: int, say: Say, title: Msg,
           colours: Sequence[str]) -> None:
    rounds = summary.rounds
    d.rectangle((10, y, WIDTH - 10, y + CHART - 10), fill=PANEL, outline=FAINT)
    d.text((22, y + 8), say(title), font=font(15, True), fill=INK)
    left, right, top, bottom = 60, WIDTH - 150, y + 36, y + CHART - 40
    top_value = max([1, *summary.start, *summary.start_rivals] + [p for r in rounds for p in [*r.points, *r.rivals]])
    d.line((left, bottom, right, bottom), fill=INK)
    d.line((left, top, left, bottom), fill=INK)
    for frac in (0.5, 1.0):
        value = round(top_value * frac)
        yy = bottom - (bottom - top) * value / top_value
        d.line((left - 4, yy, right, yy), fill="#e2d9c6")
        d.text((left - 8, yy), str(value), font=font(11), fill=INK, anchor="rm")
    n = len(rounds)
    xs = [left + (right - left) * (i + 1) / max(1, n) for i in range(n)]
    for i, r in enumerate(rounds):
        label = say(msg("core.summary.final")) if r.final else str(r.round)
        d.text((xs[i], bottom + 6), label, font=font(11), fill=INK, anchor="ma")
    # one line per seat, then one per rival that is no seat (the solo opponent: the race a solo game is)
    lines: list[tuple[str, str, int, list[int]]] = []
    for s in range(len(summary.seats)):
        who = names[s] if s < len(names) else f"#{s + 1}"
        begin = summary.start[s] if s < len(summary.start) else 0  # before the first round's end
        lines.append((who, colours[s % len(colours)], begin, [r.points[s] for r in rounds if s < len(r.points)]))
    for k, rival in enumerate(summary.score.rivals):
        got = [r.rivals[k] for r in rounds if k < len(r.rivals)]
        if len(got) == len(rounds):  # an older record kept no rival's rounds: no line rather than a wrong one
            begin = summary.start_rivals[k] if k < len(summary.start_rivals) else 0
            lines.append((say(rival.label), RIVAL_COLOUR, begin, got))
    # Two seats that scored alike round by round would draw one line over the other and only the last
    # would show, so a stretch some later line shares is drawn wider, by OVERLAP px a line sharing it:
    # the lines on top leave each earlier colour as a stripe along their edges.
    tracks = [[begin, *values] for _, _, begin, values in lines]
    for row, (who, colour, _, _) in enumerate(lines):
        # a seat missing from some rounds' points has a shorter track: its line stops there
        points = [(x, bottom - (bottom - top) * v / top_value)
                  for x, v in zip([left, *xs], tracks[row], strict=False)]
        later = tracks[row + 1:]
        for i in range(len(points) - 1):
            shared = sum(t[i:i + 2] == tracks[row][i:i + 2] for t in later)
            d.line(points[i:i + 2], fill=colour, width=3 + OVERLAP * shared)
        for i, (px, py) in enumerate(points[1:], start=1):
            r = 3 + OVERLAP // 2 * sum(len(t) > i and t[i] == tracks[row][i] for t in later)
            d.ellipse((px - r, py - r, px + r, py + r), fill=colour)
        d.rectangle((right + 16, top + 4 + row * 22, right + 28, top + 16 + row * 22), fill=colour)
        d.text((right + 34, top + 2 + row * 22), fit_text(d, who, 13, 100), font=font(13), fill=INK)


def _band_frame(d: ImageDraw.ImageDraw, y: int, height: int, colour: str, winner: bool, place: int,
                say: Say) -> None:
    """A band's panel (gold-edged for a winner), its colour strip and its place."""
    d.rectangle((10, y, WIDTH - 10, y + height - 8), fill=PANEL, outline=GOLD if winner else FAINT,
                width=3 if winner else 1)
    d.rectangle((10, y, 18, y + height - 8), fill=colour)
    d.text((30, y + 8), say(msg("core.summary.place", place=place)), font=font(20, True), fill=INK)


def draw(summary: Summary, names: Sequence[str], say: Say, title: Msg, detail: Detail | None = None,
         detail_height: int = 0, points: str = "core.summary.points", per_round: Msg | None = None,
         seat_colours: Sequence[str] = SEAT_COLOURS) -> bytes:
    """The summary picture. `detail` draws the game's own part of each seat's band (`detail_height` px);
    `points` is the plural key of a total ("{count} pontos"), `per_round` the chart's title,
    `seat_colours` the seats' (a game whose table shows players in colours of its own passes them)."""
    scores = {s.seat: s for s in summary.score.seats}
    rivals = summary.score.rivals
    _, measure = canvas(1, 1)
    legend_width = WIDTH - 60
    parts = _colours(summary, say)

    def rows(score: SeatScore | RivalScore) -> int:
        return 1 + max([row for row, _, _, _ in _legend(measure, score, legend_width, say, parts)], default=0)

    rows_seats = max([1] + [rows(s) for s in summary.score.seats])
    band = BAND + (rows_seats - 1) * LEGEND_ROW + detail_height
    # every seat and rival in its place (a record's place counts the rivals that scored more than the
    # seat since 2026-12-07; the max keeps an older record's solo loss from reading first)
    totals = {s.seat: scores[s.seat].total if s.seat in scores else 0 for s in summary.seats}
    bands: list[tuple[int, int, SummarySeat | RivalScore]] = [
        (max(s.rank, 1 + summary.score.rivals_above(totals[s.seat])), 0, s) for s in summary.seats]
    bands += [(1 + sum(t > r.total for t in totals.values()) + sum(o.total > r.total for o in rivals), 1, r)
              for r in rivals]
    bands.sort(key=lambda b: (b[0], b[1], b[2].seat if isinstance(b[2], SummarySeat) else 0))
    rival_band = BAND + (max([1] + [rows(r) for r in rivals]) - 1) * LEGEND_ROW
    chart = CHART if len(summary.rounds) > 1 else 0
    height = 60 + band * len(summary.seats) + rival_band * len(rivals) + chart + 10
    image, d = canvas(WIDTH, height)
    d.text((20, 16), fit_text(d, say(title), 22, WIDTH - 40, True), font=font(22, True), fill=INK)
    best = max([1] + [sum(line.points for line in s.lines if line.points > 0)
                      for s in [*summary.score.seats, *rivals]])
    y = 56
    for place, _, entry in bands:
        if isinstance(entry, RivalScore):
            _band_frame(d, y, rival_band, RIVAL_COLOUR, entry in summary.score.rival_winners(), place, say)
            d.text((80, y + 10), fit_text(d, say(entry.label), 18, 360, True), font=font(18, True), fill=INK)
            d.text((WIDTH - 24, y + 6), say(msg(points, count=entry.total)), font=font(20, True), fill=INK,
                   anchor="ra")
            _breakdown(d, entry, 30, y + 40, WIDTH - 300, legend_width, best, say, parts)
            y += rival_band
            continue
        seat = entry
        score = scores.get(seat.seat)
        _band_frame(d, y, band, seat_colours[seat.seat % len(seat_colours)], seat.seat in summary.score.winners,
                    place, say)
        who = names[seat.seat] if seat.seat < len(names) else f"#{seat.seat + 1}"
        if seat.left:
            who = say(msg("core.summary.left", name=who))
        d.text((80, y + 10), fit_text(d, who, 18, 360, True), font=font(18, True), fill=INK)
        total = score.total if score else 0
        d.text((WIDTH - 24, y + 6), say(msg(points, count=total)), font=font(20, True), fill=INK, anchor="ra")
        if seat.rating is not None:
            rating = say(msg("core.summary.rating", rating=_number(seat.rating, say),
                             change=_signed(seat.change or 0.0, say)))
            d.text((WIDTH - 24, y + 34), rating, font=font(13), fill=INK, anchor="ra")
        if score is not None:
            _breakdown(d, score, 30, y + 40, WIDTH - 300, legend_width, best, say, parts)
        if detail is not None:
            detail(d, seat.seat, 30, y + band - detail_height - 12, WIDTH - 60)
        y += band
    if chart:
        _chart(d, summary, names, y, say, per_round or msg("core.summary.per_round"), seat_colours)
    return encode(image)
