"""How people stand after their finished games: `/ranking [jogo]` and `/estatisticas [jogo]`.

`/ranking` in a group lists the group's top (each game it has played, or the one named): the rating
as an ordinal (workers/tables/ratings.py), games and wins; in private it gives the sender's place in
everyone's ranking. `/estatisticas` gives the sender's own numbers per game: games, wins, average and
best score, the average of each kind of score line, favourite cards, average time per move.
Everything is read through the Directory; nothing here changes a table.
"""

from __future__ import annotations

from rulesets.core import Msg
from rulesets.registry import available, get_game
from workers.tables import ratings, render
from workers.tables.context import Ctx
from workers.tables.summary import seat_name

TOP = 10
FAVOURITES = 3  # cards named per kind


def game_arg(ctx: Ctx, args: list[str]) -> tuple[bool, list[str]]:
    """The games a command is about: the named one (its word or the start of it), else every game.
    (False, []) after telling the user the name is unknown."""
    games = available()
    if not args:
        return True, games
    wanted = args[0].lower()
    found = [g for g in games if g == wanted] or [g for g in games if g.startswith(wanted)]
    if len(found) != 1:
        ctx.refuse("tables.ranking.which", "bad_args", games=", ".join(games))
        return False, []
    return True, found


def counts(games: int, wins: int, lang: str) -> render.Safe:
    return render.t("tables.ranking.counts", lang, games=render.t("tables.ranking.games", lang, count=games),
                    wins=render.t("tables.ranking.wins", lang, count=wins))


def cmd_ranking(ctx: Ctx, args: list[str]) -> None:
    ok, games = game_arg(ctx, args)
    if not ok:
        return
    lang = ctx.here_lang
    lines: list[str] = []
    if ctx.cmd.chat_type == "private":
        me = ratings.person(ctx.cmd.user_id)
        lines.append(render.t("tables.ranking.mine", lang))
        for game in games:
            title = render.game_title(game, lang)
            place = ctx.dir.place(game, ratings.EVERYONE, me)
            record = ctx.dir.ratings(game, ratings.EVERYONE, [me]).get(me)
            if place is None or record is None:
                lines.append(render.t("tables.ranking.mine_none", lang, game=title))
                continue
            lines.append(render.t("tables.ranking.mine_line", lang, game=title, place=place[0], total=place[1],
                                  rating=render.decimal(ratings.ordinal(record["mu"], record["sigma"]), lang),
                                  counts=counts(record["games"], record["wins"], lang)))
    else:
        scope = ratings.group_scope(ctx.cmd.chat_id)
        for game in games:
            top = ctx.dir.top(game, scope, TOP)
            if not top:
                continue
            lines.append(render.t("tables.ranking.group", lang, game=render.game_title(game, lang)))
            for place, (entity, record) in enumerate(top, start=1):
                bot = entity.removeprefix("bot:") if entity.startswith("bot:") else None
                lines.append(render.t("tables.ranking.line", lang, place=place,
                                      name=seat_name(record["name"], bot, lang),
                                      rating=render.decimal(ratings.ordinal(record["mu"], record["sigma"]), lang),
                                      counts=counts(record["games"], record["wins"], lang)))
        if not lines:
            ctx.reply("tables.ranking.group_none", games=render.Safe(", ".join(games)))
            return
    ctx.send(ctx.cmd.chat_id, render.fit(lines))


# ------------------------------------------------------------------------------- statistics


def duration(seconds: float, lang: str) -> str:
    s = int(round(seconds))
    if s < 60:
        return render.plain("tables.stats.seconds", lang, s=s)
    if s < 3600:
        return render.plain("tables.stats.minutes", lang, m=s // 60, s=s % 60)
    if s < 86400:
        return render.plain("tables.stats.hours", lang, h=s // 3600, m=s % 3600 // 60)
    return render.plain("tables.stats.days", lang, d=s // 86400, h=s % 86400 // 3600)


def _game_stats(game: str, st: dict[str, int], lang: str) -> list[str]:
    rules = get_game(game)
    n = st["games"]
    lines = [render.t("tables.stats.game", lang, game=render.game_title(game, lang)),
             render.t("tables.stats.played", lang, counts=counts(n, st.get("wins", 0), lang),
                      percent=round(100 * st.get("wins", 0) / n)),
             render.t("tables.stats.score", lang, average=render.decimal(st.get("score", 0) / n, lang),
                      best=st.get("best", 0))]
    parts = []
    for field, total in sorted(st.items(), key=lambda kv: (-kv[1], kv[0])):
        key = field.removeprefix("l:") + ".sum"
        if field.startswith("l:") and render.has_text(key, lang):
            parts.append(render.t("tables.stats.part", lang, label=render.game_text(Msg(key=key), lang, []),
                                  average=render.decimal(total / n, lang)))
    if parts:
        lines.append(render.t("tables.stats.parts", lang, parts=render.Safe(" · ".join(parts))))
    kinds: dict[str, list[tuple[int, str]]] = {}
    for field, times in st.items():
        if field.startswith("c:"):
            ref = field.removeprefix("c:")
            kinds.setdefault(ref.split(":", 1)[0], []).append((times, ref))
    for kind, cards in sorted(kinds.items()):
        label = f"{game}.stats.favourite.{kind}"
        named = []
        for times, ref in sorted(cards, key=lambda c: (-c[0], c[1]))[:FAVOURITES]:
            card = rules.card(ref)
            if card is not None:
                named.append(render.t("tables.stats.card", lang, name=render.game_text(card.name, lang, []),
                                      count=times))
        if named and render.has_text(label, lang):
            lines.append(render.t("tables.stats.favourites", lang, kind=render.t(label, lang),
                                  cards=render.Safe(", ".join(named))))
    if st.get("moves"):
        lines.append(render.t("tables.stats.pace", lang, time=duration(st.get("think", 0) / st["moves"], lang),
                              count=st["moves"]))
    return lines


def cmd_statistics(ctx: Ctx, args: list[str]) -> None:
    ok, games = game_arg(ctx, args)
    if not ok:
        return
    lang = ctx.here_lang
    me = ratings.person(ctx.cmd.user_id)
    lines = [render.t("tables.stats.title", lang, name=ctx.cmd.user_name)]
    for game in games:
        st = ctx.dir.stats(game, me)
        if st.get("games"):
            lines += _game_stats(game, st, lang)
    if len(lines) == 1:
        ctx.reply("tables.stats.none", games=render.Safe(", ".join(games)))
        return
    ctx.send(ctx.cmd.chat_id, render.fit(lines))
