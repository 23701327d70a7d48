"""Cards as small ints, hands as bitmasks.

A card is ``suit * 13 + rank`` where suits are ordered clubs, diamonds,
hearts, spades (0..3) and ranks 2..A are 0..12. So the natural int order is
the display order docs/rules.md asks for (suit C, D, H, S, then rank), and within
one suit a higher int is a higher card: the trick winner is a plain ``max``
over the cards of the led suit.

A set of cards is an int with bit ``card`` set. Following suit is a mask test
(``hand & SUIT_MASKS[suit]``); no objects are built in the hot paths.

Two decks (Cancellation Hearts): the second copy of card ``c`` is ``c + 52``,
so hands stay int bitmasks (of 104 bits) and every copy keeps its identity
through records and views. Its text is the one-deck text with a ``2``
appended (``QS2``: the second Q♠), so one-deck text is unchanged;
``SUIT_OF``, ``RANK_OF`` and ``BASE_OF`` cover both copies, and
``SUIT_MASKS2`` are the two-deck suit masks (follow suit stays one test).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_LETTERS = "23456789TJQKA"
RANK_DISPLAY = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_NAMES = (
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)

SUIT_MASK13 = (1 << 13) - 1
SUIT_MASKS: tuple[int, int, int, int] = (
    SUIT_MASK13,
    SUIT_MASK13 << 13,
    SUIT_MASK13 << 26,
    SUIT_MASK13 << 39,
)
FULL_DECK = (1 << 52) - 1
HEARTS_MASK = SUIT_MASKS[HEARTS]

TWO_CLUBS = 0
TEN_DIAMONDS = DIAMONDS * 13 + 8
JACK_DIAMONDS = DIAMONDS * 13 + 9
QUEEN_SPADES = SPADES * 13 + 10
KING_SPADES = SPADES * 13 + 11
ACE_SPADES = SPADES * 13 + 12
QUEEN_SPADES_BIT = 1 << QUEEN_SPADES

# Two decks: copy 2 of card c is c + DECK_SIZE.
DECK_SIZE = 52
CARD_LIMIT = 2 * DECK_SIZE  # every card int of either copy is below this
SECOND_COPY = DECK_SIZE
SUIT_MASKS2: tuple[int, int, int, int] = (
    SUIT_MASKS[0] | SUIT_MASKS[0] << 52,
    SUIT_MASKS[1] | SUIT_MASKS[1] << 52,
    SUIT_MASKS[2] | SUIT_MASKS[2] << 52,
    SUIT_MASKS[3] | SUIT_MASKS[3] << 52,
)
FULL_DECK2 = (1 << CARD_LIMIT) - 1

# SUIT_OF[card] and RANK_OF[card] (either copy): table lookups beat divmod in
# the hot loop. BASE_OF[card] is the one-deck card of either copy.
SUIT_OF: tuple[int, ...] = tuple(c % 52 // 13 for c in range(CARD_LIMIT))
RANK_OF: tuple[int, ...] = tuple(c % 13 for c in range(CARD_LIMIT))
BASE_OF: tuple[int, ...] = tuple(c % 52 for c in range(CARD_LIMIT))

# RANKS_IN[m] for a 13-bit suit mask m: the ranks set in it, ascending. Lets a
# rollout pick a random card of one suit with one lookup and one index.
RANKS_IN: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(13) if m >> r & 1) for m in range(1 << 13)
)


# The wire text of every card, and the card of every wire text: views,
# records and bots turn cards into text and back thousands of times a second.
CARD_TEXTS: tuple[str, ...] = tuple(
    RANK_LETTERS[c % 13] + SUIT_LETTERS[c % 52 // 13] + ("2" if c >= 52 else "")
    for c in range(CARD_LIMIT)
)
_CARD_OF_TEXT: dict[str, int] = {text: c for c, text in enumerate(CARD_TEXTS)}


def card(text: str) -> int:
    """Parse ``"QS"``, ``"TD"``, ``"10D"`` or ``"Q♠"`` into a card int; a
    trailing ``2`` names the second deck's copy (``"QS2"``, ``"10♦2"``).

    Raises ``ValueError`` with a readable sentence for anything else.
    """
    found = _CARD_OF_TEXT.get(text) if isinstance(text, str) else None
    if found is not None:  # the wire form, by far the most common
        return found
    if not isinstance(text, str) or not 2 <= len(text) <= 4:
        raise ValueError(f"unknown card {text!r}")
    copy = 0
    body = text
    if len(text) >= 3 and text[-1] == "2" and not text[-2].isdigit():
        copy, body = 52, text[:-1]  # "QS2", "10D2", "Q♠2"; "102" is no card
    found = _one_deck_card(body) if 2 <= len(body) <= 3 else None
    if found is None:
        raise ValueError(f"unknown card {text!r}")
    return copy + found


def _one_deck_card(body: str) -> int | None:
    """A rank ("10" or one letter, any case) and a suit letter or symbol."""
    rank_text = body[:-1].upper()
    if rank_text == "10":
        rank_text = "T"
    rank = RANK_LETTERS.find(rank_text) if len(rank_text) == 1 else -1
    suit = SUIT_LETTERS.find(body[-1].upper())
    if suit < 0:
        suit = SUIT_SYMBOLS.find(body[-1])
    return suit * 13 + rank if rank >= 0 and suit >= 0 else None


def card_text(c: int) -> str:
    """The wire text of a card: ``"QS"``, ``"TD"``; ``"QS2"`` for the second copy."""
    return CARD_TEXTS[c]


def card_label(c: int) -> str:
    """The short display form used in messages: ``"Q♠"``, ``"10♦"``;
    ``"Q♠²"`` for the second deck's copy."""
    label = RANK_DISPLAY[c % 13] + SUIT_SYMBOLS[c % 52 // 13]
    return label + "²" if c >= 52 else label


def card_name(c: int) -> str:
    """The spoken form: ``"Queen of spades"`` (``"… (second deck)"``)."""
    name = f"{RANK_NAMES[c % 13]} of {SUIT_NAMES[c % 52 // 13]}"
    return name + " (second deck)" if c >= 52 else name


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask holding ``cards``."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """The cards in ``mask``, ascending (suit C, D, H, S, then rank)."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_cards(mask: int) -> Iterator[int]:
    """Iterate the cards in ``mask`` in ascending order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def distinct_moves(legal: int, others: int, loners: int) -> list[int]:
    """One card per class of interchangeable cards of ``legal``, ascending.

    Two cards of ``legal`` adjacent in a suit with no card of ``others``
    between them win or lose the same tricks, so a search need try only
    the lower (the endgame solver and the claim check both prune so). A
    card of ``loners`` (one whose points or hearts-breaking differ from its
    neighbours') always stands alone.
    """
    moves: list[int] = []
    prev = -1
    m = legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        if (
            prev >= 0
            and SUIT_OF[prev] == SUIT_OF[c]
            and not others & ((1 << c) - (2 << prev))
            and not (1 << c | 1 << prev) & loners
        ):
            prev = c
            continue
        moves.append(c)
        prev = c
    return moves


def parse_cards(texts: Iterable[str]) -> list[int]:
    """Parse a list of card texts; raises ``ValueError`` on the first bad one."""
    return [card(t) for t in texts]


def texts_of(mask: int) -> list[str]:
    """Wire texts of the cards in ``mask``, in display order."""
    return [card_text(c) for c in cards_of(mask)]
