"""A bot in 20 lines: it passes its highest cards and plays its lowest."""

from bots.api import Decision, needs_decision
from protocol.view import SeatView


def rank(card: str) -> int:
    return "23456789TJQKA".index(card[0])


class LowCard:
    def decide(self, view: SeatView) -> Decision:
        asked = needs_decision(view)
        if asked == "pass":
            highest = sorted(view.hand, key=rank)[-view.rules.pass_count :]
            return Decision("pass", cards=tuple(highest))
        if asked == "play":
            return Decision("play", card=min(view.legal, key=rank))
        return Decision("moon_choice", moon="add")
