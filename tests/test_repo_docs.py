"""The repository's documents hold together: the rules specification is the shared one, and
every relative link in README.md and docs/ resolves inside the repository (anchors included)."""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The shared specification beside the clone (CI has it); SABACC_SHARED_RULES overrides.
SHARED_RULES = Path(os.environ.get("SABACC_SHARED_RULES", ROOT.parent / "shared" / "RULES.md"))

LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE_SPAN = re.compile(r"`[^`\n]+`")


def documents() -> list[Path]:
    pages = sorted((ROOT / "docs").rglob("*.md"))
    return [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md", *pages]


def slug(heading: str) -> str:
    """A heading's anchor as MkDocs (Python-Markdown's toc) makes it; GitHub agrees on ASCII."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links keep their text
    text = re.sub(r"[`*_]", "", text)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text())
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.*?)\s*#*\s*$", text, re.M)}


def links(path: Path) -> list[str]:
    text = CODE_SPAN.sub("", FENCE.sub("", path.read_text()))
    return [m.group(1) for m in LINK.finditer(text)]


def test_the_rules_specification_is_the_shared_one() -> None:
    if not SHARED_RULES.exists():
        pytest.skip(f"{SHARED_RULES} is not beside this clone: nothing to compare with")
    ours = (ROOT / "docs" / "rules.md").read_text()
    assert ours == SHARED_RULES.read_text(), (
        "docs/rules.md differs from ../shared/RULES.md: copy it again "
        "(cp ../shared/RULES.md docs/rules.md)"
    )


def test_no_document_points_outside_the_repository() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}"
        for path in [*documents(), *sorted((ROOT / "src").rglob("*.py"))]
        if path.exists() and "shared/RULES.md" in path.read_text()
    ]
    assert offenders == []


@pytest.mark.parametrize("path", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(path: Path) -> None:
    if not path.exists():
        pytest.fail(f"{path.relative_to(ROOT)} is missing")
    broken = []
    for target in links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto:...
            continue
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        if not dest.is_relative_to(ROOT):
            broken.append(f"{target} (outside the repository)")
        elif not dest.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target} (no heading #{anchor} in {dest.relative_to(ROOT)})")
    assert broken == [], f"{path.relative_to(ROOT)}: broken links: {broken}"


def test_the_link_checker_sees_links_and_anchors(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# A title: *here*\n\nSee [this](page.md#a-title-here) and ![x](img.png).\n"
        "```\n[not a link](nowhere.md)\n```\n`[nor this](nowhere.md)`\n"
    )
    assert links(page) == ["page.md#a-title-here", "img.png"]
    assert anchors(page) == {"a-title-here"}
