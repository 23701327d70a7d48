"""Modal dialogs over the table: help, settings, the moon choice, game
over, leaving, and a fatal error before any table was reached."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import ClassVar, Final, Literal

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, RadioSet, Static

from protocol import server_messages as sm
from protocol.common import RulesModel

from ..i18n import LANGUAGE_NAMES, LANGUAGES, Language, Msg, Translator
from ..model import TableModel, seat_label
from ..moon import moon_cards, table_moon_value
from ..review import AccuracyFetch, compact_accuracy_text, game_accuracy_text
from ..settings import Settings
from ..widgets.side import WIDE_SCORES, scores_text
from ..widgets.toggles import Choice, OnOff

HELP_KEYS: Final[tuple[tuple[str, str], ...]] = (
    ("a … m", "help.card"),
    ("← → Space", "help.cursor"),
    ("Enter", "help.enter"),
    ("p H u C", "help.pass"),
    ("n", "help.next"),
    ("s", "help.start"),
    ("1 2 3", "help.seats"),
    ("y x", "help.knock"),
    ("r", "help.rematch"),
    ("t v", "help.side"),
    ("/", "help.chat"),
    ("PgUp PgDn ↑↓", "help.scroll"),
    ("Esc", "help.escape"),
    ("o", "help.settings"),
    ("? F1", "help.help"),
    ("F2 F3", "help.rules_stats"),
    ("q", "help.quit"),
    ("Ctrl+Q", "help.ctrl_q"),
)


class Dialog(ModalScreen[None]):
    """A centred box over the table; Esc closes it."""

    DEFAULT_CSS = """
    Dialog { align: center middle; background: $background 60%; }
    Dialog > Vertical {
        width: 72; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    Dialog .title { text-style: bold; width: 1fr; content-align: center middle; }
    Dialog .buttons { height: auto; align: center middle; }
    Dialog Button { margin: 0 1; }
    Dialog #help-keys { height: auto; max-height: 18; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", show=False)]

    def __init__(self, t: Translator) -> None:
        super().__init__()
        self.t = t

    def action_close(self) -> None:
        """Close the dialog."""
        self.dismiss(None)


class HelpScreen(Dialog):
    """Every key of the table screen."""

    DEFAULT_CSS = """
    HelpScreen > Vertical { width: 78; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1,enter", "close", show=False),
    ]

    def compose(self) -> ComposeResult:
        """Title, keys, close hint."""
        t = self.t
        keys = Text()
        for i, (key, what) in enumerate(HELP_KEYS):
            if i:
                keys.append("\n")
            keys.append(f"{key:>12}  ", style=Style(bold=True, color="yellow"))
            keys.append(t(what))
        with Vertical():
            yield Static(t("help.title"), classes="title")
            with VerticalScroll(id="help-keys"):
                yield Static(keys)
            yield Static(Text(t("help.marks"), style=Style(dim=True)))
            yield Static(Text(t("help.close"), style=Style(dim=True)))


SETTING_BOXES: Final = (
    ("fast", "settings.fast"),
    ("auto_single", "settings.auto_single"),
    ("bell", "settings.bell"),
)


class SettingsScreen(Dialog):
    """Fast play, auto-play of a single legal card, the bell on your turn,
    and the language; changes apply at once. ↑↓ (or Tab) move between
    them, Space toggles the one in focus (in the language list ↑↓ move
    among the languages, Space or Enter picks one)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("down", "move(1)", show=False),
        Binding("up", "move(-1)", show=False),
    ]

    def __init__(self, t: Translator, settings: Settings, on_change: Callable[[], None]) -> None:
        super().__init__(t)
        self.settings = settings
        self.on_change = on_change

    def compose(self) -> ComposeResult:
        """Three checkboxes and a set of radio buttons."""
        t = self.t
        with Vertical():
            yield Static(t("settings.title"), classes="title")
            for name, key in SETTING_BOXES:
                yield OnOff(t(key), bool(getattr(self.settings, name)), id=name, compact=True)
            yield Static(t("settings.language"))
            with RadioSet(id="language", compact=True):
                for code in LANGUAGES:
                    yield Choice(
                        LANGUAGE_NAMES[code],
                        value=code == self.settings.language,
                        name=code,
                        compact=True,
                    )
            yield Static(Text(t("settings.close"), style=Style(dim=True)))

    def action_move(self, step: int) -> None:
        """↑↓: the previous or next setting (the language list keeps its
        own arrows while it has the focus)."""
        if step > 0:
            self.focus_next()
        else:
            self.focus_previous()

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        """A setting on or off."""
        name = event.checkbox.id
        if name in {n for n, _ in SETTING_BOXES}:
            setattr(self.settings, name, event.value)
            self.on_change()

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        """Another language."""
        code = event.pressed.name
        if code in LANGUAGES:
            language: Language = code
            self.settings.language = language
            self.t.language = language
            self.on_change()
            self.dismiss(None)


