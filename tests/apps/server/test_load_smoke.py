"""The load script runs (a small load, against the shared server) and loses no action."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from tests.apps.server.helpers import ServerProcess

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "load_server.py"


def test_load_script_small_run(server: ServerProcess) -> None:
    spec = importlib.util.spec_from_file_location("load_server", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["load_server"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    report = module.main(
        ["--url", server.base, "--tables", "4", "--seats", "3", "--duration", "3",
         "--think-ms", "0", "--warmup", "0", "--json"]
    )  # fmt: skip
    assert report["actions_applied"] > 20
    assert report["lost_actions"] == 0
    assert report["actions_stored"] == report["actions_applied"]
    assert report["latency_ms"]["p50"] > 0


def test_load_script_reconnects_when_the_server_restarts(tmp_path: Path) -> None:
    """The server is restarted during a run (its sockets close with 1012, service restart):
    the clients reconnect and carry on, and the count of lost actions still adds up."""
    import contextlib
    import sqlite3
    import threading
    import time

    from tests.apps.server.helpers import UNLIMITED

    srv = ServerProcess(
        tmp_path / "restart.db", extra=[*UNLIMITED, "--rate", "1000", "--burst", "1000"]
    ).start()
    spec = importlib.util.spec_from_file_location("load_server", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["load_server"] = module
    spec.loader.exec_module(module)

    def stored_actions() -> int:
        try:
            with contextlib.closing(sqlite3.connect(f"file:{srv.db_path}?mode=ro", uri=True)) as db:
                return int(db.execute("SELECT count(*) FROM actions").fetchone()[0])
        except sqlite3.Error:  # not made yet, or locked for a moment
            return 0

    def restart() -> None:
        # Restart once play is under way (actions stored at every table's pace), not after a
        # fixed time: on a loaded machine setting the tables up alone can take longer.
        deadline = time.monotonic() + 120
        while stored_actions() < 15 and time.monotonic() < deadline:
            time.sleep(0.05)
        srv.stop()
        srv.start()

    bounce = threading.Thread(target=restart)
    bounce.start()
    try:
        report = module.main(
            ["--url", srv.base, "--tables", "3", "--seats", "3", "--duration", "9",
             "--think-ms", "20", "--warmup", "0", "--json"]
        )  # fmt: skip
    finally:
        bounce.join()
        srv.stop()
    assert report["reconnects"].get("1012", 0) >= 1, report["reconnects"]
    assert report["lost_actions"] == 0
    assert report["actions_stored"] == report["actions_applied"] > 20


def test_server_cpu_counts_the_processes_the_server_started(tmp_path: Path) -> None:
    """The CPU per action counts a server's descendants (bot workers) too: a grandchild that
    spins for a while raises the figure read for this process, while this one only waits."""
    import subprocess
    import time

    spec = importlib.util.spec_from_file_location("load_server", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["load_server"] = module
    spec.loader.exec_module(module)
    go = tmp_path / "go"
    spin = (
        f"import os, time\nwhile not os.path.exists({str(go)!r}): time.sleep(0.05)\n"
        "t = time.process_time()\nwhile time.process_time() - t < 0.4: pass\ntime.sleep(30)"
    )
    # a shell that starts the spinner: the spinner is this process's grandchild
    child = subprocess.Popen(["sh", "-c", f'{sys.executable} -c "$0"; :', spin])
    try:
        before = module.server_cpu([child.pid])
        assert before is not None
        go.write_text("")  # the spinner starts spinning only now
        deadline = time.monotonic() + 60
        after = before
        while time.monotonic() < deadline and after - before < 0.3:
            time.sleep(0.2)
            after = module.server_cpu([child.pid])
            assert after is not None
        assert after - before >= 0.3  # the grandchild's CPU, read while it lives
        assert module.cpu_seconds(child.pid) is not None
        assert (module.cpu_seconds(child.pid) or 0.0) < 0.2  # the shell itself only waits
    finally:
        for pid in module.descendants(child.pid):
            subprocess.run(["kill", str(pid)], check=False)
        child.kill()
        child.wait(10)
