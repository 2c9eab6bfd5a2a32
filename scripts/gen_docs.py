"""Regenerate the options tables of docs/options.md from the code (``python scripts/gen_docs.py``).

tests/test_docs.py fails when docs/options.md is out of date, so the tables cannot drift;
``--check`` exits 1 when it is.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import sabacc

PAGE = Path(__file__).resolve().parent.parent / "docs" / "options.md"
START, END = "<!-- options:start -->", "<!-- options:end -->"


def options_tables() -> str:
    out: list[str] = []
    for name in sabacc.variant_names():
        v = sabacc.variant(name)
        aliases = ", ".join(f"`{a}`" for a in v.info.aliases)
        out.append(f"**{v.title}** (`{name}`; also {aliases})\n")
        out.append("| option | default | meaning |")
        out.append("|---|---|---|")
        for opt in v.options.names():
            default = getattr(v.options, opt)
            text = v.options.help.get(opt, "").replace("|", "\\|")
            out.append(f"| `{opt}` | `{default!r}` | {text} |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def render(page: str) -> str:
    pattern = re.compile(re.escape(START) + ".*?" + re.escape(END), re.S)
    return pattern.sub(lambda _: f"{START}\n{options_tables()}{END}", page)


def main() -> int:
    text = PAGE.read_text()
    new = render(text)
    if "--check" in sys.argv:
        return 0 if new == text else 1
    PAGE.write_text(new)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
