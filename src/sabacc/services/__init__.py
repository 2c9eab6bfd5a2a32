"""Services built on the engine and variants: bots, simulation, odds, storage, event text."""
