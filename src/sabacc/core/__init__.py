"""Base layer: cards, actions, events, errors, hand values and options. Imports nothing above it."""
