"""The WebSocket protocol's JSON Schema, both directions, generated from the typed models:
what clients send (:mod:`~sabacc.apps.server.protocol`) and what the server sends
(:mod:`~sabacc.apps.server.outgoing`). docs/protocol.md publishes it
(``python scripts/gen_protocol_schema.py`` writes it there; a test checks it is current)."""

from __future__ import annotations

import json
import re
from typing import Any

from sabacc.apps.server.outgoing import server_schema
from sabacc.apps.server.protocol import CLIENT_MESSAGE

DIALECT = "https://json-schema.org/draft/2020-12/schema"
#: The two schemas' places in docs/protocol.md: ``<!-- schema:client -->`` and
#: ``<!-- schema:server -->``, each followed by a ```json block.
MARK = re.compile(r"(<!-- schema:(client|server) -->\n```json\n)(.*?)(\n```)", re.S)


def client_schema() -> dict[str, Any]:
    """The JSON Schema of every client message."""
    return CLIENT_MESSAGE.json_schema(mode="validation")


def schemas() -> dict[str, dict[str, Any]]:
    """``{"client": ..., "server": ...}``, each a whole JSON Schema document."""
    out = {}
    for side, made in (("client", client_schema()), ("server", server_schema())):
        out[side] = {
            "$schema": DIALECT,
            "title": f"sabacc WebSocket protocol: {side} messages",
            **made,
        }
    return out


def text(schema: dict[str, Any]) -> str:
    """A schema as docs/protocol.md shows it."""
    return json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=True)


def published(doc: str) -> dict[str, dict[str, Any]]:
    """The schemas ``doc`` (docs/protocol.md's text) publishes, by side."""
    return {m.group(2): json.loads(m.group(3)) for m in MARK.finditer(doc)}


def with_schemas(doc: str) -> str:
    """``doc`` with its published schemas replaced by the generated ones."""
    made = schemas()
    return MARK.sub(lambda m: m.group(1) + text(made[m.group(2)]) + m.group(4), doc)
