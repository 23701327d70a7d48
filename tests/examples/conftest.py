"""The server fixture of the outside-bot tests (``tests.client.outside_game``)."""

from tests.client.outside_game import outside_server  # noqa: F401  (a fixture)
