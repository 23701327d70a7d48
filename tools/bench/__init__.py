"""The benchmarks of ``hearts bench``: ``engine`` (hands per second, against
OpenSpiel), ``server`` (the table server under load; its phases with bots in
``bots``, idle connections in ``idle``, scale-out in ``cluster``, what they
share in ``load``) and ``guess`` (brute-forcing invite codes); beside them,
``hard_decisions`` (``python -m tools.bench.hard_decisions``) times Hard's
decisions at any table."""
