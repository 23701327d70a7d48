"""The table's widgets; each draws one part of the ``TableModel``."""
