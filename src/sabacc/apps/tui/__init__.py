"""The full-screen terminal table (Textual): ``sabacc play``.

Needs the ``tui`` extra (``pip install "sabacc[tui]"``). The plain prompt table,
:class:`sabacc.apps.play.PlainTable`, stays available as ``sabacc play --plain``.
"""

from sabacc.apps.tui.app import SabaccApp, TableScreen, run
from sabacc.apps.tui.config import TableConfig

__all__ = ["SabaccApp", "TableConfig", "TableScreen", "run"]
