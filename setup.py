"""Build the compiled Corellian Spike core (``sabacc.variants._spike_core``) with Cython.

Everything else is configured in pyproject.toml. The extension is optional: without a C
compiler sabacc still installs and runs on its pure-Python engine (``engine="compiled"`` then
says the core is not built).
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [
            Extension(
                "sabacc.variants._spike_core",
                ["src/sabacc/variants/_spike_core.pyx"],
                extra_compile_args=["-O2"],
                optional=True,
            )
        ],
        compiler_directives={
            "language_level": "3",
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
