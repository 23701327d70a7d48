"""The host's form: name the table, fill the other seats (open for players
or a bot of a level) and choose every rule of ``RulesModel`` the table
offers (passing, the moon, the first trick, the end of the game, a bonus
card, Q♠ breaking hearts), whether the table is listed in the lobby and
whether the host approves who sits ("ask me before someone sits": a
player with only the code knocks, one with the invite link sits at once);
then the table is created."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import ClassVar, Final

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from protocol.common import MAX_TABLE_NAME_CHARS, RulesModel, SeatSpec

from ..cards import label
from ..i18n import Translator
from ..widgets.toggles import OnOff

MAX_END_AT: Final = 1000  # RulesModel.end_at's bound

SPECS: Final[tuple[SeatSpec, ...]] = ("open", "easy", "medium", "hard")
CYCLES: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "lrah": ("left", "right", "across", "hold"),
        "larh": ("left", "across", "right", "hold"),
        "l": ("left",),
        "r": ("right",),
        "none": ("hold",),
    }
)
ENDS: Final[Mapping[str, tuple[str, int]]] = MappingProxyType(
    {
        "p100": ("points", 100),
        "p50": ("points", 50),
    }
)
HANDS_DEFAULT: Final = 8
FIRST_TRICKS: Final = ("no_points", "no_queen", "anything")
BONUS_CARDS: Final = ("none", "JD", "TD")


@dataclass(frozen=True)
class TableSpec:
    """What ``create_table`` needs."""

    name: str
    seats: tuple[SeatSpec, SeatSpec, SeatSpec]
    rules: RulesModel
    public: bool
    approval: bool = False  # ask me before someone sits
    start: bool = False  # start at once (play vs bots): open seats get Medium bots


def _cycle_key(rules: RulesModel) -> str:
    for key, cycle in CYCLES.items():
        if tuple(rules.pass_cycle) == cycle:
            return key
    return "lrah"


def _end_key(rules: RulesModel) -> str:
    """``p100``, ``p50``, ``hands`` (any number), or ``custom`` points."""
    if rules.end == "hands":
        return "hands"
    for key, (end, at) in ENDS.items():
        if (rules.end, rules.end_at) == (end, at):
            return key
    return "custom"


def parse_hands(text: str) -> int | None:
    """The number of hands typed in the form, if it is one the rules take."""
    try:
        n = int(text.strip())
    except ValueError:
        return None
    return n if 1 <= n <= MAX_END_AT else None


class HostSetupScreen(Screen[TableSpec | None]):
    """Create a table."""

    DEFAULT_CSS = """
    HostSetupScreen { align: center middle; }
    HostSetupScreen > Vertical {
        width: 76; max-width: 100%; height: auto; border: thick $accent; padding: 0 1;
    }
    HostSetupScreen .title { text-style: bold; width: 1fr; content-align: center middle; }
    HostSetupScreen Grid {
        grid-size: 2; grid-columns: 24 1fr; grid-rows: 1; grid-gutter: 0 1; height: auto;
    }
    HostSetupScreen #buttons { height: auto; align: center middle; margin-top: 1; }
    HostSetupScreen Button { margin: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", show=False),
        Binding("ctrl+s", "create", show=False),
        Binding("ctrl+b", "bots", show=False),
    ]

    def __init__(
        self,
        t: Translator,
        name: str = "",
        seats: tuple[SeatSpec, SeatSpec, SeatSpec] = ("open", "open", "open"),
        rules: RulesModel | None = None,
        public: bool = False,
        approval: bool = False,
    ) -> None:
        super().__init__()
        self.t = t
        self.initial = TableSpec(name, seats, rules or RulesModel(), public, approval)

    def compose(self) -> ComposeResult:
        """The form."""
        t = self.t
        spec = self.initial
        rules = spec.rules
        end = _end_key(rules)
        ends = [(t("host.end_" + key), key) for key in (*ENDS, "hands")]
        if end == "custom":
            ends.append((t("lobby.end_points", n=rules.end_at), "custom"))
        hands = str(rules.end_at if end == "hands" else HANDS_DEFAULT)
        bonus = [(t("host.bonus_none"), "none")] + [
            (t("host.bonus_card", card=label(c)), c) for c in BONUS_CARDS[1:]
        ]
        with Vertical():
            yield Static(t("host.title"), classes="title")
            with Grid():
                yield Label(t("host.name"))
                yield Input(
                    spec.name,
                    placeholder=t("host.name_hint"),
                    max_length=MAX_TABLE_NAME_CHARS,
                    id="name",
                    compact=True,
                )
                for position, value in zip(("left", "across", "right"), spec.seats, strict=True):
                    yield Label(t("host.seat_" + position))
                    yield Select(
                        [(t("spec." + s), s) for s in SPECS],
                        value=value,
                        allow_blank=False,
                        id="spec-" + position,
                        compact=True,
                    )
                yield Label(t("host.pass"))
                yield Select(
                    [(t("host.cycle_" + key), key) for key in CYCLES],
                    value=_cycle_key(rules),
                    allow_blank=False,
                    id="cycle",
                    compact=True,
                )
                yield Label(t("host.moon"))
                yield Select(
                    [(t("host.moon_" + m), m) for m in ("add", "subtract", "choice")],
                    value=rules.moon,
                    allow_blank=False,
                    id="moon",
                    compact=True,
                )
                yield Label(t("host.first_trick"))
                yield Select(
                    [(t("host.first_" + k), k) for k in FIRST_TRICKS],
                    value=rules.first_trick,
                    allow_blank=False,
                    id="first-trick",
                    compact=True,
                )
                yield Label(t("host.end"))
                yield Select(ends, value=end, allow_blank=False, id="end", compact=True)
                yield Label(t("host.hands"))
                yield Input(
                    hands,
                    type="integer",
                    max_length=4,
                    id="hands",
                    compact=True,
                    disabled=end != "hands",
                )
                yield Label(t("host.bonus"))
                yield Select(
                    bonus,
                    value=rules.bonus_card or "none",
                    allow_blank=False,
                    id="bonus",
                    compact=True,
                )
                yield Label("")
                yield OnOff(t("host.queen"), rules.queen_breaks_hearts, id="queen", compact=True)
                yield Label("")
                yield OnOff(t("host.public"), spec.public, id="public", compact=True)
                yield Label("")
                yield OnOff(t("host.approval"), spec.approval, id="approval", compact=True)
            yield Static(id="form-error")
            yield Static(t("host.hint"), classes="hint")
            with Horizontal(id="buttons"):
                yield Button(t("btn.create"), id="create", variant="primary", compact=True)
                yield Button(t("btn.bots"), id="bots", variant="success", compact=True)
                yield Button(t("btn.cancel"), id="cancel", compact=True)

    def spec(self) -> TableSpec | None:
        """The table the form describes; None (and a line saying why) when
        the number of hands is not one."""
        seats = tuple(
            self.query_one(f"#spec-{p}", Select).value for p in ("left", "across", "right")
        )
        rules = self.initial.rules.model_dump()
        rules["pass_cycle"] = CYCLES[str(self.query_one("#cycle", Select).value)]
        rules["moon"] = self.query_one("#moon", Select).value
        rules["first_trick"] = self.query_one("#first-trick", Select).value
        end = str(self.query_one("#end", Select).value)
        if end in ENDS:
            rules["end"], rules["end_at"] = ENDS[end]
        elif end == "hands":
            hands = parse_hands(self.query_one("#hands", Input).value)
            if hands is None:
                self._error(self.t("host.hands_bad", max=MAX_END_AT))
                return None
            rules["end"], rules["end_at"] = "hands", hands
        bonus = str(self.query_one("#bonus", Select).value)
        rules["bonus_card"] = None if bonus == "none" else bonus
        rules["queen_breaks_hearts"] = self.query_one("#queen", Checkbox).value
        return TableSpec(
            name=self.query_one("#name", Input).value.strip(),
            seats=seats,  # type: ignore[arg-type]  # the selects offer only seat specs
            rules=RulesModel.model_validate(rules),
            public=self.query_one("#public", Checkbox).value,
            approval=self.query_one("#approval", Checkbox).value,
        )

    def _error(self, sentence: str) -> None:
        self.query_one("#form-error", Static).update(
            Text("✕ " + sentence, style=Style(color="red", bold=True))
        )

    def on_select_changed(self, event: Select.Changed) -> None:
        """The number of hands counts only for "after a number of hands"."""
        if event.select.id == "end":
            self.query_one("#hands", Input).disabled = event.value != "hands"

    def action_create(self) -> None:
        """Create the table (unless the form says what is wrong)."""
        spec = self.spec()
        if spec is not None:
            self.dismiss(spec)

    def action_bots(self) -> None:
        """Play against bots at once: the open seats get Medium bots, the
        table is private and starts as soon as it is created."""
        spec = self.spec()
        if spec is not None:
            bots = tuple("medium" if s == "open" else s for s in spec.seats)
            seats: tuple[SeatSpec, SeatSpec, SeatSpec] = (bots[0], bots[1], bots[2])
            self.dismiss(replace(spec, seats=seats, public=False, approval=False, start=True))

    def action_cancel(self) -> None:
        """Leave without a table."""
        self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the name (or hands) field creates the table."""
        self.action_create()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Create, play vs bots, or cancel."""
        if event.button.id == "create":
            self.action_create()
        elif event.button.id == "bots":
            self.action_bots()
        else:
            self.action_cancel()
