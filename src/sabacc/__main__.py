"""``python -m sabacc``: the command line."""

from sabacc.cli import main

main()
