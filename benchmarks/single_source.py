"""The single-source route, measured: the reference engine compiled unchanged vs interpreted.

    python benchmarks/single_source.py                      # Cython and mypyc, classic + Surabat
    python benchmarks/single_source.py --tools cython --games 200

Copies ``src/sabacc`` to ``build/single_source/<tool>/`` and compiles the reference engine's
modules there *unchanged* (the same ``.py`` files; no annotations added): with Cython in
pure-Python mode (``cythonize`` of the ``.py`` files, the project's compiler directives) and
with mypyc (which compiles the same type-annotated source to C, trusting its annotations).
Modules a tool cannot compile stay interpreted and are listed. Then random heads-up play (the
``bench_engine.py`` loop: ``sabacc.new_game`` and uniformly random ``legal_actions()`` until the
game is over, full checks) runs in a fresh interpreter on each tree, interleaved, ``--repeats``
times; the medians of games/s are printed with the speed-up over the interpreted reference.
The compiled copies are checked to play the same games (the same final stacks for the same
seeds) before they are timed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
BUILD = ROOT / "build" / "single_source"

#: The reference engine: what random play of classic and Surabat runs through.
MODULES: tuple[str, ...] = (
    "sabacc/core/actions.py",
    "sabacc/core/cards.py",
    "sabacc/core/errors.py",
    "sabacc/core/events.py",
    "sabacc/core/hands.py",
    "sabacc/core/options.py",
    "sabacc/engine/betting.py",
    "sabacc/engine/chance.py",
    "sabacc/engine/game.py",
    "sabacc/variants/classic/rules.py",
    "sabacc/variants/surabat_cycle/rules.py",
)

PLAY = r"""
import json, random, sys, time
import sabacc
variant, games, seed0 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
compiled = [m for m in sys.argv[4:] if not sys.modules[m].__file__.endswith(".py")]
rng = random.Random(1)
stacks = []
start = time.perf_counter()
for seed in range(seed0, seed0 + games):
    game = sabacc.new_game(variant, players=2, seed=seed)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    stacks.append(list(game.stacks))
elapsed = time.perf_counter() - start
print(json.dumps({"rate": games / elapsed, "stacks": stacks, "compiled": compiled}))
"""


def copy_tree(tool: str) -> Path:
    dest = BUILD / tool
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(
        SRC / "sabacc",
        dest / "sabacc",
        ignore=shutil.ignore_patterns("*.so", "*.c", "__pycache__", "*.pyx", "*.pyi"),
    )
    return dest


def build_cython(dest: Path) -> list[str]:
    """cythonize the modules in place; returns the ones that failed."""
    failed = []
    setup = dest / "setup_single.py"
    for module in MODULES:
        setup.write_text(
            "from setuptools import setup\n"
            "from Cython.Build import cythonize\n"
            f"setup(ext_modules=cythonize([{module!r}], quiet=True, compiler_directives="
            "{'language_level': '3', 'boundscheck': False, 'wraparound': False, "
            "'cdivision': False, 'binding': True}))\n"
        )
        result = subprocess.run(
            [sys.executable, str(setup), "build_ext", "--inplace", "-q"],
            cwd=dest,
            capture_output=True,
            text=True,
        )
        if result.returncode != 0:
            failed.append(module)
            print(f"  cython: {module} did not compile:", result.stderr.strip()[-300:])
    return failed


def build_mypyc(dest: Path) -> list[str]:
    """mypyc the modules together; when the build fails, or a compiled module fails to import,
    drop the module named in the error and build again."""
    mypyc = Path(sys.executable).with_name("mypyc")
    modules = list(MODULES)
    failed: list[str] = []
    while modules:
        for old in dest.rglob("*.so"):
            old.unlink()
        env = dict(os.environ, MYPYPATH=str(dest))
        result = subprocess.run(
            [str(mypyc), *modules], cwd=dest, capture_output=True, text=True, env=env
        )
        out = result.stdout + result.stderr
        if result.returncode == 0:
            check = subprocess.run(
                [sys.executable, "-c", "import sabacc; sabacc.new_game('classic', players=2)"],
                cwd=dest,
                capture_output=True,
                text=True,
                env=dict(os.environ, PYTHONPATH=str(dest)),
            )
            if check.returncode == 0:
                return failed
            out = check.stderr
        named = [m for m in modules if m in out]  # the innermost one in a traceback
        bad = max(named, key=out.rindex) if named else None
        if bad is None:
            print("  mypyc failed:", out.strip()[-600:])
            return failed + modules
        print(f"  mypyc: {bad} did not compile or import:", out.strip().splitlines()[-1][:200])
        modules.remove(bad)
        failed.append(bad)
    return failed


def run(tree: Path, variant: str, games: int, seed: int) -> dict[str, object]:
    names = [m[: -len(".py")].replace("/", ".") for m in MODULES]
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run(
        [sys.executable, "-c", PLAY, variant, str(games), str(seed), *names],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
    ).stdout
    result: dict[str, object] = json.loads(out)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tools", nargs="+", default=["cython", "mypyc"])
    parser.add_argument("--variants", nargs="+", default=["classic", "surabat_cycle"])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-build", action="store_true", help="reuse the last build")
    parser.add_argument(
        "--exclude", nargs="*", default=[], help="modules to leave interpreted (sabacc/core/x.py)"
    )
    args = parser.parse_args()
    global MODULES
    MODULES = tuple(m for m in MODULES if m not in args.exclude)

    trees: dict[str, Path] = {"interpreted": SRC}
    for tool in args.tools:
        dest = BUILD / tool
        if not args.no_build:
            print(f"building with {tool} ...", flush=True)
            dest = copy_tree(tool)
            failed = build_cython(dest) if tool == "cython" else build_mypyc(dest)
            print(f"  {tool}: {len(MODULES) - len(failed)} of {len(MODULES)} modules compiled")
        trees[tool] = dest

    rates: dict[tuple[str, str], list[float]] = {}
    for variant in args.variants:
        reference = run(SRC, variant, 20, 10_000)["stacks"]
        for name, tree in trees.items():
            check = run(tree, variant, 20, 10_000)
            if check["stacks"] != reference:
                raise SystemExit(f"{name} plays other {variant} games than the reference")
            print(f"{variant} on {name}: compiled modules {len(check['compiled'])}")  # type: ignore[arg-type]
    for _ in range(args.repeats):  # interleaved
        for variant in args.variants:
            for name, tree in trees.items():
                rate = run(tree, variant, args.games, 0)["rate"]
                rates.setdefault((variant, name), []).append(float(rate))  # type: ignore[arg-type]
    print(f"\n{'variant':16} {'engine':12} {'games/s':>10} {'vs interpreted':>15}")
    for variant in args.variants:
        base = statistics.median(rates[(variant, "interpreted")])
        for name in trees:
            r = statistics.median(rates[(variant, name)])
            print(f"{variant:16} {name:12} {r:10,.0f} {r / base:14.2f}x")


if __name__ == "__main__":
    main()
