"""Screenshots of the web table for every variant at 1280x800 and on a 390x844 phone.

Starts a real ``sabacc serve`` on loopback (a throwaway SQLite file), seats one person with
bots at a table of each variant, waits for that person's turn and photographs the page with
headless Chromium (Playwright). The PNGs go to ``docs/screenshots/`` (docs/playing.md links them)::

    PYTHONPATH=src python scripts/screenshots.py            # every variant, both sizes
    PYTHONPATH=src python scripts/screenshots.py --out /tmp/shots --variant classic
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("SABACC_CHROMIUM", "/usr/bin/chromium")
SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    cmd = [sys.executable, "-m", "sabacc", "serve", "--host", "127.0.0.1", "--port", str(port)]
    cmd += ["--db", f"sqlite:///{db}", "--bot-delay", "0.05", "--log-level", "warning"]
    cmd += ["--http-rate", "0", "--tables-per-hour", "0"]
    proc = subprocess.Popen(cmd)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.terminate()
    raise SystemExit("the server did not start")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--variant", action="append", help="only these variants")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = _serve(Path(tmp) / "shots.db")
        try:
            variants = httpx.get(base + "/api/variants", timeout=10).json()["variants"]
            names = [v["name"] for v in variants if not args.variant or v["name"] in args.variant]
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                for size, context in SIZES.items():
                    ctx = browser.new_context(**context)  # type: ignore[arg-type]
                    page = ctx.new_page()
                    page.goto(base + "/")
                    page.wait_for_selector("#create-form")
                    page.screenshot(path=str(args.out / f"lobby-{size}.png"))
                    for name in names:
                        info = next(v for v in variants if v["name"] == name)
                        seats = ["human"] + ["bot:easy"] * (min(4, info["max_players"]) - 1)
                        body = {"variant": name, "seats": seats, "player_name": "Lando"}
                        body |= {"turn_timer": 0, "name": f"{info['title']} at Cloud City"}
                        created = httpx.post(base + "/api/tables", json=body, timeout=10).json()
                        code = created["code"]
                        page.evaluate(
                            "([c, t]) => { localStorage.setItem(`sabacc:token:${c}`, t);"
                            " localStorage.setItem(`sabacc:howto:${c}`, '1'); }",
                            [code, created["token"]],
                        )
                        page.evaluate("(v) => localStorage.setItem(`sabacc:howto:${v}`, '1')", name)
                        page.goto(f"{base}/t/{code}")
                        page.wait_for_selector("#actions button", timeout=30_000)
                        page.wait_for_timeout(700)  # let the deal animation settle
                        page.screenshot(path=str(args.out / f"{name}-{size}.png"))
                        print(args.out / f"{name}-{size}.png")
                    ctx.close()
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
