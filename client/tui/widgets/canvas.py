"""A small character canvas: place styled pieces at (x, y), then join."""

from __future__ import annotations

from rich.text import Text


class Canvas:
    """``height`` rows of ``width`` columns; later pieces must not overlap
    earlier ones on the same row (the table layouts never do)."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self._rows: list[list[tuple[int, Text]]] = [[] for _ in range(height)]

    def put(self, x: int, y: int, piece: Text) -> None:
        """Place ``piece`` with its first column at ``x`` on row ``y``."""
        if 0 <= y < self.height:
            self._rows[y].append((max(0, x), piece))

    def center(self, y: int, piece: Text) -> None:
        """Place ``piece`` centred on row ``y`` (cut to the width)."""
        if piece.cell_len > self.width:
            piece = piece.copy()
            piece.truncate(self.width, overflow="ellipsis")
        self.put((self.width - piece.cell_len) // 2, y, piece)

    def text(self) -> Text:
        """The canvas as one ``Text`` with a line per row."""
        out = Text()
        for y, row in enumerate(self._rows):
            if y:
                out.append("\n")
            column = 0
            for x, piece in sorted(row, key=lambda item: item[0]):
                if x > column:
                    out.append(" " * (x - column))
                out.append_text(piece)
                column = max(column, x) + piece.cell_len
        return out
