"""What is neither client nor server: the ``hearts`` command (``tools.cli``),
the benchmarks (``tools.bench``), the arena (``tools.arena``) and the
in-process server of ``hearts play`` (``tools.local_server``). Tools may
import every other package; nothing imports tools. ``tools.maintenance``
holds scripts for this checkout, left out of the wheel."""
