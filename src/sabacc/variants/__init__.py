"""Built-in variants. Importing this package registers each of them."""

from sabacc.variants import classic as classic
from sabacc.variants import corellian_spike as corellian_spike

__all__ = ["classic", "corellian_spike"]
