"""The shared rules engine: table, pots, betting, side pots, events and the game protocol."""
