"""The host's menu for a seat: before the game put a bot of a level on an
open seat, change a bot's level or take it away, or remove a player; at any
time let a removed player back (``allow_back``).

``1`` ``2`` ``3`` on the table screen open it for the left, across and right
seat (once the game has started, only to let removed players back). Each
choice has a letter (``e`` ``m`` ``h`` a bot level, ``o`` open the seat,
``k`` remove the player, ``a`` ``b`` ``c``… let a removed player back) and
the list also takes ↑↓ and Enter. ``run_seat_choice`` sends the requests; a
refusal lands in the notice line with the server's reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final, Literal

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from protocol import client_messages as cm
from protocol.common import BotLevel
from protocol.view import KickedPlayer, SeatInfo

from ..i18n import Translator
from .dialogs import Dialog

if TYPE_CHECKING:
    from ..table_client import TableClient

LEVEL_KEYS: Final[tuple[tuple[str, BotLevel], ...]] = (
    ("e", "easy"),
    ("m", "medium"),
    ("h", "hard"),
)

# Letters of "let … back", one per removed player (none a seat choice uses).
ALLOW_BACK_KEYS: Final = "abcdfgijlnpqrstuvwxyz"

Action = Literal["add_bot", "change_bot", "remove_bot", "kick", "allow_back"]


@dataclass(frozen=True)
class SeatChoice:
    """What the host chose for a seat (or for a removed player)."""

    action: Action
    level: BotLevel | None = None
    player: KickedPlayer | None = None  # allow_back: who


def seat_choices(info: SeatInfo | None) -> list[tuple[str, SeatChoice]]:
    """The choices a seat offers, each with its key letter (none without a seat)."""
    if info is None:
        return []
    if info.kind == "open":
        return [(key, SeatChoice("add_bot", level)) for key, level in LEVEL_KEYS]
    if info.kind == "bot":
        levels = [(k, SeatChoice("change_bot", lv)) for k, lv in LEVEL_KEYS if lv != info.bot_level]
        return [*levels, ("o", SeatChoice("remove_bot"))]
    return [("k", SeatChoice("kick"))]


def allow_back_choices(kicked: Sequence[KickedPlayer]) -> list[tuple[str, SeatChoice]]:
    """One "let … back" per removed player, lettered a, b, c…"""
    return [
        (key, SeatChoice("allow_back", player=player))
        for key, player in zip(ALLOW_BACK_KEYS, kicked, strict=False)
    ]


def choice_label(t: Translator, choice: SeatChoice, info: SeatInfo | None) -> str:
    """How a choice reads in the menu."""
    if choice.level is not None:
        return t("spec." + choice.level)
    if choice.action == "remove_bot":
        return t("seatmenu.open")
    if choice.player is not None:
        return t("seatmenu.allow_back", name=choice.player.name)
    return t("seatmenu.kick", name=info.name if info is not None else "")


async def run_seat_choice(client: TableClient, seat: int, choice: SeatChoice) -> None:
    """Send what the choice needs (a bot's level changes by taking it away
    and seating another: the protocol has no "change")."""
    level, player = choice.level, choice.player
    if choice.action == "kick":
        await client.send(lambda rid: cm.Kick(id=rid, seat=seat))
    elif player is not None:
        await client.send(lambda rid: cm.AllowBack(id=rid, player_id=player.player_id))
    elif choice.action == "remove_bot":
        await client.send(lambda rid: cm.RemoveBot(id=rid, seat=seat))
    elif level is not None:
        if choice.action == "change_bot" and not await client.send(
            lambda rid: cm.RemoveBot(id=rid, seat=seat)
        ):
            return
        await client.send(lambda rid: cm.AddBot(id=rid, seat=seat, level=level))


class SeatMenu(ModalScreen[SeatChoice | None]):
    """A seat's choices; a letter or Enter picks one, Esc closes."""

    DEFAULT_CSS = (
        Dialog.DEFAULT_CSS.replace("Dialog", "SeatMenu").replace("width: 72;", "width: 48;")
        + "SeatMenu OptionList { height: auto; max-height: 8; }"
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", show=False)]

    def __init__(
        self,
        t: Translator,
        title: str,
        info: SeatInfo | None,
        kicked: Sequence[KickedPlayer] = (),
    ) -> None:
        super().__init__()
        self.t = t
        self.title_text = title
        self.info = info
        self.choices = seat_choices(info) + allow_back_choices(kicked)

    def compose(self) -> ComposeResult:
        """Title, the choices, a hint."""
        t = self.t
        options = [
            Option(Text(f"{key}  ") + Text(choice_label(t, choice, self.info)), id=key)
            for key, choice in self.choices
        ]
        with Vertical():
            yield Static(self.title_text, classes="title")
            yield OptionList(*options, id="seat-choices")
            yield Static(Text(t("seatmenu.hint"), style=Style(dim=True)))

    def choose(self, key: str) -> None:
        """Close with the choice of letter ``key``."""
        for letter, choice in self.choices:
            if letter == key:
                self.dismiss(choice)
                return

    def on_key(self, event: events.Key) -> None:
        """A choice's letter."""
        if any(letter == event.key for letter, _ in self.choices):
            event.stop()
            self.choose(event.key)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter or a click on a choice."""
        self.choose(event.option.id or "")

    def action_close(self) -> None:
        """Nothing changes."""
        self.dismiss(None)
