"""Built-in variants. Importing this package registers each of them."""

from sabacc.variants import classic as classic
from sabacc.variants import corellian_spike as corellian_spike
from sabacc.variants import coruscant_shift as coruscant_shift
from sabacc.variants import kessel as kessel
from sabacc.variants import surabat_cycle as surabat_cycle

__all__ = ["classic", "corellian_spike", "coruscant_shift", "kessel", "surabat_cycle"]
