"""The Dark Alley side of the eight magician cards: each power's effect and its limit."""

from rulesets.trickerion.dark_alley import special_cards
from rulesets.trickerion.rules import link_count, links_of
from rulesets.trickerion.state import Marker

from ..harness import do, idle, offered, put, to_performances
from .positions import begin, card, choices, give, go, keys, plan, tricks


def test_m04_mechanizer_the_player_picks_the_apprentice_once_per_round_not_in_the_theater():
    """O Mecanizador (Aprimoramento Mecânico): "Uma vez por rodada, um dos seus Aprendizes
    recebe um Ponto de Ação adicional quando for alocado em qualquer Local, exceto o Teatro." (PT p.21)."""
    m = begin(2, magicians=("M04", "M02"))  # mechanical: the Assistant brings a second apprentice
    p = m.state.p[0]
    p.hand["theater"] = 3
    p.hand["downtown"] = 2
    plan(m, {0: {"a1": "theater", "a2": "downtown", "mag": "downtown"}})
    go(m, 0, "a1", "theater.1.b0")
    assert m.state.cur.ap == 1  # the Theater: not offered
    do(m, 0, "fim")
    put(m, 0, "mag", "downtown.0")
    assert m.state.step != "da_mecanico"  # apprentices only
    do(m, 0, "fim")
    put(m, 0, "a2", "downtown.3")
    assert m.state.step == "da_mecanico" and choices(m, 0) == ["me:1", "me:0"]
    do(m, 0, "me:1")
    assert m.state.cur.ap == 2


def test_m04_mechanizer_saved_for_a_later_apprentice_then_used_up():
    m = begin(2, magicians=("M04", "M02"))
    plan(m, {0: {"a1": "downtown", "a2": "market"}})
    go(m, 0, "a1", "downtown.3", mech=False)
    assert m.state.cur.ap == 1
    do(m, 0, "fim")
    go(m, 0, "a2", "market.3", mech=True)
    assert m.state.cur.ap == 2
    m2 = begin(2, magicians=("M04", "M02"))
    plan(m2, {0: {"a1": "downtown", "a2": "market"}})
    go(m2, 0, "a1", "downtown.3", mech=True)
    do(m2, 0, "fim")
    put(m2, 0, "a2", "market.3")
    assert m2.state.step != "da_mecanico" and m2.state.cur.ap == 1  # once per round


def test_m06_gentleman_fame_per_trick_when_the_magician_goes_downtown_market_or_alley():
    """O Cavalheiro (Mágica para as Massas): "Sempre que o Mágico for alocado em um espaço
    do Centro da Cidade, Mercado ou Beco Escuro, você recebe Fama igual ao número de Cartas de
    Truque que você possui." (PT p.21)."""
    m = begin(2, magicians=("M06", "M04"))
    tricks(m, 0, "T01", "T02")
    fame = m.state.p[0].fame
    plan(m, {0: {"mag": "market", "a1": "downtown"}})
    events = go(m, 0, "mag", "market.3")
    assert m.state.p[0].fame == fame + 2 and "da_gentleman" in keys(events)
    do(m, 0, "fim")
    go(m, 0, "a1", "downtown.3")
    assert m.state.p[0].fame == fame + 2  # not for an apprentice
    m2 = begin(2, magicians=("M06", "M04"))
    fame = m2.state.p[0].fame
    plan(m2, {0: {"mag": "workshop"}})
    go(m2, 0, "mag", "workshop.0.0")
    assert m2.state.p[0].fame == fame  # not at the Workshop


def test_m02_great_optico_copies_an_opponents_revealed_card_once_per_round():
    """O Grande Óptico (Mimetismo): "Uma vez por rodada, você pode utilizar uma das suas
    Cartas de Atribuição Permanentes com um efeito de uma Carta de Atribuição Especial do mesmo
    Local revelada por algum oponente. Você pode usar a habilidade impressa da carta copiada ou, ao
    invés disso, ganhar +1 Ponto de Ação." (PT p.21)."""
    m = begin(2, magicians=("M02", "M04"))
    give(m, 1, "A33")
    m.state.p[0].hand["downtown"] = 2
    plan(m, {0: {"mag": "downtown", "a1": "downtown"}, 1: {"mag": "A33"}})
    put(m, 0, "mag", "downtown.0")
    assert m.state.step == "da_mimetismo" and choices(m, 0) == ["mi:A33", "mi:-"]
    do(m, 0, "mi:A33", "sb")
    m.state.dice["b0"] = "5"
    fame = m.state.p[0].fame
    do(m, 0, "pm:b0", "fim")
    assert m.state.p[0].fame == fame + 4 and m.state.p[1].hand["A33"] == 1  # the original stays with its owner
    idle(m, 1, "mag")
    put(m, 0, "a1", "downtown.3")
    assert m.state.step != "da_mimetismo"
    special_cards.check(m.state)


