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

from engine.variants import VARIANTS
from protocol.common import MAX_TABLE_NAME_CHARS, RulesModel, SeatSpec

from ..cards import label
from ..i18n import Translator
from ..moon import moon_value
from ..widgets.toggles import OnOff

MAX_END_AT: Final = 1000  # RulesModel.end_at's bound

SPECS: Final[tuple[SeatSpec, ...]] = ("open", "easy", "medium", "hard")
CYCLES: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "lrah": ("left", "right", "across", "hold"),
        "larh": ("left", "across", "right", "hold"),
        "lrh": ("left", "right", "hold"),
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
FIRST_TRICKS: Final = ("no_points", "no_queen", "no_hearts", "anything")
MOONS: Final = ("add", "subtract", "choice", "jackpot", "transfer", "none")
BONUS_CARDS: Final = ("none", "JD", "TD")
# The turn timers a host may choose (seconds per move; the protocol's TurnSeconds).
TURN_TIMERS: Final = (15, 30, 60)


def moon_label(t: Translator, mode: str, variant: str, players: int) -> str:
    """A moon option as the form offers it, with the game's figures."""
    value = moon_value(variant, players)
    return t("host.moon_" + mode, n=value, total=value * (players - 1))


def turn_seconds(choice: str) -> int | None:
    """The ``turn_seconds`` of the form's turn-timer choice ("off": None)."""
    return None if choice == "off" else int(choice)


def cycles_for(variant: str, players: int) -> list[str]:
    """The pass cycles (keys of ``CYCLES``) a host may pick for ``variant``
    at ``players`` seats, its default first: across needs an even count; a
    variant without passing, or with a cycle of its own, offers only that."""
    v = VARIANTS[variant]
    if not v.passing:
        return ["none"]
    if variant == "greek":  # 3 cards to the right, every hand (fixed)
        return ["r"]
    usual = ["lrh", "l", "r", "none"] if players % 2 else ["lrah", "larh", "l", "r", "none"]
    if v.default_pass_cycle == ("right",):
        return ["r", *(c for c in usual if c != "r")]
    return usual


