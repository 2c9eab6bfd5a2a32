"""Processes on Linux, read from /proc: who are a process's children, is a process alive.

The tests that check that nothing outlives its parent (bot workers after a kill -9, the suite's
own children at the end of a run) use these; on a system without /proc they find nothing."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

PROC = Path("/proc")


def has_proc() -> bool:
    return (PROC / "self" / "stat").exists()


def _stat(pid: int) -> tuple[str, int] | None:
    """The state letter and parent pid of ``pid`` (None: no such process)."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ")"
    rest = text[text.rindex(")") + 2 :].split()
    return rest[0], int(rest[1])


def alive(pid: int) -> bool:
    """``pid`` exists and is not a zombie (a zombie has exited; only its exit status is left)."""
    found = _stat(pid)
    return found is not None and found[0] != "Z"


def children(pid: int) -> list[int]:
    """The live processes whose parent is ``pid``."""
    out = []
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        found = _stat(int(entry.name))
        if found is not None and found[1] == pid and found[0] != "Z":
            out.append(int(entry.name))
    return sorted(out)


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (children, their children...)."""
    out: list[int] = []
    todo = [pid]
    while todo:
        kids = children(todo.pop())
        out.extend(kids)
        todo.extend(kids)
    return out


def command(pid: int) -> str:
    """The command line of ``pid`` (empty if it is gone)."""
    try:
        raw = (PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return ""
    return raw.replace(b"\0", b" ").decode(errors="replace").strip()


def reap_zombies(pids: list[int] | None = None) -> None:
    """Collect the exit status of our own exited children (all of them, or ``pids``), so no
    zombie entry stays in the process table."""
    if pids is None:
        pids = [
            int(e.name)
            for e in PROC.iterdir()
            if e.name.isdigit() and (_stat(int(e.name)) or ("", 0)) == ("Z", os.getpid())
        ]
    for pid in pids:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