def test_m02_great_optico_only_same_location():
    m = begin(2, magicians=("M02", "M04"))
    give(m, 1, "A39")
    plan(m, {0: {"mag": "downtown"}, 1: {"mag": "A39"}})
    put(m, 0, "mag", "downtown.0")
    assert m.state.step != "da_mimetismo"


def test_m02_great_optico_copies_freelancer_to_place_a_workshop_card_anywhere():
    """Mimetismo: "Uma vez por rodada, você pode utilizar uma das suas Cartas de Atribuição
    Permanentes com um efeito de uma Carta de Atribuição Especial do mesmo Local revelada por algum
    oponente. Você pode usar a habilidade impressa da carta copiada ..." Freelancer, a Workshop card
    (REF): "The Character under this card may be placed at any other Location instead of the Workshop"."""
    m = begin(2, magicians=("M02", "M04"))
    give(m, 1, "A25")
    m.state.p[0].hand["workshop"] = 2
    plan(m, {0: {"mag": "workshop", "a1": "workshop"}, 1: {"mag": "A25"}})
    spaces = offered(m, 0, "mag")
    assert {"workshop.0.0", "downtown.0", "market.0", "alley.0", "theater.0.p"} <= set(spaces)
    events = put(m, 0, "mag", "downtown.0")
    assert "da_mimesis" in keys(events) and "0:mi" in m.state.alley.once
    assert m.state.step != "da_mimetismo" and m.state.cur.ap == 5  # the magician's 3 and the space's +2
    do(m, 0, "fim")
    idle(m, 1, "mag")
    assert all(k.startswith("workshop.") for k in offered(m, 0, "a1"))  # once per round


def test_m02_great_optico_copies_freelancer_at_the_workshop_for_one_more_ap():
    """Mimetismo: "... ou, ao invés disso, ganhar +1 Ponto de Ação": any revealed special card of
    the location, Freelancer too; at the Workshop its own bonus is not used (ruling DA8), so +1 AP."""
    m = begin(2, magicians=("M02", "M04"))
    give(m, 1, "A25")
    plan(m, {0: {"mag": "workshop"}, 1: {"mag": "A25"}})
    put(m, 0, "mag", "workshop.0.0")
    assert m.state.step == "da_mimetismo" and choices(m, 0) == ["mi:A25", "mi:-"]
    events = do(m, 0, "mi:A25")
    # at the Workshop Freelancer has no bonus to use (ruling DA8): +1 AP, the only answer, not asked
    assert "only" in keys(events) and "da_plus_ap" in keys(events)
    assert m.state.cur.ap == 4 and m.state.p[1].hand["A25"] == 1


def _linking(m, seat: int, index: int, tid: str, sym: int) -> tuple[str, int]:
    """A free slot and rotation of card `index` where a marker would form a link."""
    from rulesets.trickerion.rules import placements

    c = m.state.row[index]
    for slot, d in placements(c, seat, sym):
        trial = c.model_copy(deep=True)
        trial.m[slot] = Marker(seat=seat, sym=sym, t=tid, d=d)
        if links_of(trial, slot):
            return slot, d
    raise AssertionError("no linking spot")


def test_m01_master_of_chains_reschedules_before_the_performances_with_link_bonus():
    """Mestre das Correntes (Libertar-se): "Antes da Fase de Apresentação, você pode
    realizar uma Ação especial de Reagendar sem alocar nenhum Personagem. Diferentemente da Ação
    normal de Reagendar, você recebe os Bônus de Conexão se você formar Conexões através deste
    posicionamento." (PT p.21)."""
    m = begin(2, magicians=("M01", "M04"))
    tricks(m, 0, "T25")
    tricks(m, 1, "T37")
    card(m, 0, "P01", {"0.0": (0, 0, "T25")})
    card(m, 1, "P01", {"0.1": (1, 0, "T37")})
    m.state.row[1].m["0.1"].d = 0
    plan(m, {})
    assert m.state.phase == "perform" and m.state.step == "da_correntes_m" and m.state.turn == 0
    slot, d = _linking(m, 0, 1, "T25", 0)
    fame = m.state.p[0].fame
    events = do(m, 0, "rm:0:0.0", "cc:1", f"ce:{slot}:{d}")
    assert m.state.step == "da_correntes_b" and m.state.row[1].m[slot].t == "T25" and not m.state.row[0].m
    moved = next(e.text.params for e in events if keys([e]) == ["da_break_free"])
    events = do(m, 0, "cb:1")  # a link of a level-1 trick: 1 Fame (unlike a normal Reagendar)
    assert m.state.p[0].fame == fame + 1 and moved["links"].params["count"] == 1
    assert "da_break_free" not in keys(events) and m.state.round == 2  # once: the round went on


