"""Test helpers: a real ``sabacc serve`` process on loopback, and WebSocket clients."""

from __future__ import annotations

import asyncio
import contextlib
import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

#: ``sabacc serve`` flags lifting every per-client limit (all test clients share one address).
UNLIMITED = (
    "--http-rate", "0", "--client-rate", "0", "--tables-per-hour", "0",
    "--sockets-per-client", "0",
)  # fmt: skip


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PortTaken(Exception):
    """The free port picked for a server was taken by someone else before the server bound it."""


class HttpApi:
    """The HTTP helpers of something listening on loopback ``port`` (a server, a proxy)."""

    port: int

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def create(self, **body: Any) -> dict[str, Any]:
        r = httpx.post(f"{self.base}/api/tables", json=body, timeout=10)
        assert r.status_code == 201, r.text
        return dict(r.json())

    def join(self, code: str, name: str, seat: int | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"name": name}
        if seat is not None:
            body["seat"] = seat
        r = httpx.post(f"{self.base}/api/tables/{code}/join", json=body, timeout=10)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return httpx.get(f"{self.base}{path}", timeout=10, **kw)


class ServerProcess(HttpApi):
    """``python -m sabacc serve`` in a subprocess, on a free loopback port."""

    def __init__(
        self,
        db_path: Path,
        *,
        extra: Sequence[str] = (),
        port: int | None = None,
        db_url: str | None = None,
    ):
        self.db_path = db_path  # also names the log file
        self.db_url = db_url or f"sqlite:///{db_path}"
        self.port = port or free_port()
        self.pick_port = port is None  # a free port taken meanwhile is replaced by another
        self.extra = list(extra)
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = db_path.with_suffix(f".{self.port}.log")

    def start(self, timeout: float = 120.0) -> ServerProcess:
        """Start, and wait until ``/healthz`` answers (a loaded machine, every test worker
        starting its servers and browsers at once, can take a minute)."""
        # free_port() only finds a port free now: another process (a parallel test worker, an
        # outgoing connection) may take it before the server binds it; then try another one.
        for _ in range(4):
            try:
                return self._start(timeout)
            except PortTaken:
                self.port = free_port()
        return self._start(timeout)

    def _start(self, timeout: float) -> ServerProcess:
        seen = self.log_path.stat().st_size if self.log_path.exists() else 0
        cmd = [
            sys.executable,
            "-m",
            "sabacc",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--db",
            self.db_url,
            "--bot-delay",
            "0",
            "--away-delay",
            "0.05",
            "--log-level",
            "warning",
            *self.extra,
        ]
        log = open(self.log_path, "ab")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(
            cmd, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"}
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                with open(self.log_path, "rb") as f:
                    f.seek(seen)
                    output = f.read().decode(errors="replace")
                if self.pick_port and "address already in use" in output:
                    raise PortTaken(self.port)
                raise RuntimeError(f"server exited: {output[-2000:]}")
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1.0).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"server did not start: {self.log_path.read_text()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


