"""The engine needs no third-party package: in a virtual environment that holds nothing but
sabacc (no pip, no NumPy, not even the command line's Typer and Rich), ``import sabacc`` plays
every variant on both engines with the bots, and writes and validates hand histories, importing
only the standard library and sabacc itself.

The environment sees this tree's ``src`` through a ``.pth`` file (what an editable install is),
so this runs in a second, without building anything; ``tests/test_packaging.py`` installs the
built wheel with ``--no-deps`` into a clean environment and checks the same of it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import sabacc

ROOT = Path(__file__).resolve().parent.parent

ALONE = """
import importlib.metadata, json, sys
import sabacc
from sabacc.services import hand_history
from sabacc.services.bots import decide, make_bot
from sabacc.variants import compiled

played = []
for name in sabacc.variant_names():
    for engine in ["python", "compiled"] if compiled.available(name) else ["python"]:
        game = sabacc.new_game(name, players=3, seed=4, engine=engine)
        bots = [make_bot("heuristic", seat) for seat in range(3)]
        while not game.is_over:
            seat = game.current_player
            game.apply(decide(bots[seat], game, seat), seat=seat)
        doc = hand_history.loads(hand_history.dumps(game))
        assert hand_history.validate(doc) == [], (name, engine)
        played.append([name, engine, list(game.payoffs)])
runtime = {"__main__", "cython_runtime"}  # Cython's own bookkeeping modules, no package
outside = sorted(
    top
    for top in {m.split(".")[0] for m in sys.modules}
    if top not in sys.stdlib_module_names and top != "sabacc" and top not in runtime
    and not top.startswith("_cython_")
)
print(json.dumps({
    "played": played,
    "outside": outside,
    "installed": [d.metadata["Name"] for d in importlib.metadata.distributions()],
    "file": sabacc.__file__,
}))
"""


def test_the_engine_plays_with_nothing_but_the_standard_library(tmp_path: Path) -> None:
    venv = tmp_path / "alone"
    made = subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", venv], capture_output=True, text=True
    )
    if made.returncode != 0:
        pytest.skip(f"cannot make a virtual environment: {made.stderr.strip()}")
    purelib = sysconfig.get_path("purelib", vars={"base": str(venv), "platbase": str(venv)})
    Path(purelib, "sabacc-src.pth").write_text(f"{ROOT / 'src'}\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    result = subprocess.run(
        [venv / "bin" / "python", "-c", ALONE],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    # sabacc itself may show (the clone's src/sabacc.egg-info after an editable install)
    assert set(found["installed"]) <= {"sabacc"}, "the environment was meant to hold only sabacc"
    assert found["file"].startswith(str(ROOT / "src"))
    assert found["outside"] == [], f"the engine imported third-party packages: {found['outside']}"
    assert {name for name, _, _ in found["played"]} == set(sabacc.variant_names())
    assert all(sum(payoffs) <= 0 for _, _, payoffs in found["played"])