@dataclass(frozen=True)
class TableSpec:
    """What ``create_table`` needs."""

    name: str
    # the other seats in play order from the host's left (rules.players - 1)
    seats: tuple[SeatSpec, ...]
    rules: RulesModel
    public: bool
    approval: bool = False  # ask me before someone sits
    turn_seconds: int | None = None  # seconds per move, then a bot moves; None: no limit
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
        seats: tuple[SeatSpec, ...] = ("open", "open", "open"),
        rules: RulesModel | None = None,
        public: bool = False,
        approval: bool = False,
        turn_seconds: int | None = None,
    ) -> None:
        super().__init__()
        self.t = t
        self.initial = TableSpec(
            name, seats, rules or RulesModel(), public, approval, turn_seconds=turn_seconds
        )
        self._variant: str = self.initial.rules.variant  # the one the options fit

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
                yield Label(t("host.variant"))
                yield Select(
                    [(t("variant." + v), v) for v in VARIANTS],
                    value=rules.variant,
                    allow_blank=False,
                    id="variant",
                    compact=True,
                )
                yield Label(t("host.players"))
                yield Select(
                    self._player_options(rules.variant),
                    value=rules.players,
                    allow_blank=False,
                    id="players",
                    compact=True,
                )
                # Four seats: one choice per seat; any other count: one
                # choice for every other seat (changed one by one later, in
                # the waiting room's seat menus).
                yield Label(t("host.seat_all"), id="label-spec-all")
                yield Select(
                    [(t("spec." + s), s) for s in SPECS],
                    value=spec.seats[0] if spec.seats else "open",
                    allow_blank=False,
                    id="spec-all",
                    compact=True,
                )
                three = (*spec.seats, "open", "open", "open")[:3]
                for position, value in zip(("left", "across", "right"), three, strict=True):
                    yield Label(t("host.seat_" + position), id="label-spec-" + position)
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
                    value=_cycle_key(rules) if _cycle_key(rules) in CYCLES else "lrah",
                    allow_blank=False,
                    id="cycle",
                    compact=True,
                )
                yield Label(t("host.moon"))
                yield Select(
                    [(moon_label(t, m, rules.variant, rules.players), m) for m in MOONS],
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
                yield Label(t("host.turn_timer"))
                yield Select(
                    [(t("host.turn_off"), "off")]
                    + [(t("host.turn_seconds", n=n), str(n)) for n in TURN_TIMERS],
                    value=str(spec.turn_seconds) if spec.turn_seconds else "off",
                    allow_blank=False,
                    id="turn-timer",
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
        variant = str(self.query_one("#variant", Select).value)
        players = int(str(self.query_one("#players", Select).value))
        if players == 4:
            seats = tuple(
                self.query_one(f"#spec-{p}", Select).value for p in ("left", "across", "right")
            )
        else:
            seats = (self.query_one("#spec-all", Select).value,) * (players - 1)
        rules = self.initial.rules.model_dump()
        rules["variant"], rules["players"] = variant, players
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
            turn_seconds=turn_seconds(str(self.query_one("#turn-timer", Select).value)),
        )

    def _error(self, sentence: str) -> None:
        self.query_one("#form-error", Static).update(
            Text("✕ " + sentence, style=Style(color="red", bold=True))
        )

    def on_select_changed(self, event: Select.Changed) -> None:
        """The number of hands counts only for "after a number of hands"; a
        variant offers its own seat counts and options."""
        if event.select.id == "end":
            self.query_one("#hands", Input).disabled = event.value != "hands"
        elif event.select.id in ("variant", "players"):
            # A select also says "changed" when it is first drawn: only a
            # new variant resets the options to the variant's defaults.
            variant = str(self.query_one("#variant", Select).value)
            self._fit_variant(variant_changed=variant != self._variant)

    def on_mount(self) -> None:
        """Offer what the first variant allows."""
        self._fit_variant(variant_changed=False)

    def _player_options(self, variant: str) -> list[tuple[str, int]]:
        return [(self.t("host.players_n", n=n), n) for n in VARIANTS[variant].players]

    def _offer(self, select_id: str, options: list[tuple[str, str]], default: str | None) -> None:
        """Refill a select; keep its value when it is still offered. One
        choice (the variant fixes it) is shown but cannot be changed."""
        select: Select[str] = self.query_one("#" + select_id, Select)
        old = select.value
        values = [v for _, v in options]
        keep = old if old in values and default is None else default or values[0]
        select.set_options(options)
        select.value = keep if keep in values else values[0]
        # The same value again is no change to Textual: redraw its label
        # anyway, which may have new figures (the moon's value).
        select.mutate_reactive(Select.value)  # type: ignore[misc]  # the reactive itself, not a value
        select.disabled = len(values) == 1

    def _fit_variant(self, *, variant_changed: bool) -> None:
        t = self.t
        variant = str(self.query_one("#variant", Select).value)
        self._variant = variant
        v = VARIANTS[variant]
        players_select: Select[int] = self.query_one("#players", Select)
        counts = list(v.players)
        if variant_changed or players_select.value not in counts:
            players_select.set_options(self._player_options(variant))
            players_select.value = v.default_players
        players_select.disabled = len(counts) == 1
        players = int(str(players_select.value))
        cycles = cycles_for(variant, players)
        self._offer(
            "cycle",
            [(t("host.cycle_" + c), c) for c in cycles],
            cycles[0] if variant_changed else None,
        )
        # The figures follow the game: Spot's moon is worth 104, a Greek
        # shooter takes 26 from each of the others.
        moons = [(moon_label(t, m, variant, players), m) for m in v.moons]
        self._offer("moon", moons, None)
        self._offer("first-trick", [(t("host.first_" + f), f) for f in v.first_tricks], None)
        bonus = [b or "none" for b in v.bonus_cards]
        self._offer(
            "bonus",
            [
                (t("host.bonus_none") if b == "none" else t("host.bonus_card", card=label(b)), b)
                for b in bonus
            ],
            bonus[0] if variant_changed else None,
        )
        four = players == 4
        for position in ("left", "across", "right"):
            self.query_one("#spec-" + position, Select).display = four
            self.query_one("#label-spec-" + position, Label).display = four
        self.query_one("#spec-all", Select).display = not four
        self.query_one("#label-spec-all", Label).display = not four

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
            seats: tuple[SeatSpec, ...] = tuple("medium" if s == "open" else s for s in spec.seats)
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
