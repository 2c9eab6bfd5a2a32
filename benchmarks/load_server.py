"""Load test of ``sabacc serve``: many tables of scripted WebSocket players on loopback.

    python benchmarks/load_server.py --tables 100 --seats 6 --duration 30 --think-ms 1000

Starts a server in a subprocess (a fresh SQLite file) unless ``--url`` points at one, creates
the tables, seats a scripted client at every seat and plays for ``--duration`` seconds. Each
client acts when it is its turn (after ``--think-ms``) and measures the latency from sending
its action to receiving the state that contains it. At the end every client stops, the
outstanding actions are awaited, and the number of actions the server stored is compared with
the number the clients saw applied: any difference is a lost action.

``--db postgresql://...`` uses that database (its public schema is emptied first);
``--src DIR`` runs the server from another source tree (e.g. a ``git worktree`` of an older
commit, for a before/after comparison in the same run); ``--servers 2`` runs two
``sabacc serve --cluster`` processes behind nginx with ``deploy/nginx.conf`` (PostgreSQL only;
``--proxy`` puts a single cluster server behind nginx too, for a fair 1-vs-2 comparison).
``--server-cpus 0`` / ``--client-cpus 1`` pin the server(s) and this load generator to CPUs
(``taskset``), ``--server-cpu-quota 0.3`` limits each server process to 0.3 of a CPU (a cgroup;
root), so that two servers sharing one core each have a fixed part of it, as much as one server
is given in the run it is compared with (a 2-core machine cannot give the load generator and two
servers a core each), ``--proxy-cpus`` pins nginx, ``--server-nice N`` lowers the servers'
priority; ``--autogroup-nice -10`` raises this session's share of the CPU against other
sessions (Linux autogroups: see ``main``). ``--trace`` has the server time each action's steps
(:mod:`sabacc.apps.server.trace`); ``--plain-client`` runs this load generator as it was before
round four.

``--compare TREE --rounds N`` runs the same load N times against each of two servers in turn
(``TREE``, e.g. a worktree of main, then ``--src`` or this tree, then ``TREE`` again...), so
that both meet the same minutes of a shared machine, appends every report to ``--out`` (JSON
lines) and prints the medians and the ratio of CPU per action.

The server CPU per action (the user + system CPU time of the server processes and of every
process they started, such as bot workers, during the run, divided by the actions applied) is
robust on a shared machine, unlike the latencies; the load average is
sampled during the run and reported with it. A client whose socket the server closes (1012,
"service restart": a table moving between servers) reconnects and carries on; reconnections
are counted.

Only loopback addresses are used; every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

try:
    import orjson
except ImportError:  # the server extra has it; without it the standard library parses
    orjson = None  # type: ignore[assignment]

#: How a message is parsed (``--plain-client``: the standard library's ``json.loads``).
LOADS: Any = orjson.loads if orjson is not None else json.loads
#: ``--plain-client``: wait for a message 0.5 s at a time, as before (an exception per idle
#: half second per client), instead of until the end of the run.
PLAIN = False


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    sent: int = 0
    applied: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    messages: int = 0
    bytes: int = 0
    new_games: int = 0
    warm_until: float = 0.0  # actions sent before this are not timed (the start-up burst)
    reconnects: Counter[str] = field(default_factory=Counter)  # by close code
    dropped: int = 0  # actions sent before a reconnection that the server never applied
    delta_gaps: int = 0  # deltas that did not follow the last message (a sync was asked)


def choose(legal: dict[str, Any], rng: random.Random) -> str:
    """Mostly passive play with some bets and card actions, so hands run their course."""
    actions = legal["actions"]
    r = rng.random()
    if legal.get("bet") and r < 0.15:
        return f"bet {legal['bet'][0]}"
    if legal.get("raise") and r < 0.05:
        return f"raise {legal['raise'][0]}"
    card = [a for a in actions if a.startswith(("gain", "swap", "discard"))]
    if card and r < 0.4:
        return str(rng.choice(card))
    for a in ("check", "call", "stand"):
        if a in actions:
            return str(a)
    return str(actions[0]) if actions else f"bet {legal['bet'][0]}"


def follow(last: dict[str, Any] | None, delta: dict[str, Any]) -> dict[str, Any] | None:
    """The whole state ``delta`` makes of ``last`` (docs/protocol.md), None if it does not
    follow it."""
    if last is None or delta["v"] != last["v"] + 1 or last.get("game") is None:
        return None
    state = {**last, "type": "state", "events": delta.get("events", [])}
    state.pop("explain", None)
    for key in ("v", "version", "game_no", "table", "you", "turn", "explain"):
        if key in delta:
            state[key] = delta[key]
    game = {**last["game"], **delta.get("game", {})}
    for part, rows in delta.get("game_rows", {}).items():
        items = list(game[part])
        for index, item in rows.items():
            items[int(index)] = item
        game[part] = items
    state["game"] = game
    return state


class Player:
    def __init__(
        self,
        url: str,
        code: str,
        token: str,
        stats: Stats,
        seed: int,
        think: float,
        deltas: bool = True,
    ):
        self.url = url
        self.code = code
        self.token = token
        self.stats = stats
        self.rng = random.Random(seed)
        self.think = think
        self.ws: ClientConnection | None = None
        self.pending: tuple[int, int, float] | None = None  # (game, version, sent at)
        self.stopping = False
        self.acted: tuple[int, int] | None = None
        self.resync = False  # reconnected: the next state says whether ``pending`` was applied
        self.deltas = deltas  # ask for deltas (a server that does not know them refuses)
        self.last: dict[str, Any] | None = None  # the last whole state (rebuilt from deltas)

    async def connect(self) -> None:
        self.ws = await connect(f"{self.url}/ws/{self.code}", max_size=2**22)
        hello: dict[str, Any] = {"type": "hello", "token": self.token}
        await self.ws.send(json.dumps({**hello, "deltas": True} if self.deltas else hello))
        while True:  # wait for the first state: the table is ready for this player
            msg = LOADS(await self.ws.recv())
            if msg["type"] == "state":
                self.last = msg
                return
            if msg["type"] == "error" and msg.get("ref") == "hello" and self.deltas:
                self.deltas = False  # an older server: whole states
                await self.ws.send(json.dumps(hello))

    async def reconnect(self, why: str, hard_stop: float) -> bool:
        """The server closed the socket (1012: the table moved, or a restart): connect again,
        a few times, until ``hard_stop``. False if it could not."""
        self.stats.reconnects[why] += 1
        for attempt in range(20):
            if time.monotonic() >= hard_stop:
                return False
            try:
                async with asyncio.timeout(10):
                    await self.connect()
                assert self.ws is not None
                await self.ws.send(json.dumps({"type": "sync"}))
                self.resync = True
                return True
            except (OSError, TimeoutError, ConnectionClosed, InvalidStatus):
                await asyncio.sleep(min(2.0, 0.1 * 2**attempt))
        return False

    async def run(self, start: asyncio.Event, stop_at: float, hard_stop: float) -> None:
        await start.wait()
        try:
            assert self.ws is not None
            await self.ws.send(json.dumps({"type": "sync"}))  # a fresh state to start from
        except ConnectionClosed as exc:
            if not await self.reconnect(_close_code(exc), hard_stop):
                return
        try:
            while time.monotonic() < hard_stop:
                if time.monotonic() >= stop_at:
                    self.stopping = True
                    if self.pending is None:
                        return
                ws = self.ws
                assert ws is not None
                try:
                    if PLAIN:
                        wait = asyncio.timeout(0.5)
                    else:  # one timer per wait, until the stop (then until the hard stop)
                        loop_now = asyncio.get_running_loop().time()
                        until = hard_stop if self.stopping else stop_at
                        wait = asyncio.timeout_at(loop_now + max(0.0, until - time.monotonic()))
                    async with wait:
                        raw = await ws.recv()
                    await self.handle(raw, time.monotonic())
                except TimeoutError:
                    continue
                except ConnectionClosed as exc:
                    if not await self.reconnect(_close_code(exc), hard_stop):
                        return
        finally:
            if self.ws is not None:
                await self.ws.close()

    async def handle(self, raw: str | bytes, now: float) -> None:
        ws = self.ws
        assert ws is not None
        self.stats.messages += 1
        self.stats.bytes += len(raw)
        msg = LOADS(raw)
        if msg["type"] == "error":
            self.stats.errors[msg["code"]] += 1
            if self.pending is not None and msg.get("ref") == "action":
                self.pending = None
            return
        if msg["type"] == "delta":
            whole = follow(self.last, msg)
            if whole is None:
                self.stats.delta_gaps += 1
                await ws.send(json.dumps({"type": "sync"}))
                return
            msg = whole
        if msg["type"] != "state":
            return
        self.last = msg
        game_no, version = msg["game_no"], msg["version"]
        if self.pending is not None:
            g, v, sent = self.pending
            if game_no > g or version > v:
                if sent >= self.stats.warm_until:
                    self.stats.latencies.append(now - sent)
                self.stats.applied += 1
                self.pending = None
            elif self.resync:  # the socket closed before the action arrived: it never did
                self.stats.dropped += 1
                self.pending = None
                self.acted = None
        self.resync = False
        if msg["table"]["status"] == "finished" and msg["you"]["seat"] == 0:
            if not self.stopping:
                self.stats.new_games += 1
                await ws.send(json.dumps({"type": "new_game"}))
            return
        turn = msg["turn"]
        mine = turn is not None and turn["seat"] == msg["you"]["seat"]
        if not mine or self.stopping or self.pending is not None:
            return
        if self.acted == (game_no, version):
            return
        self.acted = (game_no, version)
        if self.think > 0:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
        action = choose(msg["game"]["legal"], self.rng)
        self.pending = (game_no, version, time.monotonic())
        self.stats.sent += 1
        await ws.send(json.dumps({"type": "action", "action": action, "version": version}))


def _close_code(exc: ConnectionClosed) -> str:
    """How the server closed a socket, for the report (``1012``, ``1006``...)."""
    rcvd = exc.rcvd
    return str(rcvd.code) if rcvd is not None else "none"


def cpu_seconds(pid: int | None, reaped: bool = False) -> float | None:
    """User + system CPU time of a process (Linux /proc), for CPU per action; ``reaped``:
    with that of its children that ended and were waited for (``cutime``, ``cstime``)."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])
        if reaped:
            ticks += int(fields[13]) + int(fields[14])
        return ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def server_cpu(pids: list[int]) -> float | None:
    """The CPU seconds of the server processes ``pids`` and of all their descendants (the
    bot workers, their multiprocessing forkserver and resource tracker), the living ones read
    one by one and the ended ones through their parent's ``cutime``/``cstime``. A process
    that starts during the run counts from its start (it had 0 at the first reading)."""
    total = 0.0
    for pid in pids:
        cpu = cpu_seconds(pid, reaped=True)
        if cpu is None:
            return None
        total += cpu
        for child in descendants(pid):
            total += cpu_seconds(child, reaped=True) or 0.0
    return total


