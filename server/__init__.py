"""The table server: an asyncio adapter around the engine (see docs/architecture.md)."""