class Client:
    """A WebSocket player (or spectator) that records every message it receives."""

    def __init__(
        self, server: HttpApi, code: str, token: str | None = None, deltas: bool = False
    ) -> None:
        self.server = server
        self.code = code
        self.token = token
        #: Asks for deltas and follows them: ``state`` is then rebuilt from the last whole
        #: state and the deltas after it, ``states`` holds every state so rebuilt (or
        #: received), and a delta whose ``v`` does not follow the last one is not applied: the
        #: client asks for a ``sync`` (``resyncs`` counts them) and skips every delta until
        #: the whole state it asked for arrives (deltas sent before the server read the sync
        #: cannot follow either: asking again for each would depend on timing).
        self.deltas = deltas
        self.states: list[dict[str, Any]] = []
        self.resyncs = 0
        self.syncing = False
        self.ws: ClientConnection | None = None
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.state: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []
        self.welcome: dict[str, Any] | None = None

    async def __aenter__(self) -> Client:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def open(self, hello: bool = True) -> None:
        self.ws = await connect(f"{self.server.ws_base}/ws/{self.code}", max_size=2**22)
        if hello:
            await self.send(self.hello())
            await self.wait_for(lambda m: m["type"] == "state")

    def hello(self) -> dict[str, Any]:
        if self.deltas:
            return {"type": "hello", "token": self.token, "deltas": True}
        return {"type": "hello", "token": self.token}

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None

    async def send(self, message: dict[str, Any] | str) -> None:
        assert self.ws is not None
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        assert self.ws is not None
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(raw, str)
        self.raw.append(raw)
        msg = json.loads(raw)
        self.messages.append(msg)
        if msg["type"] == "state":
            self.state = msg
            self.states.append(msg)
            self.syncing = False
        elif msg["type"] == "delta":
            await self._follow(msg)
        elif msg["type"] == "error":
            self.errors.append(msg)
        elif msg["type"] == "welcome":
            self.welcome = msg
        return dict(msg)

    async def _follow(self, delta: dict[str, Any]) -> None:
        """Apply a delta to the last state (docs/protocol.md): ``table``, ``you``, ``turn``
        replaced when present, ``game``'s parts replaced, ``game_rows``' items replaced in
        their lists, ``events`` the new ones."""
        last = self.state
        if self.syncing:
            return  # the whole state asked for is on its way
        if last is None or delta["v"] != last["v"] + 1:
            self.syncing = True
            self.resyncs += 1
            await self.send({"type": "sync"})
            return
        state = {k: v for k, v in last.items() if k not in ("events", "explain")}
        state["type"] = "state"
        for key in ("v", "version", "game_no", "table", "you", "turn", "explain"):
            if key in delta:
                state[key] = delta[key]
        state["game"] = {**last["game"], **delta.get("game", {})}
        for part, rows in delta.get("game_rows", {}).items():
            items = list(state["game"][part])
            for index, item in rows.items():
                items[int(index)] = item
            state["game"][part] = items
        state["events"] = delta.get("events", [])
        self.state = state
        self.states.append(state)

    async def wait_for(self, pred: Any, timeout: float = 15.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message")
            msg = await self.recv(left)
            if pred(msg):
                return msg

    async def drain(self, quiet: float = 0.05) -> None:
        """Read until nothing arrives for ``quiet`` seconds."""
        while True:
            try:
                await self.recv(quiet)
            except TimeoutError:
                return

    async def error_reply(
        self, message: dict[str, Any] | str, timeout: float = 5.0
    ) -> dict[str, Any]:
        await self.send(message)
        return await self.wait_for(lambda m: m["type"] == "error", timeout)

    @property
    def seat(self) -> int | None:
        return self.state["you"]["seat"] if self.state else None

    @property
    def my_turn(self) -> bool:
        s = self.state
        return bool(
            s
            and s["turn"] is not None
            and s["you"]["seat"] is not None
            and s["turn"]["seat"] == s["you"]["seat"]
        )


def passive(legal: dict[str, Any]) -> str:
    """A simple legal choice: check, call, stand, else the first fixed action."""
    actions = legal["actions"]
    for a in ("check", "call", "stand"):
        if a in actions:
            return str(a)
    if actions:
        return str(actions[0])
    return f"bet {legal['bet'][0]}"


def random_choice(legal: dict[str, Any], rng: Any) -> str:
    """A random legal action in text form (sized bets mostly small)."""
    options: list[str] = list(legal["actions"])
    for kind in ("bet", "raise"):
        if legal.get(kind):
            options.append(kind)
    pick = str(rng.choice(options))
    if pick in ("bet", "raise") and pick not in legal["actions"]:
        lo, hi = legal[pick]
        amount = lo if rng.random() < 0.7 else rng.randint(lo, min(hi, lo * 4))
        return f"{pick} {amount}"
    return pick


def finished(state: dict[str, Any] | None) -> bool:
    return bool(state and state["table"]["status"] == "finished")


async def play(
    clients: Sequence[Client],
    rng: Any,
    *,
    until: Any = finished,
    timeout: float = 90.0,
    choose: Any = random_choice,
) -> None:
    """Every client reads its messages and acts when it is its turn, until ``until(state)``."""

    async def run(c: Client) -> None:
        acted: tuple[int, int] | None = None
        while not until(c.state):
            st = c.state
            if st is not None and c.my_turn and st["table"]["status"] == "playing":
                key = (st["game_no"], st["version"])
                if key != acted:
                    acted = key
                    action = choose(st["game"]["legal"], rng)
                    await c.send({"type": "action", "action": action, "version": st["version"]})
            await c.recv(timeout)

    await asyncio.wait_for(asyncio.gather(*(run(c) for c in clients)), timeout)


async def timed_passive_moves(
    seconds: float, clients: Sequence[Client], timeout: float = 60.0
) -> list[float]:
    """Passive moves at a table for ``seconds``, at a person's pace: each move's send-to-state
    latency in seconds (the benchmarks' measure of another table's responsiveness)."""
    latencies: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for c in clients:
            await c.drain(0.005)
        mover = next((c for c in clients if c.my_turn), None)
        if mover is None or mover.state is None:
            await asyncio.sleep(0.01)
            continue
        version = mover.state["version"]
        t0 = time.monotonic()
        await mover.send(
            {"type": "action", "action": passive(mover.state["game"]["legal"]), "version": version}
        )
        await mover.wait_for(
            lambda m, v=version: m["type"] == "state" and m["version"] > v, timeout=timeout
        )
        latencies.append(time.monotonic() - t0)
        await asyncio.sleep(0.05)  # a person's pace, roughly
    return latencies


async def seat_table(
    server: HttpApi, seats: Sequence[str], **body: Any
) -> tuple[str, list[Client]]:
    """Create a table, seat a player at every human seat, and connect them all."""
    created = server.create(seats=list(seats), player_name="P0", **body)
    code = created["code"]
    tokens = [created["token"]]
    for i in range(1, sum(1 for s in seats if s == "human")):
        tokens.append(server.join(code, f"P{i}")["token"])
    clients = [Client(server, code, token) for token in tokens]
    for c in clients:
        await c.open()
    return code, clients


def _initdb() -> str | None:
    found = shutil.which("initdb")
    if found:
        return found
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return candidates[-1] if candidates else None


class PgCluster:
    """A throwaway PostgreSQL cluster on loopback that a test may stop and start again.

    :meth:`create` returns None where PostgreSQL cannot run (no psycopg, no initdb, root
    without runuser).
    """

    def __init__(self, bindir: Path, root: str, prefix: list[str], port: int) -> None:
        self.bindir = bindir
        self.root = root
        self.data = os.path.join(root, "data")
        self.sock = os.path.join(root, "sock")
        self.prefix = prefix
        self.port = port
        self.log = os.path.join(root, "pg.log")

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    @classmethod
    def create(cls) -> PgCluster | None:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            return None
        initdb = _initdb()
        if initdb is None:
            return None
        prefix: list[str] = []
        if os.geteuid() == 0:
            if shutil.which("runuser") is None:
                return None
            prefix = ["runuser", "-u", "postgres", "--"]
        root = tempfile.mkdtemp(prefix="sabacc-pg-")
        cluster = cls(Path(initdb).parent, root, prefix, free_port())
        os.makedirs(cluster.sock)
        if prefix:
            shutil.chown(root, "postgres")
            shutil.chown(cluster.sock, "postgres")
            os.chmod(root, 0o755)
        try:
            subprocess.run(
                [
                    *prefix,
                    str(cluster.bindir / "initdb"),
                    *("-D", cluster.data, "-A", "trust"),
                    "-U",
                    "postgres",
                ],
                check=True,
                capture_output=True,
                timeout=120,
            )
            for _ in range(4):  # the free port was taken meanwhile: try another one
                try:
                    cluster.start()
                    break
                except subprocess.CalledProcessError:
                    log = Path(cluster.log).read_text(errors="replace")
                    if "already in use" not in log:
                        raise
                    cluster.port = free_port()
            else:
                cluster.start()
        except (subprocess.SubprocessError, OSError):
            cluster.remove()
            return None
        return cluster

    def _ctl(self, *args: str) -> None:
        subprocess.run(
            [*self.prefix, str(self.bindir / "pg_ctl"), "-D", self.data, *args],
            check=True,
            capture_output=True,
            timeout=120,
        )

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.sock} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._ctl("-l", self.log, "-w", "-o", opts, "start")

    def stop(self) -> None:
        """Stop now (``-m immediate``: connections are cut as in a crash)."""
        self._ctl("-m", "immediate", "stop")

    def remove(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


DEPLOY_NGINX = Path(__file__).resolve().parents[3] / "deploy" / "nginx.conf"


def nginx_binary() -> str | None:
    found = shutil.which("nginx")
    if found:
        return found
    return "/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None


class NginxProxy(HttpApi):
    """nginx on a loopback port with ``deploy/nginx.conf``, its upstream servers replaced by
    ``backends`` (the same routing: a consistent hash of the table code). Offers the HTTP
    helpers of :class:`ServerProcess` (``base``, ``ws_base``, ``create``, ``join``, ``get``)."""

    def __init__(self, backends: Sequence[ServerProcess]) -> None:
        self.backends = list(backends)
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="sabacc-nginx-"))
        self.proc: subprocess.Popen[bytes] | None = None

    def config(self) -> str:
        import re

        text = DEPLOY_NGINX.read_text()
        servers = "\n".join(
            f"        server 127.0.0.1:{b.port} max_fails=1 fail_timeout=5s;" for b in self.backends
        )
        text = re.sub(r"(?m)^\s*server sabacc-\d+:8000[^\n]*\n", "", text)
        text = text.replace(
            "hash $table_code consistent;", f"hash $table_code consistent;\n{servers}"
        )
        text = text.replace("listen 80;", f"listen 127.0.0.1:{self.port};")
        text = text.replace("worker_processes auto;", "worker_processes 1;")
        temp = "\n".join(
            f"    {kind}_temp_path {self.root}/{kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        text = text.replace("http {", f"http {{\n    access_log off;\n{temp}", 1)
        return f"pid {self.root}/nginx.pid;\nerror_log {self.root}/error.log warn;\n{text}"

    def start(self, timeout: float = 60.0) -> NginxProxy:
        for _ in range(4):  # the free port was taken meanwhile: try another one
            try:
                return self._start(timeout)
            except PortTaken:
                self.port = free_port()
        return self._start(timeout)

    def _start(self, timeout: float) -> NginxProxy:
        binary = nginx_binary()
        assert binary is not None
        (self.root / "error.log").unlink(missing_ok=True)
        conf = self.root / "nginx.conf"
        conf.write_text(self.config())
        self.proc = subprocess.Popen(
            [binary, "-p", str(self.root), "-c", str(conf), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                error = (self.root / "error.log").read_text()
                if "Address already in use" in error:
                    raise PortTaken(self.port)
                raise RuntimeError(f"nginx exited: {error}")
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1.0).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("nginx did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        shutil.rmtree(self.root, ignore_errors=True)


def empty_schema(url: str) -> None:
    """Drop everything a previous test stored in the PostgreSQL database at ``url``."""
    from sqlalchemy import create_engine, text

    from sabacc.services.store import normalise_url

    engine = create_engine(normalise_url(url))
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


@contextlib.contextmanager
def cluster(
    root: Path,
    pg_url: str | None,
    lease_ttl: float,
    nodes: Sequence[str] = ("a", "b"),
    extra: Sequence[str] = (),
) -> Iterator[tuple[dict[str, ServerProcess], NginxProxy]]:
    """``sabacc serve --cluster`` processes named ``nodes`` on an empty PostgreSQL schema,
    behind nginx with ``deploy/nginx.conf``'s routing; all stopped afterwards (``extra``:
    more options of every server). Skips the test without PostgreSQL or nginx."""
    import pytest

    if pg_url is None:
        pytest.skip("PostgreSQL is not available (needs psycopg and initdb)")
    if nginx_binary() is None:
        pytest.skip("nginx is not installed")
    empty_schema(pg_url)
    # nginx on loopback names the clients (X-Forwarded-For): trust it, as docs/deploy.md says
    flags = [
        *UNLIMITED,
        "--cluster",
        "--lease-ttl",
        f"{lease_ttl:g}",
        "--trusted-proxy",
        "127.0.0.1",
        *extra,
    ]
    servers: dict[str, ServerProcess] = {}
    proxy: NginxProxy | None = None
    try:
        for name in nodes:
            srv = ServerProcess(root / f"{name}.db", db_url=pg_url, extra=[*flags, "--node", name])
            servers[name] = srv.start()
        proxy = NginxProxy(list(servers.values())).start()
        yield servers, proxy
    finally:
        if proxy is not None:
            proxy.stop()
        for srv in servers.values():
            srv.stop()
