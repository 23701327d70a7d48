"""The project's exception tree.

Everything we raise on purpose descends from ``HeartsError``. The tree splits
once, at the top, into what a client (a player, a bot, a hand record) caused
and what went wrong on our side, so the server can answer the first kind with
its ``code`` and sentence and log the second without telling clients any
internals::

    HeartsError
    ├── ClientError                  caused by the input; safe to show; has .code
    │   ├── RuleViolation            the rules refuse an intent (engine)
    │   │   ├── WrongPhase           "the hand is over", "cards are being passed"
    │   │   ├── NotYourTurn          "it is West's turn"
    │   │   ├── CardNotHeld          "you do not hold Q♠"
    │   │   ├── MustLeadFirstCard    "the first trick must be led with 2♣"
    │   │   ├── MustFollowSuit       "you must follow suit (you hold diamonds)"
    │   │   ├── HeartsNotBroken      "hearts are not broken yet"
    │   │   ├── FirstTrickPoints     "no hearts or Q♠ on the first trick"
    │   │   ├── BadPass              "pass exactly 3 cards", "you have already passed"
    │   │   ├── BadDiscard           "discard exactly 3 cards" (the widow)
    │   │   └── BadMoonChoice        "only the shooter chooses the moon scoring"
    │   ├── RecordError              a hand record that cannot be read (engine.record)
    │   └── (protocol and server add theirs: ProtocolError, AuthError, LimitError …)
    └── ServerFault                  our bug or a failed dependency; never shown in detail
        └── (server adds: StoreError, StoreConflict …)

``RulesError`` (bad rules options) is a ``ValueError`` raised while building a
``Rules``; the server turns it into a ``ClientError`` when a host sent it.
"""

from __future__ import annotations


class HeartsError(Exception):
    """Root of every error this project raises on purpose."""


class ClientError(HeartsError):
    """Caused by what a client sent; ``code`` is stable, the message is a
    sentence a player understands."""

    code = "bad_request"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ServerFault(HeartsError):
    """A fault on our side. Clients only ever learn ``internal_error``."""

    code = "internal_error"


class RuleViolation(ClientError):
    """The rules refuse this intent; nothing changed."""

    code = "illegal"


class WrongPhase(RuleViolation):
    """The intent does not fit the phase of the hand."""

    code = "wrong_phase"


class NotYourTurn(RuleViolation):
    """Another seat is to play."""

    code = "not_your_turn"


class CardNotHeld(RuleViolation):
    """The card is not in the seat's hand."""

    code = "card_not_held"


class MustLeadFirstCard(RuleViolation):
    """The first trick opens with the lowest club (docs/rules.md rule 3)."""

    code = "must_lead_first_card"


class MustFollowSuit(RuleViolation):
    """The seat holds the led suit (rule 4)."""

    code = "must_follow_suit"


class HeartsNotBroken(RuleViolation):
    """Hearts may not be led yet (rule 6)."""

    code = "hearts_not_broken"


class FirstTrickPoints(RuleViolation):
    """No point cards on the first trick while anything else is held (rule 5)."""

    code = "first_trick_points"


class BadPass(RuleViolation):
    """A pass that is not exactly the rules' count of held, distinct cards."""

    code = "bad_pass"


class BadDiscard(RuleViolation):
    """A widow discard that is not exactly the widow's count of held, distinct cards."""

    code = "bad_discard"


class BadMoonChoice(RuleViolation):
    """A moon choice from the wrong seat, at the wrong time or unknown."""

    code = "bad_moon_choice"


class RecordError(ClientError):
    """A hand record that cannot be read (not the same as an illegal one)."""

    code = "bad_record"
