"""Worker processes that die with their parent (issue 31, S8).

A process pool's workers wait for work on a pipe whose writing end they hold themselves (the
``spawn`` start method hands them both ends), so when their server dies without running its
shutdown code (``kill -9``, an out-of-memory kill) nothing ever tells them: each one, about
100 MB, would wait for good. :func:`watch_parent` runs in every worker as the pool's
initializer: a daemon thread checks every :data:`POLL` seconds whether the process that started
the worker is still its parent, and ends the worker at once when it is not (an orphan is
re-parented to init or a subreaper). Polling ``os.getppid`` works on every POSIX system and
costs nothing measurable; Linux's ``PR_SET_PDEATHSIG`` is not used, because it fires when the
*thread* that started the worker ends, which in a pool is any thread that submitted work.
"""

from __future__ import annotations

import os
import threading
import time

#: Seconds between two checks of the parent.
POLL = 0.5


def _watch(parent: int, poll: float) -> None:
    while True:
        if os.getppid() != parent:
            # No clean-up: the work a dead server asked for has nobody to go to.
            os._exit(0)
        time.sleep(poll)


def watch_parent(parent: int, poll: float = POLL) -> None:
    """Exit this process within ``poll`` seconds once ``parent`` is no longer its parent.

    Call it first thing in a child process (a pool's ``initializer``) with the parent's pid as
    the parent saw it: a child whose parent already died is ended at once."""
    if os.getppid() != parent:
        os._exit(0)
    threading.Thread(
        target=_watch, args=(parent, poll), name="sabacc-parent-watch", daemon=True
    ).start()
