"""The package tree shows its layers, and imports only point down.

``sabacc.core`` (base) < ``sabacc.engine`` < ``sabacc.variants`` < the front door (``sabacc``,
``sabacc.api``) < ``sabacc.services`` < ``sabacc.apps``. A module may import its own layer and
the layers below it, never one above: the engine does not know the variants, a variant does not
know the bots, a service does not know the apps. Type-only imports count too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "sabacc"

LAYERS = ("core", "engine", "variants", "api", "services", "apps")


def layer_of(module: str) -> int:
    """The layer index of a ``sabacc...`` module name."""
    parts = module.split(".")
    if parts[0] != "sabacc":
        raise ValueError(module)
    if len(parts) == 1 or parts[1] in ("api", "__main__"):
        return LAYERS.index("api") if parts[-1] != "__main__" else LAYERS.index("apps")
    if parts[1] not in LAYERS:
        raise AssertionError(f"{module}: every module lives in one of the layers {LAYERS}")
    return LAYERS.index(parts[1])


def module_name(path: Path) -> str:
    rel = path.relative_to(SRC).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every ``sabacc`` import in a file, relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("sabacc")]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                mod = ".".join([*base, *([node.module] if node.module else [])])
            else:
                mod = node.module or ""
            if not mod.startswith("sabacc"):
                continue
            if mod == "sabacc":  # from sabacc import x: x may be a subpackage
                for alias in node.names:
                    sub = f"sabacc.{alias.name}"
                    known = sub.split(".")[1] in LAYERS
                    found.append((node.lineno, sub if known else "sabacc"))
            else:
                found.append((node.lineno, mod))
    return found


SOURCES = sorted(p for p in PACKAGE.rglob("*.py"))


def test_every_module_is_in_a_layer() -> None:
    top = {p.relative_to(PACKAGE).parts[0] for p in SOURCES}
    allowed = {*LAYERS, "__init__.py", "api.py", "__main__.py"} - {"api"}
    assert top <= allowed, f"modules outside the layer folders: {sorted(top - allowed)}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(SRC)))
def test_imports_point_down(path: Path) -> None:
    mine = layer_of(module_name(path))
    upward = [
        f"line {line}: imports {mod} ({LAYERS[layer_of(mod)]})"
        for line, mod in imports(path)
        if layer_of(mod) > mine
    ]
    assert not upward, f"{module_name(path)} ({LAYERS[mine]}) imports upward: " + "; ".join(upward)
