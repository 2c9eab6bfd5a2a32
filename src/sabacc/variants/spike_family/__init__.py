"""What the Spike family (Corellian Spike, Surabat Cycle, Coruscant Shift) shares: the 62-card
deck, hand evaluation, the heuristic bot and odds models, the snapshot both engines export, the
web card art and the compiled core the three variants run on."""
