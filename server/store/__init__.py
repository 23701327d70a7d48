"""Table stores: ``MemoryStore`` (embedded default) and ``RedisStore``."""
