"""Sub-commands contributed by the apps and services (simulate, odds, serve...).

Each module here defines ``register(app)``. Modules must import their heavy optional
dependencies (FastAPI, Textual, matplotlib...) inside the command function, never at import,
so ``sabacc --help`` works with only the core installed.
"""

from __future__ import annotations

import importlib
import pkgutil

import typer


def register_all(app: typer.Typer) -> None:
    """Call ``register(app)`` of every module in this package, in name order."""
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(app)
