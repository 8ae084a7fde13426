"""The core's toy game with texts that betray secrets: every private text carries a marker
naming its owner ("SEGREDO-0"), so a leak into the group or another player's chat is
visible in the transcripts. Same rules; only the messages differ."""

from __future__ import annotations

from rulesets.core import Choice, Event, Outcome, Prompt, msg
from tests.core.toy_game import ToyGame, ToyState

TEXTS = {
    "toytest.prompt": "Seu lance (PRIVADO-{n})",
    "toytest.choice": "opção {id}",
    "toytest.secret_bid": "Você deu lance {bid} (SEGREDO-{n})",
    "toytest.public": "acontecimento público {text}",
    "toytest.my_bid": "meu lance {bid} (MESA-PRIVADA-{n})",
    "toytest.scores": "placar {scores}",
}


class SecretToy(ToyGame):
    name = "secrettoy"

    def prompt(self, state: ToyState, seat_: int) -> Prompt:
        return Prompt(seat=seat_, title=msg("toytest.prompt", n=seat_),
                      choices=[Choice(id=c, label=msg("toytest.choice", id=c))
                               for c in self.legal_choices(state, seat_)])

    def apply(self, state: ToyState, seat_: int, choice: str, rng) -> Outcome:
        outcome = super().apply(state, seat_, choice, rng)
        events = []
        for e in outcome.events:
            if e.audience is not None:
                bid = e.text.params.get("bid")
                events.append(Event(text=msg("toytest.secret_bid", bid=bid, n=seat_), audience=e.audience))
            else:
                detail = ",".join(f"{k}={v}" for k, v in e.text.params.items() if not isinstance(v, dict))
                events.append(Event(text=msg("toytest.public", text=detail)))
        return Outcome(events=events, checkpoint=outcome.checkpoint)

    def table(self, state: ToyState, seat_: int | None):
        view = self.view(state, seat_)
        lines = [msg("toytest.scores", scores="/".join(map(str, view["scores"])))]
        if seat_ is not None and view["bids"][seat_] is not None:
            lines.append(msg("toytest.my_bid", bid=view["bids"][seat_], n=seat_))
        return lines


GAME = SecretToy()
