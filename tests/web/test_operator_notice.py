"""The operator's notice (``hearts admin notice``) in the browser
(client/web/js/operator_notice.js): every connected page shows it, at a
table or in the lobby, in the page's language, as text, until dismissed."""

from __future__ import annotations

import secrets
from pathlib import Path

from playwright.sync_api import expect

from tools.cli.main import main

from .conftest import DESKTOP, PHONE, NewPage, StartServer, shoot
from .helpers import TABLE, create_table, join_by_link

TOKEN = secrets.token_urlsafe(24)


def test_every_page_shows_the_operators_notice_in_its_language(
    new_page: NewPage, start_server: StartServer, tmp_path: Path
) -> None:
    runner = start_server(0, admin_listen="127.0.0.1:0", admin_token=TOKEN)
    admin_port = runner.server.listener_port(runner.server.admin_server)
    token = tmp_path / "token"
    token.write_text(TOKEN)
    host = new_page(viewport=DESKTOP, locale="uk-UA", server_url=runner.url)
    code = create_table(host, "Hanna", seats=("open", "easy", "easy"))
    friend = new_page(viewport=PHONE, locale="ru-RU", server_url=runner.url)
    join_by_link(friend, code, "Fedor")
    lobby = new_page(viewport=PHONE, locale="en-GB", server_url=runner.url)
    lobby.goto("/")
    lobby.wait_for_selector("#lobby #stats dl")

    text = "<b>Restart</b> in 5 minutes: finish your hand."
    url = f"http://127.0.0.1:{admin_port}"
    assert main(["admin", "--url", url, "--token-file", str(token), "notice", text]) == 0

    for page, title in (
        (host, "Повідомлення від сервера:"),
        (friend, "Сообщение от сервера:"),
        (lobby, "Message from the server:"),
    ):
        banner = page.locator("#operator-notice")
        expect(banner).to_be_visible()
        expect(banner.locator(".operator-notice-title")).to_have_text(title)
        # The operator's words as text: markup stays characters.
        expect(banner.locator(".operator-notice-text")).to_have_text(text)
        expect(banner.locator("b")).to_have_count(0)
    shoot(host, "operator-notice")
    host.locator("#operator-notice button").click()
    expect(host.locator("#operator-notice")).to_be_hidden()
    # The game is untouched: the table is still there, waiting.
    expect(host.locator(f'{TABLE}[data-status="waiting"]')).to_have_count(1)
