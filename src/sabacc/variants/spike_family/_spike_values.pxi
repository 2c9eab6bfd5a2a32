# The Spike family's hand values (the family's ranking: sabacc, prime sabacc, the pairs and
# runs... closest to zero; sabacc.variants.spike_family.hands), as the r_* hooks of a variant
# that ranks hands so: its core includes it after _spike_family.pxi (docs/engines.md lists
# which). A variant that ranks hands otherwise defines these hooks itself.

cdef inline int64_t r_strength(State* st, signed char* cards, int size) noexcept nogil:
    return strength(cards, size)

cdef object r_evaluate(SpikeFamilyCore self, object cards):
    return self._game_type.info.evaluator(self.options, list(cards))

cdef inline object r_shown_value(object cards, int target, int suit):
    return evaluate_spike([_VALUES[c] for c in cards])
