"""Regenerate docs/observation.schema.json from the observation types
(``python scripts/gen_schema.py``).

The schema is built from :mod:`sabacc.engine.observation` (the part every variant shares) and
each registered variant's observation type (``Game.observation_type``, declared in its module);
tests/engine/test_observation_schema.py fails when the file is out of date.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from sabacc.engine.observation import json_schema
from sabacc.variants.registry import lookup, variant_names

SCHEMA = Path(__file__).resolve().parent.parent / "docs" / "observation.schema.json"


def schema() -> dict[str, Any]:
    """The observation schema of every registered variant."""
    return json_schema({name: lookup(name).game_type.observation_type for name in variant_names()})


def text() -> str:
    return json.dumps(schema(), indent=2, ensure_ascii=False) + "\n"


def main() -> int:
    SCHEMA.write_text(text(), encoding="utf-8")
    print(f"wrote {SCHEMA}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
