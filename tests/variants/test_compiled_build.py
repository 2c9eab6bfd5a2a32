"""The compiled Corellian Spike core is built where the test suite runs in CI.

The extension is optional (sabacc installs without a C compiler), so a broken build would only
show as skipped compiled-engine tests: in CI (``CI`` set) a missing core is a failure.
"""

from __future__ import annotations

import os

import pytest

import sabacc
from sabacc.core.errors import OptionError
from sabacc.variants import compiled
from tests.support import variant_without_core


def test_compiled_core_is_built_in_ci() -> None:
    if not os.environ.get("CI"):
        pytest.skip("only enforced in CI")
    missing = [name for name in sabacc.variant_names() if not compiled.available(name)]
    assert not missing, f"the compiled cores of {missing} were not built"


def test_engine_names_are_checked() -> None:
    with pytest.raises(OptionError, match="engine='turbo'"):
        sabacc.new_game("spike", engine="turbo")  # type: ignore[call-overload]
    with variant_without_core() as name, pytest.raises(OptionError, match="only, not Coreless"):
        sabacc.new_game(name, engine="compiled")


@pytest.mark.skipif(not compiled.available(), reason="compiled core not built")
def test_compiled_game_through_the_front_door() -> None:
    game = sabacc.new_game("corellian-spike", players=3, seed=11, engine="compiled", ante=2)
    reference = sabacc.new_game("spike", players=3, seed=11, ante=2)
    assert game.legal_actions() == reference.legal_actions()
    assert game.current_player == reference.current_player
    assert game.options == reference.options
    variant_game = sabacc.variant("spike", ante=2).new_game(3, 11, engine="compiled")
    assert variant_game.legal_actions() == reference.legal_actions()
