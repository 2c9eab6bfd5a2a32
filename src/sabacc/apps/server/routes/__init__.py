"""The HTTP routes of the server, one ``APIRouter`` per concern: the pages and static files
(:mod:`.pages`), the tables and their history (:mod:`.tables`), the community
(:mod:`.community`). The WebSocket endpoint is :mod:`sabacc.apps.server.ws`."""
