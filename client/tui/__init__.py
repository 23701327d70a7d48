"""The terminal client: a Textual app that plays one seat of a table.

``hearts play`` starts a server in-process and plays against three bots;
``hearts host``/``join``/``resume`` (without ``--autoplay``) play at a table
on any server. The app renders the server's snapshots (``protocol.view``)
and uses its events only to animate: a card appearing, a trick lingering
with its winner highlighted. See docs/terminal.md.

Modules: ``commands`` (argparse wiring), ``launch`` (what to connect to),
``app`` (the Textual app), ``client`` (session → model, with pacing),
``model`` (what the screen shows), ``explain`` (why a card is refused),
``cards`` and ``seats`` (display helpers), ``i18n`` with ``locales``,
``settings``, ``screens`` and ``widgets``.
"""
