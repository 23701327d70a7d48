"""The arena of ``hearts arena``: bot levels play single hands (``hands``)
or whole games (``games``) against each other, and the figures."""
