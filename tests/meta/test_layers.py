"""The package tree shows its layers, and imports only point down.

``sabacc.core`` (base) < ``sabacc.engine`` < ``sabacc.variants`` < the front door (``sabacc``,
``sabacc.api``) < ``sabacc.services`` < ``sabacc.apps``. A module may import its own layer and
the layers below it, never one above: the engine does not know the variants, a variant does not
know the bots, a service does not know the apps. Type-only imports count too.

``sabacc.lab`` (the bots that are experiments or yardsticks) sits above the services, below the
apps: it may import the services and below, and nothing in the package but the lab itself
imports it (the apps neither); in the repository only the benchmarks, the scripts and the
tests do.
"""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "sabacc"

LAYERS = ("core", "engine", "variants", "api", "services", "lab", "apps")
ROOT = SRC.parent
#: Where ``sabacc.lab`` may be imported from, besides the lab itself.
LAB_USERS = ("benchmarks", "scripts", "tests")


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


def lab_imports(path: Path) -> list[int]:
    """The lines of a Python file that import ``sabacc.lab`` (or something in it)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            mod = node.module or ""
            names = [f"{mod}.{a.name}" for a in node.names] if mod == "sabacc" else [mod]
        else:
            continue
        if any(n == "sabacc.lab" or n.startswith("sabacc.lab.") for n in names):
            lines.append(node.lineno)
    return lines


def test_only_the_lab_benchmarks_scripts_and_tests_import_the_lab() -> None:
    """The product never reaches the lab: players are offered the levels and random only."""
    lab = PACKAGE / "lab"
    tracked = subprocess.run(
        ["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    outside = [
        f"{name}:{line}"
        for name in tracked
        if not (ROOT / name).is_relative_to(lab) and Path(name).parts[0] not in LAB_USERS
        for line in lab_imports(ROOT / name)
    ]
    assert not outside, "sabacc.lab imported outside the lab, benchmarks, scripts, tests: " + (
        ", ".join(outside)
    )
    # the rule has teeth: the lab's users do import it
    assert lab_imports(ROOT / "benchmarks" / "bench_bots.py")


def test_the_front_doors_export_no_experiment() -> None:
    import sabacc
    import sabacc.services.bots as bots

    lab = {"SharpBot", "SharpSearchBot", "ReferenceBot", "REFERENCE", "Params", "SHARK", "CANNY"}
    assert not lab & set(sabacc.__all__) and not lab & set(bots.__all__)
