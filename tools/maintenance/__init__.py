"""Scripts that maintain this checkout (not shipped in the wheel)."""
