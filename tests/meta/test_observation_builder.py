"""An observation is assembled in one place: :mod:`sabacc.engine.observe`, with each variant's
own keys in its package's declared part (``observation_extra``/``observation_you``).

The check reads every source of the package (Python through its syntax tree, the compiled cores'
``.pyx``/``.pxi`` through their dict displays and subscript stores) and fails where a dict is
built with at least half of the keys of one of the observation's typed parts (the observation
itself, a seat's row, the pots, the betting, a variant's part), or where a compiled source
stores an observation key into a dict by subscript (as the cores' old ``r_observe`` did). The
builder and the variants' declared parts (each variant's ``rules.py``) are the allowed homes.
"""

from __future__ import annotations

import ast
import re
import sys
import typing
from pathlib import Path

import sabacc
from sabacc.engine import observation as obs_types
from sabacc.variants.registry import lookup

PACKAGE = Path(sabacc.__file__).resolve().parent
#: The modules that may assemble an observation: the builder, and each variant's declared part.
HOMES = {PACKAGE / "engine" / "observe.py"} | {
    path for path in (PACKAGE / "variants").glob("*/rules.py")
}
#: Shapes the typed results make of themselves (their to_dict), or names used elsewhere too.
NOT_OBSERVATION_ONLY = {
    "HandValueObservation",  # HandValue.to_dict
    "HandResultObservation",  # HandResult.to_dict
    "PotResultObservation",
    "OutcomeObservation",  # GameOutcome.to_dict
    "LegalObservation",  # Legal.to_dict
    "RevealedHandObservation",  # HandValue.to_dict
    "KesselRules",  # the token rules' names, in the rules text too
}


def _typed_parts() -> dict[str, set[str]]:
    """Every TypedDict an observation is made of, by name, with its keys (inherited ones
    included): those of :mod:`sabacc.engine.observation` and of each variant's game module."""
    modules = [obs_types] + [
        sys.modules[lookup(name).game_type.__module__] for name in sabacc.variant_names()
    ]
    found: dict[str, set[str]] = {}
    for module in modules:
        for name, value in vars(module).items():
            if isinstance(value, type) and typing.is_typeddict(value):
                found.setdefault(name, set(typing.get_type_hints(value)))
    return {
        name: keys
        for name, keys in found.items()
        if len(keys) >= 3 and name not in NOT_OBSERVATION_ONLY
    }


PARTS = _typed_parts()
#: The top-level keys of every variant's observation (what a subscript store may not write).
TOP_KEYS = set().union(
    *(
        typing.get_type_hints(lookup(name).game_type.observation_type)
        for name in sabacc.variant_names()
    )
)


def _assembles(keys: set[str]) -> str | None:
    """The observation part a dict display with ``keys`` builds, if any."""
    for name, part in PARTS.items():
        # a small part (the own hand: cards, values, total, hand) only when it is all there
        if len(keys & part) * 2 >= len(part) if len(part) > 4 else part <= keys:
            return name
    return None


def _python_offences(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            part = _assembles({k for k in keys if isinstance(k, str)})
            if part:
                out.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: builds a {part}")
    return out


DICT_KEY = re.compile(r"""["'](\w+)["']\s*:""")
STORE = re.compile(r"""\w+\[\s*["'](\w+)["']\s*\]\s*=[^=]""")


def _compiled_offences(path: Path) -> list[str]:
    """Dict displays (keys grouped by their innermost braces) and subscript stores."""
    text = path.read_text(encoding="utf-8")
    out = []
    stack: list[tuple[int, set[str]]] = []
    for i, ch in enumerate(text):
        if ch == "{":
            stack.append((i, set()))
        elif ch == "}" and stack:
            start, keys = stack.pop()
            part = _assembles(keys)
            if part:
                line = text.count("\n", 0, start) + 1
                out.append(f"{path.relative_to(PACKAGE)}:{line}: builds a {part}")
        elif ch in "\"'" and stack:
            match = DICT_KEY.match(text, i)
            if match:
                stack[-1][1].add(match.group(1))
    for match in STORE.finditer(text):
        if match.group(1) in TOP_KEYS:
            line = text.count("\n", 0, match.start()) + 1
            out.append(f"{path.relative_to(PACKAGE)}:{line}: stores {match.group(1)!r}")
    return out


def test_the_typed_parts_are_found() -> None:
    # The check knows the shapes it looks for (a TypedDict renamed away would blind it).
    assert {"Observation", "SeatObservation", "PotsObservation", "BettingObservation"} <= set(PARTS)
    for name in ("SpikePart", "SurabatPart", "CoruscantPart", "ClassicPart", "KesselPart"):
        assert name in PARTS
    assert {"schema_version", "known_cards", "discard_top", "my_tokens"} <= TOP_KEYS | set().union(
        *PARTS.values()
    )


def test_the_check_sees_an_observation_built_elsewhere() -> None:
    # What the cores did before the builder: a seat's row and the variant's part stored.
    row = '{"seat": s, "name": n, "stack": 1, "committed": 0, "round_bet": 0, "cards": 2}'
    assert _assembles(set(DICT_KEY.findall(row))) == "SeatObservation"
    assert STORE.search('    obs["discard_top"] = None') is not None
    spike = ast.parse('{"round": 1, "rounds": 3, "discard_top": None, "draw_pile": 5}')
    keys = {k.value for k in ast.walk(spike) if isinstance(k, ast.Constant)}
    assert _assembles({k for k in keys if isinstance(k, str)}) == "SpikePart"


def test_no_observation_is_assembled_outside_the_builder() -> None:
    offences: list[str] = []
    for path in sorted(PACKAGE.rglob("*")):
        if path in HOMES or path.suffix not in (".py", ".pyx", ".pxi"):
            continue
        if path.suffix == ".py":
            offences.extend(_python_offences(path))
        else:
            offences.extend(_compiled_offences(path))
    assert offences == [], "\n".join(offences)


def test_a_compiled_builder_is_built_from_the_current_source() -> None:
    """``setup.py build_ext`` compiles ``observe.py`` unchanged; the extension then shadows the
    source, so a build older than the source would run old code: rebuild after editing it."""
    from sabacc.engine import observe

    built = Path(observe.__file__)
    source = PACKAGE / "engine" / "observe.py"
    if built.suffix == ".py":
        assert built == source
        return
    assert built.stat().st_mtime >= source.stat().st_mtime, (
        f"{built.name} is older than observe.py: run setup.py build_ext --inplace"
    )


def test_the_builder_without_legal_actions_matches_no_actions() -> None:
    """The legal part of a viewer not to act is ``NO_ACTIONS.to_dict()``, made without the call."""
    from sabacc.engine.betting import NO_ACTIONS
    from sabacc.engine.observe import no_legal

    assert no_legal() == NO_ACTIONS.to_dict()
    assert no_legal() is not no_legal()
