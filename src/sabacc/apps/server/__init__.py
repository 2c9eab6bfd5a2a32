"""The web server: tables in the browser for every variant, humans and bots mixed.

``sabacc serve`` runs it. Needs the ``server`` extra (FastAPI, uvicorn, SQLAlchemy, pydantic).
See docs/protocol.md for the HTTP and WebSocket protocol.
"""

from sabacc.apps.server.app import create_app, run
from sabacc.apps.server.clock import default_action
from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.manager import TableManager
from sabacc.apps.server.settings import Settings

__all__ = ["ServerError", "Settings", "TableManager", "create_app", "default_action", "run"]