class MoonScreen(ModalScreen[Literal["add", "subtract"] | None]):
    """You shot the moon and the rules let you choose how it scores."""

    DEFAULT_CSS = Dialog.DEFAULT_CSS.replace("Dialog", "MoonScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1,plus", "choose('add')", show=False),
        Binding("2,minus", "choose('subtract')", show=False),
    ]

    def __init__(self, t: Translator, rules: RulesModel) -> None:
        super().__init__()
        self.t = t
        self.rules = rules

    def compose(self) -> ComposeResult:
        """Title and two choices, with the table's figures."""
        t, rules = self.t, self.rules
        value = table_moon_value(rules)
        with Vertical():
            yield Static(t("moon.title"), classes="title")
            yield Static(t("moon.body", cards=moon_cards(rules)))
            with Horizontal(classes="buttons"):
                yield Button(t("moon.add", n=value), id="add", variant="primary")
                yield Button(t("moon.subtract", n=value), id="subtract", variant="warning")

    def action_choose(self, choice: Literal["add", "subtract"]) -> None:
        """Answer with the choice."""
        self.dismiss(choice)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A click on a choice."""
        self.dismiss("add" if event.button.id == "add" else "subtract")


class GameOverScreen(ModalScreen[Literal["rematch", "quit"] | None]):
    """The winner, the final score, each seat's accuracy and a rematch.

    The accuracy (``get_accuracy``, client.tui.review) takes the server
    seconds, so it is asked for in a worker when the screen opens and the
    screen says "reviewing…" meanwhile. The score sheet scrolls when a long
    game's hands would push the rest off a small terminal."""

    DEFAULT_CSS = (
        Dialog.DEFAULT_CSS.replace("Dialog", "GameOverScreen")
        + """
    GameOverScreen #over-scores { height: auto; max-height: 14; }
    GameOverScreen #over-accuracy { height: auto; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,r", "answer('rematch')", show=False),
        Binding("q", "answer('quit')", show=False),
        Binding("escape", "answer(None)", show=False),
        Binding("pageup", "scroll(-1)", show=False),
        Binding("pagedown", "scroll(1)", show=False),
    ]

    def __init__(
        self, t: Translator, model: TableModel, accuracy: AccuracyFetch | None = None
    ) -> None:
        super().__init__()
        self.t = t
        self.model = model
        self.accuracy = accuracy
        self.answer: sm.GameAccuracy | Msg | None = None

    def compose(self) -> ComposeResult:
        """Winner, scores, accuracy, buttons."""
        t = self.t
        view = self.model.view
        host = view is not None and view.seat == view.host_seat
        with Vertical():
            yield Static(t("over.title"), classes="title")
            if view is not None and view.winner is not None:
                if view.winner == view.seat:
                    yield Static(Text(t("over.you_win"), style=Style(bold=True, color="green")))
                else:
                    name = t.term(seat_label(view, view.winner))
                    yield Static(Text(t("over.winner", name=name), style=Style(bold=True)))
                with VerticalScroll(id="over-scores"):
                    yield Static(scores_text(t, view))
                    if self.accuracy is not None and self._many_seats():
                        yield Static(self._accuracy_text(), id="over-accuracy")
            if self.accuracy is not None and not self._many_seats():
                yield Static(self._accuracy_text(), id="over-accuracy")
            yield Static(Text(t("over.host" if host else "over.guest"), style=Style(dim=True)))
            with Horizontal(classes="buttons"):
                if host:
                    yield Button(t("btn.rematch"), id="rematch", variant="primary")
                yield Button(t("btn.quit"), id="quit")

    def on_mount(self) -> None:
        """Ask for the game's accuracy."""
        if self.accuracy is not None:
            self.run_worker(self._load(self.accuracy), exclusive=True)

    def on_resize(self) -> None:
        """Keep the accuracy and the buttons on a small terminal: the score
        sheet gets the rows left over (and scrolls)."""
        self._fit_scores()

    def _fit_scores(self) -> None:
        view = self.model.view
        seats = len(view.seats) if view is not None else 4
        # border 2, title, winner, accuracy (a head and a line per seat),
        # the key line (up to 2), the buttons 3
        shown = self.accuracy is not None and not self._many_seats()
        other = 2 + 1 + 1 + (1 + seats if shown else 0) + 2 + 3
        with contextlib.suppress(NoMatches):
            scores = self.query_one("#over-scores", VerticalScroll)
            scores.styles.max_height = max(3, self.size.height - other)

    def _many_seats(self) -> bool:
        """Past six seats the accuracy goes two seats to a line under the
        score table, in its scrolling part (the table has a row per seat
        then, and both would not fit 80x24)."""
        view = self.model.view
        return view is not None and len(view.seats) > WIDE_SCORES

    def action_scroll(self, step: int) -> None:
        """Scroll the score table (and, past six seats, the accuracy)."""
        with contextlib.suppress(NoMatches):
            scores = self.query_one("#over-scores", VerticalScroll)
            if step > 0:
                scores.scroll_page_down()
            else:
                scores.scroll_page_up()

    async def _load(self, fetch: AccuracyFetch) -> None:
        self.answer = await fetch()
        with contextlib.suppress(NoMatches):  # closed meanwhile
            self.query_one("#over-accuracy", Static).update(self._accuracy_text())

    def _accuracy_text(self) -> Text:
        t, answer = self.t, self.answer
        if answer is None:
            head = Text(t("review.game_title_short"), style=Style(bold=True))
            return head + Text("\n" + t("review.running"), style=Style(italic=True))
        if isinstance(answer, Msg):
            head = Text(t("review.game_title_short"), style=Style(bold=True))
            return head + Text("\n" + t.text(answer), style=Style(color="red"))
        if self._many_seats():
            return compact_accuracy_text(t, answer, self._seat_name)
        return game_accuracy_text(t, answer, self._seat_name)

    def _seat_name(self, seat: int) -> str:
        view = self.model.view
        if view is None or not 0 <= seat < len(view.seats):
            return str(seat)
        return self.t.term(seat_label(view, seat))

    def action_answer(self, answer: Literal["rematch", "quit"] | None) -> None:
        """Close with the answer."""
        self.dismiss(answer)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A click on a button."""
        self.dismiss("rematch" if event.button.id == "rematch" else "quit")


QuitAnswer = Literal["leave", "give_up"]


class ConfirmQuit(ModalScreen[QuitAnswer | None]):
    """Leave the table? A seated player may also give the seat up (the
    server then keeps them at the table as a spectator)."""

    DEFAULT_CSS = Dialog.DEFAULT_CSS.replace("Dialog", "ConfirmQuit")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,q,enter", "answer('leave')", show=False),
        Binding("n,escape", "answer(None)", show=False),
        Binding("g", "give_up", show=False),
    ]

    def __init__(
        self, t: Translator, body_key: str, seated: bool = True, give_up: bool | None = None
    ) -> None:
        super().__init__()
        self.t = t
        self.body_key = body_key
        self.seated = seated
        # Giving the seat up is offered to a seated player while a game is
        # to play (after game over there is nothing to give up).
        self.give_up = seated if give_up is None else give_up

    def compose(self) -> ComposeResult:
        """Question and buttons."""
        t = self.t
        with Vertical():
            yield Static(
                t("quit.title_watch" if not self.seated else "quit.title"), classes="title"
            )
            yield Static(t(self.body_key))
            if self.give_up:
                yield Static(Text(t("quit.give_up_body"), style=Style(dim=True)))
            with Horizontal(classes="buttons"):
                yield Button(t("quit.yes"), id="leave", variant="error")
                if self.give_up:
                    yield Button(t("quit.give_up"), id="give_up", variant="warning")
                yield Button(t("quit.no"), id="stay")

    def action_answer(self, answer: QuitAnswer | None) -> None:
        """Close with the answer."""
        self.dismiss(answer)

    def action_give_up(self) -> None:
        """Give the seat up (only offered to a seated player, during a game)."""
        if self.give_up:
            self.dismiss("give_up")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A click on a button."""
        answers: dict[str, QuitAnswer] = {"leave": "leave", "give_up": "give_up"}
        self.dismiss(answers.get(event.button.id or ""))


class FatalScreen(ModalScreen[None]):
    """Nothing to play: the server cannot be reached, the code is wrong…"""

    DEFAULT_CSS = Dialog.DEFAULT_CSS.replace("Dialog", "FatalScreen")
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,enter,space", "close", show=False)]

    def __init__(self, t: Translator, message: str) -> None:
        super().__init__()
        self.t = t
        self.message = message

    def compose(self) -> ComposeResult:
        """The message and how to leave."""
        with Vertical():
            yield Static(self.t("fatal.title"), classes="title")
            yield Static(Text(self.message, style=Style(color="red")), id="fatal-message")
            yield Static(Text(self.t("fatal.close"), style=Style(dim=True)))

    def action_close(self) -> None:
        """Close (the app exits)."""
        self.dismiss(None)


class ContinueGameScreen(ModalScreen[bool]):
    """``hearts play`` found the game left unfinished last time (shown
    behind): continue it (True) or start a new one (False)."""

    DEFAULT_CSS = Dialog.DEFAULT_CSS.replace("Dialog", "ContinueGameScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,y,c,escape", "answer(True)", show=False),
        Binding("n", "answer(False)", show=False),
    ]

    def __init__(
        self, t: Translator, model: TableModel, new_game_options: tuple[str, ...] = ()
    ) -> None:
        super().__init__()
        self.t = t
        self.model = model
        self.new_game_options = new_game_options  # given, and only a new game takes them

    def compose(self) -> ComposeResult:
        """Where the game was, the scores, what the options given apply to,
        two buttons."""
        t = self.t
        view = self.model.view
        with Vertical():
            yield Static(t("continue.title"), classes="title")
            if view is not None:
                yield Static(t("continue.body", hand=view.hand_number))
                yield Static(scores_text(t, view))
            if self.new_game_options:
                options = " ".join(self.new_game_options)
                yield Static(
                    Text(t("continue.options", options=options), style=Style(color="yellow"))
                )
            with Horizontal(classes="buttons"):
                yield Button(t("continue.yes"), id="continue", variant="primary")
                yield Button(t("continue.new"), id="new")

    def action_answer(self, answer: bool) -> None:
        """Close with the answer."""
        self.dismiss(answer)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A click on a button."""
        self.dismiss(event.button.id == "continue")
