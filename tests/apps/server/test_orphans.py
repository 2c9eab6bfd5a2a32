"""Bot worker processes do not outlive their server (issue 31, S8): a server killed with
SIGKILL runs no shutdown code, so the workers must notice their parent's death themselves."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from tests.apps.server.helpers import UNLIMITED, ServerProcess
from tests.procs import alive, children, has_proc

#: Seconds within which the workers must be gone after their server died.
EXIT_WITHIN = 5.0


@pytest.mark.skipif(not has_proc(), reason="reads /proc (Linux)")
def test_bot_workers_exit_when_their_server_is_killed_9(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "o.db", extra=[*UNLIMITED, "--bot-workers", "2"]).start()
    workers: list[int] = []
    try:
        assert server.proc is not None
        pid = server.proc.pid
        for _ in range(3):  # tables of bots only: the workers start and think
            server.create(seats=["bot:random", "bot:random"], turn_timer=0)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(workers) < 1:
            workers = children(pid)
            time.sleep(0.1)
        assert workers, "the server started no bot worker"
        os.kill(pid, signal.SIGKILL)
        server.proc.wait(10)
        killed_at = time.monotonic()
        while time.monotonic() - killed_at < EXIT_WITHIN and any(alive(w) for w in workers):
            time.sleep(0.1)
        left = [w for w in workers if alive(w)]
        assert not left, f"bot workers {left} still run {EXIT_WITHIN:g} s after their server died"
    finally:
        server.stop()
        for w in workers:  # what the test found alive, should it fail
            if alive(w):
                os.kill(w, signal.SIGKILL)
