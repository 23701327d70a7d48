"""The rules in the terminal: the game, every table option (this table's
choice marked), tips, and the other seat counts and games (the variants).
Four pages, ``1`` to ``4`` (or ←→ on the tabs) to switch, ↑↓ PgUp PgDn to scroll, Esc to close."""

from __future__ import annotations

from typing import ClassVar, Final

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static, TabbedContent, TabPane

from protocol.common import RulesModel

from ..cards import label
from ..i18n import Translator
from ..moon import option_params
from ..widgets.lobby import rules_text

PAGES: Final = ("rules-game", "rules-options", "rules-tips", "rules-variants")
# Each table option and the catalog keys of its choices, in the host form's order.
OPTIONS: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    ("pass_cycle", ("standard", "lacr", "left", "right", "none")),
    ("moon", ("add", "subtract", "choice")),
    ("first_trick", ("no_points", "no_queen", "anything")),
    ("queen_breaks_hearts", ("no", "yes")),
    ("end", ("points", "hands")),
    ("bonus_card", ("none", "JD", "TD")),
)
PASS_CYCLES: Final = {
    ("left", "right", "across", "hold"): "standard",
    ("left", "across", "right", "hold"): "lacr",
    ("left",): "left",
    ("right",): "right",
    ("hold",): "none",
}
HEADING: Final = Style(bold=True, color="yellow")
CHOSEN: Final = Style(bold=True, color="green")


def chosen_choices(rules: RulesModel) -> dict[str, str]:
    """The choice of each option at a table with ``rules``."""
    return {
        "pass_cycle": PASS_CYCLES.get(tuple(rules.pass_cycle), ""),
        "moon": rules.moon,
        "first_trick": rules.first_trick,
        "queen_breaks_hearts": "yes" if rules.queen_breaks_hearts else "no",
        "end": rules.end,
        "bonus_card": rules.bonus_card or "none",
    }


def paragraphs(t: Translator, key: str) -> Text:
    """A page's text: paragraphs separated by blank lines, a line that
    starts with ``#`` as a heading."""
    out = Text()
    for i, line in enumerate(t(key).split("\n")):
        if i:
            out.append("\n")
        if line.startswith("# "):
            out.append(line[2:], style=HEADING)
        else:
            out.append(line)
    return out


def options_text(t: Translator, rules: RulesModel | None) -> Text:
    """Every table option with what each choice does; this table's choices
    marked ✓ (when there is a table)."""
    out = Text()
    if rules is not None:
        out.append(t("rules.this_table", rules=rules_text(t, rules)), style=Style(bold=True))
        out.append("\n\n")
    out.append(t("rules.options_intro"))
    chosen = chosen_choices(rules) if rules is not None else {}
    for option, choices in OPTIONS:
        out.append("\n\n")
        out.append(t(f"rules.opt.{option}"), style=HEADING)
        for choice in choices:
            mark = "✓" if chosen.get(option) == choice else "·"
            out.append("\n")
            out.append(f" {mark} ", style=CHOSEN if mark == "✓" else Style(dim=True))
            # The moon's figures are this table's (26 without a table).
            params = option_params(rules, choice) if option == "moon" else {}
            text = t(f"rules.opt.{option}.{choice}", **params)
            out.append(text, style=CHOSEN if mark == "✓" else Style())
    if rules is not None and rules.bonus_card is not None:
        out.append("\n\n")
        out.append(t("rules.bonus_here", card=label(rules.bonus_card)))
    return out


class RulesScreen(ModalScreen[None]):
    """The rules of the game, the table options and tips."""

    DEFAULT_CSS = """
    RulesScreen { align: center middle; background: $background 60%; }
    RulesScreen > Vertical {
        width: 100; max-width: 100%; height: 100%;
        border: thick $accent; background: $surface;
    }
    RulesScreen .title { text-style: bold; width: 1fr; content-align: center middle; }
    RulesScreen TabbedContent { height: 1fr; }
    RulesScreen TabPane { height: 1fr; padding: 0; }
    RulesScreen VerticalScroll { height: 1fr; padding: 0 1; }
    RulesScreen #rules-keys { height: 1; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f2", "close", show=False),
        Binding("1", "page(0)", show=False),
        Binding("2", "page(1)", show=False),
        Binding("3", "page(2)", show=False),
        Binding("4", "page(3)", show=False),
    ]

    def __init__(self, t: Translator, rules: RulesModel | None) -> None:
        super().__init__()
        self.t = t
        self.rules = rules

    def compose(self) -> ComposeResult:
        """The title, three pages and the keys."""
        t = self.t
        texts = (
            paragraphs(t, "rules.game"),
            options_text(t, self.rules),
            paragraphs(t, "rules.tips"),
            paragraphs(t, "rules.variants"),
        )
        titles = ("rules.tab_game", "rules.tab_options", "rules.tab_tips", "rules.tab_variants")
        with Vertical():
            yield Static(t("rules.title"), classes="title")
            with TabbedContent(initial=PAGES[0]):
                for page, title, text in zip(PAGES, titles, texts, strict=True):
                    number = PAGES.index(page) + 1
                    with (
                        TabPane(f"{number} {t(title)}", id=page),
                        VerticalScroll(id=page + "-scroll"),
                    ):
                        yield Static(text)
            yield Static(Text(t("rules.keys"), style=Style(dim=True)), id="rules-keys")

    def on_mount(self) -> None:
        """The first page takes the keys (↑↓ scroll it)."""
        self.query_one(f"#{PAGES[0]}-scroll").focus()

    def action_page(self, index: int) -> None:
        """Show page ``index`` and let it take the keys."""
        self.query_one(TabbedContent).active = PAGES[index]
        self.query_one(f"#{PAGES[index]}-scroll").focus()

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        """A click or ←→ on the tabs: the page shown takes the keys."""
        pane = event.pane.id
        if pane in PAGES:
            self.query_one(f"#{pane}-scroll").focus()

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)
