"""The statistics screen: games, wins, average points and moons, per
difficulty and per variant (``client/tui/stats.py`` keeps them)."""

from __future__ import annotations

from typing import ClassVar, Final

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from protocol.common import RulesModel

from ..cards import label
from ..i18n import Translator
from ..moon import option_params
from ..stats import DIFFICULTIES, STANDARD, Stats, Tally, variant_rules

LABEL_WIDTH: Final = 34
NUMBER_WIDTH: Final = 8
HEAD: Final = Style(bold=True)


def variant_label(t: Translator, key: str) -> str:
    """A variant as the rules that differ from the standard game."""
    if key == STANDARD:
        return t("stats.standard")
    rules = variant_rules(key)
    if rules is None:
        return t("stats.unknown_variant")
    standard = RulesModel()
    parts: list[str] = []
    if rules.pass_cycle != standard.pass_cycle:
        cycle = ", ".join(t("dir." + d) for d in rules.pass_cycle)
        parts.append(t("lobby.pass_cycle", cycle=cycle))
    if rules.moon != standard.moon:
        parts.append(t("lobby.moon_" + rules.moon, **option_params(rules, rules.moon)))
    if (rules.end, rules.end_at) != (standard.end, standard.end_at):
        key_end = "lobby.end_points" if rules.end == "points" else "lobby.end_hands"
        parts.append(t(key_end, n=rules.end_at))
    if rules.first_trick != standard.first_trick:
        parts.append(t("lobby.first_trick_" + rules.first_trick))
    if rules.queen_breaks_hearts:
        parts.append(t("lobby.queen_breaks"))
    if rules.bonus_card is not None:
        parts.append(t("lobby.bonus", card=label(rules.bonus_card)))
    return " · ".join(parts)


def _cell(text: str, width: int, right: bool = False) -> str:
    if cell_len(text) > width:
        text = text[: width - 1] + "…"
    pad = " " * (width - cell_len(text))
    return pad + text if right else text + pad


def tally_row(t: Translator, name: str, tally: Tally) -> Text:
    """One line: the row's name, games, wins, average points, moons."""
    numbers = (str(tally.games), str(tally.wins), t.decimal(tally.average, 1), str(tally.moons))
    row = Text(_cell(name, LABEL_WIDTH))
    for number in numbers:
        row.append(_cell(number, NUMBER_WIDTH, right=True))
    return row


def header(t: Translator, title: str) -> Text:
    """A section's title and the column names."""
    row = Text(_cell(title, LABEL_WIDTH), style=Style(bold=True, color="yellow"))
    for key in ("stats.col_games", "stats.col_wins", "stats.col_average", "stats.col_moons"):
        row.append(_cell(t(key), NUMBER_WIDTH, right=True), style=HEAD)
    return row


def stats_text(t: Translator, stats: Stats) -> Text:
    """Both tables, or a sentence when no game has been counted yet."""
    whole = stats.total()
    if not whole.games:
        return Text(t("stats.none"))
    lines = [header(t, t("stats.by_difficulty"))]
    for difficulty in DIFFICULTIES:
        tally = stats.by_difficulty.get(difficulty)
        if tally is not None:
            lines.append(tally_row(t, t("stats.difficulty." + difficulty), tally))
    total = tally_row(t, t("stats.all"), whole)
    total.stylize(HEAD)
    lines.append(total)
    lines.append(Text())
    lines.append(header(t, t("stats.by_variant")))
    ordered = sorted(stats.by_variant.items(), key=lambda kv: (kv[0] != STANDARD, -kv[1].games))
    for key, tally in ordered:
        lines.append(tally_row(t, variant_label(t, key), tally))
    return Text("\n").join(lines)


class StatsScreen(ModalScreen[None]):
    """Your games so far."""

    DEFAULT_CSS = """
    StatsScreen { align: center middle; background: $background 60%; }
    StatsScreen > Vertical {
        width: 72; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    StatsScreen .title { text-style: bold; width: 1fr; content-align: center middle; }
    StatsScreen VerticalScroll { height: auto; max-height: 18; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f3,enter", "close", show=False),
    ]

    def __init__(self, t: Translator, stats: Stats) -> None:
        super().__init__()
        self.t = t
        self.stats = stats

    def compose(self) -> ComposeResult:
        """The title, the tables, where they are kept."""
        t = self.t
        with Vertical():
            yield Static(t("stats.title"), classes="title")
            with VerticalScroll(id="stats-body"):
                yield Static(stats_text(t, self.stats))
            yield Static(Text(t("stats.note"), style=Style(dim=True)))
            yield Static(Text(t("stats.close"), style=Style(dim=True)))

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)
