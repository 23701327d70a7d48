"""Clients, which reach a server only over the wire: the session
(``session``), headless autoplay (``headless``), the terminal UI (``tui``)
and the browser client's files (``web``). Nothing here imports the server or
the ``hearts`` command (``tools``)."""
