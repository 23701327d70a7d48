"""The catalogs: one module per language, the same keys in each
(``tests/client/tui/test_i18n.py`` checks keys and placeholders)."""
