"""The table server: an asyncio adapter around the engine (see DESIGN.md)."""
