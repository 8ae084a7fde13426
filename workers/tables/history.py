"""`/historico`: the whole log a chat may see, one page at a time, in one message edited in place.

In the group only public events; in a player's private chat, what their seat may see. The message
starts at the newest page; ◀ and ▶ turn pages. A page button is "H<page>.<n>", where n names the
message (its slot "history.<n>", n = the update id of the /historico that posted it), so a press
edits the very message it sits on. Turning pages changes nothing in the table.
"""

from __future__ import annotations

from rulesets.core import Match, load_match
from workers.protocol import Button, ascii_int, callback
from workers.tables import render
from workers.tables.context import Ctx
from workers.tables.model import Table

PAGE_LINES = 20
PREFIX = "H"


def lines_for(match: Match, viewer: int | None, lang: str, names: list[str]) -> list[str]:
    return ["• " + render.game_text(e.text, lang, names)
            for entry in match.log for e in entry.events if e.visible_to(viewer)]


def pages(count: int) -> int:
    return max(1, -(-count // PAGE_LINES))


def page_message(table: Table, viewer: int | None, lang: str, page: int | None,
                 n: int) -> tuple[str, list[list[Button]]] | None:
    """The text and buttons of one page (None: the newest); None when there is nothing to show."""
    if table.match is None:
        return None
    lines = lines_for(load_match(table.match), viewer, lang, table.names())
    if not lines:
        return None
    total = pages(len(lines))
    page = total if page is None else min(max(1, page), total)
    head = render.t("tables.history.page", lang, game=render.game_title(table.game, lang), page=page, pages=total)
    body = lines[(page - 1) * PAGE_LINES: page * PAGE_LINES]
    row = []
    if page > 1:
        row.append(Button(text=render.plain("tables.button.older", lang),
                          callback_data=callback(table.id, table.version, f"{PREFIX}{page - 1}.{n}")))
    if page < total:
        row.append(Button(text=render.plain("tables.button.newer", lang),
                          callback_data=callback(table.id, table.version, f"{PREFIX}{page + 1}.{n}")))
    return render.fit([head] + body), [row] if row else []


def parse(arg: str) -> tuple[int, int] | None:
    """(page, message number) from "H<page>.<n>"; None when it is not such an arg."""
    if not arg.startswith(PREFIX):
        return None
    page, dot, n = arg[len(PREFIX):].partition(".")
    p, m = ascii_int(page, 5), ascii_int(n, 12)
    return (p, m) if dot and p is not None and m is not None else None


def show(ctx: Ctx, table: Table, viewer: int | None, chat_id: int) -> bool:
    """Post the newest page of `table`'s history in `chat_id`; False when there is nothing yet."""
    n = ctx.cmd.update_id
    drawn = page_message(table, viewer, ctx.here_lang, None, n)
    if drawn is None:
        return False
    text, rows = drawn
    ctx.send(chat_id, text, rows, slot=f"history.{n}", silent=True)
    return True


def turn_page(ctx: Ctx, page: int, n: int) -> None:
    """◀ / ▶: the same message shows another page. In the group anyone may turn it (public lines); in a
    private chat it shows that chat's player's own history, so a forwarded button reveals nothing."""
    table = ctx.table
    assert table is not None
    if ctx.cmd.chat_type == "private":
        viewer = table.seat_of(ctx.cmd.user_id)
        if viewer is None or ctx.cmd.chat_id != ctx.cmd.user_id:
            ctx.refuse("tables.error.not_player", "not_player")
            return
    elif ctx.cmd.chat_id == table.chat_id:
        viewer = None
    else:
        ctx.refuse("tables.error.forged", "forged")
        return
    drawn = page_message(table, viewer, ctx.user_lang if viewer is not None else ctx.chat_lang(table.chat_id),
                         page, n)
    if drawn is None:
        ctx.refuse("tables.error.no_history", "no_history")
        return
    text, rows = drawn
    ctx.send(ctx.cmd.chat_id, text, rows, slot=f"history.{n}", silent=True)
    ctx.answer("")
