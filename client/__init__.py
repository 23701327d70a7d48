"""Clients: the `hearts` command, the terminal UI and the browser client's files."""
