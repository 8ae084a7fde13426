"""A small stand-in for workers.tables.handle, to test the plumbing on its own.

A table is a counter in a group: `/novojogo` opens it (status slot with a "+1" button); a
press on a button of the current version adds one, bumps the version and redraws the status
and the presser's private prompt; a press on an older version is refused. `/lembrar N`
schedules a reminder N seconds ahead; its `/_tick` is logged. Every applied update id is
kept in `applied`, so tests can see that nothing was applied twice.
"""

from __future__ import annotations

from workers.protocol import Button, Command, Directory, Outbound, Reminder, Result, callback, parse_callback


def _keyboard(table: dict) -> list[list[Button]]:
    return [[Button(text=f"+1 ({table['count']})", callback_data=callback(table["id"], table["version"], "inc"))]]


def _status(table: dict) -> Outbound:
    return Outbound(chat_id=table["chat_id"], table_id=table["id"], slot="status",
                    text=f"count={table['count']} v={table['version']}", buttons=_keyboard(table), silent=True)


def handle(table: dict | None, command: Command, directory: Directory, now: float) -> Result:
    text = command.text or ""
    if table is None:
        if text.startswith("/novojogo") and command.chat_type in ("group", "supergroup"):
            if directory.active_table(command.chat_id):
                return Result(outbound=[Outbound(chat_id=command.chat_id, text="already")])
            table = {"id": directory.new_table_id(), "version": 1, "chat_id": command.chat_id, "count": 0,
                     "applied": [command.update_id], "ticks": []}
            return Result(table=table, outbound=[_status(table)], set_active={command.chat_id: table["id"]},
                          user_tables_add={command.user_id: [table["id"]]})
        return Result(outbound=[Outbound(chat_id=command.chat_id, text=f"echo {text}")])
    table = dict(table)
    if command.kind == "callback":
        parsed = parse_callback(command.callback_data)
        if parsed is None or parsed[1] != table["version"]:
            return Result(callback_answer="stale", metrics={"rejected:stale": 1})
        table["count"] += 1
        table["version"] += 1
        table["applied"] = table["applied"] + [command.update_id]
        prompt = Outbound(chat_id=command.user_id, table_id=table["id"], slot="prompt",
                          text=f"your count {table['count']}", buttons=_keyboard(table))
        return Result(table=table, outbound=[_status(table), prompt], callback_answer="",
                      metrics={"moves_applied": 1})
    if text.startswith("/_tick"):
        table["ticks"] = table["ticks"] + [text.split()[1]]
        table["applied"] = table["applied"] + [command.update_id]
        return Result(table=table, outbound=[Outbound(chat_id=table["chat_id"], text=f"tick {text.split()[1]}")])
    if text.startswith("/lembrar"):
        seconds = float(text.split()[1]) if len(text.split()) > 1 else 0.0
        return Result(reminders=[Reminder(table_id=table["id"], key="r1", due=now + seconds)])
    if text.startswith("/boom"):
        raise RuntimeError("the fake table logic fails on purpose")
    return Result(outbound=[Outbound(chat_id=command.chat_id, text=f"table {table['id']}: {text}")])
