"""The documents' generated parts match the code, the README's Quick start is what CI runs,
and the guide to adding a variant covers every field of the variant record."""

from __future__ import annotations

import dataclasses
import importlib.util
import re
import tomllib
from pathlib import Path
from types import ModuleType

import sabacc
import sabacc.variants
from sabacc.engine.variant import VariantInfo

ROOT = Path(__file__).resolve().parent.parent


def _gen_docs() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "scripts" / "gen_docs.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_options_tables_are_current() -> None:
    gen = _gen_docs()
    text = gen.PAGE.read_text()
    assert gen.PAGE == ROOT / "docs" / "options.md"
    assert "<!-- options:start -->" in text
    assert gen.render(text) == text, "docs/options.md's tables are stale: run scripts/gen_docs.py"


def test_quick_start_has_the_two_commands_and_ci_runs_the_test_one() -> None:
    text = (ROOT / "README.md").read_text()
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = [line for line in quick.splitlines() if line.startswith("bash ")]
    assert [c.split()[1] for c in commands] == ["scripts/play.sh", "scripts/test.sh"]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "scripts/test.sh" in ci


def documented_fields() -> list[str]:
    """The ``VariantInfo`` fields docs/adding-a-variant.md's record table lists, in order."""
    text = (ROOT / "docs" / "adding-a-variant.md").read_text()
    section = text.split("## The `VariantInfo`", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `(\w+)` \|", section, re.M)


def test_the_guide_documents_every_variant_info_field() -> None:
    fields = [f.name for f in dataclasses.fields(VariantInfo)]
    documented = documented_fields()
    missing = [name for name in fields if name not in documented]
    assert missing == [], (
        f"docs/adding-a-variant.md does not document the VariantInfo field(s) {missing}: add a "
        "row to its record table (| `field` | what it says | who reads it |)"
    )
    stale = [name for name in documented if name not in fields]
    assert stale == [], f"docs/adding-a-variant.md documents fields VariantInfo lacks: {stale}"
    assert len(documented) == len(set(documented)), "a field is documented twice"


def test_the_front_door_names_every_variant() -> None:
    """The guide, the package description and the docs' variants page name every built-in
    variant (a new one is added to them as its checklist says)."""
    guide = (ROOT / "docs" / "adding-a-variant.md").read_text().split("\n## ", 1)[0]
    with (ROOT / "pyproject.toml").open("rb") as f:
        description = tomllib.load(f)["project"]["description"]
    brief = (ROOT / "docs" / "variants" / "index.md").read_text()
    for name in sabacc.variants.__all__:
        title = sabacc.variant(name).title
        assert title.lower() in guide.lower(), f"docs/adding-a-variant.md: {title}"
        assert title.lower() in description.lower(), f"pyproject.toml's description: {title}"
        assert f"`{name}`" in brief, f"docs/variants/index.md: {name}"


def test_the_readme_is_a_front_door_whose_map_shows_the_packages() -> None:
    """At most 200 lines (the manual lives in docs/), and its layout map names every layer and
    every package of ``sabacc.variants``, so the map follows the tree."""
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 200, "README.md is over 200 lines: move the detail to docs/"
    layout = text.split("## Layout", 1)[1].split("\n## ", 1)[0]
    package = ROOT / "src" / "sabacc"
    folders = [p for p in package.iterdir() if p.is_dir() and p.name != "__pycache__"]
    variants = [p for p in (package / "variants").iterdir() if (p / "__init__.py").exists()]
    missing = [p.name for p in [*folders, *variants] if f"{p.name}/" not in layout]
    assert missing == [], f"README.md's layout map does not show {missing}"
