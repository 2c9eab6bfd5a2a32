"""What every CLI command shares: the one-line error exit, ``--option name=value`` parsing,
variant lookup and the ``--variant`` option. The root CLI (:mod:`sabacc.apps.cli`) and the
sub-commands of this package import it; nothing here imports the root CLI."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, NoReturn

import typer
from rich.console import Console

import sabacc
from sabacc.core.errors import SabaccError
from sabacc.variants.registry import lookup, variant_names

err = Console(stderr=True)


def variant_help() -> str:
    """The ``--variant`` help: every registered variant with its shortest alias."""
    parts = []
    for name in variant_names():
        aliases = sorted(lookup(name).aliases, key=len)
        parts.append(f"{name} ({aliases[0]})" if aliases else name)
    return ", ".join(parts)


VariantOpt = Annotated[str, typer.Option("--variant", "-v", help=variant_help())]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option", "-o", help="A house rule as name=value (repeatable); see `sabacc options`."
    ),
]


def fail(message: str) -> NoReturn:
    """One line on stderr, exit status 2."""
    err.print(f"sabacc: error: {message}", highlight=False, markup=False, soft_wrap=True)
    raise typer.Exit(2)


def parse_options(pairs: Sequence[str] | None) -> dict[str, str]:
    """``["rounds=2", ...]`` as a mapping; a pair without ``=`` fails."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        if "=" not in pair:
            fail(f"option {pair!r} must look like name=value")
        name, value = pair.split("=", 1)
        out[name.strip()] = value.strip()
    return out


def get_variant(name: str, options: Sequence[str] | None = None) -> sabacc.Variant:
    """The variant with ``--option`` pairs applied; bad input fails with one line."""
    try:
        return sabacc.variant(name, **parse_options(options))
    except SabaccError as exc:
        fail(str(exc))
