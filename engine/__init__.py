"""The Hearts rules engine: pure, deterministic, sans-I/O.

Intents in (``pass_cards``, ``play``, ``choose_moon``), events out. No clock,
no global ``random`` (callers inject a seeded ``random.Random``), no asyncio,
no pydantic. Cards are ints 0..51 (52..103: a second deck's copies), hands
bitmasks (see ``engine.cards``). Every named variant is a ``Rules`` with
``variant`` set (``engine.variants``, docs/rules.md "Variants").
"""

from .cards import card, card_label, card_name, card_text, cards_of, mask_of
from .dealing import deal_hand, new_hand
from .errors import ClientError, HeartsError, RuleViolation, ServerFault
from .game import Game
from .hand import Hand, Phase
from .rules import Rules, RulesError
from .variants import VARIANT_NAMES

__all__ = [
    "VARIANT_NAMES",
    "ClientError",
    "Game",
    "Hand",
    "HeartsError",
    "Phase",
    "RuleViolation",
    "Rules",
    "RulesError",
    "ServerFault",
    "card",
    "card_label",
    "card_name",
    "card_text",
    "cards_of",
    "deal_hand",
    "mask_of",
    "new_hand",
]
