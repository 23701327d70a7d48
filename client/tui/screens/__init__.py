"""The app's screens: the table, the host's setup form and the dialogs."""
