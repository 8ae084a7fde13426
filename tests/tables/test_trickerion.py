"""The table logic knows no game: Trickerion (simultaneous secret assignment, many prompts)
plays through it unchanged."""

from tests.tables.harness import ANA, BIA, GROUP, World


def test_a_two_player_trickerion_game_to_the_final_scores():
    world = World()
    world.open_lobby("trickerion", [ANA, BIA])
    assert "Preparação para iniciantes: <b>não</b>" in world.chat(GROUP).slots["lobby"].text
    world.press(ANA, GROUP, "Começar")
    world.play_out([ANA, BIA], seed=1, max_presses=20_000)
    assert world.table()["status"] == "over"
    final = world.chat(GROUP).final_scores()
    assert "Fim de jogo: Trickerion" in final and "Fama" in final


def test_trickerion_private_log_lines_stay_in_their_owners_chats():
    import html

    import locales
    from rulesets.core import load_match

    world = World()
    world.open_lobby("trickerion", [ANA, BIA])
    world.press(ANA, GROUP, "Começar")
    world.play_out([ANA, BIA], seed=2, max_presses=20_000)
    match = load_match(world.table()["match"])
    names = ["Ana", "Bia"]
    events = [e for entry in match.log for e in entry.events]
    text = {id(e): html.escape(locales.render(e.text, "pt_BR", names), quote=False) for e in events}
    private = [e for e in events if e.audience is not None]
    assert private, "Trickerion's assignment is secret: some log lines must be private"
    chats = {None: world.chat(GROUP).text(), 0: world.chat(ANA).text(), 1: world.chat(BIA).text()}
    # the check below compares like with like: private lines do reach their owner's chat
    assert any(text[id(e)] in chats[0] for e in private if e.visible_to(0))
    for reader, transcript in chats.items():
        visible = {text[id(e)] for e in events if e.visible_to(reader)}
        for e in private:
            if not e.visible_to(reader) and text[id(e)] not in visible:
                assert text[id(e)] not in transcript, (reader, text[id(e)])
