"""Every way a request can be refused: the ``error`` codes and the
``not_now`` reasons, each with when it is sent.

These mappings are the wire's catalogue: the JSON Schema takes its enums
from them and docs/protocol.md its tables (``make docs``). Tests check them
against the code: every error class's ``code`` and every reason the server
raises is listed here, and nothing is listed that nothing sends.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

ERROR_CODES: Mapping[str, str] = MappingProxyType(
    {
        "bad_frame": "not binary, or not msgpack",
        "bad_map_key": "msgpack, but a map key is not a string",
        "bad_message": "msgpack of the wrong shape, or a key repeated in a map; the message"
        " names the field and what it expects"
        " (`chat: field 'text': expected at most 200 characters`)",
        "unknown_type": "a `type` nobody knows",
        "frame_too_large": "over the frame limit (frames over the transport maximum close the"
        " connection with 1009)",
        "bad_version": "`hello` with a version other than 1",
        "hello_required": "a request before `hello`",
        "hello_repeated": "a repeated `hello` that is not a rename away from a table (another"
        " player's token, none, or at a table): nothing changes",
        "rate_limited": "over the request budget, an address's invite-code lookups, or the"
        " hand review's budget (this player's or this server process's);"
        " `retry_after` says when to send it again (same id)",
        "too_many_tables": "`create_table` over a creation budget, this player's or this client"
        " address's; `reason` says which (`player_budget`, `address_budget`), `retry_after`"
        " when a table may be created again; nothing changed",
        "server_full": "`create_table` while the server holds as many tables as it may;"
        " `reason` says which cap (`process_tables`, `store_tables`, `store_full`),"
        " `retry_after` when to try again; games in progress are not affected",
        "table_too_new": "the table was stored by a newer release of the server, in a format"
        " this server cannot read (a rolling upgrade is under way): nothing changed; resume"
        " later, or on another server",
        "bad_token": "a seat token that does not prove a seat of that table",
        "no_such_table": "unknown code or table id, or a wrong invite link",
        "not_allowed": "not the host, not seated, a spectator acting",
        "kicked": "the host removed you from that table (until `allow_back`)",
        "knock_required": "the host approves who sits: `knock` first (or use the invite link)",
        "table_full": "no open seat, or that seat is taken",
        "not_now": "the table is not in a state for that (e.g. start twice); `reason` says"
        " which case",
        "claim_refused": "the claim does not hold whatever the others play, or too many cards"
        " are left to check it yet",
        "bad_rules": "rules options that cannot be played together",
        "wrong_phase": "the rules refuse the move: not the phase for it",
        "not_your_turn": "the rules refuse the move: another seat is to play",
        "card_not_held": "the rules refuse the move: the card is not in your hand",
        "must_lead_first_card": "the rules refuse the move: the first trick opens with the"
        " lowest club",
        "must_follow_suit": "the rules refuse the move: you hold the led suit",
        "hearts_not_broken": "the rules refuse the move: hearts may not be led yet",
        "first_trick_points": "the rules refuse the move: no points on the first trick",
        "bad_pass": "the rules refuse the pass (not the rules' count of held cards, or"
        " already passed)",
        "bad_discard": "the rules refuse the widow discard (not `discard_count` held cards)",
        "bad_moon_choice": "the rules refuse the moon choice (not the shooter, not now)",
        "illegal": "the rules refuse the move (another case)",
        "store_unavailable": "the table could not be saved; nothing changed; try again",
        "store_conflict": "the table could not be saved; nothing changed; try again",
        "internal_error": "our bug; nothing about it is sent",
    }
)
"""Every ``error.code`` a server sends, and when."""

NotNowReason = Literal[
    "undo_no_card",
    "undo_not_your_turn",
    "undo_nothing_played",
    "undo_face_down_seen",
    "claim_no_tricks",
    "claim_not_your_turn",
    "claim_variant",
    "claim_paused",
    "hint_nothing_asked",
    "hint_widow",
    "game_not_started",
    "game_started",
    "seats_fixed",
    "bots_fixed",
    "rematch_not_yet",
    "no_hand_to_wait_for",
    "knock_not_needed",
    "replay_not_finished",
    "replay_unavailable",
    "records_not_finished",
    "analysis_not_finished",
    "analysis_unavailable",
]
"""The stable keys a ``not_now`` error names its case with."""


@dataclass(frozen=True)
class Refusal:
    """A ``not_now`` case: the requests that can get it, and what is not
    possible now (a sentence for client writers)."""

    requests: tuple[str, ...]
    when: str


NOT_NOW_REASONS: Mapping[NotNowReason, Refusal] = MappingProxyType(
    {
        "undo_no_card": Refusal(
            ("undo",),
            "no card to take back: no trick is being played (passing, a widow discard,"
            " between hands, game over)",
        ),
        "undo_not_your_turn": Refusal(("undo",), "only on your turn"),
        "undo_nothing_played": Refusal(("undo",), "you have played no card in this hand yet"),
        "undo_face_down_seen": Refusal(
            ("undo",),
            "you have seen face-down cards since that card (a widow taken, cards drawn from"
            " the stock, a rest): they cannot go back",
        ),
        "claim_no_tricks": Refusal(("claim",), "no tricks are being played now"),
        "claim_not_your_turn": Refusal(("claim",), "only on your turn"),
        "claim_variant": Refusal(("claim",), "claims are proved only with one deck and no widow"),
        "claim_paused": Refusal(
            ("claim",), "the game is paused (no person at the table): claim when a player is back"
        ),
        "hint_nothing_asked": Refusal(
            ("hint",), "nothing is asked of your seat (not your turn, your pass already made)"
        ),
        "hint_widow": Refusal(("hint",), "no hints for the widow discard"),
        "game_not_started": Refusal(
            ("pass_cards", "play_card", "discard", "moon_choice"), "the game has not started yet"
        ),
        "game_started": Refusal(("start_game",), "the game has already started"),
        "seats_fixed": Refusal(("take_seat",), "seats change only before the game starts"),
        "bots_fixed": Refusal(
            ("add_bot", "remove_bot"), "bots are added and removed only before the game starts"
        ),
        "rematch_not_yet": Refusal(("rematch",), "a rematch starts only after the game is over"),
        "no_hand_to_wait_for": Refusal(("ready",), "no hand is over: nothing to be ready for"),
        "knock_not_needed": Refusal(
            ("knock",), "this table lets anyone with the code sit: join it"
        ),
        "replay_not_finished": Refusal(
            ("get_replay",), "that hand of that game is not finished (it is being played)"
        ),
        "replay_unavailable": Refusal(
            ("get_replay",),
            "that hand cannot be replayed: the game or the hand does not exist, or its record"
            " cannot be read",
        ),
        "records_not_finished": Refusal(
            ("get_records",),
            "that game is not over: it is being played, has not begun, or there is no such game",
        ),
        "analysis_not_finished": Refusal(
            ("get_analysis", "get_accuracy"),
            "that hand (`get_analysis`) or game (`get_accuracy`) is not finished: it is being"
            " played, so it cannot be reviewed yet",
        ),
        "analysis_unavailable": Refusal(
            ("get_analysis", "get_accuracy"),
            "there is nothing to review: the game or the hand does not exist, or its record"
            " cannot be read",
        ),
    }
)
"""Every ``not_now`` reason: the requests that get it and what it means."""

LIMIT_REASONS: Mapping[str, Refusal] = MappingProxyType(
    {
        "player_budget": Refusal(
            ("create_table",),
            "`too_many_tables`: this player created its budget of tables in a short time",
        ),
        "address_budget": Refusal(
            ("create_table",),
            "`too_many_tables`: players at this client address created their budget of tables"
            " in a short time",
        ),
        "process_tables": Refusal(
            ("create_table",), "`server_full`: this server process runs as many tables as it may"
        ),
        "store_tables": Refusal(
            ("create_table",), "`server_full`: the store holds as many live tables as it may"
        ),
        "store_full": Refusal(
            ("create_table",),
            "`server_full`: the store is nearly full (memory or disk); new tables wait",
        ),
    }
)
"""The reasons of ``too_many_tables`` and ``server_full``: which budget or cap."""

__all__ = ["ERROR_CODES", "LIMIT_REASONS", "NOT_NOW_REASONS", "NotNowReason", "Refusal"]
