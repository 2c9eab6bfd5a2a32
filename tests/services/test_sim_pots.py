"""Sabacc pots in simulations come from the variant's pot rules (``PotRule.sabacc``)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from sabacc.apps.cli import app
from sabacc.services.sim import SimSpec, sabacc_pot_names, simulate

runner = CliRunner()


def test_the_sabacc_pots_are_the_ones_the_variant_marks() -> None:
    assert sabacc_pot_names("corellian_spike") == {"sabacc"}
    assert sabacc_pot_names("classic") == {"sabacc"}
    assert sabacc_pot_names("kessel") == frozenset()  # its per-seat round pots are not one


def test_spike_counts_its_sabacc_pots_and_kessel_has_no_such_column() -> None:
    spike = simulate(SimSpec("corellian_spike", ("heuristic", "random"), 200, seed=3), workers=1)
    assert sum(s.sabacc_wins for s in spike.stats()) > 0
    shown = runner.invoke(app, ["simulate", "-v", "kessel", "-n", "10", "-w", "1", "--seed", "1"])
    assert shown.exit_code == 0, shown.output
    assert "win rate" in shown.output and "sabacc pots" not in shown.output
    shown = runner.invoke(app, ["simulate", "-n", "10", "-w", "1", "--seed", "1"])
    assert "sabacc pots" in shown.output
    data = runner.invoke(app, ["simulate", "-v", "kessel", "-n", "10", "-w", "1", "--json"])
    assert all(b["sabacc_wins"] == 0 for b in json.loads(data.stdout)["bots"])