def test_m01_master_of_chains_may_decline_and_needs_a_marker():
    m = begin(2, magicians=("M01", "M04"))
    plan(m, {})
    assert m.state.step != "da_correntes_m"  # no marker in the Theater: not asked
    m2 = begin(2, magicians=("M01", "M04"))
    tricks(m2, 0, "T25")
    card(m2, 0, "P01", {"0.0": (0, 0, "T25")})
    card(m2, 1, "P01")
    plan(m2, {})
    events = do(m2, 0, "cm:-")
    assert "da_break_free" not in keys(events) and m2.state.round == 2  # nothing more asked this round


def performing(magicians, markers0, markers1, shards1: int = 1):
    """Seat 0's magician on Friday's performance space; cards 0 and 1 hold the given markers."""
    m = begin(2, magicians=magicians)
    tricks(m, 0, "T25", "T26")
    tricks(m, 1, "T13", "T17")
    card(m, 0, "P03", markers0)
    card(m, 1, "P03", markers1)
    m.state.p[1].shards = shards1
    plan(m, {0: {"mag": "theater"}})
    go(m, 0, "mag", "theater.1.p")
    return m


def test_m07_yoruba_picks_the_card_for_a_shard_once_per_round():
    """Yoruba (Possessão Espiritual): "Uma vez por rodada, antes de um oponente escolher uma
    Carta de Apresentação para Apresentar-se, você pode pagar um Fragmento. Se o fizer, você pode
    escolher a carta que esse jogador Apresentará. A carta escolhida deve ter pelo menos um dos
    Marcadores de Truque desse oponente." (PT p.21)."""
    m = performing(("M05", "M07"), {"0.0": (0, 0, "T25")}, {"0.0": (0, 1, "T26")})
    assert m.state.step == "da_possessao" and m.state.turn == 1
    assert choices(m, 1) == ["yo:0", "yo:1", "yo:-"]
    events = do(m, 1, "yo:1")
    assert m.state.p[1].shards == 0 and "da_possession" in keys(events)
    assert [e.text.params["card"] for e in events if keys([e]) == ["perform"]] == [2]


def test_m07_yoruba_needs_a_shard_and_two_cards():
    m = performing(("M05", "M07"), {"0.0": (0, 0, "T25")}, {"0.0": (0, 1, "T26")}, shards1=0)
    assert m.state.step == "apresentar"
    m2 = performing(("M05", "M07"), {"0.0": (0, 0, "T25")}, {})
    shown = keys(m2.log[-1].events)  # one card to perform: Yoruba is not asked, nor is the performer
    assert "perform" in shown and "only" in shown and "da_possession" not in shown


def lotus_show(own: str, theirs: str, opponent: dict[str, str] | None = None):
    """The Red Lotus (seat 0) on Friday's performance space, card 1 (P03) holding her marker of `own` at
    0.0 and the opponent's `theirs` at 0.1, the two corners that meet showing different symbols (no link
    as placed); the opponent's characters as given (none: they take the performer's modifier)."""
    m = begin(2, magicians=("M05", "M04"))
    tricks(m, 0, own)
    tricks(m, 1, theirs)
    c = card(m, 0, "P03", {"0.0": (0, 0, own), "0.1": (1, 0, theirs)})
    c.m["0.0"].d, c.m["0.1"].d = 2, 0  # own-category corners on the 0.0-0.1 circle: escape meets spiritual
    to_performances(m, {0: {"mag": "theater.1.p"}, 1: opponent or {}})
    assert m.state.turn == 0
    return m


