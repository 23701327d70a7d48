"""The operator's notice in the terminal client (client/tui/model.py
``_on_notice``): a line in the table's log that stays, and a pop-up, in the
player's language, with the operator's words as they are."""

from __future__ import annotations

import pytest

from client.tui.i18n import LANGUAGES, Language, Translator
from client.tui.model import TableModel
from protocol import server_messages as sm

TITLES: dict[Language, str] = {
    "en": "Message from the server: ",
    "uk": "Повідомлення від сервера: ",
    "ru": "Сообщение от сервера: ",
}


@pytest.mark.parametrize("language", sorted(TITLES))
def test_a_notice_is_logged_and_popped_up_in_the_players_language(language: Language) -> None:
    assert language in LANGUAGES
    model = TableModel()
    text = "The server restarts in 5 minutes [bold]now[/bold]."
    model.apply(sm.Notice(text=text))
    said = Translator(language)
    (shown,) = [said.text(m) for m in model.take_notifications()]
    assert shown == TITLES[language] + text
    assert [said.text(line.msg) for line in model.log] == [shown]
    assert model.take_notifications() == []