def descendants(pid: int) -> list[int]:
    """Every living descendant of ``pid`` (Linux /proc)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        parents.setdefault(ppid, []).append(int(stat.parent.name))
    out: list[int] = []
    todo = [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    db: str,
    port: int,
    src: str | None = None,
    extra: list[str] | None = None,
    prefix: list[str] | None = None,
    trace: str | None = None,
) -> subprocess.Popen[bytes]:
    cmd = [
        *(prefix or []),
        sys.executable, "-m", "sabacc", "serve", "--host", "127.0.0.1", "--port", str(port),
        "--db", db, "--bot-delay", "0", "--log-level", "warning", *(extra or []),
        "--rate", "1000", "--burst", "1000",
        # every load client comes from 127.0.0.1: no per-client limits
        "--http-rate", "0", "--client-rate", "0", "--tables-per-hour", "0",
        "--sockets-per-client", "0",
    ]  # fmt: skip
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if trace:
        env["SABACC_TRACE"] = trace  # sabacc.apps.server.trace (an older tree ignores it)
    if src:
        env["PYTHONPATH"] = str(Path(src) / "src")
    proc = subprocess.Popen(cmd, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the server did not start")


def cpu_quota(pid: int, share: float) -> Path:
    """Limit process ``pid`` (all its threads) to ``share`` of one CPU with a Linux cgroup's CPU
    bandwidth control (cgroup v1 ``cpu.cfs_quota_us``, or v2 ``cpu.max``; needs root), in
    periods of 10 ms so that the limit is smooth. Returns the cgroup, for :func:`drop_group`.

    What it is for: a two-server run on a 2-core machine, where the load generator needs a
    core of its own, gives each server a fixed part of the other core, the same part as the
    one-server run it is compared with (``--server-cpu-quota``)."""
    period = 10_000
    quota = max(1_000, int(share * period))
    v1 = Path("/sys/fs/cgroup/cpu")
    if (v1 / "cpu.cfs_quota_us").exists():
        group = v1 / f"sabacc-load-{pid}"
        group.mkdir(exist_ok=True)
        (group / "cpu.cfs_period_us").write_text(str(period))
        (group / "cpu.cfs_quota_us").write_text(str(quota))
    else:
        root = Path("/sys/fs/cgroup")
        if "cpu" not in (root / "cgroup.controllers").read_text().split():
            raise RuntimeError("--server-cpu-quota needs the cgroup CPU controller")
        (root / "cgroup.subtree_control").write_text("+cpu")
        group = root / f"sabacc-load-{pid}"
        group.mkdir(exist_ok=True)
        (group / "cpu.max").write_text(f"{quota} {period}")
    (group / "cgroup.procs").write_text(str(pid))
    return group


def drop_group(group: Path) -> None:
    """Remove a cgroup of :func:`cpu_quota` once its process has ended."""
    for _ in range(50):
        try:
            group.rmdir()
            return
        except OSError:
            time.sleep(0.1)


def empty_postgres(url: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def start_nginx(
    ports: list[int], port: int, root: Path, prefix: list[str] | None = None
) -> subprocess.Popen[bytes]:
    """nginx with deploy/nginx.conf, routing to the servers on ``ports``."""
    import re
    import shutil

    conf = (Path(__file__).resolve().parents[1] / "deploy" / "nginx.conf").read_text()
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;" for p in ports)
    conf = re.sub(r"(?m)^\s*server sabacc-\d+:8000[^\n]*\n", "", conf)
    conf = conf.replace("hash $table_code consistent;", f"hash $table_code consistent;\n{servers}")
    conf = conf.replace("listen 80;", f"listen 127.0.0.1:{port};")
    conf = conf.replace("worker_processes auto;", "worker_processes 1;")
    temp = "\n".join(
        f"    {k}_temp_path {root}/{k};"
        for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    conf = conf.replace("http {", f"http {{\n    access_log off;\n{temp}", 1)
    conf = f"pid {root}/nginx.pid;\nerror_log {root}/error.log warn;\n{conf}"
    (root / "nginx.conf").write_text(conf)
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    cmd = [*(prefix or []), binary, "-p", str(root), "-c", str(root / "nginx.conf")]
    proc = subprocess.Popen([*cmd, "-g", "daemon off;"])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("nginx did not start")


def start_profiler(args: argparse.Namespace, pids: list[int]) -> subprocess.Popen[bytes] | None:
    """``--profile PATH``: py-spy samples the (first) server during the timed part of the run
    (after the warm-up), in its raw format (one stack and its count per line), without
    pausing it (``--nonblocking``); ``--profile-native`` adds the C frames (pausing it for each
    sample)."""
    if not args.profile or not pids:
        return None
    import shutil

    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    seconds = max(1, int(args.duration - args.warmup))
    cmd = [
        spy, "record", "--pid", str(pids[0]), "--duration", str(seconds), "--rate", "200",
        "--format", "raw", "-o", args.profile,
        # C frames need the process paused for each sample
        *(["--native"] if args.profile_native else ["--nonblocking"]),
    ]  # fmt: skip
    with open(f"{args.profile}.log", "wb") as log:  # py-spy's own messages
        return subprocess.Popen(
            ["sh", "-c", f'sleep {args.warmup}; exec "$@"', "sh", *cmd], stdout=log, stderr=log
        )


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def with_children(pid: int | None) -> list[int]:
    """``pid`` and its child processes (nginx's workers are children of its master)."""
    if pid is None:
        return []
    out = [pid]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return out


def total_cpu(pids: list[int]) -> float | None:
    """The CPU seconds of all of ``pids`` (None if any cannot be read)."""
    total = 0.0
    for pid in pids:
        cpu = cpu_seconds(pid)
        if cpu is None:
            return None
        total += cpu
    return total


async def sample_load(into: list[float], every: float = 1.0) -> None:
    """The 1-minute load average, every ``every`` seconds, until cancelled."""
    while True:
        into.append(os.getloadavg()[0])
        await asyncio.sleep(every)


async def sample_lag(into: list[float], every: float = 0.005) -> None:
    """How late this load generator's own event loop wakes from a sleep of ``every`` (its
    queueing, which the measured latencies include), until cancelled."""
    while True:
        t = time.perf_counter()
        await asyncio.sleep(every)
        into.append((time.perf_counter() - t - every) * 1000)


async def run(
    args: argparse.Namespace, base: str, server_pids: list[int], proxy_pid: int | None = None
) -> dict[str, Any]:
    ws_base = "ws" + base[4:]
    stats = Stats()
    players: list[Player] = []
    # A fresh connection per request: a kept-alive one the server closes (after 5 idle
    # seconds) just as a request goes out fails that request (httpx.ReadError), which a busy
    # machine made happen while the tables were being created.
    limits = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as http:

        async def post(url: str, body: dict[str, Any]) -> httpx.Response:
            """POST, again after a 503 (in a cluster: the table is being handed over)."""
            for _ in range(20):
                r = await http.post(url, json=body)
                if r.status_code != 503:
                    break
                await asyncio.sleep(0.5)
            r.raise_for_status()
            return r

        async def make_table(t: int) -> tuple[str, list[Player]]:
            r = await post(
                "/api/tables",
                {
                    "variant": args.variant,
                    "seats": ["human"] * args.seats,
                    "player_name": "p0",
                    "turn_timer": 0,
                    "listed": False,
                    "buy_in": 100_000,
                    "options": {"game_end": "hands:1000"},
                },
            )
            created = r.json()
            code = created["code"]
            deltas = not args.no_deltas
            seated = [Player(ws_base, code, created["token"], stats, t * 10, 0, deltas)]
            for s in range(1, args.seats):
                j = await post(f"/api/tables/{code}/join", {"name": f"p{s}"})
                token = j.json()["token"]
                seated.append(Player(ws_base, code, token, stats, t * 10 + s, 0, deltas))
            return code, seated

        codes: list[str] = []
        for first in range(0, args.tables, 25):  # 25 tables at a time (a cluster hands over)
            made = await asyncio.gather(
                *(make_table(t) for t in range(first, min(args.tables, first + 25)))
            )
            for code, seated in made:
                codes.append(code)
                players.extend(seated)
        for p in players:
            p.think = args.think_ms / 1000
        for i in range(0, len(players), 50):  # connect everyone first, 50 at a time
            await asyncio.gather(*(p.connect() for p in players[i : i + 50]))
        if not PLAIN:
            # The run's own objects are mostly acyclic (parsed messages, freed as they are
            # replaced): no cyclic collector while it is timed (its full passes over 1,800
            # clients' states took up to 0.3 s each, which the latencies then included).
            gc.collect()
            gc.freeze()
            gc.disable()
        go = asyncio.Event()
        start = time.monotonic()
        stats.warm_until = start + args.warmup
        stop_at = start + args.duration
        hard_stop = stop_at + 15
        tasks = [asyncio.create_task(p.run(go, stop_at, hard_stop)) for p in players]
        cpu0 = server_cpu(server_pids) if server_pids else None
        profiler = start_profiler(args, server_pids)
        proxy_pids = with_children(proxy_pid)
        proxy0 = total_cpu(proxy_pids) if proxy_pids else None
        client0 = time.process_time()
        loads: list[float] = []
        lags: list[float] = []
        sampler = asyncio.create_task(sample_load(loads))
        lagger = asyncio.create_task(sample_lag(lags))
        gc_pauses: list[float] = []
        gc_at = [0.0]

        def gc_timer(phase: str, info: dict[str, Any]) -> None:
            if phase == "start":
                gc_at[0] = time.perf_counter()
            else:
                gc_pauses.append((time.perf_counter() - gc_at[0]) * 1000)

        gc.callbacks.append(gc_timer)
        go.set()
        await asyncio.gather(*tasks)
        elapsed = time.monotonic() - start
        gc.enable()
        cpu1 = server_cpu(server_pids) if server_pids else None
        proxy1 = total_cpu(proxy_pids) if proxy_pids else None
        client_cpu = time.process_time() - client0
        sampler.cancel()
        lagger.cancel()
        gc.callbacks.remove(gc_timer)
        if profiler is not None:
            await asyncio.to_thread(profiler.wait, 60)
        stored = 0
        for code in codes:
            games = (await http.get(f"/api/tables/{code}/games")).json()["games"]
            stored += sum(g["actions"] for g in games)
    lost = stats.sent - stats.applied - sum(stats.errors.values()) - stats.dropped
    lat = [x * 1000 for x in stats.latencies]
    return {
        "tables": args.tables,
        "seats": args.seats,
        "clients": len(players),
        "think_ms": args.think_ms,
        "warmup_s": args.warmup,
        "seconds": round(elapsed, 1),
        "actions_sent": stats.sent,
        "actions_applied": stats.applied,
        "actions_stored": stored,
        "lost_actions": lost + (stats.applied - stored if stored != stats.applied else 0),
        "errors": dict(stats.errors),
        "new_games": stats.new_games,
        "reconnects": dict(stats.reconnects),
        "dropped_at_reconnect": stats.dropped,
        "actions_per_s": round(stats.applied / elapsed, 1),
        "server_cpu_ms_per_action": (
            round((cpu1 - cpu0) * 1000 / stats.applied, 2)
            if cpu0 is not None and cpu1 is not None and stats.applied
            else None
        ),
        "messages_per_s": round(stats.messages / elapsed, 1),
        "client_cpu_share": round(client_cpu / elapsed, 2),
        "client_loop_lag_ms": {
            "p50": round(percentile(lags, 50), 2),
            "p99": round(percentile(lags, 99), 2),
            "max": round(max(lags), 2) if lags else None,
        },
        "client_gc": {
            "count": len(gc_pauses),
            "total_ms": round(sum(gc_pauses), 1),
            "max_ms": round(max(gc_pauses), 1) if gc_pauses else None,
        },
        "server_cpu_share": (
            round((cpu1 - cpu0) / elapsed, 2) if cpu0 is not None and cpu1 is not None else None
        ),
        "proxy_cpu_ms_per_action": (
            round((proxy1 - proxy0) * 1000 / stats.applied, 2)
            if proxy0 is not None and proxy1 is not None and stats.applied
            else None
        ),
        "load_average": {
            "min": round(min(loads), 2) if loads else None,
            "mean": round(statistics.fmean(loads), 2) if loads else None,
            "max": round(max(loads), 2) if loads else None,
        },
        "cores": os.cpu_count(),
        "mb_received": round(stats.bytes / 1e6, 1),
        "bytes_per_action": round(stats.bytes / stats.applied) if stats.applied else None,
        "deltas": sum(1 for p in players if p.deltas),  # clients that followed deltas
        "delta_gaps": stats.delta_gaps,
        "latency_ms": {
            "p50": round(percentile(lat, 50), 2),
            "p90": round(percentile(lat, 90), 2),
            "p99": round(percentile(lat, 99), 2),
            "max": round(max(lat), 2) if lat else None,
            "mean": round(statistics.fmean(lat), 2) if lat else None,
        },
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--seats", type=int, default=6)
    ap.add_argument("--duration", type=float, default=30.0, help="seconds of play")
    ap.add_argument("--think-ms", type=float, default=100.0, help="mean think time per action")
    ap.add_argument("--warmup", type=float, default=3.0, help="seconds not timed at the start")
    ap.add_argument("--variant", default="corellian_spike")
    ap.add_argument(
        "--no-deltas", action="store_true", help="ask for whole states (as an old client does)"
    )
    ap.add_argument("--url", help="an already running server (http://127.0.0.1:PORT)")
    ap.add_argument("--json", action="store_true", help="print the report as JSON only")
    ap.add_argument("--db", help="postgresql://... on loopback (default: a fresh SQLite file)")
    ap.add_argument("--src", help="run the server from this source tree (before/after)")
    ap.add_argument("--servers", type=int, default=1, help="2+: a cluster behind nginx")
    ap.add_argument("--proxy", action="store_true", help="nginx + --cluster even for 1 server")
    ap.add_argument("--server-cpus", help="taskset CPU list for the server(s), e.g. 0 or 0,1")
    ap.add_argument("--client-cpus", help="CPU list for this load generator, e.g. 1")
    ap.add_argument(
        "--serve-args", default="", help='more `sabacc serve` options, e.g. "--commit-window 0"'
    )
    ap.add_argument("--profile", help="py-spy the server during the timed part into this file")
    ap.add_argument("--profile-native", action="store_true", help="--profile with C frames")
    ap.add_argument("--server-nice", type=int, default=0, help="nice value of the server(s)")
    ap.add_argument(
        "--server-cpu-quota",
        type=float,
        help="limit each server process to this share of one CPU (Linux cgroups, root), "
        "e.g. 0.3: two servers on one core each get a part of their own",
    )
    ap.add_argument("--proxy-cpus", help="taskset CPU list for nginx, e.g. 0")
    ap.add_argument(
        "--autogroup-nice",
        type=int,
        help="Linux: this session's autogroup nice value during the run (see below)",
    )
    ap.add_argument(
        "--plain-client",
        action="store_true",
        help="the load generator as in round three (json, asyncio's loop, GC on, 0.5 s waits)",
    )
    ap.add_argument(
        "--trace",
        action="store_true",
        help="time each action's steps in the server (SABACC_TRACE; report's server_trace)",
    )
    ap.add_argument("--compare", help="another source tree: run both in turn (see above)")
    ap.add_argument("--rounds", type=int, default=2, help="--compare: runs of each tree")
    ap.add_argument("--out", help="--compare: append each run's report to this JSON-lines file")
    ap.add_argument("--label", default="", help="--compare: a label written with each report")
    args = ap.parse_args(argv)
    autogroup = Path("/proc/self/autogroup")
    restore: str | None = None
    if args.autogroup_nice is not None:
        # With the kernel's autogroups on, `nice` orders processes within one session only;
        # between sessions the CPU is shared by each session's autogroup nice value (0 for
        # everyone unless set), so `nice -n -10` alone does not put the server and this load
        # generator ahead of other sessions' jobs. This sets it for our session (the server
        # and the load generator inherit it), and restores it at the end.
        restore = autogroup.read_text().split("nice")[-1].strip()
        autogroup.write_text(str(args.autogroup_nice))
    try:
        return compare(ap, args) if args.compare else _main(ap, args)
    finally:
        if restore is not None:
            autogroup.write_text(restore)


def compare(ap: argparse.ArgumentParser, args: argparse.Namespace) -> dict[str, Any]:
    """``--compare``: the load against ``args.compare`` and ``args.src`` (or this tree) in
    turn, ``args.rounds`` times each; the medians and the ratio of CPU per action."""
    trees = {"base": args.compare, "this": args.src}
    runs: dict[str, list[dict[str, Any]]] = {"base": [], "this": []}
    for rnd in range(args.rounds):
        for name, tree in trees.items():
            one = argparse.Namespace(**{**vars(args), "compare": None, "src": tree, "json": True})
            started = time.strftime("%H:%M:%S", time.gmtime())
            report = _main(ap, one)
            report.update(run=name, round=rnd, started_utc=started, label=args.label)
            report["loadavg_after"] = os.getloadavg()[0]
            runs[name].append(report)
            if args.out:
                with open(args.out, "a") as out:
                    out.write(json.dumps(report) + "\n")
    summary: dict[str, Any] = {"rounds": args.rounds, "base_src": args.compare}
    for name, reports in runs.items():
        cpu = [r["server_cpu_ms_per_action"] for r in reports]
        summary[name] = {
            "cpu_ms_per_action": cpu,
            "median_cpu_ms_per_action": statistics.median(cpu),
            "p50_ms": [r["latency_ms"]["p50"] for r in reports],
            "p99_ms": [r["latency_ms"]["p99"] for r in reports],
            "lost": [r["lost_actions"] for r in reports],
            "actions": [r["actions_applied"] for r in reports],
        }
    summary["cpu_ratio_base_over_this"] = round(
        summary["base"]["median_cpu_ms_per_action"] / summary["this"]["median_cpu_ms_per_action"],
        2,
    )
    print(json.dumps(summary, indent=1))
    return summary


def _fast_loop() -> Any:
    """uvloop's event loop factory if installed (uvicorn[standard] brings it), else None."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def _main(ap: argparse.ArgumentParser, args: argparse.Namespace) -> dict[str, Any]:
    global LOADS, PLAIN
    if args.plain_client:  # the load generator as it was: json, asyncio's loop, GC on
        LOADS, PLAIN = json.loads, True
    if args.client_cpus:
        os.sched_setaffinity(0, {int(c) for c in args.client_cpus.split(",")})
    serve_args = shlex.split(args.serve_args)
    prefix: list[str] = []
    if args.server_nice:
        prefix += ["nice", "-n", str(args.server_nice)]
    if args.server_cpus:
        prefix += ["taskset", "-c", args.server_cpus]
    args.duration = min(args.duration, 600.0)
    proc = None
    others: list[subprocess.Popen[bytes]] = []
    tmp = None
    trace: str | None = None
    report: dict[str, Any] = {}
    if args.url:
        host = httpx.URL(args.url).host
        if host not in ("127.0.0.1", "localhost", "::1"):
            ap.error("the load test only targets loopback addresses")
        base = args.url.rstrip("/")
    else:
        tmp = tempfile.TemporaryDirectory(prefix="sabacc-load-")
        trace = str(Path(tmp.name) / "trace.json") if args.trace else None
        db = args.db or f"sqlite:///{Path(tmp.name) / 'load.db'}"
        if args.db:
            if httpx.URL(args.db.replace("postgresql", "http", 1)).host not in (
                "127.0.0.1",
                "localhost",
            ):
                ap.error("the load test only uses a database on loopback")
            empty_postgres(args.db)
        if args.servers > 1 or args.proxy:
            if not args.db:
                ap.error("--servers 2 and --proxy need --db postgresql://...")
            ports = [free_port() for _ in range(args.servers)]
            for i, p in enumerate(ports):
                srv = start_server(
                    db,
                    p,
                    args.src,
                    ["--cluster", "--node", f"n{i}", *serve_args],
                    prefix,
                    trace and f"{trace}.{i}",
                )
                others.append(srv)
            port = free_port()
            proxy_prefix = ["taskset", "-c", args.proxy_cpus] if args.proxy_cpus else []
            proc = start_nginx(ports, port, Path(tmp.name), proxy_prefix)
        else:
            port = free_port()
            proc = start_server(db, port, args.src, serve_args, prefix, trace)
        base = f"http://127.0.0.1:{port}"
    groups: list[Path] = []
    try:
        if others:
            pids, proxy_pid = [o.pid for o in others], (proc.pid if proc is not None else None)
        else:
            pids, proxy_pid = ([proc.pid] if proc is not None else []), None
        if args.server_cpu_quota:
            for pid in pids:  # appended one by one: a failure still removes those made
                groups.append(cpu_quota(pid, args.server_cpu_quota))
        with asyncio.Runner(loop_factory=None if PLAIN else _fast_loop()) as runner:
            report = runner.run(run(args, base, pids, proxy_pid))
        report["db"] = "postgresql" if args.db else "sqlite"
        report["servers"] = args.servers
        report["proxy"] = bool(others)
        report["server_cpus"] = args.server_cpus
        report["client_cpus"] = args.client_cpus
        report["server_nice"] = args.server_nice
        report["server_cpu_quota"] = args.server_cpu_quota
        report["proxy_cpus"] = args.proxy_cpus
        report["autogroup_nice"] = args.autogroup_nice
        report["plain_client"] = args.plain_client
        report["src"] = args.src or "this tree"
        report["serve_args"] = args.serve_args
    finally:
        for child in [*others, *([proc] if proc is not None else [])]:
            child.terminate()
            child.wait(20)
        for group in groups:
            drop_group(group)
        if trace is not None and not others and Path(trace).exists():
            report["server_trace"] = json.loads(Path(trace).read_text())
        if tmp is not None:
            tmp.cleanup()
    if args.json:
        print(json.dumps(report))
    else:
        lat = report["latency_ms"]
        print(
            f"{report['tables']} tables x {report['seats']} seats ({report['clients']} clients), "
            f"think {report['think_ms']:.0f} ms, {report['seconds']} s\n"
            f"  actions: {report['actions_applied']} applied, {report['actions_stored']} stored, "
            f"{report['lost_actions']} lost; {report['actions_per_s']} actions/s; "
            f"{report['messages_per_s']} messages/s received; "
            f"server CPU {report['server_cpu_ms_per_action']} ms/action "
            f"(server {report['server_cpu_share']}, clients {report['client_cpu_share']} "
            "of a core)\n"
            f"  latency ms: p50 {lat['p50']}  p90 {lat['p90']}  p99 {lat['p99']}  "
            f"max {lat['max']}\n"
            f"  errors: {report['errors'] or 'none'}; new games: {report['new_games']}; "
            f"reconnects: {report['reconnects'] or 'none'} "
            f"({report['dropped_at_reconnect']} actions dropped at a reconnection)\n"
            f"  load average during the run: {report['load_average']} on {report['cores']} cores"
        )
    return report


if __name__ == "__main__":
    main()
