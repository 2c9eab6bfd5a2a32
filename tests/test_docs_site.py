"""The documentation site builds with ``mkdocs build --strict``: a broken link, a page missing
from the nav or an API reference that does not resolve is an error.

Needs the ``docs`` extra (part of ``test``); without it the test is skipped outside CI and
fails in CI (``CI`` set).
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    missing = [m for m in ("mkdocs", "material", "mkdocstrings") if not importlib.util.find_spec(m)]
    if missing and not os.environ.get("CI"):
        pytest.skip(f"the docs extra is not installed ({', '.join(missing)})")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    api = (tmp_path / "api" / "index.html").read_text()
    assert 'id="sabacc.new_game"' in api, "the API reference was not generated"
    assert (tmp_path / "library" / "index.html").exists()
    # Every public module the guides point to has its reference page.
    for page, module in [
        ("vector", "sabacc.apps.rl.vector.VectorEnv"),
        ("research", "sabacc.apps.rl.research.ResearchGame"),
        ("openspiel", "sabacc.apps.rl.openspiel"),
        ("kessel", "sabacc.variants.kessel"),
        ("hand_history", "sabacc.services.hand_history.validate"),
    ]:
        html = (tmp_path / "api" / page / "index.html").read_text()
        assert f'id="{module}"' in html, f"api/{page}: {module} is not documented"
    # No raw Sphinx role (":func:", ":class:"...) is left anywhere in the built site.
    role = re.compile(r":(?:py:)?(?:func|class|meth|mod|attr|data|exc|obj|const):[<`]")
    raw = {
        str(p.relative_to(tmp_path)): len(role.findall(p.read_text()))
        for p in tmp_path.rglob("*.html")
        if role.search(p.read_text())
    }
    assert raw == {}, f"raw Sphinx roles in the built site: {raw}"
