"""The web server: tables in the browser for every variant, humans and bots mixed.

``sabacc serve`` runs it. Needs the ``server`` extra (FastAPI, uvicorn, SQLAlchemy, pydantic).
See docs/protocol.md for the HTTP and WebSocket protocol.
"""

from sabacc.apps.server.app import create_app, run
from sabacc.apps.server.tables import ServerError, Settings, TableManager, default_action

__all__ = ["ServerError", "Settings", "TableManager", "create_app", "default_action", "run"]
