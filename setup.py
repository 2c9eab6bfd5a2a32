"""Build the compiled cores (each variant's ``sabacc.variants.<variant>._<variant>_core``, from
its ``.pyx`` and the ``.pxi``/``.pxd`` files it includes: the kernel in ``variants/_kernel`` and,
for the Spike family, ``variants/spike_family/_spike_family.pxi``) with Cython, and the one
observation builder (``sabacc/engine/observe.py``, compiled unchanged).

Everything else is configured in pyproject.toml. The extension is optional: when Cython or a
working C compiler is missing, the build still succeeds, prints one line saying so, and sabacc
runs on its pure-Python engine (``sabacc.variants.compiled.available()`` is then False and
``engine="compiled"`` says the core is not built). ``pip install -v`` shows that line.
"""

from __future__ import annotations

import os
import shlex
import sys
from glob import glob
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

NOTICE = "sabacc: {}; installing the pure-Python engine only (the compiled core is optional)"

DIRECTIVES = {
    "language_level": "3",
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
}

BUILDER_DIRECTIVES = {"language_level": "3", "annotation_typing": False}


def notice(reason: str) -> None:
    print(NOTICE.format(reason), file=sys.stderr, flush=True)


def extensions() -> list[Any]:
    # Every compiled core is a ``_<name>_core.pyx`` found by name, so a variant adds its core
    # without touching this file; they share the kernel in ``sabacc/variants/_kernel`` (its
    # includes are found through include_path, and cythonize rebuilds a core when one changes).
    sources = sorted(glob("src/sabacc/**/_*_core.pyx", recursive=True))
    if not sources:
        return []
    # No debug info: a 5x smaller .so. SABACC_CFLAGS replaces these flags (the packaging test
    # builds with -O0: it checks what is packaged, not how fast the core runs).
    default = "" if sys.platform == "win32" else "-O2 -g0"
    flags = shlex.split(os.environ.get("SABACC_CFLAGS", default))
    exts = [
        Extension(
            source[len("src/") : -len(".pyx")].replace("/", "."),
            [source],
            extra_compile_args=flags,
            optional=True,
        )
        for source in sources
    ]
    try:
        from Cython.Build import cythonize
    except ImportError:
        notice("Cython is not installed")
        return []
    # The one observation builder, compiled from its own source unchanged (Python semantics:
    # no directive beyond the language level, annotations not read as C types); the plain module
    # is the fallback where the build is absent.
    builder = Extension(
        "sabacc.engine.observe",
        ["src/sabacc/engine/observe.py"],
        extra_compile_args=flags,
        optional=True,
    )
    try:
        compiled: list[Any] = cythonize(
            exts, compiler_directives=DIRECTIVES, include_path=["src"], quiet=True
        ) + cythonize(
            [builder], compiler_directives=BUILDER_DIRECTIVES, include_path=["src"], quiet=True
        )
    except Exception as exc:  # a broken Cython install must not break the install
        notice(f"Cython failed ({exc})")
        return []
    return compiled


class OptionalBuildExt(build_ext):
    """build_ext that turns any compiler failure into a one-line notice.

    ``Extension(optional=True)`` alone is not enough: ``cythonize()`` returns new Extension
    objects without it, and a missing compiler can fail before the per-extension guard.
    """

    failed = False

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            if not self.failed:
                notice(f"no working C compiler ({type(exc).__name__})")
            self.failed = True

    def build_extension(self, ext: Any) -> None:
        if self.failed:  # one core failed: none is installed, so the rest need not be built
            return
        try:
            super().build_extension(ext)
        except Exception as exc:
            self.failed = True
            notice(f"the C extension {ext.name} did not compile ({type(exc).__name__})")

    def copy_extensions_to_source(self) -> None:
        if not self.failed:
            super().copy_extensions_to_source()

    def get_outputs(self) -> list[str]:
        return [] if self.failed else list(super().get_outputs())


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
