"""The compiled kernel every core shares (Cython only, nothing to import at run time).

``_mt.pxd`` is the seeded Mersenne Twister the cores draw from (bit for bit Python's
:class:`random.Random`); ``_core_protocol.pxi`` the members every core exports to Python;
``_core_betting.pxi`` the betting round of the cores with betting. A core ``cimport``\\ s and
``include``\\ s them from ``sabacc/variants/_kernel/`` (the build's include path is ``src``).
"""
