"""What each seat is called: one name per seat that every viewer is sent.

A seat's ``name`` is the same in every view of the table (``SeatInfo.name``),
so friends at one table, and programs, call each seat the same. People sit
under the name their hello gave; a second person with a name already at the
table is told apart by a number ("Alex 2"). Bots are given a name from
``BOT_NAMES`` when they take a seat, chosen from the table's seed and the
seat's number (``bot_name``): the same table gives the same seat the same
bot name every time (a bot removed and added again is the same bot), a
restart keeps it (the name is stored with the seat), and no two seats share
one, nor does a bot ever take a name someone at the table already has.

The names are first names that are written and read the same way by
English, Ukrainian and Russian speakers (each is common to the three), so
no client translates them: a name is a name in every language, as a
person's is.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Final

# Twenty-four names, more than the nine bots a ten-seat table can hold, so a
# free one is always left however many people share them. In the order the
# seed's choice walks (it starts at a seeded place and takes the first free).
BOT_NAMES: Final = (
    "Anna",
    "Boris",
    "Clara",
    "Daria",
    "Emil",
    "Felix",
    "Greta",
    "Igor",
    "Ivan",
    "Lena",
    "Marta",
    "Maxim",
    "Nadia",
    "Nina",
    "Oleg",
    "Olga",
    "Oscar",
    "Pavel",
    "Roman",
    "Sofia",
    "Taras",
    "Vera",
    "Victor",
    "Zoya",
)

# What bots were called before each had a name of its own: tables stored
# then get their bots named when loaded (``name_legacy_bots``).
LEGACY_BOT_NAMES: Final = frozenset({"Easy bot", "Medium bot", "Hard bot"})


def _key(name: str) -> str:
    """Names are compared as people read them: case and outer spaces aside."""
    return name.strip().casefold()


def bot_name(seed: int, seat: int, taken: Iterable[str]) -> str:
    """The name a bot taking ``seat`` at the table of ``seed`` gets: the
    seat's own choice among ``BOT_NAMES`` (from the seed and the seat, so it
    is the same every time), or the next free one after it when someone at
    the table (``taken``: the other seats' names) already has it."""
    used = {_key(n) for n in taken}
    start = random.Random(f"bot-name:{seed}:{seat}").randrange(len(BOT_NAMES))
    for k in range(len(BOT_NAMES)):
        name = BOT_NAMES[(start + k) % len(BOT_NAMES)]
        if _key(name) not in used:
            return name
    # More names taken than the list holds (only people can take them: a
    # table has at most nine bots): a number tells this one apart.
    return unique_name(BOT_NAMES[start], taken)


def unique_name(name: str, taken: Iterable[str]) -> str:
    """``name``, or, when a seat at the table (``taken``) is called that
    already, ``name`` with the first number that makes it unique ("Alex 2")."""
    used = {_key(n) for n in taken}
    if _key(name) not in used:
        return name
    number = 2
    while _key(f"{name} {number}") in used:
        number += 1
    return f"{name} {number}"
