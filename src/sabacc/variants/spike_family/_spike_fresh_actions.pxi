# The r_* hooks of a Spike-family variant whose card actions are listed afresh at each call
# and checked by _well_formed or the parser (nothing is built and kept per decision); such a
# variant's core includes it after _spike_family.pxi (docs/engines.md lists which). A variant
# that keeps what it builds for a decision defines these hooks itself.

cdef inline list r_card_actions(SpikeFamilyCore self):
    return r_card_list(self)

cdef inline bint r_listed(SpikeFamilyCore self, object action) except -1:
    return False

cdef inline void r_clone_listed(SpikeFamilyCore self, SpikeFamilyCore new) noexcept:
    pass  # nothing built per decision beyond the family's

cdef inline void r_forget_listed(SpikeFamilyCore new) noexcept:
    pass
