"""Suite-wide settings: Hypothesis's profile, and what makes the suite safe on pytest-xdist.

``scripts/test.sh`` runs pytest on every core (``-n``, ``--dist loadgroup``; turn it off with
``SABACC_TEST_WORKERS=1``). Each worker is its own process with its own session fixtures (a
server, a PostgreSQL cluster, temporary directories), so tests share nothing but the machine.
Two things are arranged here:

* A test using a module-scoped fixture (a browser, a server, the packaging build) runs on the
  same worker as the rest of its module, so that set-up happens once per run, not per worker.
* A test marked ``timing`` asserts wall-clock bounds (latencies, commit windows): under xdist
  it runs while no other test runs (a readers-writer lock shared by the workers), so another
  worker's load cannot make it fail. Without xdist the lock is not taken.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

# An xdist worker has COLUMNS=80 and LINES=24 in its environment (no terminal of its own): a
# Rich console made at import time (the CLI's) would keep that width for good, where the tests
# give the width per call (CliRunner's env). Without xdist, neither is set.
if os.environ.get("PYTEST_XDIST_WORKER"):
    for name in ("COLUMNS", "LINES"):
        os.environ.pop(name, None)

# No per-example deadline and no "too slow" health check: both measure wall-clock time, which
# a loaded machine (two workers on two cores, other jobs) makes flaky. Every assertion, example
# count and strategy stays as each test sets it.
settings.register_profile(
    "sabacc",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("SABACC_HYPOTHESIS_PROFILE", "sabacc"))


_WIDE_SCOPES = ("module", "class", "package")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep a module whose tests share a module-scoped fixture on one xdist worker."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        shared = any(
            fixturedef.scope in _WIDE_SCOPES
            for name in info.names_closure
            for fixturedef in info.name2fixturedefs.get(name, ())
            if fixturedef.baseid  # a fixture of our tests, not a plugin's
        )
        if shared:
            item.add_marker(pytest.mark.xdist_group(item.path.as_posix()))


@pytest.fixture(autouse=True)
def _timing_tests_run_alone(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    """Under xdist: every test holds the run's lock shared, a ``timing`` test holds it alone.

    A turnstile lock in front keeps the other workers from starving a waiting ``timing`` test:
    while it waits, no new test starts."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        yield
        return
    # The workers' temporary directories are popen-gw<N> in the run's own directory.
    path = tmp_path_factory.getbasetemp().parent / "timing.lock"
    alone = request.node.get_closest_marker("timing") is not None
    with open(path, "a") as lock, open(path.with_suffix(".turnstile"), "a") as turnstile:
        fcntl.flock(turnstile, fcntl.LOCK_EX)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        finally:
            if not alone:
                fcntl.flock(turnstile, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
            if alone:
                fcntl.flock(turnstile, fcntl.LOCK_UN)


#: Seconds the suite's child processes get to exit at the end of the run before they count as
#: left behind (a server stopped with SIGTERM finishes its shutdown meanwhile).
LEFTOVER_GRACE = 10.0
_PR_SET_CHILD_SUBREAPER = 36


def _become_subreaper() -> bool:
    """Linux: orphans of our children (a bot worker whose server was killed) are re-parented
    to this process instead of init, so the end-of-run check can still find them."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


@pytest.fixture(scope="session", autouse=True)
def _nothing_left_behind() -> Iterator[None]:
    """Fail the run (an error at the last test's teardown) if a process the tests started
    outlives them: servers, bot workers, browsers, databases. Torn down last (set up first).
    What is left is listed and killed, so a failed run leaves nothing behind either."""
    from tests.procs import alive, command, descendants, has_proc, reap_zombies

    watching = has_proc() and _become_subreaper()
    yield
    if not watching:
        return
    import signal
    import time

    me = os.getpid()

    def leftovers() -> list[int]:
        # This process's own multiprocessing helpers (the forkserver, the resource tracker) end
        # with it: they are not left behind (what they started still counts). Known by pid, so
        # a killed server's forkserver, re-parented here, still counts.
        from multiprocessing import forkserver, resource_tracker

        own = {
            getattr(forkserver._forkserver, "_forkserver_pid", None),
            getattr(resource_tracker._resource_tracker, "_pid", None),
        }
        return [pid for pid in descendants(me) if pid not in own]

    deadline = time.monotonic() + LEFTOVER_GRACE
    left = leftovers()
    while left and time.monotonic() < deadline:
        reap_zombies()
        time.sleep(0.2)
        left = leftovers()
    reap_zombies()
    if not left:
        return
    listed = [f"{pid} {command(pid)[:160]}" for pid in left]
    for pid in left:
        if alive(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    pytest.fail(
        f"{len(left)} process(es) the tests started outlived the run:\n" + "\n".join(listed),
        pytrace=False,
    )
