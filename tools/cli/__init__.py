"""The ``hearts`` command: the entry point and dispatch (``main``), one
module per subcommand or family of them."""
