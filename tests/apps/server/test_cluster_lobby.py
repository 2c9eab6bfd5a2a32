"""In a cluster the lobby and ``/healthz`` are the cluster's, not one process's: two
``sabacc serve --cluster`` processes behind nginx (``deploy/nginx.conf``), tables created on
each; the lobby through the proxy (and from either server) lists every public table with the
server that holds it, and ``/healthz`` counts every server's tables."""

from __future__ import annotations

import time
from pathlib import Path

from tests.apps.server.helpers import cluster


def test_lobby_and_health_are_cluster_wide(tmp_path: Path, pg_url: str | None) -> None:
    with cluster(tmp_path, pg_url, lease_ttl=3) as (servers, proxy):
        made: dict[str, str] = {}  # code -> the server it was created on (which holds it)
        for name, srv in servers.items():
            for i in range(2):
                body = {"seats": ["human", "bot:random"], "name": f"{name}{i}", "listed": True}
                made[srv.create(**body)["code"]] = name
        hidden = servers["a"].create(seats=["human", "human"], listed=False)["code"]

        for api in (proxy, servers["a"], servers["b"]):
            lobby = api.get("/api/tables").json()["tables"]
            assert {t["code"]: t["server"] for t in lobby} == made
            assert hidden not in {t["code"] for t in lobby}
            for t in lobby:
                assert t["seats"] == 2 and t["humans"] == 1 and t["open_seats"] == 1
                assert t["status"] == "waiting" and t["title"]

        for api in (proxy, servers["a"], servers["b"]):
            # the counts are read at most once a second: the start-up probe's may still be fresh
            deadline = time.monotonic() + 5
            while True:
                health = api.get("/healthz").json()
                assert health["ok"] is True and health["storage"] == "ok"
                seen = {s["node"]: s["tables"] for s in health["cluster"]["servers"]}
                if seen == {"a": 3, "b": 2} or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            assert seen == {"a": 3, "b": 2}  # the unlisted table counts too
            assert health["cluster"]["tables"] == 5
