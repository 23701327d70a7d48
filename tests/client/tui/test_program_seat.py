"""The terminal client marks a seat played by a program (``hearts bot``) as
a program's, in every language, never as a person's."""

from __future__ import annotations

import pytest

from client.tui.i18n import LANGUAGES, Language, Translator
from client.tui.widgets.seat_panel import kind_text
from protocol.view import SeatInfo


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_program_seat_is_marked_not_shown_as_a_person(language: Language) -> None:
    t = Translator(language)
    person = SeatInfo(seat=1, kind="human", name="Ann", connected=True)
    program = person.model_copy(update={"name": "Robo", "program": True})
    assert kind_text(t, program).startswith("⚙")
    assert kind_text(t, program) != kind_text(t, person) == t("kind.human")
