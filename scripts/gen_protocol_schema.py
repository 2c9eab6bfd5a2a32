"""Regenerate the WebSocket protocol's JSON Schemas in docs/protocol.md from the typed
messages (``python scripts/gen_protocol_schema.py``; see :mod:`sabacc.apps.server.schema`).
tests/apps/server/test_protocol_schema.py fails when the published ones are out of date."""

from __future__ import annotations

import sys
from pathlib import Path

from sabacc.apps.server.schema import with_schemas

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"


def main() -> int:
    doc = DOC.read_text(encoding="utf-8")
    DOC.write_text(with_schemas(doc), encoding="utf-8")
    print(f"wrote the protocol's schemas in {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
