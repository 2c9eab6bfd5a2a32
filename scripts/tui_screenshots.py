"""Screenshots of the terminal table, every variant at 80x24 and 120x40, as SVG files in
docs/screenshots/ (``python scripts/tui_screenshots.py``; docs/playing.md links them).

Each is taken at the player's first decision of a seeded game whose bots act at once, so the
same code gives the same pictures.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import sabacc
from sabacc.apps.tui import SabaccApp, TableConfig

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
SIZES = ((80, 24), (120, 40))


async def shoot(variant: str, size: tuple[int, int], lang: str = "en") -> Path:
    app = SabaccApp(TableConfig(variant=variant, players=4, seed=4, bot_delay=0), lang=lang)
    async with app.run_test(size=size) as pilot:
        for _ in range(400):  # the bots play up to your first decision
            await app.workers.wait_for_complete()
            await pilot.pause()
            if app.table.state != "bots":
                break
        await pilot.pause()
        suffix = "" if lang == "en" else f"-{lang}"
        name = f"tui-{variant}-{size[0]}x{size[1]}{suffix}.svg"
        app.save_screenshot(filename=name, path=str(OUT))
    return OUT / name


async def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    shots = [(v, size, "en") for v in sabacc.variant_names() for size in SIZES]
    shots.append(("kessel", (80, 24), "ja"))
    for variant, size, lang in shots:
        path = await shoot(variant, size, lang)
        print(path.relative_to(OUT.parent.parent), file=sys.stderr)


if __name__ == "__main__":
    asyncio.run(main())
