"""``python -m sabacc``: the command line."""

from sabacc.apps.cli import main

main()