def test_m05_red_lotus_steal_keeps_the_links_as_placed():
    """Roubo de Truque: "Você pode optar por receber os Rendimentos de um Truque de um oponente na
    mesma Apresentação ao invés dos Rendimentos do seu próprio Truque" — only whose yields she receives
    changes. The links are the markers' symbols as placed (PT p.17: "se houver dois símbolos da mesma
    Categoria de Truque no mesmo Círculo de Conexão"), and the performer's bonus is "1 de Fama por cada
    Conexão de Truque na Apresentação" (PT p.18). Here her escape corner meets his spiritual one: no link,
    so no link Fame, although Leitura de Mentes (spiritual) would link there had her marker become it."""
    m = lotus_show("T25", "T13")  # Barris Barricados (1 Fame, 1 coin) / Leitura de Mentes (1 Shard)
    assert choices(m, 0) == ["ap:0", "rl:0:0.0:0.1"]
    before = m.state.row[0].model_copy(deep=True)
    p0 = m.state.p[0].model_copy()
    events = do(m, 0, "rl:0:0.0:0.1")
    bonus = next(e.text.params for e in events if keys([e]) == ["performer_bonus"])
    assert bonus["links"] == 0 and link_count(before) == 0 and before.m["0.0"].t == "T25"
    rewritten = before.model_copy(deep=True)
    rewritten.m["0.0"].t = "T13"
    assert link_count(rewritten) == 1  # the position tells the two readings apart
    yields = {e.text.params["player"].seat: e.text.params for e in events if keys([e]) == ["yield"]}
    assert (yields[0]["fame"], yields[0]["coins"], yields[0]["shards"]) == (0, 0, 1)  # Leitura de Mentes'
    assert m.state.p[0].fame == p0.fame + 1  # only P03's printed Fame: no link, her own trick's yields not paid
    assert m.state.p[0].coins == p0.coins and m.state.p[0].shards == p0.shards + 1


def test_m05_red_lotus_penalty_comes_off_the_stolen_tricks_fame_yield_never_below_zero():
    """PT p.21: "O oponente recebe 1 de Fama a menos pelo Truque roubado" — one Fame less for that trick,
    and PT p.18: "O Rendimento de Fama ou Moedas de um Truque nunca pode ser menor que 0". Leitura de
    Mentes yields no Fame: its owner receives 0 Fame for it and loses nothing from the Fame track."""
    m = lotus_show("T25", "T13")
    p1 = m.state.p[1].model_copy()
    events = do(m, 0, "rl:0:0.0:0.1")
    mine = next(e.text.params for e in events if keys([e]) == ["yield"] and e.text.params["player"].seat == 1)
    assert (mine["fame"], mine["coins"], mine["shards"]) == (0, 0, 1)
    assert m.state.p[1].fame == p1.fame and m.state.p[1].shards == p1.shards + 1
    assert "da_trick_steal" in keys(events) and m.state.alley.steal == []


def test_m05_red_lotus_penalty_is_one_fame_less_than_the_trick_would_give():
    """PT p.21: the opponent "recebe 1 de Fama a menos pelo Truque roubado": 1 less than they would have
    received for it, after their own yield modifiers (PT p.18: Sunday +1 for a character on Sunday).
    Mesa Flutuante (5 Fame, 2 coins, 1 Shard; threshold 16, no higher than her level-2 Fuga da Prisão's) pays
    its owner on Sunday 6 - 1 Fame and 3 coins, and the Red Lotus on Friday its printed yields."""
    m = lotus_show("T29", "T17", opponent={"a1": "theater.3.b0"})
    p0, p1 = m.state.p[0].model_copy(), m.state.p[1].model_copy()
    events = do(m, 0, "rl:0:0.0:0.1")
    yields = {e.text.params["player"].seat: e.text.params for e in events if keys([e]) == ["yield"]}
    assert (yields[1]["fame"], yields[1]["coins"], yields[1]["shards"]) == (5, 3, 1)
    assert (yields[0]["fame"], yields[0]["coins"], yields[0]["shards"]) == (5, 2, 1)
    assert m.state.p[1].fame == p1.fame + 5  # (the apprentice's wage is paid right after, in coins)
    bonus = next(e.text.params for e in events if keys([e]) == ["performer_bonus"])
    assert m.state.p[0].fame == p0.fame + 5 + bonus["fame"]


