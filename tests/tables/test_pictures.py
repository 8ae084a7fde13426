"""The table logic's side of the pictures: drawn from the right view, only when they changed."""

from rulesets.registry import get_game
from tests.tables.harness import ANA, BIA, GROUP, World
from workers.tables import picture, play
from workers.tables.context import Ctx
from workers.tables.model import Table


def _status_again(world: World) -> Ctx:
    """Redraw the group's status of the current table as the table logic would after a move."""
    table = Table.model_validate(world.table())
    ctx = Ctx(table, world.command(ANA, GROUP, text="/status"), world.dir, world.now)
    match = table.load()
    play.show_status(ctx, get_game(table.game), match)
    return ctx


def test_an_unchanged_view_sends_no_edit_and_draws_nothing(monkeypatch):
    world = World()
    world.open_lobby("spellbook", [ANA, BIA])
    world.press(ANA, GROUP, "Começar")
    game = get_game("spellbook")
    drawn = []
    picture._recent.clear()
    real = game.picture
    monkeypatch.setattr(game, "picture", lambda view, names, say: drawn.append(view) or real(view, names, say))
    ctx = _status_again(world)
    assert ctx.result.outbound == [] and drawn == []
    # a change the group can see (the language of its labels) is drawn and sent again
    world.dir.langs[GROUP] = "en"
    ctx = _status_again(world)
    status = [o for o in ctx.result.outbound if o.slot == "status"]
    assert len(status) == 1 and status[0].photo_png and len(drawn) == 1