def test_m05_red_lotus_only_a_trick_of_no_higher_threshold():
    """PT p.21: "contanto que ... o Truque do oponente tenha um Limiar de Fama igual ou menor do que o
    seu": Mesa Flutuante (16) may not be taken for Barris Barricados (1)."""
    m = lotus_show("T25", "T17")
    assert m.state.step == "apresentar" and choices(m, 0) == ["ap:0"]


def test_m05_red_lotus_may_perform_without_stealing():
    m = lotus_show("T25", "T13")
    p1 = m.state.p[1].model_copy()
    events = do(m, 0, "ap:0")
    yields = {e.text.params["player"].seat: e.text.params for e in events if keys([e]) == ["yield"]}
    assert (yields[0]["fame"], yields[0]["coins"]) == (1, 1) and yields[1]["shards"] == 1
    assert m.state.p[1].fame == p1.fame and m.state.alley.steal == []


def test_m08_electra_stacks_two_markers_and_they_yield_more():
    """Electra (Supercarga): "Você pode optar por empilhar dois marcadores do mesmo Truque
    em um espaço da Carta de Apresentação ao Preparar um Truque. Eles contam como apenas um Truque e
    os bônus de Conexão são pagos apenas uma vez. Quando for apresentado, os Rendimentos deste
    Truque aumentam em 1/2/3 Ponto(s) de Fama e Moeda(s) dependendo de seu Nível (1/2/3)." (PT p.21)."""
    m = begin(2, magicians=("M08", "M02"))
    tricks(m, 0, "T37", on=2)
    card(m, 0, "P01")
    plan(m, {0: {"mag": "theater"}})
    go(m, 0, "mag", "theater.1.b0")
    assert "el:T37" in choices(m, 0)
    do(m, 0, "el:T37")  # the one card it could go on: not asked
    do(m, 0, choices(m, 0)[0])
    (slot, marker), = m.state.row[0].m.items()
    assert marker.n == 2 and m.state.p[0].tricks[0].on == 0
    assert "el:T37" not in choices(m, 0)  # one marker left: nothing to stack
    m.state.alley.stacked = ["0:T37"]
    assert special_cards.yield_modifiers(m.state, 0, 0, "T37") == [1]


def test_m08_electra_stacked_marker_performed():
    m = begin(2, magicians=("M08", "M02"))
    tricks(m, 0, "T37")
    card(m, 0, "P01", {"0.0": (0, 0, "T37")})
    m.state.row[0].m["0.0"].n = 2
    plan(m, {0: {"mag": "theater"}})
    events = go(m, 0, "mag", "theater.1.p")  # then its performance: the one card with its markers, not asked
    y = next(e.text.params for e in events if keys([e]) == ["yield"])
    assert (y["fame"], y["coins"]) == (1, 3)  # Anéis: 0 Fame 2 coins, +1/+1 for the stack
    assert m.state.alley.stacked == []


def test_m03_priestess_fate_weaving_as_often_as_ap_last():
    """Tecer o Destino: "Por 1 Ponto de Ação no Beco Escuro, você pode descartar a Profecia Ativa,
    substituí-la por qualquer uma das Profecias Pendentes e comprar uma nova para repor." The appendix
    prints no limit (it says "Uma vez por rodada" where a power has one: O Mecanizador, O Grande Óptico),
    so like any action it may be repeated while AP last (PT p.12)."""
    m = begin(2, magicians=("M03", "M04"), prophecies=True)
    plan(m, {0: {"mag": "alley"}})
    go(m, 0, "mag", "alley.0")
    assert m.state.cur.ap == 5 and "bx:td" in choices(m, 0)
    for left in (4, 3, 2, 1):
        pending = list(m.state.proph.pending)
        do(m, 0, "bx:td")
        assert choices(m, 0) == ["td:0", "td:1", "td:2", "voltar"]
        do(m, 0, "td:1")
        assert m.state.proph.active == pending[1] and m.state.cur.ap == left
        assert m.state.proph.pending[0] == pending[0] and m.state.proph.pending[2] == pending[2]
        assert len(m.state.proph.pending) == 3  # a new one drawn into the space the chosen one left
    events = do(m, 0, "bx:td", "td:1")
    assert "char_spent" in keys(events) and m.state.cur is None  # no AP left: the actions end


def test_m03_priestess_only_at_the_dark_alley():
    m = begin(2, magicians=("M05", "M03"), prophecies=True)
    plan(m, {0: {"mag": "alley"}})
    go(m, 0, "mag", "alley.0")
    assert "bx:td" not in choices(m, 0)  # the Red Lotus is not the Priestess
